"""Cheap-vs-strong model routing from listable question-complexity indicators."""

from __future__ import annotations

import re
from typing import Callable, Literal

__all__ = ["INDICATORS", "LONG_QUESTION_WORDS", "complexity_indicators", "classify_complexity", "route"]

LONG_QUESTION_WORDS = 25

_COMPARISON = re.compile(
    r"\b(compare[ds]?|comparing|comparison|differences?|differ(s|ent)?|versus|vs\.?|between)\b", re.I
)
_MULTI_PART = re.compile(r"\b(and also|as well as|in addition|additionally|and then|plus also)\b", re.I)
_PROCEDURE = re.compile(r"\b(steps?|step[- ]by[- ]step|walk me through|procedure|process for)\b", re.I)
_WHY = re.compile(r"\bwhy\b", re.I)
_HOW_AND = re.compile(r"\bhow (do|can|should|would|to)\b.*\band\b", re.I | re.S)
_LIST_ITEM = re.compile(r"(?:^|\s)(?:\d+[.)]|[-*\u2022])\s+\w", re.M)
_SERIAL_LIST = re.compile(r"\w+,\s+\w+(?:\s+\w+)?,?\s+(?:and|or)\s+\w+", re.I)
_LIST_ALL = re.compile(r"\b(list (all|every|each|the)|all the|each of|every one of)\b", re.I)


def _is_long(q: str) -> bool:
    return len(q.split()) > LONG_QUESTION_WORDS


def _multiple_questions(q: str) -> bool:
    return q.count("?") >= 2


def _enumeration(q: str) -> bool:
    return len(_LIST_ITEM.findall(q)) >= 2 or bool(_SERIAL_LIST.search(q)) or bool(_LIST_ALL.search(q))


# (name, predicate) — the order is the order reasons are reported in.
INDICATORS: list[tuple[str, Callable[[str], bool]]] = [
    ("long", _is_long),
    ("multiple_questions", _multiple_questions),
    ("comparison", lambda q: bool(_COMPARISON.search(q))),
    ("multi_part", lambda q: bool(_MULTI_PART.search(q))),
    ("procedure", lambda q: bool(_PROCEDURE.search(q))),
    ("why", lambda q: bool(_WHY.search(q))),
    ("how_and", lambda q: bool(_HOW_AND.search(q))),
    ("enumeration", _enumeration),
]


def complexity_indicators(question: str) -> list[str]:
    """Names of the complexity indicators that fire for `question`."""
    q = question.strip()
    return [name for name, test in INDICATORS if test(q)]


def classify_complexity(question: str) -> Literal["simple", "complex"]:
    """"complex" if any indicator fires, else "simple"."""
    return "complex" if complexity_indicators(question) else "simple"


def route(question: str, cheap_model: str, strong_model: str) -> tuple[str, list[str]]:
    """Pick the strong model when any indicator fires; return (model, indicators that fired)."""
    reasons = complexity_indicators(question)
    return (strong_model if reasons else cheap_model), reasons
