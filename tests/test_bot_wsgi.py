"""The production WSGI application: Slack's POST /slack/events goes straight to Bolt, the rest to Django."""

from __future__ import annotations

import io
import json
import time
from wsgiref.util import setup_testing_defaults

import pytest
from slack_bolt.adapter.django import SlackRequestHandler
from slack_sdk import WebClient

from bot.app import build_app
from bot.models import SlackQuestion
from bot.views import reset_handler
from tests.servers.fake_slack import FakeSlack, event_callback, mention, signed_headers
from webapp.wsgi import application

SECRET = "wsgi-signing-secret"
QUESTION = "How many weeks of paid parental leave do eligible employees get?"

pytestmark = pytest.mark.django_db


def call(method: str, path: str, body: str = "", headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    """One request through the WSGI application, as gunicorn would make it."""
    raw = body.encode()
    environ = {"REQUEST_METHOD": method, "PATH_INFO": path, "wsgi.input": io.BytesIO(raw),
               "CONTENT_LENGTH": str(len(raw)), "CONTENT_TYPE": "application/json", "HTTP_HOST": "127.0.0.1"}
    for name, value in (headers or {}).items():
        environ["HTTP_" + name.upper().replace("-", "_")] = value
    setup_testing_defaults(environ)
    status = []
    chunks = application(environ, lambda s, h, exc_info=None: status.append(s))
    content = b"".join(chunks)
    getattr(chunks, "close", lambda: None)()
    return int(status[0].split()[0]), content


@pytest.fixture
def slack(settings, corpus_db, embedder):
    with FakeSlack() as fake:
        settings.SLACK_BOT_TOKEN, settings.SLACK_SIGNING_SECRET = "xoxb-test", SECRET
        settings.SLACK_API_URL, settings.TASK_BACKEND = fake.api_url, "sync"
        reset_handler(SlackRequestHandler(build_app(token="xoxb-test", signing_secret=SECRET,
                                                    client=WebClient(base_url=fake.api_url),
                                                    process_before_response=True)))
        yield fake
        reset_handler(None)


def test_a_signed_mention_through_the_wsgi_app_is_answered(slack, django_capture_on_commit_callbacks):
    body = json.dumps(event_callback(mention(QUESTION)))
    with django_capture_on_commit_callbacks(execute=True):
        status, _ = call("POST", "/slack/events", body, signed_headers(body, SECRET))
    assert status == 200
    question = SlackQuestion.objects.get()
    assert question.status == SlackQuestion.Status.ANSWERED
    assert "Sources" in json.dumps(slack.called("chat.update")[0]["blocks"])


@pytest.mark.parametrize("how", ["forged", "stale", "unsigned"])
def test_bad_signatures_are_rejected_before_django(slack, how):
    body = json.dumps(event_callback(mention(QUESTION)))
    headers = {"forged": signed_headers(body, "not-the-secret"),
               "stale": signed_headers(body, SECRET, timestamp=int(time.time()) - 6 * 60),
               "unsigned": {}}[how]
    status, _ = call("POST", "/slack/events", body, headers)
    assert status == 401
    assert not SlackQuestion.objects.exists()


def test_other_requests_go_to_django(slack):
    status, content = call("GET", "/slack/events")
    assert status == 405  # Django's require_POST view, not Bolt
    status, _ = call("GET", "/login/")
    assert status == 200


def test_without_slack_settings_django_explains(settings):
    settings.SLACK_BOT_TOKEN = settings.SLACK_SIGNING_SECRET = ""
    reset_handler(None)
    body = json.dumps(event_callback(mention(QUESTION)))
    status, content = call("POST", "/slack/events", body, signed_headers(body, SECRET))
    assert status == 503
    assert b"SLACK_BOT_TOKEN" in content


def test_warm_up_builds_the_slack_app_and_survives_an_unreachable_slack(settings):
    from bot import views
    from webapp.warmup import warm

    with FakeSlack() as fake:
        api_url = fake.api_url
        settings.SLACK_BOT_TOKEN, settings.SLACK_SIGNING_SECRET, settings.SLACK_API_URL = "xoxb-test", SECRET, api_url
        reset_handler(None)
        done = warm()
        assert "Slack app ready" in done and "redaction engine loaded" in done
        assert views._handler is not None and fake.called("auth.test")
    reset_handler(None)
    settings.SLACK_API_URL = api_url  # stopped: nothing listens there any more
    done = warm()
    assert any(line.startswith("Slack app not ready") for line in done)
    assert views._handler is None  # the first Slack request tries again
    reset_handler(None)
