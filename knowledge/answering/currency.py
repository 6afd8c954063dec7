"""The current version wins: passages of a superseded document give way to its successor's.

When documents are versions of one policy (knowledge.supersession: an explicit "supersedes"/"replaces"
statement, or one series ordered by effective or updated date), an answer must not quote the old
amount next to the new one. A superseded document's hits move behind every other hit when its
successor is among the hits too (so the passages are built from the current version); alone, it is
still the best the knowledge base has and keeps its place.
"""

from __future__ import annotations

from django.core.cache import cache
from django.db.models import Count, Max

from knowledge import supersession
from knowledge.models import Document

_TTL = 600


def successors(collection_ids: list[int]) -> dict[int, int]:
    """`{old document id: newer document id}` in these collections, cached until a document changes."""
    ids = sorted(set(collection_ids))
    if not ids:
        return {}
    state = Document.objects.filter(collection_id__in=ids).aggregate(n=Count("id"), last=Max("updated_at"))
    key = f"verity:supersession:{','.join(map(str, ids))}:{state['n']}:{state['last'] and state['last'].timestamp()}"
    found = cache.get(key)
    if found is None:
        found = supersession.in_collections(ids).newer
        cache.set(key, found, _TTL)
    return found


def demote_superseded(hits: list, newer: dict[int, int]) -> list:
    """The hits with those of a superseded document moved last when its successor's are among them
    (`newer`: `successors` of the collections searched)."""
    if not newer:
        return hits
    present = {hit.document_id for hit in hits}
    stale = {doc for doc in present if doc in newer and any(d in present for d in chain(newer, doc))}
    if not stale:
        return hits
    return [hit for hit in hits if hit.document_id not in stale] + [hit for hit in hits if hit.document_id in stale]


def chain(newer: dict[int, int], document_id: int) -> list[int]:
    """Every later version of a document, nearest first."""
    out: list[int] = []
    while document_id in newer and newer[document_id] not in out:
        document_id = newer[document_id]
        out.append(document_id)
    return out
