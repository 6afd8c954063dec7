"""Benchmark: bursts of 100 Slack events at once; ack latency, placeholder delay, exactly-once answers.

Everything runs as it would in production, each in its own process, on the test database: the
answer worker is a real `manage.py qcluster` (django-q2's ORM broker, 2 workers); Slack's side is
the local Slack Web API server in this process. Two fronts:
- HTTP: gunicorn with the project's `gunicorn.conf.py` (workers = cores + 1, each warmed at start),
  the burst signed and posted by a separate load process (`slack_load.py`);
- Socket Mode: `manage.py runbot` connected to a local WebSocket server (in this process) that
  sends the burst as Slack's envelopes and times each envelope's ack.
Before the bursts, ten questions are asked one at a time (each once the previous placeholder is
up) and answered, so the measured system is a running one (worker models loaded), not a cold
start. Three bursts, each once the previous one is answered; figures are medians over the bursts.
Run with `make bench` (or `pytest tests/bench/test_bench_slack.py -s`).
"""

from __future__ import annotations

import json
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from typing import Callable

import pytest
from django.db import connection

from bot.models import SlackQuestion
from tests.servers.fake_slack import FakeSlack, event_callback, mention, signed_headers
from tests.servers.fake_socket_mode import FakeSocketMode

ROOT = Path(__file__).resolve().parents[2]
SECRET = "bench-signing-secret"
EVENTS = 100
BURSTS = 3
WARM_QUESTIONS = 10
QUESTIONS = [
    "How many weeks of paid parental leave do eligible employees get?",
    "Which form do I use to request parental leave?",
    "How long is the parental leave entitlement for part-time employees?",
    "Is there a pregnancy recovery leave for birthing parents?",
]
ACK_P99_TARGET_MS = 100
ACK_P99_LIMIT_MS = 1000  # fail the bench above this: Slack gives up after 3 s

# send(envelopes) -> (ack latency in ms per envelope, wall-clock send time per envelope)
Sender = Callable[[list[dict]], tuple[list[float], list[float]]]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def post(url: str, body: str) -> float:
    request = urllib.request.Request(url, body.encode(), {"Content-Type": "application/json",
                                                          **signed_headers(body, SECRET)})
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=30) as response:
        response.read()
        assert response.status == 200
    return (time.perf_counter() - started) * 1000


def wait_until(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


@contextmanager
def running(*commands: tuple[list[str], Path], env: dict):
    """Start each command (output to its log file); stop them all on exit."""
    processes = []
    try:
        for argv, log in commands:
            with open(log, "w") as log_file:
                processes.append(subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log_file, stderr=subprocess.STDOUT))
        yield processes
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=30)


def server_env(fake: FakeSlack, **extra: str) -> dict:
    db = connection.settings_dict
    return dict(os.environ, DATABASE_URL=f"postgresql://{db['USER']}@/{db['NAME']}?host={db['HOST']}",
                VERITY_TASK_BACKEND="django_q", VERITY_Q_WORKERS="2", SLACK_BOT_TOKEN="xoxb-bench",
                SLACK_API_URL=fake.api_url, SLACK_SIGNING_SECRET=SECRET, SLACK_USER_RATE_PER_MINUTE="1000", **extra)


def placeholder_at(fake: FakeSlack, event_ts: str) -> float | None:
    return next((c.at for c in fake.calls_of("chat.postMessage") if c.params.get("thread_ts") == event_ts), None)


def measure(front: str, fake: FakeSlack, send: Sender, user_prefix: str) -> None:
    """Warm up one question at a time, then BURSTS bursts of EVENTS; print the figures and check exactly-once."""
    lone_ack, lone_placeholder = [], []
    for i in range(WARM_QUESTIONS):
        envelope = event_callback(mention(QUESTIONS[i % len(QUESTIONS)], user=f"{user_prefix}SEQ{i}"))
        (ack_ms,), (sent,) = send([envelope])
        lone_ack.append(ack_ms)
        wait_until(lambda: placeholder_at(fake, envelope["event"]["ts"]), 30, "a placeholder")
        lone_placeholder.append((placeholder_at(fake, envelope["event"]["ts"]) - sent) * 1000)
    wait_until(lambda: len(fake.called("chat.update")) >= WARM_QUESTIONS, 300, "the warm-up answers")

    bursts = []
    for burst in range(BURSTS):
        answered_before = len(fake.called("chat.update"))
        envelopes = [event_callback(mention(QUESTIONS[i % len(QUESTIONS)], user=f"{user_prefix}{burst}{i:03d}",
                                            ts=f"{time.time():.6f}{i:03d}")) for i in range(EVENTS)]
        started = time.perf_counter()
        latencies, sent_at = send(envelopes)
        wait_until(lambda: len(fake.called("chat.update")) >= answered_before + EVENTS, 600, "the answers")
        bursts.append((envelopes, latencies, sent_at, time.perf_counter() - started))
    time.sleep(1.0)  # room for any duplicate to show up

    placeholders = {c.response["ts"]: c for c in fake.calls_of("chat.postMessage")}
    per_event = Counter(placeholders[u["ts"]].params["thread_ts"] for u in fake.called("chat.update"))
    p50s, p99s, shown_p50s, shown_p95s, answered_s, exactly_once = [], [], [], [], [], 0
    for envelopes, latencies, sent_at, took_s in bursts:
        sent = {e["event"]["ts"]: at for e, at in zip(envelopes, sent_at)}
        shown_ms = [(c.at - sent[c.params["thread_ts"]]) * 1000 for c in placeholders.values()
                    if c.params.get("thread_ts") in sent]
        assert len(shown_ms) == EVENTS
        p50s.append(statistics.median(latencies))
        p99s.append(percentile(latencies, 99))
        shown_p50s.append(statistics.median(shown_ms))
        shown_p95s.append(percentile(shown_ms, 95))
        answered_s.append(took_s)
        exactly_once += sum(1 for ts in sent if per_event[ts] == 1)
        print(f"\n  {front} burst: ack p50 {p50s[-1]:.1f} ms, p99 {p99s[-1]:.1f} ms, max {max(latencies):.1f} ms; "
              f"placeholder p50 {shown_p50s[-1]:.0f} ms, p95 {shown_p95s[-1]:.0f} ms; all answered in {took_s:.1f} s",
              end="")
    statuses = Counter(SlackQuestion.objects.filter(user_id__startswith=user_prefix).exclude(
        user_id__startswith=f"{user_prefix}SEQ").values_list("status", flat=True))
    p99 = statistics.median(p99s)
    print(f"\nSlack bench, {front} ({os.cpu_count()} cores; {BURSTS} bursts of {EVENTS} concurrent events; medians "
          f"over bursts): one event at a time: ack p50 {statistics.median(lone_ack):.1f} ms, placeholder p50 "
          f"{statistics.median(lone_placeholder):.0f} ms; bursts: ack p50 {statistics.median(p50s):.1f} ms, p99 "
          f"{p99:.1f} ms (p99 target {ACK_P99_TARGET_MS} ms {'met' if p99 <= ACK_P99_TARGET_MS else 'NOT met'}); "
          f"placeholder shown p50 {statistics.median(shown_p50s):.0f} ms, p95 {statistics.median(shown_p95s):.0f} ms "
          f"after sending; answered {exactly_once}/{EVENTS * BURSTS} exactly once, a burst in "
          f"{statistics.median(answered_s):.1f} s; statuses {dict(statuses)}")
    assert exactly_once == EVENTS * BURSTS
    assert all(count == 1 for count in per_event.values())
    assert statuses == {"answered": EVENTS * BURSTS}
    assert max(p99s) <= ACK_P99_LIMIT_MS, f"ack p99 {max(p99s):.1f} ms: Slack would start retrying"


@pytest.mark.django_db(transaction=True)
def test_hundred_concurrent_events_over_http(corpus_db, tmp_path):
    port = free_port()
    url = f"http://127.0.0.1:{port}/slack/events"

    def send(envelopes: list[dict]) -> tuple[list[float], list[float]]:
        if len(envelopes) == 1:
            sent = time.time()
            return [post(url, json.dumps(envelopes[0]))], [sent]
        # The burst comes from another process, as Slack's would: the client must not share our GIL.
        load = subprocess.run([sys.executable, str(Path(__file__).with_name("slack_load.py"))], check=True,
                              input=json.dumps({"url": url, "secret": SECRET, "envelopes": envelopes}),
                              capture_output=True, text=True, timeout=120)
        measured = json.loads(load.stdout)
        return measured["latencies_ms"], measured["sent_at"]

    with FakeSlack() as fake:
        env = server_env(fake, VERITY_WEB_BIND=f"127.0.0.1:{port}")
        with running(([sys.executable, "-m", "gunicorn", "webapp.wsgi"], tmp_path / "gunicorn.log"),
                     ([sys.executable, "manage.py", "qcluster"], tmp_path / "qcluster.log"), env=env) as (web, _):
            home = json.dumps(event_callback({"type": "app_home_opened", "user": "UWARM", "tab": "messages"}))

            def up() -> bool:
                assert web.poll() is None, (tmp_path / "gunicorn.log").read_text()[-3000:]
                try:
                    return bool(post(url, home))
                except OSError:
                    return False

            wait_until(up, 120, "gunicorn")
            measure("HTTP (gunicorn)", fake, send, "UHTTP")


@pytest.mark.django_db(transaction=True)
def test_hundred_concurrent_events_over_socket_mode(corpus_db, tmp_path):
    with FakeSocketMode() as ws, FakeSlack() as fake:
        fake.socket_url = ws.url

        def send(envelopes: list[dict]) -> tuple[list[float], list[float]]:
            sent = ws.send_burst(envelopes)
            wait_until(lambda: all(eid in ws.first_ack_at for eid in sent), 60, "the acks")
            return ([(ws.first_ack_at[eid] - at) * 1000 for eid, at in sent.items()], list(sent.values()))

        env = server_env(fake, SLACK_APP_TOKEN="xapp-1-bench")
        with running(([sys.executable, "manage.py", "runbot"], tmp_path / "runbot.log"),
                     ([sys.executable, "manage.py", "qcluster"], tmp_path / "qcluster.log"), env=env):
            ws.wait_connected(timeout=120)
            measure("Socket Mode (runbot)", fake, send, "USOCK")
