"""Reviewers' verdicts: verify (optionally after editing), flag, or schedule re-verification."""

from __future__ import annotations

from datetime import date

from django.db.models import Case, IntegerField, Q, QuerySet, Value, When
from django.utils import timezone

from knowledge.models import Answer


QUEUE_ORDER = ("priority", "confidence", "-created_at", "-pk")  # pk: a stable order across pages


def review_priority() -> Case:
    """0 flagged, 1 thumbs-down, 2 needs review, 3 anything else (due re-checks)."""
    return Case(
        When(status=Answer.Status.FLAGGED, then=Value(0)),
        When(unhelpful_count__gt=0, then=Value(1)),
        When(status=Answer.Status.NEEDS_REVIEW, then=Value(2)),
        default=Value(3), output_field=IntegerField(),
    )


def in_review_queue() -> Q:
    """The filter that puts an answer in front of reviewers."""
    due = Q(status=Answer.Status.VERIFIED, reverify_at__lte=date.today()) | Q(status=Answer.Status.VERIFIED, stale=True)
    pending = Q(status__in=[Answer.Status.NEEDS_REVIEW, Answer.Status.FLAGGED]) | Q(unhelpful_count__gt=0,
                                                                                status=Answer.Status.AUTO)
    return (pending | due) & ~Q(refused=True, status=Answer.Status.AUTO)


def review_queue(queryset: QuerySet | None = None) -> QuerySet:
    """Answers waiting for a reviewer: flagged, thumbs-down and low-confidence first, then due re-checks."""
    queryset = Answer.objects.all() if queryset is None else queryset
    return queryset.filter(in_review_queue()).annotate(priority=review_priority()).order_by(*QUEUE_ORDER)


def verify(answer: Answer, reviewer, *, edited_text: str | None = None, note: str = "",
           reverify_at: date | None = None) -> Answer:
    """Mark an answer verified (after an optional edit); verified answers are reused for similar questions."""
    if edited_text is not None and edited_text.strip() and edited_text.strip() != answer.text.strip():
        answer.text = edited_text.strip()
    answer.status = Answer.Status.VERIFIED
    answer.stale = False
    answer.reviewed_by = reviewer
    answer.reviewed_at = timezone.now()
    answer.review_note = note or answer.review_note
    answer.reverify_at = reverify_at
    answer.save()
    return answer


def flag(answer: Answer, reviewer, *, note: str = "") -> Answer:
    """Mark an answer flagged: it is never served from the cache again."""
    answer.status = Answer.Status.FLAGGED
    answer.reviewed_by = reviewer
    answer.reviewed_at = timezone.now()
    answer.review_note = note or answer.review_note
    answer.save()
    return answer


def schedule_reverification(answer: Answer, when: date) -> Answer:
    """Ask for this answer to be checked again on a date."""
    answer.reverify_at = when
    answer.save(update_fields=["reverify_at", "updated_at"])
    return answer

