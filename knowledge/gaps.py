"""Knowledge gaps: refused questions for the document owners, grouped by topic and similarity; a gap closes
itself when a newly ingested document makes its question answerable."""

from __future__ import annotations

import logging

from django.db.models import Count, Q, QuerySet, Sum
from django.utils import timezone

from knowledge.answering.providers import AnsweringProviders, base_providers
from knowledge.answering.service import Timer, gather, glossary
from knowledge.models import Document, KnowledgeGap
from knowledge.query import analyze

log = logging.getLogger(__name__)

# Only the best few passages count: a gap is answered by the new document when it is among them.
TOP_PASSAGES = 3


def answered_by(gap: KnowledgeGap, document: Document, providers: AnsweringProviders) -> bool:
    """True when the question path would now answer the gap's question, citing this document."""
    query = analyze(gap.example_question, glossary())
    vector = providers.embedder.embed([query.expanded], kind="query")[0]
    collection_ids = list(gap.collection_ids) or [document.collection_id]
    if document.collection_id not in collection_ids:
        return False
    found = gather(query, vector, collection_ids, providers, Timer())
    if found.evidence.decision == "refuse":
        return False
    return any(p.first.document_id == document.pk for p in found.passages[:TOP_PASSAGES])


def resolve_gaps_for_document(document_id: int, *, providers: AnsweringProviders | None = None) -> int:
    """The job run after ingestion: close each open gap the document now answers, naming it. Safe to rerun."""
    document = Document.objects.filter(pk=document_id, status=Document.Status.READY).first()
    if document is None:
        return 0
    gaps = KnowledgeGap.objects.filter(resolved=False).filter(
        Q(collection_ids__contains=[document.collection_id]) | Q(collection_ids=[]))
    if not gaps.exists():
        return 0
    providers = providers or base_providers()
    closed = 0
    for gap in gaps:
        if answered_by(gap, document, providers):
            KnowledgeGap.objects.filter(pk=gap.pk, resolved=False).update(
                resolved=True, resolved_by=document, resolved_at=timezone.now(),
                resolution=f"Answered by “{document.title or document.source}” (uploaded {timezone.localdate()}).")
            closed += 1
    log.info("document %s closed %s knowledge gap(s)", document_id, closed)
    return closed


def gaps_by_topic() -> list[dict]:
    """Open gaps grouped by topic, with how often their questions were asked (most asked first)."""
    rows = (KnowledgeGap.objects.filter(resolved=False).values("topic__name")
            .annotate(gaps=Count("id"), times_asked=Sum("times_asked")).order_by("-times_asked", "-gaps"))
    return [{"topic": r["topic__name"] or "No topic", "gaps": r["gaps"], "times_asked": r["times_asked"]} for r in rows]


def list_gaps(show: str = "open", gaps: QuerySet | None = None) -> QuerySet:
    """Gaps (of `gaps`, all by default) most-asked first: `open`, `resolved`, or `all`."""
    gaps = (KnowledgeGap.objects.all() if gaps is None else gaps).select_related("topic", "resolved_by").order_by(
        "resolved", "-times_asked", "-last_asked_at")
    if show == "all":
        return gaps
    return gaps.filter(resolved=(show == "resolved"))


def set_gap_resolved(gap_id: int, resolved: bool = True, gaps: QuerySet | None = None) -> int:
    """Mark a gap (one of `gaps`, any by default) resolved or re-open it; returns rows changed."""
    return (KnowledgeGap.objects.all() if gaps is None else gaps).filter(pk=gap_id).update(resolved=resolved)
