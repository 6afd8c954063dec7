"""Personal data typed by people never reaches a table or a log unredacted (planted SSN and IBAN)."""

from __future__ import annotations

import json
import logging
from urllib.parse import urlencode

import pytest
from django.apps import apps
from django.db import connection
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from slack_bolt.adapter.django import SlackRequestHandler
from slack_sdk import WebClient

from bot import blocks
from bot.app import build_app
from bot.views import reset_handler
from knowledge.models import Answer, Feedback
from tests.factories import make_user
from tests.servers.fake_slack import FakeSlack, event_callback, message, signed_headers

pytestmark = pytest.mark.django_db

SSN, IBAN = "219-09-9999", "DE89 3704 0044 0532 0130 00"
PLANTED = (SSN, IBAN, IBAN.replace(" ", ""))
SECRET = "privacy-signing-secret"


def rows_holding(values: tuple[str, ...]) -> dict[str, int]:
    """Every table whose rows, read as text, contain one of the values: {table: rows}."""
    found = {}
    with connection.cursor() as cursor:
        for model in apps.get_models():
            table = model._meta.db_table
            cursor.execute(f'SELECT count(*) FROM "{table}" t WHERE ' + " OR ".join(["t::text LIKE %s"] * len(values)),
                           [f"%{v}%" for v in values])
            (count,) = cursor.fetchone()
            if count:
                found[table] = count
    return found


def test_feedback_reasons_are_stored_redacted_from_api_console_and_slack(client, settings):
    asker = make_user()
    answer = Answer.objects.create(question_text="Why was my refund late?", normalized_question="refund late",
                                   text="Refunds take 5 days [1].")
    reason = f"Wrong: my SSN {SSN} and IBAN {IBAN} were on the form and it still bounced."
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=asker)[0].key}")
    assert api.post(f"/api/answers/{answer.pk}/feedback", {"kind": "unhelpful", "reason": reason},
                    format="json").status_code == 201
    client.force_login(make_user(is_staff=True))
    client.post(f"/answers/{answer.pk}/feedback/", {"kind": "flag", "reason": reason})

    with FakeSlack() as fake:
        settings.SLACK_BOT_TOKEN, settings.SLACK_SIGNING_SECRET, settings.SLACK_API_URL = "xoxb-t", SECRET, fake.api_url
        reset_handler(SlackRequestHandler(build_app(token="xoxb-t", signing_secret=SECRET, process_before_response=True,
                                                    client=WebClient(base_url=fake.api_url))))
        try:
            modal = {**blocks.unhelpful_modal(answer.pk, None, "CGENERAL"), "id": "V1", "state": {"values": {
                "reason": {"text": {"type": "plain_text_input", "value": reason}}}}}
            payload = {"type": "view_submission", "team": {"id": "T0NORTHWIND"}, "user": {"id": "UASKER1"},
                       "api_app_id": "AVERITY", "view": modal}
            body = urlencode({"payload": json.dumps(payload)})
            response = client.post("/slack/events", data=body, content_type="application/x-www-form-urlencoded",
                                   headers=signed_headers(body, SECRET))
            assert response.status_code == 200
        finally:
            reset_handler(None)

    reasons = list(Feedback.objects.values_list("reason", flat=True))
    assert len(reasons) == 3 and all("<" in r and "bounced" in r for r in reasons), reasons
    assert rows_holding(PLANTED) == {}


def test_questions_with_personal_data_leave_no_trace_in_tables(corpus_db):
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=make_user())[0].key}")
    response = api.post("/api/ask", {"question": f"Can payroll pay my bonus to IBAN {IBAN}? My SSN is {SSN}."},
                        format="json")
    assert response.status_code == 200
    assert rows_holding(PLANTED) == {}


@pytest.mark.parametrize("signature", ["v0=forged", "v0=" + "0" * 64])
def test_a_request_failing_the_signature_check_is_never_logged_with_its_body(client, settings, caplog, signature):
    caplog.set_level(logging.DEBUG)
    with FakeSlack() as fake:
        settings.SLACK_BOT_TOKEN, settings.SLACK_SIGNING_SECRET, settings.SLACK_API_URL = "xoxb-t", SECRET, fake.api_url
        reset_handler(SlackRequestHandler(build_app(token="xoxb-t", signing_secret=SECRET, process_before_response=True,
                                                    client=WebClient(base_url=fake.api_url))))
        try:
            body = json.dumps(event_callback(message(f"my SSN is {SSN}, IBAN {IBAN}")))
            headers = {**signed_headers(body, SECRET), "X-Slack-Signature": signature}
            response = client.post("/slack/events", data=body, content_type="application/json", headers=headers)
        finally:
            reset_handler(None)
    assert response.status_code == 401
    assert caplog.records  # the refusal itself is logged...
    assert not any(value in caplog.text for value in PLANTED)  # ...but never what was in the body
