"""Reviewers' verdicts: verify (optionally after editing), flag, or schedule re-verification."""

from __future__ import annotations

import hashlib
from datetime import date
from typing import Any

from django.db.models import Case, IntegerField, Q, QuerySet, Value, When
from django.utils import timezone

from knowledge.answering.providers import default_providers
from knowledge.models import Answer, Chunk
from verification.checks import Source, verify_answer
from verification.models import ReviewEvent


QUEUE_ORDER = ("priority", "confidence", "-created_at", "-pk")  # pk: a stable order across pages


def review_priority() -> Case:
    """0 flagged, 1 thumbs-down, 2 needs review, 3 anything else (due re-checks)."""
    return Case(
        When(status=Answer.Status.FLAGGED, then=Value(0)),
        When(flag_pending=True, then=Value(0)),
        When(unhelpful_count__gt=0, then=Value(1)),
        When(status=Answer.Status.NEEDS_REVIEW, then=Value(2)),
        default=Value(3), output_field=IntegerField(),
    )


def in_review_queue() -> Q:
    """The filter that puts an answer in front of reviewers."""
    due = Q(status=Answer.Status.VERIFIED, reverify_at__lte=date.today()) | Q(status=Answer.Status.VERIFIED, stale=True)
    pending = (Q(status__in=[Answer.Status.NEEDS_REVIEW, Answer.Status.FLAGGED])
               | Q(unhelpful_count__gt=0, status=Answer.Status.AUTO) | Q(flag_pending=True))
    return (pending | due) & ~Q(refused=True, status=Answer.Status.AUTO)


def review_queue(queryset: QuerySet | None = None) -> QuerySet:
    """Answers waiting for a reviewer: flagged, thumbs-down and low-confidence first, then due re-checks."""
    queryset = Answer.objects.all() if queryset is None else queryset
    return queryset.filter(in_review_queue()).annotate(priority=review_priority()).order_by(*QUEUE_ORDER)


def verify(answer: Answer, reviewer, *, edited_text: str | None = None, note: str = "",
           reverify_at: date | None = None, previous_text: str | None = None, providers: Any = None) -> Answer:
    """Mark an answer verified (after an optional edit); verified answers are reused for similar questions.

    An edited text is checked claim by claim against the passages the answer cites, like a generated
    one: the reviewer stays the authority (the answer is verified either way), but what the check found
    is kept in `verification["reviewer_edit"]` and the note, and `edit_findings(answer)` tells the
    reviewer at once. `previous_text` is the text before the edit when the caller already saved it.
    """
    before = (previous_text if previous_text is not None else answer.text).strip()
    status_before = answer.status
    answer.review_note = note or answer.review_note
    if edited_text is not None and edited_text.strip() and edited_text.strip() != before:
        answer.text = edited_text.strip()
        _check_edit(answer, providers)
    answer.status = Answer.Status.VERIFIED
    answer.stale = False
    answer.flag_pending = False
    answer.reviewed_by = reviewer
    answer.reviewed_at = answer.checked_at = timezone.now()
    answer.reverify_at = reverify_at
    answer.save()
    record_event(answer, ReviewEvent.Action.VERIFY, actor=reviewer, status_before=status_before, note=note,
                 text_before=before if before != answer.text.strip() else "")
    return answer


def record_event(answer: Answer, action: str, *, actor=None, actor_label: str = "", status_before: str = "",
                 note: str = "", text_before: str = "") -> ReviewEvent:
    """Append one entry to the answer's review history (the text after is stored only when it changed)."""
    return ReviewEvent.objects.create(
        answer=answer, action=action, actor=actor if getattr(actor, "pk", None) else None,
        actor_label=actor_label or ("" if getattr(actor, "pk", None) else "system"),
        status_before=status_before or answer.status, status_after=answer.status, note=note[:4000],
        text_before=text_before, text_after=answer.text if text_before else "")


def cited_sources(citations: list[dict]) -> list[Source]:
    """The answer's own cited passages as numbered sources: the cited chunk as stored now (when it is still
    the cited document's), else the quote saved with the citation."""
    chunks = {pk: (text, source) for pk, text, source in Chunk.objects.filter(
        pk__in=[c.get("chunk_id") for c in citations if c.get("chunk_id")]).values_list("pk", "text", "document__source")}
    sources = []
    for citation in citations:
        text, source = chunks.get(citation.get("chunk_id"), ("", None))
        if source != str(citation.get("source", "")).split("#", 1)[0]:
            text = ""
        text = text or citation.get("quote") or ""
        if isinstance(citation.get("n"), int) and text:
            sources.append(Source(citation["n"], text, citation.get("url"), citation.get("title")))
    return sources


def _check_edit(answer: Answer, providers: Any) -> None:
    providers = providers or default_providers()
    report = verify_answer(answer.text, cited_sources(answer.citations or []), embed=providers.embedder.embed,
                           allowed_domains=providers.allowed_domains)
    failing = report.failing
    answer.verification = {**(answer.verification or {}), "reviewer_edit": {
        "at": timezone.now().isoformat(), "faithful": report.faithful, "score": report.score,
        "text_sha1": _sha1(answer.text),
        "claims": [{"text": v.claim.text, "verdict": v.verdict, "reason": v.reason, "source_n": v.source_n}
                   for v in report.claims]}}
    if failing:
        answer.review_note = "\n".join(filter(None, [answer.review_note.strip(), (
            f"{timezone.localdate()}: the reviewer's edit has {len(failing)} of {len(report.claims)} claim(s) "
            f"the cited sources do not support (first: {failing[0].claim.text!r}: {failing[0].reason}).")]))


def _sha1(text: str) -> str:
    return hashlib.sha1(text.strip().encode()).hexdigest()


def edit_findings(answer: Answer) -> list[str]:
    """Claims of a reviewer's edit that the cited sources do not support, as 'claim: reason' lines; only
    while the answer still has that edited text."""
    edit = (answer.verification or {}).get("reviewer_edit") or {}
    if edit.get("text_sha1") != _sha1(answer.text):
        return []
    return [f"{c['text']}: {c['reason']}" for c in edit.get("claims", []) if c.get("verdict") != "supported"]


def flag(answer: Answer, reviewer, *, note: str = "") -> Answer:
    """Mark an answer flagged (a reviewer's decision): it is never served from the cache again."""
    status_before = answer.status
    answer.status = Answer.Status.FLAGGED
    answer.flag_pending = False
    answer.reviewed_by = reviewer
    answer.reviewed_at = timezone.now()
    answer.review_note = note or answer.review_note
    answer.save()
    record_event(answer, ReviewEvent.Action.FLAG, actor=reviewer, status_before=status_before, note=note)
    return answer


def schedule_reverification(answer: Answer, when: date, reviewer=None) -> Answer:
    """Ask for this answer to be checked again on a date."""
    answer.reverify_at = when
    answer.save(update_fields=["reverify_at", "updated_at"])
    record_event(answer, ReviewEvent.Action.SCHEDULE, actor=reviewer, note=f"re-check on {when:%Y-%m-%d}")
    return answer

