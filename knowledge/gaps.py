"""Knowledge gaps: questions refused because nothing covered them, for the document owners."""

from __future__ import annotations

from django.db.models import QuerySet

from knowledge.models import KnowledgeGap


def list_gaps(show: str = "open", gaps: QuerySet | None = None) -> QuerySet:
    """Gaps (of `gaps`, all by default) most-asked first: `open`, `resolved`, or `all`."""
    gaps = (KnowledgeGap.objects.all() if gaps is None else gaps).order_by("resolved", "-times_asked", "-last_asked_at")
    if show == "all":
        return gaps
    return gaps.filter(resolved=(show == "resolved"))


def set_gap_resolved(gap_id: int, resolved: bool = True, gaps: QuerySet | None = None) -> int:
    """Mark a gap (one of `gaps`, any by default) resolved or re-open it; returns rows changed."""
    return (KnowledgeGap.objects.all() if gaps is None else gaps).filter(pk=gap_id).update(resolved=resolved)
