"""Who sees what: an outsider learns nothing about collections they cannot read, on every route."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from slack_bolt.adapter.django import SlackRequestHandler
from slack_sdk import WebClient

from bot.app import build_app
from bot.models import SlackQuestion
from bot.views import reset_handler
from knowledge.answering.graph import understand
from knowledge.answering.service import default_providers
from knowledge.answering.store import record_gap
from knowledge.ingestion import ingest_document, register_upload
from knowledge.models import Answer, Collection, Feedback, KnowledgeGap, QueryLog
from tests.factories import make_collection, make_user
from tests.servers.fake_slack import FakeSlack, event_callback, message, signed_headers

pytestmark = pytest.mark.django_db

SECRET_DOC = (b"# Quibblethorpe escrow\n\nThe Quibblethorpe escrow threshold is 9,400 credits, approved by the "
              b"Zentravian board.\n")
QUESTION = "What is the Quibblethorpe escrow threshold approved by the Zentravian board?"
# Parts of an answer that differ between two asks of the same question whatever the data.
VOLATILE = {"timings_ms", "answer_id", "log_id", "conversation"}  # ids of this request
SLACK_SECRET = "8f742231b10e8888abcd99yyyzzz85a5"


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()  # API throttle history
    yield
    cache.clear()


def token_client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def add_secret_collection(reader=None) -> Collection:
    secret = make_collection(name="Treasury", is_public=False)
    if reader is not None:
        secret.readers.add(reader)
    document, _ = register_upload(secret, "treasury/escrow.md", SECRET_DOC)
    ingest_document(document.pk)
    return secret


def stable(body: dict) -> dict:
    return {k: v for k, v in body.items() if k not in VOLATILE}


def forget_answers() -> None:
    """Stored answers are reused; each ask below must be computed afresh."""
    Answer.objects.all().delete()


# --- 1. no side channel through the answer, its evidence or its retrieval ------------------------


def test_an_outsiders_answer_is_the_same_whether_or_not_a_private_collection_holds_the_words(corpus_db):
    outsider, insider = make_user(), make_user()
    api = token_client(outsider)
    before = api.post("/api/ask", {"question": QUESTION}, format="json").json()
    forget_answers()

    secret = add_secret_collection(reader=insider)
    inside = token_client(insider).post("/api/ask", {"question": QUESTION}, format="json").json()
    assert "9,400" in inside["answer"]  # the words are there, for those who may read them
    assert inside["evidence"] != before["evidence"]

    after = api.post("/api/ask", {"question": QUESTION}, format="json").json()  # the insider's answer is stored
    assert stable(after) == stable(before)  # evidence (missing_unseen, ...), retrieval, citations, text, cache
    secret_chunks = set(secret.documents.get().chunks.values_list("pk", flat=True))
    assert not secret_chunks & {r["chunk_id"] for r in after["retrieved"]}
    assert "9,400" not in json.dumps(after) and "Treasury" not in json.dumps(after)
    assert secret.pk not in Answer.objects.get(pk=after["answer_id"]).collection_ids


def test_the_console_ask_page_draws_only_on_readable_collections(client, corpus_db):
    add_secret_collection()
    outsider = make_user()
    client.force_login(outsider)
    page = client.post("/ask/", {"question": QUESTION}).content.decode()
    assert "9,400" not in page and "Treasury" not in page and "treasury/escrow.md" not in page
    secret = Collection.objects.get(name="Treasury")
    log = QueryLog.objects.get(user=outsider)
    assert secret.pk not in log.answer.collection_ids
    assert not set(secret.documents.get().chunks.values_list("pk", flat=True)) & {
        r["chunk_id"] for r in log.retrieved}


def test_a_slack_dm_draws_only_on_the_askers_collections(client, settings, corpus_db, embedder,
                                                         django_capture_on_commit_callbacks):
    secret = add_secret_collection()
    make_user(email="asker@northwind.example")  # mapped by e-mail; not a reader of Treasury
    with FakeSlack(emails={"UASKER1": "asker@northwind.example"}) as fake:
        settings.SLACK_BOT_TOKEN, settings.SLACK_SIGNING_SECRET = "xoxb-test", SLACK_SECRET
        settings.SLACK_API_URL, settings.TASK_BACKEND = fake.api_url, "sync"
        app = build_app(token="xoxb-test", signing_secret=SLACK_SECRET, client=WebClient(base_url=fake.api_url),
                        process_before_response=True)
        reset_handler(SlackRequestHandler(app))
        try:
            body = json.dumps(event_callback(message(QUESTION)))
            with django_capture_on_commit_callbacks(execute=True):
                response = client.post("/slack/events", data=body, content_type="application/json",
                                       headers=signed_headers(body, SLACK_SECRET))
            assert response.status_code == 200
            shown = json.dumps([c.params for c in fake.calls], ensure_ascii=False)
        finally:
            reset_handler(None)
    question = SlackQuestion.objects.get()
    assert question.answer is not None and secret.pk not in question.answer.collection_ids
    assert "9,400" not in shown and "Treasury" not in shown and "treasury/escrow.md" not in shown


# --- 2. other people's questions: reviewers only; gaps: owners of the collections searched -------


def test_the_dashboard_shows_only_my_questions_unless_i_review(client):
    me, other, reviewer = make_user(), make_user(), make_user(is_staff=True)
    QueryLog.objects.create(question="my own question about parking", user=me, outcome="answered")
    QueryLog.objects.create(question="someone else's question about salaries", user=other, outcome="answered")
    client.force_login(me)
    page = client.get("/").content.decode()
    assert "my own question about parking" in page and "salaries" not in page
    client.force_login(reviewer)
    page = client.get("/").content.decode()
    assert "my own question about parking" in page and "salaries" in page


def test_owners_see_the_gaps_of_their_own_collections_only(client):
    hr, legal = make_collection(is_public=False), make_collection(is_public=False)
    hr_owner, legal_owner, reviewer = make_user(), make_user(), make_user(is_staff=True)
    hr.owners.add(hr_owner)
    legal.owners.add(legal_owner)
    embedder = default_providers().embedder
    for question, normalized, collection in (("Is there a crèche allowance?", "creche allowance", hr),
                                             ("Who signs NDAs for vendors?", "nda vendor sign", legal)):
        vector = embedder.embed([question], kind="query")[0]
        record_gap(question, understand(question, normalized, vector), [collection.pk], [])
    hr_gap = KnowledgeGap.objects.get(normalized_question="creche allowance")
    legal_gap = KnowledgeGap.objects.get(normalized_question="nda vendor sign")

    client.force_login(hr_owner)
    page = client.get("/gaps/").content.decode()
    assert "crèche allowance" in page and "NDAs" not in page
    assert client.post(f"/gaps/{legal_gap.pk}/resolve/", {"resolved": "1"}).status_code == 404
    legal_gap.refresh_from_db()
    assert not legal_gap.resolved
    client.post(f"/gaps/{hr_gap.pk}/resolve/", {"resolved": "1"})
    hr_gap.refresh_from_db()
    assert hr_gap.resolved

    client.force_login(reviewer)
    page = client.get("/gaps/", {"show": "all"}).content.decode()
    assert "crèche allowance" in page and "NDAs" in page


def test_a_refused_question_is_a_gap_of_the_collections_searched(corpus_db):
    owner = make_user()
    private = make_collection(is_public=False)
    private.owners.add(owner)
    token_client(owner).post("/api/ask", {"question": "What is the company's stock ticker symbol?"}, format="json")
    gap = KnowledgeGap.objects.get()
    assert private.pk in gap.collection_ids
    assert Collection.objects.get(name="General").pk in gap.collection_ids


# --- 3. feedback only on answers one may see -----------------------------------------------------


def test_feedback_on_an_answer_one_cannot_see_is_404_everywhere(client):
    private = make_collection(is_public=False)
    hidden = Answer.objects.create(question_text="Board pay?", normalized_question="board pay", text="x [1].",
                                   collection_ids=[private.pk])
    outsider = make_user()
    response = token_client(outsider).post(f"/api/answers/{hidden.pk}/feedback", {"kind": "flag"}, format="json")
    assert response.status_code == 404 and response.json()["error"]
    client.force_login(outsider)
    assert client.post(f"/answers/{hidden.pk}/feedback/", {"kind": "flag"}).status_code == 404
    assert client.get("/ask/", {"answer": hidden.pk}).status_code == 404
    hidden.refresh_from_db()
    assert hidden.status == Answer.Status.AUTO and not Feedback.objects.exists()

    reader = make_user()
    private.readers.add(reader)
    response = token_client(reader).post(f"/api/answers/{hidden.pk}/feedback", {"kind": "flag"}, format="json")
    assert response.status_code == 201
    hidden.refresh_from_db()
    # A reader's flag queues the answer for a reviewer (who decides); it was accepted, not ignored.
    assert hidden.flag_pending and Feedback.objects.filter(answer=hidden, kind="flag").count() == 1
