"""Stored answers as the bot shows them: an AnswerResult rebuilt from an Answer row, and its owners."""

from __future__ import annotations

from knowledge.answering import AnswerResult, Citation
from knowledge.models import Answer, Collection
from verification import curation

_CITATION_FIELDS = ("n", "source", "title", "url", "chunk_id", "quote", "collection", "updated_at")


def result_for(answer: Answer) -> AnswerResult:
    """An AnswerResult for an Answer row (for sharing and re-rendering after a review)."""
    served = curation.served_answer(answer)
    citations = [Citation(**{k: c.get(k, "" if k not in ("n", "chunk_id") else 0) for k in _CITATION_FIELDS})
                 for c in answer.citations or []]
    return AnswerResult(question=answer.question_text, answer=answer.text, refused=answer.refused,
                        confidence=answer.confidence, citations=citations, status=answer.status,
                        warning=served.warning, answer_id=answer.pk, badge=served.badge, flag_reason=served.flag_reason)


def owner_emails(answer: Answer) -> list[str]:
    """E-mail addresses of the owners of the collections this answer cites."""
    names = {c.get("collection") for c in answer.citations or [] if c.get("collection")}
    emails = (Collection.objects.filter(name__in=names).exclude(owners__email="")
              .values_list("owners__email", flat=True).distinct())
    return sorted(e for e in emails if e)
