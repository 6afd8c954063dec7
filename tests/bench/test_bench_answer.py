"""Per-stage latency of answer_question on the extractive path at 10k and 100k chunks.

Run with `make bench`. The index is the sample corpus plus altered copies (see synthetic.py).
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

import pytest

from knowledge.answering import AskOptions, answer_question
from knowledge.answering.providers import default_providers
from knowledge.models import Chunk
from knowledge.redaction import warm_up
from tests.bench.synthetic import replicate_chunks

QUESTIONS = Path(__file__).resolve().parents[2] / "fixtures" / "eval" / "questions.jsonl"


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


@pytest.mark.django_db(transaction=True)
def test_bench_answer_latency(corpus_db, capsys):
    warm_up()
    providers = default_providers()
    questions = [json.loads(line)["question"] for line in QUESTIONS.read_text().splitlines() if line.strip()]
    for size in (10_000, 100_000):
        started = time.perf_counter()
        total = replicate_chunks(size)
        grow = time.perf_counter() - started
        for question in questions[:5]:  # warm caches (term statistics, models)
            answer_question(question, AskOptions(use_cache=False, store=False), providers)
        stages: dict[str, list[float]] = {}
        for question in questions:
            result = answer_question(question, AskOptions(use_cache=False, store=False), providers)
            for stage, ms in result.timings_ms.items():
                stages.setdefault(stage, []).append(ms)
        with capsys.disabled():
            print(f"\n[answer] {total} chunks (grown in {grow:.0f}s), {len(questions)} questions, extractive path")
            for stage in ("understand", "embed", "retrieve", "retrieve_dense", "retrieve_lexical", "retrieve_identifier",
                          "retrieve_fuse", "rerank", "assess", "verify", "total"):
                values = stages.get(stage, [0.0])
                print(f"[answer]   {stage:<19} p50 {statistics.median(values):7.1f} ms   p95 {_pct(values, 0.95):7.1f} ms")
        assert Chunk.objects.count() >= size
