"""The real Bolt app, driven by really signed requests through /slack/events, against a local fake Slack API."""

from __future__ import annotations

import json
import re
import time
from urllib.parse import urlencode

import pytest
from slack_bolt.adapter.django import SlackRequestHandler
from slack_sdk import WebClient

from bot import blocks
from bot.actions import SHORTCUT_VERIFY
from bot.app import build_app
from bot.models import ChannelSetting, SlackQuestion
from bot.views import reset_handler
from knowledge.models import Answer, Collection, Document, Feedback
from tests.factories import make_user
from tests.servers.fake_slack import (BOT_ID, BOT_USER_ID, FakeSlack, block_action, event_callback, mention, message,
                                      signed_headers)

SECRET = "8f742231b10e8888abcd99yyyzzz85a5"
QUESTION = "How many weeks of paid parental leave do eligible employees get?"

pytestmark = pytest.mark.django_db


@pytest.fixture
def fake():
    with FakeSlack(emails={"UREVIEW1": "reviewer@northwind.example", "UOWNER1": "owner@northwind.example",
                           "UASKER1": "asker@northwind.example"}) as server:
        yield server


@pytest.fixture
def slack(fake, settings, corpus_db, embedder):
    """The real Bolt app behind /slack/events; jobs run inline when the test's on-commit callbacks run."""
    settings.SLACK_BOT_TOKEN = "xoxb-test"
    settings.SLACK_SIGNING_SECRET = SECRET
    settings.SLACK_API_URL = fake.api_url
    settings.SLACK_REVIEWERS_CHANNEL = "CREVIEWERS"
    settings.TASK_BACKEND = "sync"
    # process_before_response: listeners run in the request thread, inside the test's transaction.
    app = build_app(token="xoxb-test", signing_secret=SECRET, client=WebClient(base_url=fake.api_url),
                    process_before_response=True)
    reset_handler(SlackRequestHandler(app))
    yield fake
    reset_handler(None)


def post(client, body: str, content_type: str, *, secret: str = SECRET, timestamp: int | None = None, **headers):
    return client.post("/slack/events", data=body, content_type=content_type,
                       headers={**signed_headers(body, secret, timestamp=timestamp), **headers})


def post_event(client, payload: dict, **kwargs):
    return post(client, json.dumps(payload), "application/json", **kwargs)


def post_form(client, fields: dict, **kwargs):
    return post(client, urlencode(fields), "application/x-www-form-urlencoded", **kwargs)


def post_interaction(client, payload: dict, **kwargs):
    return post_form(client, {"payload": json.dumps(payload)}, **kwargs)


def ask_by_mention(client, capture, text: str = QUESTION, **kwargs):
    envelope = event_callback(mention(text, **kwargs))
    with capture(execute=True):
        response = post_event(client, envelope)
    assert response.status_code == 200, response.content
    return envelope


def make_answer(**fields) -> Answer:
    defaults = dict(question_text=QUESTION, normalized_question="parental leave weeks", text="16 weeks [1].",
                    confidence=0.8, citations=[{"n": 1, "source": "hr/parental-leave.md#leave-entitlement",
                                                "title": "Parental Leave Policy", "url": "https://docs.example/p",
                                                "chunk_id": 1, "quote": "16 weeks", "collection": "General"}])
    defaults.update(fields)
    return Answer.objects.create(**defaults)


# --- the question path -------------------------------------------------------------------------


def test_mention_is_answered_once_in_its_thread_with_citations(client, slack, django_capture_on_commit_callbacks):
    envelope = ask_by_mention(client, django_capture_on_commit_callbacks)
    event = envelope["event"]
    placeholder = slack.called("chat.postMessage")
    assert len(placeholder) == 1 and placeholder[0]["thread_ts"] == event["ts"]
    assert placeholder[0]["text"] == blocks.PLACEHOLDER_TEXT
    assert slack.called("reactions.add")[0]["name"] == "eyes"
    updates = slack.called("chat.update")
    assert len(updates) == 1
    update = updates[0]
    assert update["channel"] == "CGENERAL" and update["ts"]
    shown = json.dumps(update["blocks"], ensure_ascii=False)
    assert "[1]" in shown and "Sources" in shown and "Confidence" in shown
    policy = Document.objects.get(source="hr/parental-leave.md")
    assert re.search(rf"/documents/{policy.pk}/\?chunk=\d+#", shown) and "Parental Leave Policy" in shown  # the passage, in its section
    question = SlackQuestion.objects.get(event_id=envelope["event_id"])
    assert question.status == SlackQuestion.Status.ANSWERED and question.answer is not None
    assert question.placeholder_ts == update["ts"]
    assert question.text == QUESTION  # mention stripped
    assert not question.answer.refused
    assert any("hr/parental-leave.md" in c["source"] for c in question.answer.citations)


def test_retried_event_is_answered_once(client, slack, django_capture_on_commit_callbacks):
    envelope = event_callback(mention(QUESTION))
    with django_capture_on_commit_callbacks(execute=True):
        first = post_event(client, envelope)
        retry = post_event(client, envelope, **{"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"})
    assert first.status_code == retry.status_code == 200
    assert SlackQuestion.objects.filter(event_id=envelope["event_id"]).count() == 1
    assert len(slack.called("chat.postMessage")) == 1
    assert len(slack.called("chat.update")) == 1


@pytest.mark.parametrize("how", ["forged", "stale", "unsigned"])
def test_bad_signatures_are_rejected_and_nothing_is_recorded(client, slack, how):
    body = json.dumps(event_callback(mention(QUESTION)))
    if how == "forged":
        response = post(client, body, "application/json", secret="not-the-secret")
    elif how == "stale":
        response = post(client, body, "application/json", timestamp=int(time.time()) - 6 * 60)
    else:
        response = client.post("/slack/events", data=body, content_type="application/json")
    assert response.status_code == 401
    assert not SlackQuestion.objects.exists()
    assert not [c for c in slack.calls if c.method != "auth.test"]


def test_a_channel_never_cites_the_askers_private_collections(client, slack, django_capture_on_commit_callbacks):
    asker = make_user(email="asker@northwind.example")
    secret = Collection.objects.create(name="Board minutes", is_public=False)
    secret.readers.add(asker)
    with django_capture_on_commit_callbacks(execute=True):
        assert post_event(client, event_callback(mention(QUESTION))).status_code == 200
    question = SlackQuestion.objects.get()
    assert question.status == SlackQuestion.Status.ANSWERED
    assert secret.pk not in question.answer.collection_ids  # everyone in the channel sees the answer


def test_a_channel_configured_with_a_private_collection_draws_on_it(client, slack,
                                                                     django_capture_on_commit_callbacks):
    from knowledge.ingestion import ingest_document, register_upload

    private = Collection.objects.create(name="Payroll desk", is_public=False)
    document, _ = register_upload(private, "payroll/cutoff.md",
                                  b"# Payroll cutoff\n\nThe payroll cutoff for timesheet corrections is the 22nd "
                                  b"of each month at noon Pacific.\n")
    ingest_document(document.pk)
    setting = ChannelSetting.objects.create(channel_id="CPAYROLL", name="payroll")
    setting.collections.add(private)
    with django_capture_on_commit_callbacks(execute=True):
        post_event(client, event_callback(mention("What is the payroll cutoff for timesheet corrections?",
                                                  channel="CPAYROLL")))
    question = SlackQuestion.objects.get()
    assert question.answer.collection_ids == [private.pk]
    assert "22nd" in question.answer.text


def test_direct_message_uses_the_askers_own_collections(client, slack, django_capture_on_commit_callbacks):
    asker = make_user(email="asker@northwind.example")
    secret = Collection.objects.create(name="Board minutes", is_public=False)
    secret.readers.add(asker)
    envelope = event_callback(message(QUESTION))
    with django_capture_on_commit_callbacks(execute=True):
        assert post_event(client, envelope).status_code == 200
    question = SlackQuestion.objects.get()
    assert question.kind == SlackQuestion.Kind.DM and question.status == SlackQuestion.Status.ANSWERED
    assert slack.called("users.info")[0]["user"] == "UASKER1"
    assert secret.pk in question.answer.collection_ids  # searched with the asker's own access
    assert not slack.called("chat.postMessage")[0].get("thread_ts")  # a DM is answered in place, not threaded


@pytest.mark.parametrize("event", [
    message("hello from a bot", bot_id="B0OTHER", subtype="bot_message"),
    message("our own message", user=BOT_USER_ID, bot_id=BOT_ID),
    message("edited", subtype="message_changed"),
    message("an ordinary channel chat?", channel="CGENERAL", channel_type="channel"),  # mention-only channel
])
def test_ignored_messages(client, slack, event):
    assert post_event(client, event_callback(event)).status_code == 200
    assert not SlackQuestion.objects.exists()
    assert not slack.called("chat.postMessage")


def test_all_questions_channel_answers_untagged_questions(client, slack, django_capture_on_commit_callbacks):
    ChannelSetting.objects.create(channel_id="CHELP", mode=ChannelSetting.Mode.ALL_QUESTIONS)
    with django_capture_on_commit_callbacks(execute=True):
        post_event(client, event_callback(message("Good morning all", channel="CHELP", channel_type="channel")))
        post_event(client, event_callback(message(QUESTION, channel="CHELP", channel_type="channel")))
    assert SlackQuestion.objects.get().kind == SlackQuestion.Kind.CHANNEL
    assert len(slack.called("chat.update")) == 1


def test_disabled_channel_gets_a_polite_note_once(client, slack):
    ChannelSetting.objects.create(channel_id="CQUIET", mode=ChannelSetting.Mode.DISABLED)
    envelope = event_callback(mention(QUESTION, channel="CQUIET"))
    post_event(client, envelope)
    post_event(client, envelope, **{"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"})
    declined = SlackQuestion.objects.get()
    assert declined.status == SlackQuestion.Status.DECLINED and declined.error == "disabled channel"
    assert declined.text == ""  # a disabled channel's question is not kept
    notes = slack.called("chat.postEphemeral")
    assert len(notes) == 1 and notes[0]["text"] == blocks.DISABLED_TEXT and notes[0]["user"] == "UASKER1"
    assert not slack.called("chat.postMessage")


def test_rate_limit_answers_with_a_friendly_message_once_per_event(client, slack, settings):
    settings.SLACK_USER_RATE_PER_MINUTE = 2
    for _ in range(3):
        post_event(client, event_callback(mention(QUESTION, user="UHASTY")))
    over = event_callback(mention(QUESTION, user="UHASTY"))
    post_event(client, over)
    post_event(client, over, **{"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"})  # Slack retries
    asked = SlackQuestion.objects.filter(user_id="UHASTY")
    assert asked.exclude(status=SlackQuestion.Status.DECLINED).count() == 2
    assert asked.filter(status=SlackQuestion.Status.DECLINED, error="over the rate limit").count() == 2
    notes = slack.called("chat.postEphemeral")
    assert len(notes) == 2 and all("2 questions a minute" in note["text"] for note in notes)
    # Declined questions neither count against the limit nor clutter App Home.
    assert SlackQuestion.objects.recent_for_user("UHASTY").count() == 2
    assert all(q.status != SlackQuestion.Status.DECLINED for q in SlackQuestion.objects.for_home("UHASTY"))


def test_thread_follow_up_uses_the_thread_and_a_failure_ends_in_an_apology_with_retry(
        client, slack, django_capture_on_commit_callbacks):
    first = ask_by_mention(client, django_capture_on_commit_callbacks)
    root = first["event"]["ts"]
    slack.add_thread_message("CGENERAL", root, first["event"]["text"], ts=root)  # the question opens the thread
    slack.add_thread_message("CGENERAL", root, "And for part-time employees?")
    slack.fail("conversations.replies", "internal_error")
    follow_up = message("And for part-time employees?", channel="CGENERAL", channel_type="channel", thread_ts=root)
    with django_capture_on_commit_callbacks(execute=True):
        post_event(client, event_callback(follow_up))
    question = SlackQuestion.objects.get(kind=SlackQuestion.Kind.THREAD_FOLLOWUP)
    assert question.status == SlackQuestion.Status.FAILED and "internal_error" in question.error
    apology = slack.called("chat.update")[-1]
    assert apology["ts"] == question.placeholder_ts
    retry = [e for b in apology["blocks"] if b["type"] == "actions" for e in b["elements"]][0]
    assert retry["action_id"] == blocks.ACTION_RETRY

    with django_capture_on_commit_callbacks(execute=True):
        post_interaction(client, block_action(blocks.ACTION_RETRY, retry["value"]))
    question.refresh_from_db()
    assert question.status == SlackQuestion.Status.ANSWERED and question.attempts == 2
    replies = slack.called("conversations.replies")
    assert replies[-1]["ts"] == root
    final = slack.called("chat.update")[-1]
    assert final["ts"] == question.placeholder_ts and "Sources" in json.dumps(final["blocks"])
    # The follow-up was read with the thread's question: "… eligible employees get? And for part-time employees?"
    read_as = question.answer.normalized_question.lower()
    assert "parental leave" in read_as and "part-time" in read_as, read_as
    assert "part-time" in question.answer.text.lower()


def test_slack_rate_limit_on_chat_update_is_retried(client, slack, django_capture_on_commit_callbacks):
    slack.rate_limit("chat.update", retry_after=1)
    ask_by_mention(client, django_capture_on_commit_callbacks)
    updates = slack.called("chat.update")
    assert len(updates) == 2 and updates[0]["ts"] == updates[1]["ts"]
    assert SlackQuestion.objects.get().status == SlackQuestion.Status.ANSWERED


# --- /ask ------------------------------------------------------------------------------------------


def test_ask_command_answers_ephemerally_with_a_share_button(client, slack, django_capture_on_commit_callbacks):
    fields = {"command": "/ask", "text": QUESTION, "user_id": "UASKER1", "channel_id": "CGENERAL",
              "team_id": "T0NORTHWIND", "trigger_id": "13345224609.738474920.8088930838d88f008e0",
              "response_url": slack.response_url("ask-1")}
    with django_capture_on_commit_callbacks(execute=True):
        response = post_form(client, fields)
    assert response.status_code == 200 and blocks.PLACEHOLDER_TEXT in response.content.decode()
    sent = slack.called("response_url")
    assert len(sent) == 1 and sent[0]["response_type"] == "ephemeral"
    shown = json.dumps(sent[0]["blocks"])
    assert blocks.ACTION_SHARE in shown and "Parental Leave Policy" in shown
    assert not slack.called("chat.postMessage") and not slack.called("chat.update")
    question = SlackQuestion.objects.get()
    assert question.ephemeral and question.kind == SlackQuestion.Kind.COMMAND

    share = [e for b in sent[0]["blocks"] if b["type"] == "actions" for e in b["elements"]][0]
    post_interaction(client, block_action(blocks.ACTION_SHARE, share["value"], response_url=slack.response_url("s")))
    shared, deleted = slack.called("response_url")[1:]
    assert shared["response_type"] == "in_channel" and "Parental Leave Policy" in json.dumps(shared["blocks"])
    assert blocks.ACTION_SHARE not in json.dumps(shared["blocks"]) and deleted["delete_original"] is True


def test_empty_ask_command_explains_itself(client, slack):
    response = post_form(client, {"command": "/ask", "text": "  ", "user_id": "U1", "channel_id": "C1",
                                  "response_url": slack.response_url(), "trigger_id": "t"})
    assert "Ask me a question" in response.content.decode() and not SlackQuestion.objects.exists()


# --- feedback, experts, reviewers ------------------------------------------------------------------


def test_helpful_and_flag_buttons_record_feedback(client, slack):
    answer = make_answer()
    for action in (blocks.ACTION_HELPFUL, blocks.ACTION_HELPFUL, blocks.ACTION_FLAG):  # a double click counts once
        post_interaction(client, block_action(action, f"{answer.pk}:", response_url=slack.response_url()))
    answer.refresh_from_db()
    # An asker's flag queues the answer for a reviewer (it keeps its status until one decides).
    assert answer.helpful_count == 1 and answer.flag_pending and answer.status != Answer.Status.FLAGGED
    assert sorted(Feedback.objects.values_list("kind", flat=True)) == ["flag", "helpful"]
    assert "Flagged" in slack.called("response_url")[-1]["text"]


def test_not_helpful_opens_a_modal_and_records_the_reason(client, slack):
    answer = make_answer()
    post_interaction(client, block_action(blocks.ACTION_UNHELPFUL, f"{answer.pk}:9"))
    opened = slack.called("views.open")
    assert len(opened) == 1 and opened[0]["view"]["callback_id"] == blocks.UNHELPFUL_MODAL
    view = {**opened[0]["view"], "id": "V1", "state": {"values": {"reason": {"text": {
        "type": "plain_text_input", "value": "The policy changed in March"}}}}}
    response = post_interaction(client, {"type": "view_submission", "team": {"id": "T0NORTHWIND"},
                                         "user": {"id": "UASKER1"}, "api_app_id": "AVERITY", "view": view})
    assert response.status_code == 200
    answer.refresh_from_db()
    assert answer.unhelpful_count == 1 and answer.status == Answer.Status.NEEDS_REVIEW
    assert Feedback.objects.get().reason == "The policy changed in March"


def test_ask_an_expert_posts_to_reviewers_mentioning_owners(client, slack):
    owner = make_user(email="owner@northwind.example")
    Collection.get_default("General").owners.add(owner)
    answer = make_answer()
    post_interaction(client, block_action(blocks.ACTION_EXPERT, f"{answer.pk}:", response_url=slack.response_url()))
    posted = slack.called("chat.postMessage")
    assert len(posted) == 1 and posted[0]["channel"] == "CREVIEWERS"
    shown = json.dumps(posted[0]["blocks"])
    assert "<@UOWNER1>" in shown and "<@UASKER1>" in shown and f"/admin/knowledge/answer/{answer.pk}/" in shown
    assert "CREVIEWERS" in slack.called("response_url")[-1]["text"]


@pytest.mark.parametrize("staff, verified", [(True, True), (False, False)])
def test_reviewer_shortcut_verifies_an_answer(client, slack, staff, verified):
    make_user(email="reviewer@northwind.example", is_staff=staff)
    answer = make_answer()
    from knowledge.answering.result import AnswerResult

    shown = blocks.answer_blocks(AnswerResult(question=QUESTION, answer=answer.text, refused=False, confidence=0.8,
                                              answer_id=answer.pk))
    payload = {"type": "message_action", "callback_id": SHORTCUT_VERIFY, "trigger_id": "t", "team": {"id": "T"},
               "user": {"id": "UREVIEW1"}, "channel": {"id": "CGENERAL"}, "response_url": slack.response_url(),
               "message": {"ts": "1700000000.000200", "blocks": shown, "bot_id": BOT_ID}, "message_ts": "1"}
    assert post_interaction(client, payload).status_code == 200
    answer.refresh_from_db()
    assert (answer.status == Answer.Status.VERIFIED) is verified
    if verified:
        assert "✅ Verified by " in json.dumps(slack.called("chat.update")[0]["blocks"], ensure_ascii=False)
    else:
        assert "Only reviewers" in slack.called("response_url")[-1]["text"]


def test_app_home_lists_recent_questions(client, slack):
    answer = make_answer(status=Answer.Status.VERIFIED)
    SlackQuestion.objects.create(event_id="Ev1", channel_id="D1", user_id="UASKER1", text="Parental leave length?",
                                 kind=SlackQuestion.Kind.DM, status=SlackQuestion.Status.ANSWERED, answer=answer)
    post_event(client, event_callback({"type": "app_home_opened", "user": "UASKER1", "channel": "D1", "tab": "home",
                                       "event_ts": f"{time.time():.6f}"}))
    published = slack.called("views.publish")
    assert len(published) == 1 and published[0]["user_id"] == "UASKER1"
    shown = json.dumps(published[0]["view"], ensure_ascii=False)
    assert "Parental leave length?" in shown and "verified" in shown


def test_a_question_being_answered_is_not_answered_again(slack):
    from datetime import timedelta

    from django.utils import timezone

    from bot.jobs import answer_slack_question

    question = SlackQuestion.objects.create(event_id="EvBUSY", channel_id="CGENERAL", user_id="UASKER1",
                                            text=QUESTION, kind=SlackQuestion.Kind.MENTION,
                                            status=SlackQuestion.Status.ANSWERING)
    answer_slack_question(question.pk, client=WebClient(base_url=slack.api_url, token="xoxb-test"))
    assert not slack.called("chat.postMessage") and not slack.called("chat.update")
    # A claim far older than any job may run was abandoned by a crashed worker: it is taken over.
    SlackQuestion.objects.filter(pk=question.pk).update(updated_at=timezone.now() - timedelta(hours=2))
    answer_slack_question(question.pk, client=WebClient(base_url=slack.api_url, token="xoxb-test"))
    question.refresh_from_db()
    assert question.status == SlackQuestion.Status.ANSWERED and question.attempts == 1
