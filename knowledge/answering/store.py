"""Persisting what the question path did: the answer, the log row, the knowledge gap."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import F
from django.db.models.expressions import RawSQL
from pgvector.django import CosineDistance

from knowledge.answering.graph import AskedQuestion
from knowledge.answering.result import AnswerResult
from knowledge.grounding import compatible, ground
from knowledge.models import Answer, EntityPattern, KnowledgeGap, QueryLog

# Refused questions this close (and grounded alike) count as one knowledge gap: the reuse cut-off, for the
# same reason (fixtures/eval/reuse/dev.jsonl).
GAP_SIMILAR_MIN = 0.75


def save_answer(result: AnswerResult, cache_key: str, vector, collection_ids: list[int], usage: dict) -> Answer:
    """Store a freshly generated answer (or refusal)."""
    return Answer.objects.create(
        question_text=result.question, normalized_question=cache_key, question_embedding=vector,
        text=result.answer, refused=result.refused, confidence=result.confidence,
        citations=[c.to_dict() for c in result.citations],
        chunk_ids=sorted({cid for c in result.citations for cid in (c.chunk_ids or [c.chunk_id])}),
        collection_ids=sorted(set(collection_ids)), verification=result.verification, status=result.status,
        provider=result.provider, model=result.model, usage=usage, timings_ms=result.timings_ms,
        flag_reason=result.flag_reason,
    )


def save_log(result: AnswerResult, *, channel: str, user, external_user: str, outcome: str,
             usage: dict, error: str = "") -> QueryLog:
    """One structured row per asked question."""
    return QueryLog.objects.create(
        question=result.question, standalone_question=result.standalone_question, channel=channel,
        user=user if getattr(user, "pk", None) else None, external_user=external_user,
        answer_id=result.answer_id, outcome=outcome, cache=result.cache, confidence=result.confidence,
        retrieved=result.retrieved, provider=result.provider, model=result.model,
        input_tokens=int(usage.get("input_tokens", 0)), output_tokens=int(usage.get("output_tokens", 0)),
        cost_usd=float(usage.get("cost_usd", 0.0)), timings_ms=result.timings_ms, error=error,
    )


def similar_gap(asked: AskedQuestion) -> KnowledgeGap | None:
    """An open gap asking the same thing: same normalised text, or similar and grounded alike."""
    same = KnowledgeGap.objects.filter(normalized_question=asked.normalized[:500]).first()
    if same is not None:
        return same
    patterns = EntityPattern.compiled()
    near = (KnowledgeGap.objects.filter(resolved=False, embedding__isnull=False)
            .annotate(distance=CosineDistance("embedding", asked.vector))
            .filter(distance__lte=1 - GAP_SIMILAR_MIN).order_by("distance")[:10])
    for gap in near:
        if compatible(ground(gap.example_question, patterns), asked.grounding)[0]:
            return gap
    return None


def record_gap(question: str, asked: AskedQuestion, collection_ids: list[int], searched: list[dict]) -> None:
    """Count a refused question under the open gap that asks the same thing, or open a new one."""
    ids = sorted(set(collection_ids))
    # Asked again from elsewhere: the gap now concerns the owners of both sets of collections.
    merged = RawSQL("ARRAY(SELECT DISTINCT x FROM unnest(collection_ids || %s::bigint[]) AS x ORDER BY x)", [ids])
    gap = similar_gap(asked)
    if gap is not None:
        KnowledgeGap.objects.filter(pk=gap.pk).update(times_asked=F("times_asked") + 1, searched=searched,
                                                      resolved=False, resolved_by=None, resolution="",
                                                      collection_ids=merged)
        return
    try:
        with transaction.atomic():
            KnowledgeGap.objects.create(normalized_question=asked.normalized[:500], example_question=question,
                                        searched=searched, embedding=asked.vector,
                                        collection_ids=ids,
                                        topic_id=asked.topic_ids[0] if asked.topic_ids else None)
    except IntegrityError:  # another worker created it first
        KnowledgeGap.objects.filter(normalized_question=asked.normalized[:500]).update(
            times_asked=F("times_asked") + 1, collection_ids=merged)
