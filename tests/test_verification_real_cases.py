"""Floors for the answer checker on the TEST split of the planted-error cases from the real corpus.

The cases carry their passages (fixtures/eval/real/verify/test.jsonl, built by
scripts/build_verify_cases.py), so no corpus download is needed. Lexical mode (no MiniLM): the
figures measured by `python -m verification.evaluate_cases fixtures/eval/real/verify/test.jsonl`,
with the cut-offs fitted on dev (verification/fitted.py, scripts/fit_verifier.py), less a margin of 0.03
(recall) / plus 0.03 (false flags: a ceiling). They guard against regressions; they are not the targets
(false flags <= 0.05, every type >= 0.85), which the checker does not yet reach.
"""

from __future__ import annotations

import json
from pathlib import Path

from verification.checks import verify_answer
from verification.evaluate_cases import score_cases

TEST = Path(__file__).resolve().parent.parent / "fixtures" / "eval" / "real" / "verify" / "test.jsonl"
MEASURED_RECALL = {"number": 0.85, "entity_swap": 0.5625, "negation": 0.575, "unsupported_addition": 0.9625,
                   "wrong_citation": 0.95, "fabricated_url": 1.0, "out_of_range_citation": 1.0}
MEASURED_FALSE_FLAGS = 0.143
MARGIN = 0.03


def test_case_file_has_every_type_and_enough_faithful_answers() -> None:
    cases = [json.loads(line) for line in TEST.read_text().splitlines() if line.strip()]
    kinds = [c["corruption"] for c in cases if not c["faithful"]]
    assert sum(c["faithful"] for c in cases) >= 150
    assert all(kinds.count(k) >= 40 for k in MEASURED_RECALL)
    assert all(c["sources"] and all(s["text"] for s in c["sources"]) for c in cases)


def test_checker_floors_on_the_test_split() -> None:
    cases = [json.loads(line) for line in TEST.read_text().splitlines() if line.strip()]
    result = score_cases(cases, verify_answer)
    for kind, floor in MEASURED_RECALL.items():
        assert result["recall"][kind] >= floor - MARGIN, (kind, result["recall"][kind])
    assert result["false_flag_rate"] <= MEASURED_FALSE_FLAGS + MARGIN, result["false_flag_rate"]


def test_a_planted_swap_trades_names_in_different_roles_never_two_listed_side_by_side() -> None:
    import sys

    scripts = str(Path(__file__).resolve().parent.parent / "scripts")
    sys.path.insert(0, scripts)
    try:
        from evalcorpus.plants import plant_entity_swap
    finally:
        sys.path.remove(scripts)

    def case(answer: str, passage: str) -> dict:
        # The id picks the swapped-pairing route of the planter (its hash is even).
        return {"id": "x0", "question": "q", "doc": "d", "answer": answer, "sources": [{"n": 1, "text": passage}]}

    # "'false' and 'true'" read as "'true' and 'false'" says the same: no swap is planted there.
    listed = plant_entity_swap(case('Only lowercase "false" and "true" are accepted [1].',
                                    "Only lowercase false and true are accepted."))
    assert listed is None or listed["planted"] != "false <-> true"
    roles = plant_entity_swap(case("Redis replaces RabbitMQ as the broker, and Celery reads it from Kombu [1].",
                                   "Redis replaces RabbitMQ as the broker. Celery reads it from Kombu."))
    assert roles is not None and roles["planted"] == "Celery <-> Kombu"
    assert "Kombu reads it from Celery" in roles["answer"]
