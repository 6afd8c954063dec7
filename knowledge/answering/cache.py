"""Answer reuse, grounded on entities: L1 exact question → L2 similar question → L3 topic + entity graph.

A stored answer is served only when the asked question is *grounded* like the question the answer was
written for (knowledge.grounding: same entities, numbers, options, versions, polarity and direction).
Candidates rank by similarity × a review weight; flagged, stale and expired answers are never served.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet
from pgvector.django import CosineDistance

from knowledge.answering.graph import AskedQuestion
from knowledge.grounding import Grounding, compatible
from knowledge.models import Answer, Question

# Fitted on fixtures/eval/reuse/dev.jsonl only (`python scripts/eval_reuse.py dev`): with grounding, no dev
# near-opposite is reused at any cut; 0.75 is the highest cut that still reuses 90 % (63/70) of dev paraphrases.
# The floor keeps questions about other subjects (no shared entities, few shared words) apart.
SIMILAR_MIN = 0.75
# Unreviewed answers are reused only for practically the same question, and only when confident.
SIMILAR_MIN_UNVERIFIED = 0.97
UNVERIFIED_MIN_CONFIDENCE = 0.7
# Ranking: relevance × weight. A reviewer's verification counts for more; an answer a user flagged (waiting
# for a reviewer) for less.
VERIFIED_WEIGHT = 1.5
FLAG_PENDING_WEIGHT = 0.5
CANDIDATES = 20


@dataclass
class CacheHit:
    """A reusable answer, the level that found it and the stored question it was grounded on."""

    answer: Answer
    level: str  # "exact", "similar" or "graph"
    question: Question
    similarity: float
    score: float


def weight(answer: Answer) -> float:
    """Review weight of an answer in the ranking."""
    base = VERIFIED_WEIGHT if answer.status == Answer.Status.VERIFIED else 1.0
    return base * (FLAG_PENDING_WEIGHT if answer.flag_pending else 1.0)


def _origins(allowed_collection_ids: list[int], answers: QuerySet) -> QuerySet:
    return (Question.objects.origins()
            .filter(answer__in=answers.filter(collection_ids__contained_by=list(allowed_collection_ids)))
            .select_related("answer", "answer__reviewed_by"))


def _nearest(vector, min_similarity: float, allowed_collection_ids: list[int], answers: QuerySet,
             **filters) -> list[Question]:
    """Origin questions nearest to the vector (HNSW), then narrowed to servable answers the asker may read.

    The nearest-neighbour query carries no join: a join or a filter on answers makes PostgreSQL leave the
    HNSW index for a sequential scan and sort (9 ms at 20k stored questions, growing with the table).
    """
    nearest = list(Question.objects.origins().filter(embedding__isnull=False, **filters)
                   .annotate(distance=CosineDistance("embedding", vector)).order_by("distance")
                   .values_list("pk", "distance")[:CANDIDATES])
    distances = {pk: d for pk, d in nearest if d <= 1 - min_similarity}
    if not distances:
        return []
    rows = list(_origins(allowed_collection_ids, answers).filter(pk__in=list(distances)))
    for row in rows:
        row.distance = distances[row.pk]
    return rows


def _reusable(answer: Answer, similarity: float) -> bool:
    if answer.status == Answer.Status.VERIFIED:
        return True
    return (answer.status == Answer.Status.AUTO and answer.confidence >= UNVERIFIED_MIN_CONFIDENCE
            and similarity >= SIMILAR_MIN_UNVERIFIED)


def _best(rows: list[Question], asked: Grounding, level: str, *, verified_only: bool = False,
          same_topics: bool = False) -> CacheHit | None:
    hits = []
    for row in rows:
        similarity = 1.0 - float(getattr(row, "distance", 0.0) or 0.0)
        answer = row.answer
        if verified_only and answer.status != Answer.Status.VERIFIED:
            continue
        if not _reusable(answer, similarity if level != "exact" else 1.0):
            continue
        stored = Grounding.from_dict(row.grounding or {})
        if same_topics and stored.topics != asked.topics:
            continue
        if level != "exact" and not compatible(stored, asked)[0]:
            continue
        hits.append(CacheHit(answer, level, row, similarity, similarity * weight(answer)))
    return max(hits, key=lambda h: (h.score, h.answer.pk), default=None)


def lookup(asked: AskedQuestion, allowed_collection_ids: list[int]) -> CacheHit | None:
    """The best reusable answer for this question, or None (a miss)."""
    servable = Answer.objects.servable()
    exact = list(_origins(allowed_collection_ids, servable).filter(normalized_hash=asked.hash)[:CANDIDATES])
    hit = _best(exact, asked.grounding, "exact")
    if hit:
        return hit
    similar = _nearest(asked.vector, SIMILAR_MIN, allowed_collection_ids, servable)
    hit = _best(similar, asked.grounding, "similar")
    if hit:
        return hit
    if not (asked.grounding.entities and asked.grounding.topics):
        # The graph level joins on entities within a topic: "--force" alone joins git push and mkdocs
        # gh-deploy (fixtures/eval/reuse/dev.jsonl), so a question with no entity or no topic stops here.
        return None
    graph = list(_origins(allowed_collection_ids, servable.filter(status=Answer.Status.VERIFIED))
                 .filter(entity_key=asked.entity_key, embedding__isnull=False)
                 .annotate(distance=CosineDistance("embedding", asked.vector)).order_by("-answer__pk")[:CANDIDATES])
    return _best(graph, asked.grounding, "graph", verified_only=True, same_topics=True)


def flagged_predecessor(asked: AskedQuestion, allowed_collection_ids: list[int]) -> Answer | None:
    """The latest reviewer-flagged answer to this question (same text, or similar and grounded alike)."""
    flagged = Answer.objects.filter(status=Answer.Status.FLAGGED)
    rows = list(_origins(allowed_collection_ids, flagged).filter(normalized_hash=asked.hash)
                .order_by("-answer__reviewed_at")[:1])
    if rows:
        return rows[0].answer
    for row in sorted(_nearest(asked.vector, SIMILAR_MIN, allowed_collection_ids, flagged), key=lambda r: r.distance):
        if compatible(Grounding.from_dict(row.grounding or {}), asked.grounding)[0]:
            return row.answer
    return None
