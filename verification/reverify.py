"""Re-verification: are verified answers still supported by the documents as they are now?

Runs as the `reverify_answers` job on the `verify` queue, daily (Celery beat entry in
`webapp/celery.py`; django-q2 schedule created by migration `verification/0002`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from knowledge.answering import AskOptions, find_passages
from knowledge.answering.providers import default_providers
from knowledge.models import Answer, Chunk
from verification.checks import Source, VerificationReport, verify_answer
from verification.models import ReviewEvent
from verification.review import record_event

log = logging.getLogger(__name__)

# A verified answer that passed its due re-check is checked again this much later.
RECHECK_AFTER = timedelta(days=30)
TOP_PASSAGES = 8


@dataclass(frozen=True)
class _SystemReader:
    """The job reads every collection: the answer's own collection list narrows what it searches."""

    is_superuser: bool = True
    is_authenticated: bool = True
    pk: None = None


def due_for_reverification(today: date | None = None) -> QuerySet:
    """Verified answers whose sources changed (stale) or whose re-check date has come, oldest first."""
    today = today or date.today()
    return (Answer.objects.filter(status=Answer.Status.VERIFIED, refused=False)
            .filter(Q(stale=True) | Q(reverify_at__lte=today)).order_by("reverify_at", "updated_at"))


def reverify_stale_answers(limit: int = 100, *, providers: Any = None) -> dict[str, int]:
    """Re-check up to `limit` due answers; returns counts of kept, sent to review and failed."""
    counts = {"checked": 0, "kept": 0, "needs_review": 0, "errors": 0}
    answers = list(due_for_reverification()[:limit])
    if not answers:
        return counts
    providers = providers or default_providers()
    for answer in answers:
        counts["checked"] += 1
        try:
            kept = reverify_answer(answer, providers)
        except Exception:  # one broken answer must not stop the batch; it stays due and is retried tomorrow
            log.exception("re-verification failed for answer %s", answer.pk)
            counts["errors"] += 1
            continue
        counts["kept" if kept else "needs_review"] += 1
    log.info("re-verification: %s", counts)
    return counts


def reverify_answer(answer: Answer, providers: Any) -> bool:
    """Re-run retrieval for the question and check the stored text against today's passages; True if kept."""
    options = AskOptions(user=_SystemReader(), collection_ids=list(answer.collection_ids) or None,
                         channel="reverify", use_cache=False, store=False)
    # Retrieval only: re-checking needs today's passages, not a new (possibly paid) generation.
    retrieved = find_passages(answer.question_text, options, providers)
    sources = current_sources(answer.citations, retrieved[:TOP_PASSAGES])
    report = verify_answer(answer.text, sources, embed=providers.embedder.embed,
                           allowed_domains=providers.allowed_domains, judge=providers.judge)
    _record(answer, report, sources)
    return report.faithful


def reverify_answer_by_id(answer_id: int, *, providers: Any = None) -> bool | None:
    """The job run when a cited document changed or was deleted: re-check one stale answer now.

    Still supported: it keeps its status, with today as its new check date. Not supported: back to the
    review queue with the reason. Safe to run twice (an answer no longer stale is left alone).
    """
    answer = Answer.objects.filter(pk=answer_id, stale=True, refused=False).first()
    if answer is None:
        return None
    status_before = answer.status
    kept = reverify_answer(answer, providers or default_providers())
    if kept:
        Answer.objects.filter(pk=answer.pk, status=Answer.Status.VERIFIED).update(checked_at=timezone.now())
    answer.refresh_from_db()
    note = answer.review_note.strip().splitlines()[-1] if answer.review_note.strip() else ""
    record_event(answer, ReviewEvent.Action.REVERIFIED if kept else ReviewEvent.Action.REQUEUED,
                 actor_label="re-check after a source changed", status_before=status_before, note=note)
    return kept


def current_sources(citations: list[dict], retrieved: list[dict]) -> list[Source]:
    """Today's top passages numbered like the stored answer's markers: a passage from the section an old
    citation pointed to takes that citation's number; the others follow after the highest old number."""
    texts = dict(Chunk.objects.filter(pk__in=[r["chunk_id"] for r in retrieved]).values_list("pk", "text"))
    by_source: dict[str, list[str]] = {}
    for row in retrieved:
        if row["chunk_id"] in texts:
            by_source.setdefault(row["source"], []).append(texts[row["chunk_id"]])
    sources: list[Source] = []
    used: set[str] = set()
    for citation in citations:
        ref = citation.get("source")
        if ref in by_source and isinstance(citation.get("n"), int):
            sources.append(Source(citation["n"], "\n".join(by_source[ref]), citation.get("url"), citation.get("title")))
            used.add(ref)
    next_n = max((c.get("n", 0) for c in citations if isinstance(c.get("n"), int)), default=0) + 1
    for ref, chunks in by_source.items():
        if ref not in used:
            sources.append(Source(next_n, "\n".join(chunks), None, ref))
            next_n += 1
    return sources


def _record(answer: Answer, report: VerificationReport, sources: list[Source]) -> None:
    today = timezone.localdate()
    failing = report.failing
    summary = {
        "at": timezone.now().isoformat(), "faithful": report.faithful, "score": report.score,
        "claims": [{"text": v.claim.text, "verdict": v.verdict, "reason": v.reason, "source_n": v.source_n}
                   for v in report.claims],
        "removed_citations": report.removed_citations,
        "sources": [{"n": s.n, "title": s.title} for s in sources],
    }
    answer.verification = {**(answer.verification or {}), "reverification": summary}
    if report.faithful:
        answer.stale = False
        if answer.reverify_at and answer.reverify_at <= today:
            answer.reverify_at = today + RECHECK_AFTER
        note = f"{today}: re-checked automatically against current documents: still supported."
    else:
        answer.status = Answer.Status.NEEDS_REVIEW
        detail = failing[0].reason if failing else "a cited section is no longer among the passages found"
        if report.removed_citations and not failing:
            detail = f"cited source(s) {report.removed_citations} no longer found"
        note = (f"{today}: re-checked automatically: {len(failing)} of {len(report.claims)} claim(s) no longer "
                f"supported by current documents ({detail}). Was verified; needs a reviewer.")
    answer.review_note = "\n".join(filter(None, [answer.review_note.strip(), note]))
    answer.save(update_fields=["verification", "stale", "reverify_at", "status", "review_note", "updated_at"])
