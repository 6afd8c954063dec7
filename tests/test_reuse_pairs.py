"""The reuse pair set (fixtures/eval/reuse): near-opposites never reuse an answer; most paraphrases do.

Floors come from the test split as measured with `python scripts/eval_reuse.py test` (0 of 78 false
hits, 44 of 51 paraphrases reused); the cut-offs in knowledge.answering.cache were fitted on dev only.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from knowledge.reuse_evaluation import evaluate_pairs, load_pairs
from tests.factories import make_collection

PAIRS = Path(__file__).resolve().parent.parent / "fixtures" / "eval" / "reuse"
MIN_REUSE_RATE = 0.80


def test_the_pair_set_is_large_enough_and_split_by_stored_question():
    dev, test = load_pairs(PAIRS / "dev.jsonl"), load_pairs(PAIRS / "test.jsonl")
    pairs = dev + test
    assert sum(not p["reuse"] for p in pairs) >= 100 and sum(p["reuse"] for p in pairs) >= 100
    assert not {p["stored"] for p in dev} & {p["stored"] for p in test}
    assert {"identifier", "option", "version", "number", "polarity", "negation", "reversal", "object",
            "paraphrase", "casual"} <= {p["kind"] for p in pairs}


@pytest.mark.django_db
def test_test_split_has_no_false_hits_and_reuses_paraphrases(embedder):
    report = evaluate_pairs(load_pairs(PAIRS / "test.jsonl"), embedder, make_collection())
    wrong = [p for p in report["pairs"] if not p["reuse"] and not p["ok"]]
    assert report["false_hits"] == 0, wrong
    assert report["reuse_rate"] >= MIN_REUSE_RATE, report["by_kind"]
