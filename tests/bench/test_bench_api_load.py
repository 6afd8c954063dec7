"""50 concurrent POST /api/ask against gunicorn (the project's gunicorn.conf.py) on this machine.

Prints client-side latency (p50/p95/p99), errors, and the server's own per-stage timings, so that
the time a request spends queued (waiting for a free worker) is told apart from the time spent
answering. Run: .venv/bin/python -m pytest tests/bench/test_bench_api_load.py -q -s
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from rest_framework.authtoken.models import Token

from tests.factories import make_user
from tests.live import ROOT, db_env, free_port, http, wait_until

CONCURRENT = 50
QUESTIONS = Path(__file__).resolve().parents[2] / "fixtures" / "eval" / "questions.jsonl"


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


@pytest.mark.django_db(transaction=True)
def test_bench_fifty_concurrent_asks(corpus_db, tmp_path):
    token = Token.objects.create(user=make_user()).key
    questions = [json.loads(line)["question"] for line in QUESTIONS.read_text().splitlines() if line.strip()]
    port = free_port()
    env = db_env(VERITY_API_RATE="10000/min", VERITY_WEB_BIND=f"127.0.0.1:{port}")
    log = open(tmp_path / "gunicorn.log", "w")
    web = subprocess.Popen([sys.executable, "-m", "gunicorn", "webapp.wsgi"], cwd=ROOT, env=env, stdout=log,
                           stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
    try:
        wait_until(lambda: _up(base), 180, "gunicorn")
        for question in questions[:3]:  # every worker's first request loads models lazily: not measured
            http("POST", f"{base}/api/ask", json.dumps({"question": question}).encode(), headers)

        def ask(i: int) -> tuple[int, float, dict]:
            body = json.dumps({"question": questions[(i + 3) % len(questions)]}).encode()
            started = time.perf_counter()
            status, _, content = http("POST", f"{base}/api/ask", body, headers, timeout=300)
            elapsed = (time.perf_counter() - started) * 1000
            data = json.loads(content) if status == 200 else {}
            return status, elapsed, {**data.get("timings_ms", {}), "_cache": data.get("cache", "")}

        with ThreadPoolExecutor(CONCURRENT) as pool:
            results = list(pool.map(ask, range(CONCURRENT)))
    finally:
        web.terminate()
        web.wait(timeout=60)
        log.close()
    latencies = [ms for _, ms, _ in results]
    errors = sum(1 for status, _, _ in results if status != 200)
    served = [t.get("total", 0.0) for _, _, t in results if t]
    reused = sum(1 for _, _, t in results if t.get("_cache") not in ("", "miss"))
    print(f"\n[api-load] {CONCURRENT} concurrent asks, {os.cpu_count()} cores, workers={os.cpu_count() + 1}: "
          f"p50 {statistics.median(latencies):.0f} ms  p95 {_pct(latencies, 0.95):.0f} ms  "
          f"p99 {_pct(latencies, 0.99):.0f} ms  errors {errors}; {len(set(questions))} distinct questions, "
          f"{reused} answers reused from the answer cache")
    print(f"[api-load] answering itself (server timings total): p50 {statistics.median(served):.0f} ms  "
          f"p99 {_pct(served, 0.99):.0f} ms; the rest is waiting for a worker")
    stages: dict[str, list[float]] = {}
    for _, _, timings in results:
        for stage, ms in timings.items():
            if stage.startswith("_"):
                continue
            stages.setdefault(stage, []).append(ms)
    for stage, values in sorted(stages.items(), key=lambda kv: -statistics.median(kv[1])):
        print(f"[api-load]   {stage:<20} p50 {statistics.median(values):7.1f} ms  p99 {_pct(values, 0.99):7.1f} ms")
    assert errors == 0


def _up(base: str) -> bool:
    try:
        return http("GET", base + "/login/", timeout=5)[0] == 200
    except OSError:
        return False
