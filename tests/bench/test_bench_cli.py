"""Wall time of `manage.py ask` from process start to exit, ONNX embedder vs torch.

Run with `make bench`; prints the median of VERITY_BENCH_CLI_RUNS runs (default 5) for each runtime.
The database and corpus are the development ones (`make setup`), so the answer path is the real one.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNS = int(os.environ.get("VERITY_BENCH_CLI_RUNS", "5"))
QUESTIONS = ("How many vacation days do I get?", "Can I work from abroad?", "How do I reset my VPN password?")


def _median_wall(runtime: str) -> tuple[float, float]:
    env = {**os.environ, "VERITY_EMBED_RUNTIME": runtime}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    walls = []
    for i in range(RUNS):
        started = time.perf_counter()
        subprocess.run([sys.executable, "manage.py", "ask", QUESTIONS[i % len(QUESTIONS)], "--no-cache"],
                       cwd=ROOT, env=env, check=True, capture_output=True)
        walls.append(time.perf_counter() - started)
    return statistics.median(walls), max(walls)


@pytest.mark.parametrize("runtime", ["auto", "torch"])
def test_bench_cli_ask(runtime):
    median, worst = _median_wall(runtime)
    print(f"\nmanage.py ask, runtime={runtime}: median {median:.2f} s, max {worst:.2f} s over {RUNS} runs")
