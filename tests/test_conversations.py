"""Conversations in the API and the console: a follow-up is read with the earlier turns, as in a Slack thread."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from knowledge.answering import AskOptions
from knowledge.answering.service import REFUSAL_TEXT, standalone_question
from knowledge.answering.providers import default_providers
from knowledge.conversations import ConversationNotFound, ask_in_conversation, thread_context
from knowledge.models import Conversation, QueryLog
from tests.factories import make_user
from tests.test_api import token_client

pytestmark = pytest.mark.django_db

FIRST = "How many weeks of paid parental leave do employees get?"
FOLLOW_UP = "and for part-time employees?"


@pytest.fixture(autouse=True)
def fresh_throttle():
    cache.clear()  # API throttle history lives in the cache
    yield
    cache.clear()


def cited_sources(body: dict) -> list[str]:
    return [c["source"] for c in body["citations"]]


def test_api_follow_up_is_answered_from_the_earlier_turn(corpus_db):
    api = token_client(make_user())
    first = api.post("/api/ask", {"question": FIRST}, format="json").json()
    assert first["conversation"] and first["standalone_question"] == ""
    follow = api.post("/api/ask", {"question": FOLLOW_UP, "conversation": first["conversation"]}, format="json")
    assert follow.status_code == 200
    body = follow.json()
    assert body["conversation"] == first["conversation"]
    assert body["standalone_question"].startswith(FIRST)
    assert not body["refused"] and "16 weeks" in body["answer"]
    assert cited_sources(body) and all(source.startswith("hr/parental-leave.md") for source in cited_sources(body))
    turns = api.get(f"/api/conversations/{body['conversation']}").json()["turns"]
    assert [t["question"] for t in turns] == [FIRST, FOLLOW_UP]
    assert turns[1]["answer_id"] == body["answer_id"] and turns[1]["standalone_question"].startswith(FIRST)


def test_api_question_without_a_conversation_starts_a_new_one(corpus_db):
    api = token_client(make_user())
    one = api.post("/api/ask", {"question": FIRST}, format="json").json()
    two = api.post("/api/ask", {"question": FOLLOW_UP}, format="json").json()
    assert one["conversation"] != two["conversation"]
    assert two["standalone_question"] == ""  # nothing earlier to complete it from


def test_someone_elses_conversation_is_a_404_json_error(corpus_db):
    owner, other = token_client(make_user()), token_client(make_user())
    conversation = owner.post("/api/ask", {"question": FIRST}, format="json").json()["conversation"]
    asked = QueryLog.objects.count()
    for response in (other.post("/api/ask", {"question": FOLLOW_UP, "conversation": conversation}, format="json"),
                     other.get(f"/api/conversations/{conversation}"),
                     other.get("/api/conversations/999999")):
        assert response.status_code == 404
        assert response["Content-Type"].startswith("application/json")
        body = response.json()
        assert set(body) == {"error", "hint"} and "conversation" in body["error"].lower()
    assert QueryLog.objects.count() == asked  # nothing was answered for the intruder
    assert owner.get(f"/api/conversations/{conversation}").status_code == 200


def test_bad_conversation_id_is_a_400(corpus_db):
    response = token_client(make_user()).post("/api/ask", {"question": FIRST, "conversation": "abc"}, format="json")
    assert response.status_code == 400
    assert response.json()["error"].startswith("conversation:")


def test_domain_keeps_turns_in_order_and_reads_at_most_the_context_window(corpus_db):
    user = make_user()
    conversation, _ = ask_in_conversation(FIRST, AskOptions(user=user, channel="console"))
    for question in ("What is the home office stipend?", "How do I report a phishing email?",
                     "What does error E4012 mean?"):
        ask_in_conversation(question, AskOptions(user=user, channel="console"), conversation.pk)
    context = thread_context(conversation)
    assert len(context) == 6 and FIRST not in context  # the last three question/answer pairs, as in Slack
    assert context[-2] == "What does error E4012 mean?"
    with pytest.raises(ConversationNotFound):
        ask_in_conversation(FOLLOW_UP, AskOptions(user=make_user(), channel="api"), conversation.pk)


def test_conversations_belong_to_signed_in_people():
    with pytest.raises(ValueError, match="signed-in"):
        ask_in_conversation(FIRST, AskOptions(user=None))
    assert not Conversation.objects.exists()


@pytest.mark.parametrize("context, expected", [
    ([FIRST, "Primary caregivers get 16 weeks [1]."], f"{FIRST} {FOLLOW_UP}"),
    # A refusal is an answer too: the follow-up completes the question, never the bot's own words.
    ([FIRST, REFUSAL_TEXT.format(searched="1 collection and found nothing related")], f"{FIRST} {FOLLOW_UP}"),
    ([], FOLLOW_UP),
])
def test_follow_up_completes_the_last_question_asked(context, expected):
    providers = default_providers()
    providers.completer = None
    assert standalone_question(FOLLOW_UP, context, providers) == expected


def test_console_follow_up_shows_the_earlier_turns(client, corpus_db):
    client.force_login(make_user())
    first = client.post("/ask/", {"question": "What is the home office stipend?"})
    conversation = first.context["conversation_id"]
    assert conversation and f'name="conversation" value="{conversation}"' in first.content.decode()
    follow = client.post("/ask/", {"question": "and what about working from abroad?", "conversation": conversation})
    page = follow.content.decode()
    card = follow.context["card"]
    assert card["standalone_question"].startswith("What is the home office stipend?")
    assert card["citations"] and all(c["source"].startswith("hr/remote-work-policy") for c in card["citations"])
    assert "abroad" in card["answer"]
    earlier = follow.context["earlier_turns"]
    assert [t["question"] for t in earlier] == ["What is the home office stipend?"]
    assert page.index("What is the home office stipend?") < page.index("and what about working from abroad?")
    assert "New conversation" in page
    # The page remembers the conversation; "New conversation" forgets it.
    again = client.get("/ask/")
    assert again.context["conversation_id"] == conversation and len(again.context["earlier_turns"]) == 1
    # Feedback lands back on the page (?answer=): the conversation is still shown around that answer.
    after_feedback = client.post(f"/answers/{card['answer_id']}/feedback/", {"kind": "helpful"}, follow=True)
    assert after_feedback.context["conversation_id"] == conversation
    assert after_feedback.context["card"]["answer_id"] == card["answer_id"]
    assert len(after_feedback.context["earlier_turns"]) == 1
    client.post("/ask/new/")
    fresh = client.get("/ask/")
    assert fresh.context["conversation_id"] is None and not fresh.context["earlier_turns"]


def test_console_ignores_someone_elses_conversation(client, corpus_db):
    other = make_user()
    conversation, _ = ask_in_conversation(FIRST, AskOptions(user=other, channel="console"))
    client.force_login(make_user())
    response = client.post("/ask/", {"question": FOLLOW_UP, "conversation": conversation.pk})
    assert response.status_code == 404
    assert QueryLog.objects.filter(conversation=conversation).count() == 1
