"""A Slack question acknowledged while the database is down is recorded (and answered) once it is back."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import psycopg
import pytest

from bot.journal import Journal
from tests.live import gunicorn, http, own_postgres, wait_until
from tests.servers.fake_slack import FakeSlack, event_callback, mention, message, signed_headers

SECRET = "journal-signing-secret"


def _questions(url: str) -> dict[str, str]:
    with psycopg.connect(url) as connection:
        return dict(connection.execute("SELECT event_id, text FROM bot_slackquestion").fetchall())


def test_nothing_acked_during_a_database_outage_is_lost(tmp_path):
    journal_dir = tmp_path / "journal"
    with own_postgres(tmp_path / "pg") as db, FakeSlack() as fake, gunicorn(
            tmp_path / "web.log", DATABASE_URL=db["url"], SLACK_BOT_TOKEN="xoxb-journal", SLACK_SIGNING_SECRET=SECRET,
            SLACK_API_URL=fake.api_url, VERITY_TASK_BACKEND="django_q", VERITY_SLACK_JOURNAL_DIR=str(journal_dir),
            VERITY_SLACK_JOURNAL_REPLAY_S="0.5") as base:

        def send(body: str, content_type: str = "application/json") -> int:
            return http("POST", f"{base}/slack/events", body.encode(),
                        {**signed_headers(body, SECRET), "Content-Type": content_type})[0]

        before = event_callback(mention("Where is the parking policy?"))
        assert send(json.dumps(before)) == 200
        wait_until(lambda: before["event_id"] in _questions(db["url"]), 30, "the first question to be recorded")

        db["stop"]()
        during = [event_callback(mention("How many days of leave do I get?")),
                  event_callback(message("Who approves travel over 500 USD?"))]
        command = {"command": "/ask", "text": "What is the VPN address?", "user_id": "UASKER1",
                   "channel_id": "CGENERAL", "team_id": "T0NORTHWIND", "trigger_id": "13345224609.8534564800.1",
                   "response_url": f"{fake.api_url.rstrip('/')}/response_url/1"}
        assert [send(json.dumps(e)) for e in during] == [200, 200]
        assert send(urlencode(command), "application/x-www-form-urlencoded") == 200
        wait_until(lambda: len(Journal(journal_dir).pending()) == 3, 30, "three journal entries")

        db["start"]()  # the web tier is not restarted
        wanted = {*(e["event_id"] for e in during), "command:13345224609.8534564800.1"}
        wait_until(lambda: wanted <= set(_questions(db["url"])), 60, "the questions taken in the outage")
        wait_until(lambda: not Journal(journal_dir).pending(), 30, "an empty journal")
        questions = _questions(db["url"])
        assert questions[during[0]["event_id"]] == "How many days of leave do I get?"
        placeholders = {c.get("thread_ts") for c in fake.called("chat.postMessage")}
        assert during[0]["event"]["ts"] in placeholders  # the asker sees "Looking…" once it is recorded
