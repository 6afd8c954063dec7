"""Benchmark: 100 signed events at once to /slack/events on a real local server; ack latency and exactly-once.

The server is Django's threaded live server (in this process); the listener enqueues on django-q2's
ORM broker and a real `manage.py qcluster` worker (a subprocess on the test database) answers.
Run with `make bench` (or `pytest tests/bench/test_bench_slack.py -s`).

Note: the load generator shares this process (and its GIL) with the server, so the concurrent
figures include client-side contention; the sequential figures show the uncontended ack path.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from pathlib import Path

import pytest
from django.db import connection
from slack_bolt.adapter.django import SlackRequestHandler
from slack_sdk import WebClient

from bot.app import build_app
from bot.models import SlackQuestion
from bot.views import reset_handler
from tests.servers.fake_slack import FakeSlack, event_callback, mention, signed_headers

ROOT = Path(__file__).resolve().parents[2]
SECRET = "bench-signing-secret"
EVENTS = 100
QUESTIONS = [
    "How many weeks of paid parental leave do eligible employees get?",
    "Which form do I use to request parental leave?",
    "How long is the parental leave entitlement for part-time employees?",
    "Is there a pregnancy recovery leave for birthing parents?",
]
ACK_P99_TARGET_MS = 100
ACK_P99_LIMIT_MS = 1000  # fail the bench above this: Slack gives up after 3 s


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


@pytest.fixture(scope="session")
def listen_backlog():
    """A production-like listen backlog (gunicorn's default is 2048): with socketserver's 5, a burst of
    100 connections loses SYNs and measures the kernel's 1 s retransmit instead of the app."""
    from django.core.servers.basehttp import ThreadedWSGIServer

    before, ThreadedWSGIServer.request_queue_size = ThreadedWSGIServer.request_queue_size, 1024
    yield
    ThreadedWSGIServer.request_queue_size = before


def post(url: str, body: str) -> float:
    request = urllib.request.Request(url, body.encode(), {"Content-Type": "application/json",
                                                          **signed_headers(body, SECRET)})
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=30) as response:
        response.read()
        assert response.status == 200
    return (time.perf_counter() - started) * 1000


@pytest.mark.django_db(transaction=True)
def test_hundred_concurrent_events(listen_backlog, live_server, settings, corpus_db):
    # Every thread (live server, Bolt's pool) closes its connection after use, so the database can be dropped.
    max_age, connection.settings_dict["CONN_MAX_AGE"] = connection.settings_dict["CONN_MAX_AGE"], 0
    with FakeSlack() as fake:
        settings.SLACK_BOT_TOKEN, settings.SLACK_SIGNING_SECRET = "xoxb-bench", SECRET
        settings.SLACK_API_URL, settings.TASK_BACKEND = fake.api_url, "django_q"
        settings.SLACK_USER_RATE_PER_MINUTE = 1000
        reset_handler(SlackRequestHandler(build_app(token="xoxb-bench", signing_secret=SECRET,
                                                    client=WebClient(base_url=fake.api_url))))
        db = connection.settings_dict
        env = dict(os.environ, DATABASE_URL=f"postgresql://{db['USER']}@/{db['NAME']}?host={db['HOST']}",
                   VERITY_TASK_BACKEND="django_q", VERITY_Q_WORKERS="4", SLACK_BOT_TOKEN="xoxb-bench",
                   SLACK_API_URL=fake.api_url, SLACK_SIGNING_SECRET=SECRET)
        worker = subprocess.Popen([sys.executable, "manage.py", "qcluster"], cwd=ROOT, env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            url = f"{live_server.url}/slack/events"
            warm = json.dumps(event_callback({"type": "app_home_opened", "user": "UWARM", "tab": "messages"}))
            post(url, warm)  # auth.test and the first connection, as a running server would have them
            sequential = [post(url, json.dumps(event_callback(mention(QUESTIONS[0], user=f"USEQ{i}"))))
                          for i in range(10)]

            envelopes = [event_callback(mention(QUESTIONS[i % len(QUESTIONS)], user=f"UBENCH{i:03d}",
                                                ts=f"{time.time():.6f}{i:03d}")) for i in range(EVENTS)]
            started = time.perf_counter()
            # The burst comes from another process, as Slack's would: the client must not share our GIL.
            load = subprocess.run([sys.executable, str(Path(__file__).with_name("slack_load.py"))], check=True,
                                  input=json.dumps({"url": url, "secret": SECRET, "envelopes": envelopes}),
                                  capture_output=True, text=True, timeout=120)
            measured = json.loads(load.stdout)
            latencies, sent_s = measured["latencies_ms"], measured["sent_s"]

            deadline = time.monotonic() + 300
            while time.monotonic() < deadline and len(fake.called("chat.update")) < EVENTS + len(sequential):
                time.sleep(0.2)
            answered_s = time.perf_counter() - started
            time.sleep(1.0)  # room for any duplicate to show up
        finally:
            worker.terminate()
            worker.wait(timeout=30)
            reset_handler(None)
            connection.settings_dict["CONN_MAX_AGE"] = max_age

        placeholders = {p["ts"]: p["message"]["thread_ts"] for p in fake.responses("chat.postMessage")}
        per_event = Counter(placeholders.get(u["ts"]) for u in fake.called("chat.update"))
        expected = {e["event"]["ts"] for e in envelopes}
        statuses = Counter(SlackQuestion.objects.filter(user_id__startswith="UBENCH").values_list("status", flat=True))
        p50, p99 = statistics.median(latencies), percentile(latencies, 99)
        print(f"\nSlack bench: sequential ack p50 {statistics.median(sequential):.1f} ms, "
              f"max {max(sequential):.1f} ms; {EVENTS} concurrent signed events → ack p50 {p50:.1f} ms, "
              f"p99 {p99:.1f} ms, max {max(latencies):.1f} ms (burst sent in {sent_s:.2f} s; p99 target "
              f"{ACK_P99_TARGET_MS} ms {'met' if p99 <= ACK_P99_TARGET_MS else 'NOT met'}); answered "
              f"{sum(1 for ts in expected if per_event[ts] == 1)}/{EVENTS} exactly once in {answered_s:.1f} s; "
              f"statuses {dict(statuses)}")
        assert all(per_event[ts] == 1 for ts in expected)
        assert all(count == 1 for count in per_event.values())
        assert statuses == {"answered": EVENTS}
        assert p99 <= ACK_P99_LIMIT_MS, f"ack p99 {p99:.1f} ms: Slack would start retrying"
