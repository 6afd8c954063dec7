"""The sweeper: questions left waiting by a crash, an expired job or a killed worker are answered or apologised for."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone
from slack_sdk import WebClient

from bot import blocks
from bot.jobs import MAX_ATTEMPTS, STUCK_AFTER_S, sweep_slack_questions
from bot.models import SlackQuestion
from tests.servers.fake_slack import FakeSlack
from webapp.celery import app as celery_app

QUESTION = "How many weeks of paid parental leave do eligible employees get?"

pytestmark = pytest.mark.django_db


@pytest.fixture
def fake(settings, corpus_db, embedder):
    with FakeSlack() as server:
        settings.SLACK_BOT_TOKEN, settings.SLACK_API_URL, settings.TASK_BACKEND = "xoxb-test", server.api_url, "sync"
        yield server


def waiting(event_id: str, *, age_s: float, status=SlackQuestion.Status.QUEUED, attempts: int = 0,
            created_age_s: float | None = None) -> SlackQuestion:
    question = SlackQuestion.objects.create(event_id=event_id, channel_id="CGENERAL", user_id="UASKER1", text=QUESTION,
                                            kind=SlackQuestion.Kind.MENTION, thread_ts="1700000000.000100",
                                            placeholder_ts=f"1700000000.{len(event_id):06d}", status=status,
                                            attempts=attempts)
    now = timezone.now()
    SlackQuestion.objects.filter(pk=question.pk).update(
        updated_at=now - timedelta(seconds=age_s), created_at=now - timedelta(seconds=created_age_s or age_s))
    return question


def test_a_question_left_queued_is_answered(fake, django_capture_on_commit_callbacks):
    lost = waiting("EvLOST", age_s=STUCK_AFTER_S + 30)
    fresh = waiting("EvFRESH", age_s=5)  # its job is simply still in the queue
    with django_capture_on_commit_callbacks(execute=True):
        counts = sweep_slack_questions(client=WebClient(base_url=fake.api_url, token="xoxb-test"))
    assert counts == {"requeued": 1, "given_up": 0}
    lost.refresh_from_db()
    fresh.refresh_from_db()
    assert lost.status == SlackQuestion.Status.ANSWERED and lost.answer is not None
    assert fresh.status == SlackQuestion.Status.QUEUED
    updates = fake.called("chat.update")
    assert len(updates) == 1 and updates[0]["ts"] == lost.placeholder_ts and "Sources" in json.dumps(updates[0]["blocks"])


def test_a_claim_abandoned_by_a_killed_worker_is_taken_over(fake, settings, django_capture_on_commit_callbacks):
    abandoned = waiting("EvKILLED", age_s=settings.CELERY_TASK_TIME_LIMIT + 120, status=SlackQuestion.Status.ANSWERING,
                        attempts=1)
    busy = waiting("EvBUSY", age_s=30, status=SlackQuestion.Status.ANSWERING, attempts=1)  # a worker is on it
    with django_capture_on_commit_callbacks(execute=True):
        assert sweep_slack_questions(client=WebClient(base_url=fake.api_url, token="xoxb-test"))["requeued"] == 1
    abandoned.refresh_from_db()
    busy.refresh_from_db()
    assert abandoned.status == SlackQuestion.Status.ANSWERED and abandoned.attempts == 2
    assert busy.status == SlackQuestion.Status.ANSWERING


@pytest.mark.parametrize("how", ["too many attempts", "too old"])
def test_a_question_that_cannot_be_answered_ends_in_an_apology_with_retry(fake, settings, how,
                                                                          django_capture_on_commit_callbacks):
    if how == "too many attempts":
        stuck = waiting("EvSTUCK", age_s=settings.CELERY_TASK_TIME_LIMIT + 120, status=SlackQuestion.Status.ANSWERING,
                        attempts=MAX_ATTEMPTS)
    else:
        stuck = waiting("EvSTUCK", age_s=STUCK_AFTER_S + 30, created_age_s=3600)
    with django_capture_on_commit_callbacks(execute=True):
        counts = sweep_slack_questions(client=WebClient(base_url=fake.api_url, token="xoxb-test"))
    assert counts == {"requeued": 0, "given_up": 1}
    stuck.refresh_from_db()
    assert stuck.status == SlackQuestion.Status.FAILED and "gave up" in stuck.error
    update = fake.called("chat.update")[0]
    assert update["ts"] == stuck.placeholder_ts and update["text"] == blocks.APOLOGY_TEXT
    assert "Retry" in json.dumps(update["blocks"])
    assert stuck.requeue()  # the Retry button can still bring it back


def test_nothing_waiting_nothing_done(fake):
    waiting("EvOK", age_s=STUCK_AFTER_S * 10, status=SlackQuestion.Status.ANSWERED)
    assert sweep_slack_questions(client=WebClient(base_url=fake.api_url, token="xoxb-test")) == {
        "requeued": 0, "given_up": 0}
    assert not fake.calls


def test_the_sweep_is_scheduled_every_minute_on_both_backends():
    from django_q.models import Schedule

    schedule = Schedule.objects.get(name="sweep-slack-questions")
    assert schedule.func == "webapp.jobs.run_job" and schedule.schedule_type == "I" and schedule.minutes == 1
    entry = celery_app.conf.beat_schedule["sweep-slack-questions"]
    assert entry["args"] == ("sweep_slack_questions", []) and entry["schedule"] == 60.0
