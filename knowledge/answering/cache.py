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
    question_id: int
    similarity: float
    score: float

    @property
    def question(self) -> Question:
        return Question.objects.defer("embedding").get(pk=self.question_id)


@dataclass
class _Candidate:
    """A stored origin question and its answer's review state: only what choosing needs (no model rows)."""

    question_id: int
    grounding: dict
    answer_id: int
    status: str
    confidence: float
    flag_pending: bool
    normalized_hash: str = ""
    similarity: float = 1.0

    @property
    def score(self) -> float:
        base = VERIFIED_WEIGHT if self.status == Answer.Status.VERIFIED else 1.0
        return self.similarity * base * (FLAG_PENDING_WEIGHT if self.flag_pending else 1.0)


_FIELDS = ("pk", "grounding", "answer_id", "answer__status", "answer__confidence", "answer__flag_pending",
           "normalized_hash")


def _origins(allowed_collection_ids: list[int], answers: QuerySet) -> QuerySet:
    return (Question.objects.origins().order_by()
            .filter(answer__in=answers.filter(collection_ids__contained_by=list(allowed_collection_ids))))


def _candidates(queryset: QuerySet, with_distance: bool = False) -> list[_Candidate]:
    fields = _FIELDS + ("distance",) if with_distance else _FIELDS
    rows = []
    for row in queryset.values_list(*fields)[:CANDIDATES]:
        candidate = _Candidate(*row[:len(_FIELDS)])
        candidate.similarity = 1.0 - float(row[-1]) if with_distance else 1.0
        rows.append(candidate)
    return rows


def _nearest(vector, min_similarity: float, allowed_collection_ids: list[int], answers: QuerySet,
             **filters) -> list[_Candidate]:
    """Origin questions nearest to the vector (HNSW), then narrowed to servable answers the asker may read.

    The nearest-neighbour subquery carries no join: a join or a filter on answers makes PostgreSQL leave
    the HNSW index for a sequential scan and sort (9 ms at 20k stored questions, growing with the table).
    """
    nearest = (Question.objects.origins().filter(embedding__isnull=False, **filters).order_by()
               .order_by(CosineDistance("embedding", vector)).values("pk")[:CANDIDATES])
    queryset = (_origins(allowed_collection_ids, answers).filter(pk__in=nearest)
                .annotate(distance=CosineDistance("embedding", vector)).filter(distance__lte=1 - min_similarity))
    return _candidates(queryset, with_distance=True)


def _reusable(candidate: _Candidate) -> bool:
    if candidate.status == Answer.Status.VERIFIED:
        return True
    return (candidate.status == Answer.Status.AUTO and candidate.confidence >= UNVERIFIED_MIN_CONFIDENCE
            and candidate.similarity >= SIMILAR_MIN_UNVERIFIED)


def _best(candidates: list[_Candidate], asked: Grounding, level: str, *, same_topics: bool = False) -> CacheHit | None:
    """The highest-ranked candidate whose stored question is grounded like the asked one, loaded."""
    ranked = sorted((c for c in candidates if _reusable(c)), key=lambda c: (c.score, c.answer_id), reverse=True)
    for candidate in ranked:  # grounding is the costly check: stop at the first candidate that passes
        stored = Grounding.from_dict(candidate.grounding or {})
        if same_topics and stored.topics != asked.topics:
            continue
        if level == "exact" or compatible(stored, asked)[0]:
            answer = Answer.objects.select_related("reviewed_by").get(pk=candidate.answer_id)
            return CacheHit(answer, level, candidate.question_id, candidate.similarity, candidate.score)
    return None


def lookup(asked: AskedQuestion, allowed_collection_ids: list[int], *, exact_only: bool = False) -> CacheHit | None:
    """The best reusable answer for this question, or None (a miss); `exact_only`: the same question only."""
    servable = Answer.objects.servable()
    exact = _candidates(_origins(allowed_collection_ids, servable).filter(normalized_hash=asked.hash))
    hit = _best(exact, asked.grounding, "exact")
    if hit or exact_only:
        return hit
    hit = _best(_nearest(asked.vector, SIMILAR_MIN, allowed_collection_ids, servable), asked.grounding, "similar")
    if hit:
        return hit
    if not (asked.grounding.entities and asked.grounding.topics):
        # The graph level joins on entities within a topic: "--force" alone joins git push and mkdocs
        # gh-deploy (fixtures/eval/reuse/dev.jsonl), so a question with no entity or no topic stops here.
        return None
    verified = servable.filter(status=Answer.Status.VERIFIED)
    graph = (_origins(allowed_collection_ids, verified).filter(entity_key=asked.entity_key, embedding__isnull=False)
             .annotate(distance=CosineDistance("embedding", asked.vector)).order_by("distance"))
    return _best(_candidates(graph, with_distance=True), asked.grounding, "graph", same_topics=True)


def flagged_predecessor(asked: AskedQuestion, allowed_collection_ids: list[int]) -> Answer | None:
    """The latest reviewer-flagged answer to this question (same text, or similar and grounded alike)."""
    flagged = Answer.objects.filter(status=Answer.Status.FLAGGED)
    rows = list(_origins(allowed_collection_ids, flagged).filter(normalized_hash=asked.hash)
                .order_by("-answer__reviewed_at")[:1])
    if rows:
        return rows[0].answer
    for candidate in sorted(_nearest(asked.vector, SIMILAR_MIN, allowed_collection_ids, flagged),
                            key=lambda c: c.similarity, reverse=True):
        if compatible(Grounding.from_dict(candidate.grounding or {}), asked.grounding)[0]:
            return Answer.objects.get(pk=candidate.answer_id)
    return None
