"""make_* factories for tests."""

from __future__ import annotations

import itertools

from django.contrib.auth import get_user_model

from knowledge.models import Answer, Collection, QueryLog

_seq = itertools.count(1)


def make_user(username: str | None = None, password: str = "pw", **fields):
    """A user with a unique name."""
    return get_user_model().objects.create_user(username=username or f"user{next(_seq)}", password=password, **fields)


def make_collection(name: str | None = None, **fields) -> Collection:
    """A collection with a unique name."""
    return Collection.objects.create(name=name or f"Collection {next(_seq)}", **fields)


def all_text(parsed) -> str:
    """Every block's text of a parsed document, one block a line."""
    return "\n".join(block.text for block in parsed.blocks)


def make_answer(**fields):
    """A stored answer (an automatic one unless told otherwise)."""
    defaults = {"question_text": "What is the meal allowance?", "normalized_question": f"question {next(_seq)}",
                "text": "The daily meal allowance is 55 USD [1]."}
    return Answer.objects.create(**{**defaults, **fields})


def make_review_answer(**fields) -> Answer:
    """A stored answer with one citation, waiting for review unless told otherwise."""
    defaults = {"normalized_question": "meal allowance", "confidence": 0.4, "status": Answer.Status.NEEDS_REVIEW,
                "citations": [{"n": 1, "source": "travel.md#per-diem", "title": "Travel policy",
                               "url": "http://127.0.0.1:8000/documents/1/#per-diem", "chunk_id": 0,
                               "quote": "The daily meal allowance is 55 USD."}],
                "verification": {"score": 0.5, "claims": [
                    {"claim": {"text": "The daily meal allowance is 55 USD."}, "verdict": "supported", "reason": "ok"},
                    {"text": "Flat form claim", "verdict": "unsupported", "reason": "not in the source"},
                    "a bare string claim", {"unexpected": "keys"}]}}
    return make_answer(**{**defaults, **fields})


def make_query_log(question: str = "What is the meal allowance?", *, at=None, outcome: str = "answered",
                   channel: str = "console", latency_ms: float | None = 500.0, stages: dict | None = None,
                   answer=None, **fields):
    """A question log row asked at `at` (an aware datetime; now when None), taking `latency_ms` in all
    (its `stages` beside it); `timings_ms=` sets the stored timings as given instead."""
    timings = dict(stages or {})
    if latency_ms is not None:
        timings["total"] = latency_ms
    fields.setdefault("timings_ms", timings)
    log = QueryLog.objects.create(question=question, outcome=outcome, channel=channel, answer=answer, **fields)
    if at is not None:  # created_at is set on insert; a test that needs another time moves it after.
        QueryLog.objects.filter(pk=log.pk).update(created_at=at)
        log.created_at = at
    return log


def text_candidates(text: str, n: int = 1, score: float = 1.0):
    """The writer's candidates (units and windows) of one passage text, scored by position: the first unit best."""
    from knowledge.answering.extractive import Candidate
    from knowledge.answering.passages import SourcePassage
    from knowledge.answering.units import units_of, windows

    passage = SourcePassage(n=n, hits=[], score=score, text=text)
    units = units_of(text)
    return [Candidate(passage, unit, score - 0.01 * unit.position, 0.9) for unit in units + windows(units)]


def scored(candidates: list, score_of) -> list:
    """The candidates, each given the score `score_of(candidate)` (what the unit scorer would have said)."""
    for candidate in candidates:
        candidate.score = score_of(candidate)
    return candidates
