"""Persisting what the question path did: the answer, the log row, the knowledge gap."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import F
from django.db.models.expressions import RawSQL

from knowledge.answering.result import AnswerResult
from knowledge.models import Answer, KnowledgeGap, QueryLog


def save_answer(result: AnswerResult, cache_key: str, vector, collection_ids: list[int], usage: dict) -> Answer:
    """Store a freshly generated answer (or refusal)."""
    return Answer.objects.create(
        question_text=result.question, normalized_question=cache_key, question_embedding=vector,
        text=result.answer, refused=result.refused, confidence=result.confidence,
        citations=[c.to_dict() for c in result.citations],
        chunk_ids=sorted({cid for c in result.citations for cid in (c.chunk_ids or [c.chunk_id])}),
        collection_ids=sorted(set(collection_ids)), verification=result.verification, status=result.status,
        provider=result.provider, model=result.model, usage=usage, timings_ms=result.timings_ms,
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


def record_gap(question: str, cache_key: str, searched: list[dict], collection_ids: list[int] = ()) -> None:
    """Count a refused question under its normalised form, for the owners of the collections it searched."""
    ids = sorted(set(collection_ids))
    # Asked again from elsewhere: the gap now concerns the owners of both sets of collections.
    merged = RawSQL("ARRAY(SELECT DISTINCT x FROM unnest(collection_ids || %s::bigint[]) AS x ORDER BY x)", [ids])
    updated = KnowledgeGap.objects.filter(normalized_question=cache_key).update(
        times_asked=F("times_asked") + 1, searched=searched, resolved=False, collection_ids=merged)
    if updated:
        return
    try:
        with transaction.atomic():
            KnowledgeGap.objects.create(normalized_question=cache_key, example_question=question, searched=searched,
                                        collection_ids=ids)
    except IntegrityError:  # another worker created it first
        KnowledgeGap.objects.filter(normalized_question=cache_key).update(times_asked=F("times_asked") + 1,
                                                                          collection_ids=merged)
