"""Answer reuse: L1 exact question, L2 similar question. Verified answers win; flagged are never served."""

from __future__ import annotations

import numpy as np
from django.db.models import Case, IntegerField, Value, When
from pgvector.django import CosineDistance

from knowledge.models import Answer

SIMILAR_MIN = 0.93          # cosine between questions for a verified answer to be reused
SIMILAR_MIN_UNVERIFIED = 0.97
UNVERIFIED_MIN_CONFIDENCE = 0.7


def _ranked(queryset):
    verified_first = Case(When(status=Answer.Status.VERIFIED, then=Value(0)), default=Value(1),
                          output_field=IntegerField())
    return queryset.annotate(verified_first=verified_first)


def lookup(cache_key: str, vector: np.ndarray, allowed_collection_ids: list[int]) -> tuple[Answer | None, str]:
    """A reusable answer and the cache level that found it ('exact' or 'similar'), or (None, 'miss')."""
    servable = Answer.objects.servable().filter(collection_ids__contained_by=allowed_collection_ids)
    exact = _ranked(servable.filter(normalized_question=cache_key)).filter(
        status__in=[Answer.Status.VERIFIED, Answer.Status.AUTO]).order_by("verified_first", "-created_at").first()
    if exact is not None and (exact.status == Answer.Status.VERIFIED or exact.confidence >= UNVERIFIED_MIN_CONFIDENCE):
        return exact, "exact"
    similar = (
        _ranked(servable.filter(question_embedding__isnull=False))
        .annotate(distance=CosineDistance("question_embedding", vector))
        .filter(distance__lte=1 - SIMILAR_MIN)
        .order_by("distance")[:5]
    )
    for answer in sorted(similar, key=lambda a: (a.verified_first, a.distance)):
        if answer.status == Answer.Status.VERIFIED:
            return answer, "similar"
        if (answer.status == Answer.Status.AUTO and answer.distance <= 1 - SIMILAR_MIN_UNVERIFIED
                and answer.confidence >= UNVERIFIED_MIN_CONFIDENCE):
            return answer, "similar"
    return None, "miss"
