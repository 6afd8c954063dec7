"""The reviewers' view of answers: a proxy so the admin shows a separate "Review queue" entry."""

from django.conf import settings
from django.db import models

from knowledge.models import Answer


class ReviewItem(Answer):
    """An answer as a reviewer sees it: verdicts, cited passages, feedback; verify, flag or re-check."""

    class Meta:
        proxy = True
        verbose_name = "answer to review"
        verbose_name_plural = "Review queue"


class ReviewEvent(models.Model):
    """One change to an answer's review state: who, what, when, the text before and after, and why."""

    class Action(models.TextChoices):
        VERIFY = "verify", "Verified"
        FLAG = "flag", "Flagged by a reviewer"
        USER_FLAG = "user_flag", "Flagged by a user"
        UNHELPFUL = "unhelpful", "Marked not helpful"
        EDIT = "edit", "Edited"
        STALE = "stale", "Source changed"
        REVERIFIED = "reverified", "Re-checked: still supported"
        REQUEUED = "requeued", "Re-checked: back to the queue"
        EXPIRED = "expired", "Verification expired"
        SCHEDULE = "schedule", "Re-check scheduled"

    answer = models.ForeignKey(Answer, on_delete=models.CASCADE, related_name="review_events")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    actor_label = models.CharField(max_length=80, blank=True, help_text="e.g. a Slack user id, or 'system'")
    action = models.CharField(max_length=12, choices=Action.choices)
    status_before = models.CharField(max_length=16, blank=True)
    status_after = models.CharField(max_length=16, blank=True)
    text_before = models.TextField(blank=True)
    text_after = models.TextField(blank=True)
    note = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.get_action_display()} ({self.answer_id})"

    @property
    def who(self) -> str:
        if self.actor_id:
            return self.actor.get_full_name() or self.actor.get_username()
        return self.actor_label or "system"
