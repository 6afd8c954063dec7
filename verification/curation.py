"""Curation: who may review, what an asker sees of an answer, feedback, verdicts and expiry — in one place.

Slack, the console, the admin and the API all go through these functions, so one rule decides who is a
reviewer (`webapp.roles.can_review`) and who may see an answer (`webapp.roles.can_see_answer`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from knowledge.answering.service import WARNING_TEXT as LOW_CONFIDENCE_WARNING
from knowledge.feedback import record_feedback
from knowledge.models import Answer, Feedback
from knowledge.redaction import redact
from verification import review
from verification.models import ReviewEvent
from webapp.roles import can_review, can_see_answer

__all__ = ["ServedAnswer", "can_review", "can_see_answer", "served_answer", "give_feedback", "verify", "flag",
           "schedule", "expire_verified_answers"]

USER_FLAG_WARNING = "Someone flagged this answer; a reviewer is checking it."
REVIEW_PENDING_WARNING = "A reviewer has been asked to check this answer: check the sources below."


@dataclass
class ServedAnswer:
    """An answer as an asker sees it anywhere: text, citations, status, badge and any warning."""

    answer_id: int
    text: str
    status: str
    badge: str
    warning: str
    citations: list[dict] = field(default_factory=list)
    flag_reason: str = ""
    stale: bool = False

    def to_dict(self) -> dict:
        return {"answer_id": self.answer_id, "answer": self.text, "status": self.status, "badge": self.badge,
                "warning": self.warning, "citations": self.citations, "flag_reason": self.flag_reason,
                "stale": self.stale}


def served_answer(answer: Answer, user=None) -> ServedAnswer:
    """The served view of an answer; PermissionDenied when the user may not see it."""
    if user is not None and not can_see_answer(user, answer):
        raise PermissionDenied("You cannot see this answer.")
    warning = ""
    if answer.flag_pending:
        warning = USER_FLAG_WARNING
    elif answer.flag_reason and answer.status == Answer.Status.NEEDS_REVIEW:
        warning = (f"An earlier answer to this question was flagged ({answer.flag_reason}). "
                   "This one waits for a reviewer.")
    elif answer.stale:
        warning = "A cited document changed since this answer was written; it is being re-checked."
    elif answer.status == Answer.Status.NEEDS_REVIEW:
        # Low confidence is one reason to wait for a reviewer; a thumbs-down or a failed re-check are others,
        # and "low confidence" beside a confident answer's own score would contradict it.
        low = answer.confidence < settings.VERITY_ANSWER_MIN_CONFIDENCE
        warning = LOW_CONFIDENCE_WARNING.format(score=answer.confidence) if low else REVIEW_PENDING_WARNING
    return ServedAnswer(answer.pk, answer.text, answer.status, answer.badge(), warning, list(answer.citations or []),
                        answer.flag_reason, answer.stale)


def _require_reviewer(user) -> None:
    if not can_review(user):
        raise PermissionDenied("Only reviewers can do this: staff, or members of the 'reviewers' group.")


def give_feedback(answer: Answer, kind: str, *, user=None, external_user: str = "",
                  reason: str = "") -> Feedback | None:
    """An asker's reaction. A reviewer's flag is a verdict (never reused again); anyone else's flag puts the
    answer in the queue and it keeps its badge until a reviewer decides. The reason is stored redacted
    everywhere it goes (feedback, review history, the flag reason a new answer carries)."""
    reason = redact(reason).text if reason else ""
    if kind == Feedback.Kind.FLAG and can_review(user):
        with transaction.atomic():
            feedback = record_feedback(answer.pk, kind, user=user, external_user=external_user, reason=reason)
            review.flag(Answer.objects.get(pk=answer.pk), user, note=reason)
        return feedback
    with transaction.atomic():
        status_before = answer.status
        feedback = record_feedback(answer.pk, kind, user=user, external_user=external_user, reason=reason)
        if feedback is not None and kind in (Feedback.Kind.FLAG, Feedback.Kind.UNHELPFUL):
            answer.refresh_from_db()
            action = ReviewEvent.Action.USER_FLAG if kind == Feedback.Kind.FLAG else ReviewEvent.Action.UNHELPFUL
            review.record_event(answer, action, actor=user, actor_label=external_user, status_before=status_before,
                                note=reason)
    return feedback


def verify(answer: Answer, reviewer, *, edited_text: str | None = None, note: str = "",
           reverify_at: date | None = None, previous_text: str | None = None) -> Answer:
    """A reviewer verifies an answer (optionally edited): reused from now on, with its badge."""
    _require_reviewer(reviewer)
    return review.verify(answer, reviewer, edited_text=edited_text, note=note, reverify_at=reverify_at,
                         previous_text=previous_text)


def flag(answer: Answer, reviewer, *, note: str = "") -> Answer:
    """A reviewer flags an answer: never served again; a new answer to its question carries the note."""
    _require_reviewer(reviewer)
    return review.flag(answer, reviewer, note=note)


def schedule(answer: Answer, reviewer, when: date) -> Answer:
    """A reviewer asks for a re-check on a date."""
    _require_reviewer(reviewer)
    return review.schedule_reverification(answer, when, reviewer)


def expire_verified_answers() -> int:
    """Verified answers past VERITY_VERIFIED_TTL_DAYS go back to the queue (the cache already skips them)."""
    count = 0
    for answer in Answer.objects.expired():
        answer.status = Answer.Status.NEEDS_REVIEW
        note = f"{timezone.localdate()}: verification expired; please verify again."
        answer.review_note = "\n".join(filter(None, [answer.review_note.strip(), note]))
        answer.save(update_fields=["status", "review_note", "updated_at"])
        review.record_event(answer, ReviewEvent.Action.EXPIRED, status_before=Answer.Status.VERIFIED, note=note)
        count += 1
    return count
