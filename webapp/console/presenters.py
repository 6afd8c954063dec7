"""Shape answers and verification reports for templates, tolerating older or partial JSON."""

from __future__ import annotations

from django.conf import settings

from knowledge.models import Answer, Chunk, Feedback
from verification import curation

VERDICT_STYLES = {"supported": "ok", "unsupported": "bad", "contradicted": "bad", "partial": "warn"}


def local_url(url: str) -> str:
    """Citation URLs are absolute (for Slack); inside the console, link relative to this site."""
    base = settings.SITE_URL
    return url[len(base):] or "/" if url and url.startswith(base) else url or ""


def confidence_level(confidence: float) -> str:
    """high / medium / low, for colouring the confidence bar."""
    if confidence >= 0.75:
        return "high"
    if confidence >= settings.VERITY_ANSWER_MIN_CONFIDENCE:
        return "medium"
    return "low"


def answer_card(data: dict, question: str, standalone_question: str = "") -> dict:
    """An AnswerResult.to_dict() (or a stored answer in that shape) ready for the answer card; a follow-up
    also shows the question it was read as."""
    citations = [{**c, "href": local_url(c.get("url", ""))} for c in data.get("citations") or [] if isinstance(c, dict)]
    closest = [{**c, "href": local_url(c.get("url", ""))} for c in data.get("closest") or [] if isinstance(c, dict)]
    confidence = float(data.get("confidence") or 0)
    return {**data, "question": question, "standalone_question": standalone_question, "citations": citations,
            "closest": closest, "confidence_pct": round(confidence * 100), "level": confidence_level(confidence),
            "verified": data.get("status") == Answer.Status.VERIFIED}


def stored_answer_card(answer: Answer, question: str = "", standalone_question: str = "") -> dict:
    """The answer card for an answer read back from the database (`question` as this asker put it, when known),
    with the warning every channel shows."""
    data = {"answer": answer.text, "refused": answer.refused, "confidence": answer.confidence,
            "citations": answer.citations, "status": answer.status, "answer_id": answer.pk,
            "warning": curation.served_answer(answer).warning,
            "cache": "stored", "verification": answer.verification}
    return answer_card(data, question or answer.question_text, standalone_question)


def turn_cards(turns) -> list[dict]:
    """Earlier turns of a conversation for the Ask page: question, answer and links to the cited sources."""
    return [{"question": t.question, "standalone_question": t.standalone_question, "answer": t.answer,
             "refused": t.refused, "answer_id": t.answer_id,
             "sources": [{"n": c.get("n"), "title": c.get("title") or c.get("source") or "Source",
                          "href": local_url(c.get("url", ""))} for c in t.citations if isinstance(c, dict)]}
            for t in turns]


def claims(verification) -> list[dict]:
    """Per-claim verdicts as {text, verdict, reason, style}, whatever shape the report's claims have."""
    items = verification.get("claims") if isinstance(verification, dict) else None
    rows = []
    for item in items or []:
        if isinstance(item, str):
            rows.append({"text": item, "verdict": "", "reason": "", "style": ""})
            continue
        if not isinstance(item, dict):
            continue
        text = item.get("text")
        claim = item.get("claim")
        if not text and isinstance(claim, dict):
            text = claim.get("text")
        elif not text and isinstance(claim, str):
            text = claim
        verdict = str(item.get("verdict") or item.get("label") or "")
        rows.append({"text": text or "(no text)", "verdict": verdict, "reason": str(item.get("reason") or ""),
                     "style": VERDICT_STYLES.get(verdict.lower(), "warn" if verdict else "")})
    return rows


def review_items(answers: list[Answer]) -> list[dict]:
    """Each queued answer with its cited passages (full chunk text when the chunk still exists) and claims."""
    chunk_ids = {c.get("chunk_id") for a in answers for c in (a.citations or []) if isinstance(c, dict)}
    texts = dict(Chunk.objects.filter(pk__in=[i for i in chunk_ids if isinstance(i, int)]).values_list("pk", "text"))
    reasons: dict[int, list] = {}
    for feedback in Feedback.objects.filter(answer__in=answers).exclude(reason="").order_by("-created_at"):
        reasons.setdefault(feedback.answer_id, []).append(feedback)
    items = []
    for answer in answers:
        passages = []
        for c in answer.citations or []:
            if not isinstance(c, dict):
                continue
            passages.append({"n": c.get("n"), "title": c.get("title") or c.get("source") or "Source",
                             "source": c.get("source", ""), "href": local_url(c.get("url", "")),
                             "text": texts.get(c.get("chunk_id")) or c.get("quote") or "",
                             "missing": c.get("chunk_id") not in texts})
        verification = answer.verification if isinstance(answer.verification, dict) else {}
        items.append({"answer": answer, "passages": passages, "claims": claims(verification),
                      "score": verification.get("score"), "confidence_pct": round((answer.confidence or 0) * 100),
                      "level": confidence_level(answer.confidence or 0), "feedback": reasons.get(answer.pk, [])[:5]})
    return items
