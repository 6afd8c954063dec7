"""What the Slack journal adds to an ack: one fsync'd file written before it, removed once recorded.

    make bench   (or: .venv/bin/python -m pytest tests/bench/test_bench_journal.py -q -s)
"""

from __future__ import annotations

import io
import json
import statistics
import time
from wsgiref.util import setup_testing_defaults

import pytest
from slack_bolt.adapter.django import SlackRequestHandler
from slack_sdk import WebClient

from bot.app import build_app
from bot.journal import Journal
from bot.views import reset_handler
from tests.servers.fake_slack import FakeSlack, event_callback, mention, signed_headers

SECRET = "bench-journal-secret"
ROUNDS = 300


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def test_journal_write_cost(tmp_path):
    journal = Journal(tmp_path / "journal")
    body = event_callback(mention("How many days of parental leave do I get when adopting?"))
    writes, removals = [], []
    for i in range(ROUNDS):
        started = time.perf_counter()
        journal.write(f"Ev{i}", body)
        writes.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        journal.done(f"Ev{i}")
        removals.append((time.perf_counter() - started) * 1000)
    print(f"\njournal write (fsync) ms: p50 {statistics.median(writes):.2f}  p99 {_pct(writes, 0.99):.2f};  "
          f"remove ms: p50 {statistics.median(removals):.3f}")


@pytest.mark.django_db
def test_ack_time_through_the_wsgi_app(settings, tmp_path):
    """Signed mentions through the production WSGI app: the ack (HTTP 200) time includes the journal write."""
    from webapp.wsgi import application

    with FakeSlack() as fake:
        settings.SLACK_BOT_TOKEN, settings.SLACK_SIGNING_SECRET, settings.SLACK_API_URL = "xoxb-b", SECRET, fake.api_url
        settings.VERITY_SLACK_JOURNAL_DIR = tmp_path / "journal"
        app = build_app(token="xoxb-b", signing_secret=SECRET, client=WebClient(base_url=fake.api_url))
        reset_handler(SlackRequestHandler(app))
        try:
            acks = []
            for i in range(ROUNDS // 3):
                body = json.dumps(event_callback(mention(f"Question {i}: how much is the meal allowance?")))
                environ = {"REQUEST_METHOD": "POST", "PATH_INFO": "/slack/events", "CONTENT_TYPE": "application/json",
                           "wsgi.input": io.BytesIO(body.encode()), "CONTENT_LENGTH": str(len(body))}
                for name, value in signed_headers(body, SECRET).items():
                    environ["HTTP_" + name.upper().replace("-", "_")] = value
                setup_testing_defaults(environ)
                started = time.perf_counter()
                b"".join(application(environ, lambda *a: None))
                acks.append((time.perf_counter() - started) * 1000)
        finally:
            reset_handler(None)
    print(f"\nack through WSGI ms (journal included): p50 {statistics.median(acks):.2f}  p99 {_pct(acks, 0.99):.2f}")
