"""Conversations: a person's run of questions in the console or over the API, read back as thread context."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ConversationQuerySet(models.QuerySet):
    def owned_by(self, user) -> "ConversationQuerySet":
        """The user's own conversations: nobody else may read or continue them, staff included."""
        if not getattr(user, "pk", None):
            return self.none()
        return self.filter(owner=user)


class Conversation(models.Model):
    """Questions one person asked one after another; each turn is the question's QueryLog row and its answer.

    A follow-up ("and for part-time employees?") is completed from the earlier turns exactly as a
    Slack thread's are, so the turns are the same records every question already leaves behind.
    """

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="conversations")
    channel = models.CharField(max_length=20, default="api", help_text="Where it started: api or console.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = ConversationQuerySet.as_manager()

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return f"Conversation {self.pk} of {self.owner}"
