"""Per-channel bot settings and the Slack questions the bot has received (the dedupe record)."""

from __future__ import annotations

from datetime import timedelta

from django.db import IntegrityError, models, transaction
from django.db.models import F, Q
from django.utils import timezone

from knowledge.models import Collection
from knowledge.redaction import redact


class ChannelSettingQuerySet(models.QuerySet):
    def for_channel(self, channel_id: str) -> "ChannelSetting":
        """The channel's setting, or an unsaved default (mention only, public collections)."""
        found = self.filter(channel_id=channel_id).prefetch_related("collections").first()
        return found or ChannelSetting(channel_id=channel_id, mode=ChannelSetting.Mode.MENTION_ONLY)


class ChannelSetting(models.Model):
    """How the bot behaves in one Slack channel, and which collections it may answer from there."""

    class Mode(models.TextChoices):
        MENTION_ONLY = "mention_only", "Only when @mentioned (and follow-ups in its threads)"
        ALL_QUESTIONS = "all_questions", "Every question asked in the channel"
        DISABLED = "disabled", "Disabled"

    channel_id = models.CharField(max_length=32, unique=True, help_text="Slack channel id, e.g. C0123ABCD")
    name = models.CharField(max_length=120, blank=True, help_text="For people: e.g. #help-hr")
    mode = models.CharField(max_length=16, choices=Mode.choices, default=Mode.MENTION_ONLY)
    collections = models.ManyToManyField(
        Collection, blank=True, related_name="slack_channels",
        help_text="Answer only from these collections here. Empty = public collections only.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = ChannelSettingQuerySet.as_manager()

    class Meta:
        ordering = ["name", "channel_id"]

    def __str__(self) -> str:
        return self.name or self.channel_id

    def collection_ids(self) -> list[int]:
        """Collections answers in this channel may cite: the configured ones, else the public ones.

        A channel's audience is everyone in it, so the asker's own (possibly wider) access never applies.
        """
        ids = [c.pk for c in self.collections.all()] if self.pk is not None else []
        return ids or list(Collection.objects.filter(is_public=True).values_list("pk", flat=True))


class SlackQuestionQuerySet(models.QuerySet):
    def recent_for_user(self, user_id: str, seconds: int = 60) -> "SlackQuestionQuerySet":
        """Questions this Slack user asked in the last `seconds` (for the per-user rate limit); declined ones
        (over the limit, empty, disabled channel) do not count."""
        return self.filter(user_id=user_id, created_at__gte=timezone.now() - timedelta(seconds=seconds)).exclude(
            status=SlackQuestion.Status.DECLINED)

    def answered_thread(self, channel_id: str, thread_ts: str) -> bool:
        """Whether the bot already answered in this thread (so untagged follow-ups are for it)."""
        return self.filter(channel_id=channel_id, thread_ts=thread_ts, status=SlackQuestion.Status.ANSWERED).exists()

    def for_home(self, user_id: str, limit: int = 10) -> list["SlackQuestion"]:
        """A user's latest questions with their answers, for the App Home tab."""
        return list(self.filter(user_id=user_id).exclude(status=SlackQuestion.Status.DECLINED)
                    .select_related("answer").order_by("-created_at")[:limit])


class SlackQuestion(models.Model):
    """One question received from Slack. `event_id` is unique: a retried delivery never answers twice."""

    class Kind(models.TextChoices):
        MENTION = "mention", "Mention"
        DM = "dm", "Direct message"
        COMMAND = "command", "/ask"
        THREAD_FOLLOWUP = "thread_followup", "Thread follow-up"
        CHANNEL = "channel", "Question in an all-questions channel"

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        ANSWERING = "answering", "Being answered"
        ANSWERED = "answered", "Answered"
        FAILED = "failed", "Failed"
        DECLINED = "declined", "Declined (see error)"

    event_id = models.CharField(max_length=120, unique=True, help_text="Slack event id, or a derived id for /ask.")
    team_id = models.CharField(max_length=32, blank=True)
    channel_id = models.CharField(max_length=32, db_index=True)
    user_id = models.CharField(max_length=32, db_index=True)
    thread_ts = models.CharField(max_length=32, blank=True, db_index=True)
    message_ts = models.CharField(max_length=32, blank=True)
    placeholder_ts = models.CharField(max_length=32, blank=True, help_text="The 'Looking…' message to replace.")
    text = models.TextField(help_text="The question, redacted.")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    response_url = models.URLField(max_length=500, blank=True)
    ephemeral = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED, db_index=True)
    answer = models.ForeignKey("knowledge.Answer", null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="slack_questions")
    error = models.TextField(blank=True)
    attempts = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = SlackQuestionQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} from {self.user_id}: {self.text[:60]}"

    @classmethod
    def record(cls, *, event_id: str, text: str, **fields) -> "SlackQuestion | None":
        """Store a new question (text redacted); None when this event was already recorded (a retry)."""
        try:
            with transaction.atomic():
                return cls.objects.create(event_id=event_id[:120], text=redact(text).text, **fields)
        except IntegrityError:
            return None

    @classmethod
    def claim(cls, pk: int, *, stale_after_s: int) -> "SlackQuestion | None":
        """Take a queued question for answering, atomically, so two workers (a redelivered job, a Retry
        racing the first run) never both answer it; a claim older than stale_after_s is abandoned."""
        now = timezone.now()
        claimable = Q(status=cls.Status.QUEUED) | Q(status=cls.Status.ANSWERING,
                                                      updated_at__lt=now - timedelta(seconds=stale_after_s))
        claimed = cls.objects.filter(claimable, pk=pk).update(status=cls.Status.ANSWERING,
                                                              attempts=F("attempts") + 1, updated_at=now)
        return cls.objects.filter(pk=pk).first() if claimed else None

    def mark_answered(self, answer_id: int | None) -> None:
        self.status = self.Status.ANSWERED
        self.answer_id = answer_id
        self.error = ""
        self.save(update_fields=["status", "answer", "error", "updated_at"])

    def mark_failed(self, error: str) -> None:
        self.status = self.Status.FAILED
        self.error = error[:2000]
        self.save(update_fields=["status", "error", "updated_at"])

    def requeue(self) -> bool:
        """Put a failed question back in the queue (Retry button); False when it is not failed."""
        return bool(SlackQuestion.objects.filter(pk=self.pk, status=self.Status.FAILED)
                    .update(status=self.Status.QUEUED, error="", updated_at=timezone.now()))
