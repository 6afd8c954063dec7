"""The reviewers' view of answers: a proxy so the admin shows a separate "Review queue" entry."""

from knowledge.models import Answer


class ReviewItem(Answer):
    """An answer as a reviewer sees it: verdicts, cited passages, feedback; verify, flag or re-check."""

    class Meta:
        proxy = True
        verbose_name = "answer to review"
        verbose_name_plural = "Review queue"
