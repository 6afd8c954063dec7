"""Redaction latency on typical questions after warm-up (target p50 <= 10 ms). Run with `make bench`."""

from __future__ import annotations

import statistics
import time

from knowledge.redaction import redact, warm_up

QUESTIONS = [
    "How many vacation days do I get?",
    "Who approves Dana's expense over $1,500?",
    "What does error E4012 mean?",
    "Is FEATURE_CHECKOUT_V2 on in staging?",
    "How do I reset my VPN password?",
    "SEV2 incidents page within 15 minutes?",
    "My card 4111 1111 1111 1111 was charged twice, who do I call at +1 415 555 0134?",
] * 20


def test_bench_redaction(capsys):
    warm_up()
    timings = []
    for question in QUESTIONS:
        started = time.perf_counter()
        redact(question)
        timings.append((time.perf_counter() - started) * 1000)
    ordered = sorted(timings)
    with capsys.disabled():
        print(f"\n[redaction] {len(timings)} questions: p50 {statistics.median(timings):.2f} ms, "
              f"p95 {ordered[int(0.95 * (len(ordered) - 1))]:.2f} ms")
    assert len(timings) == len(QUESTIONS)
