"""Round trip: the system's own extractive answers pass its own checker.

Every answerable question of fixtures/eval/questions.jsonl is asked through the real answer path over
the sample corpus (no cache, nothing stored), and the first verification round, the one that checks the
answer as written, must flag none of its claims: an extractive answer copies its sources, so a flag
there is a false flag of the checker.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from knowledge.answering import AskOptions, answer_question

QUESTIONS = Path(__file__).resolve().parent.parent / "fixtures" / "eval" / "questions.jsonl"


@pytest.mark.django_db
def test_extractive_answers_pass_the_checker(corpus_db) -> None:
    questions = [json.loads(line) for line in QUESTIONS.read_text().splitlines() if line.strip()]
    answerable = [q for q in questions if q["answerable"]]
    checked = 0
    flagged: list[tuple[str, list[dict]]] = []
    for item in answerable:
        result = answer_question(item["question"], AskOptions(use_cache=False, store=False))
        if result.refused:
            continue
        first = result.verification["rounds"][0]
        checked += len(first["verdicts"])
        if first["failing"]:
            flagged.append((item["id"], first["failing"]))
    assert checked >= len(answerable), "too few claims were checked to mean anything"
    assert not flagged, flagged
