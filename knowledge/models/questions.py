"""Questions, answers, the structured question log, knowledge gaps and the abbreviation glossary."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import Q
from django.utils import timezone
from pgvector.django import HnswIndex, VectorField

from knowledge.models.documents import EMBEDDING_DIM


class GlossaryTerm(models.Model):
    """An abbreviation or in-house term and what it stands for (used to expand questions)."""

    term = models.CharField(max_length=60, unique=True, help_text="e.g. WFH, PTO, OOO (matched case-insensitively)")
    expansion = models.CharField(max_length=200, help_text="e.g. work from home")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["term"]

    def __str__(self) -> str:
        return f"{self.term} = {self.expansion}"


def verified_ttl() -> timedelta:
    """How long a reviewer's verification holds before the answer must be checked again."""
    return timedelta(days=settings.VERITY_VERIFIED_TTL_DAYS)


def _expired() -> Q:
    cut = timezone.now() - verified_ttl()
    return Q(status=Answer.Status.VERIFIED) & (Q(checked_at__lt=cut) | Q(checked_at__isnull=True, reviewed_at__lt=cut))


class AnswerQuerySet(models.QuerySet):
    def servable(self) -> "AnswerQuerySet":
        """Answers that may be reused from the cache: never flagged, never refusals, not stale, not expired."""
        return self.exclude(status=Answer.Status.FLAGGED).filter(refused=False, stale=False).exclude(_expired())

    def expired(self) -> "AnswerQuerySet":
        """Verified answers last confirmed longer ago than VERITY_VERIFIED_TTL_DAYS."""
        return self.filter(_expired())

    def citing_documents(self, document_ids: list[int]) -> "AnswerQuerySet":
        """Answers citing any of these documents (through the indexed citation edges)."""
        return self.filter(citation_rows__document_id__in=list(document_ids)).distinct()

    def mark_stale_citing(self, document_ids: list[int]) -> list[int]:
        """Answers citing these (replaced or deleted) documents stop being served at once; returns their ids."""
        if not document_ids:
            return []
        ids = list(self.citing_documents(document_ids).filter(stale=False).values_list("pk", flat=True))
        self.filter(pk__in=ids).update(stale=True, updated_at=timezone.now())
        return ids


class Answer(models.Model):
    """An answer produced for a question, with its citations, confidence and verification."""

    class Status(models.TextChoices):
        AUTO = "auto", "Automatic"
        NEEDS_REVIEW = "needs_review", "Needs review"
        VERIFIED = "verified", "Verified"
        FLAGGED = "flagged", "Flagged"

    question_text = models.TextField(help_text="The (redacted) question this answer was written for.")
    normalized_question = models.CharField(max_length=500, db_index=True)
    question_embedding = VectorField(dimensions=EMBEDDING_DIM, null=True)
    text = models.TextField()
    refused = models.BooleanField(default=False)
    confidence = models.FloatField(default=0.0)
    citations = models.JSONField(default=list, blank=True)
    chunk_ids = ArrayField(models.BigIntegerField(), default=list, blank=True)
    collection_ids = ArrayField(models.BigIntegerField(), default=list, blank=True)
    verification = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.AUTO, db_index=True)
    stale = models.BooleanField(default=False, help_text="A cited document changed since this answer was written.")
    provider = models.CharField(max_length=40, blank=True)
    model = models.CharField(max_length=80, blank=True)
    usage = models.JSONField(default=dict, blank=True)
    timings_ms = models.JSONField(default=dict, blank=True)
    helpful_count = models.PositiveIntegerField(default=0)
    unhelpful_count = models.PositiveIntegerField(default=0)
    reviewed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    reviewed_at = models.DateTimeField(null=True, blank=True)
    review_note = models.TextField(blank=True)
    reverify_at = models.DateField(null=True, blank=True, help_text="Check this answer again on this date.")
    checked_at = models.DateTimeField(null=True, blank=True, help_text="Last confirmed by a reviewer or a re-check; "
                                      "verification expires VERITY_VERIFIED_TTL_DAYS after this.")
    flag_pending = models.BooleanField(default=False, help_text="A user flagged it; a reviewer has not decided yet.")
    flag_reason = models.TextField(blank=True, help_text="Why an earlier answer to this question was flagged.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = AnswerQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            HnswIndex(name="answer_question_hnsw", fields=["question_embedding"], m=16, ef_construction=64,
                      opclasses=["vector_cosine_ops"]),
        ]

    def __str__(self) -> str:
        return self.question_text[:80]

    def badge(self) -> str:
        """What the asker sees about review: "Verified by Ana on 3 Nov", "Flagged …", or ""."""
        if self.status == Answer.Status.VERIFIED and self.reviewed_at:
            who = self.reviewed_by.get_full_name() or self.reviewed_by.get_username() if self.reviewed_by else "a reviewer"
            return f"Verified by {who} on {timezone.localtime(self.reviewed_at):%-d %b}"
        if self.status == Answer.Status.FLAGGED:
            return "Flagged by a reviewer"
        return ""


def flagged_answer() -> Q:
    """A question whose answer a reviewer flagged, or a user flagged and no reviewer has decided on yet."""
    return Q(answer__status=Answer.Status.FLAGGED) | Q(answer__flag_pending=True)


class QueryLogQuerySet(models.QuerySet):
    def between(self, start=None, end=None) -> "QueryLogQuerySet":
        """Rows asked at or after `start` and before `end` (aware datetimes; either may be None)."""
        rows = self
        if start is not None:
            rows = rows.filter(created_at__gte=start)
        if end is not None:
            rows = rows.filter(created_at__lt=end)
        return rows

    def flagged(self) -> "QueryLogQuerySet":
        """Rows whose answer is flagged (see flagged_answer)."""
        return self.filter(flagged_answer())

    def with_outcome(self, outcome: str) -> "QueryLogQuerySet":
        """Rows with this outcome; "flagged" is the flagged answers whatever their outcome."""
        if outcome == "flagged":
            return self.flagged()
        if outcome not in QueryLog.Outcome.values:
            choices = ", ".join(QueryLog.Outcome.values)
            raise ValueError(f"Unknown outcome {outcome!r}: use flagged or one of {choices}.")
        return self.filter(outcome=outcome)

    def in_collection(self, collection_id: int) -> "QueryLogQuerySet":
        """Rows whose answer searched or drew on this collection."""
        return self.filter(answer__collection_ids__contains=[collection_id])

    def mentioning(self, text: str) -> "QueryLogQuerySet":
        """Rows whose (redacted) question contains the text, case-insensitively."""
        return self.filter(question__icontains=text)

    def cache_hit_rates(self) -> dict[str, float]:
        """Share of asked questions served by each cache level ('exact', 'similar', 'graph') or 'miss'."""
        counts = dict(self.values_list("cache").annotate(n=models.Count("id")).values_list("cache", "n"))
        total = sum(counts.values()) or 1
        return {level or "miss": round(n / total, 4) for level, n in sorted(counts.items())}


class QueryLog(models.Model):
    """One structured row per asked question: what was searched, found, answered, and how fast."""

    class Outcome(models.TextChoices):
        ANSWERED = "answered", "Answered"
        REFUSED = "refused", "Refused"
        CACHED = "cached", "Cached"
        ERROR = "error", "Error"

    question = models.TextField(help_text="Redacted question.")
    standalone_question = models.TextField(blank=True)
    channel = models.CharField(max_length=20, default="cli", help_text="slack, api, console or cli")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    external_user = models.CharField(max_length=64, blank=True, help_text="e.g. the Slack user id")
    answer = models.ForeignKey(Answer, null=True, blank=True, on_delete=models.SET_NULL, related_name="logs")
    outcome = models.CharField(max_length=10, choices=Outcome.choices)
    cache = models.CharField(max_length=20, blank=True)
    confidence = models.FloatField(default=0.0)
    retrieved = models.JSONField(default=list, blank=True, help_text="[{chunk_id, score, retrievers}]")
    provider = models.CharField(max_length=40, blank=True)
    model = models.CharField(max_length=80, blank=True)
    input_tokens = models.PositiveIntegerField(default=0)
    output_tokens = models.PositiveIntegerField(default=0)
    cost_usd = models.FloatField(default=0.0)
    timings_ms = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)
    conversation = models.ForeignKey("knowledge.Conversation", null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="turns", help_text="The console or API conversation it was "
                                     "asked in; its earlier turns completed a follow-up.")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    objects = QueryLogQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.outcome}: {self.question[:60]}"


class KnowledgeGap(models.Model):
    """A question the knowledge base could not answer, grouped by its normalised form."""

    normalized_question = models.CharField(max_length=500, unique=True)
    example_question = models.TextField()
    searched = models.JSONField(default=list, blank=True, help_text="Closest documents found, for the owners.")
    collection_ids = ArrayField(models.BigIntegerField(), default=list, blank=True,
                                help_text="Collections searched when it was refused: their owners see the gap.")
    times_asked = models.PositiveIntegerField(default=1)
    resolved = models.BooleanField(default=False)
    embedding = VectorField(dimensions=EMBEDDING_DIM, null=True)
    topic = models.ForeignKey("knowledge.Topic", null=True, blank=True, on_delete=models.SET_NULL, related_name="gaps")
    resolved_by = models.ForeignKey("knowledge.Document", null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="resolved_gaps")
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolution = models.TextField(blank=True)
    first_asked_at = models.DateTimeField(auto_now_add=True)
    last_asked_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["resolved", "-times_asked", "-last_asked_at"]

    def __str__(self) -> str:
        return self.example_question[:80]


class Feedback(models.Model):
    """An asker's or reviewer's reaction to an answer: helpful, not helpful (with why), or a flag."""

    class Kind(models.TextChoices):
        HELPFUL = "helpful", "Helpful"
        UNHELPFUL = "unhelpful", "Not helpful"
        FLAG = "flag", "Flagged for review"

    answer = models.ForeignKey(Answer, on_delete=models.CASCADE, related_name="feedback")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    reason = models.TextField(blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    external_user = models.CharField(max_length=64, blank=True, help_text="e.g. the Slack user id")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["answer", "external_user", "kind"], condition=~models.Q(external_user=""),
                                    name="feedback_once_per_external_user"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} on answer {self.answer_id}"
