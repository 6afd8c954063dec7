"""Askers' feedback on answers: helpful / not helpful / flag. Unhelpful and flagged answers go to review.

An asker's flag does not remove the answer: it stays served with its badge (and a warning) until a
reviewer decides; a reviewer's flag goes through `verification.curation` instead.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import F

from knowledge.models import Answer, Feedback
from knowledge.redaction import redact


def record_feedback(answer_id: int, kind: str, *, user=None, external_user: str = "", reason: str = "") -> Feedback | None:
    """Store one reaction (once per Slack user and kind) and update the answer's counters and status.

    A flag puts the answer in the review queue (pending flag, weighed down in reuse) until a reviewer
    decides; a thumbs-down puts it in the review queue.
    """
    if kind not in Feedback.Kind.values:
        raise ValueError(f"unknown feedback kind {kind!r}")
    # People explain themselves in free text ("my IBAN is still wrong"): store it as the question is stored.
    reason = redact(reason[:2000]).text if reason.strip() else ""
    try:
        with transaction.atomic():
            feedback = Feedback.objects.create(answer_id=answer_id, kind=kind, reason=reason[:2000],
                                               user=user if getattr(user, "pk", None) else None,
                                               external_user=external_user)
    except IntegrityError:
        existing = Feedback.objects.filter(answer_id=answer_id, kind=kind, external_user=external_user).first()
        if existing is not None and reason and not existing.reason:
            existing.reason = reason[:2000]
            existing.save(update_fields=["reason"])
        return existing
    answers = Answer.objects.filter(pk=answer_id)
    if kind == Feedback.Kind.HELPFUL:
        answers.update(helpful_count=F("helpful_count") + 1)
    elif kind == Feedback.Kind.UNHELPFUL:
        answers.update(unhelpful_count=F("unhelpful_count") + 1)
        answers.filter(status=Answer.Status.AUTO).update(status=Answer.Status.NEEDS_REVIEW)
    else:
        answers.exclude(status=Answer.Status.FLAGGED).update(flag_pending=True)
    return feedback
