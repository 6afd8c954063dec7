"""Answer reuse by level, never-serve rules, staleness, expiry, feedback and reviewer rules, the admin and CLI."""

from __future__ import annotations

import json
from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.core.management import CommandError, call_command
from django.utils import timezone

from knowledge.answering import cache
from knowledge.answering.graph import record_citations, record_question, understand
from knowledge.gaps import resolve_gaps_for_document
from knowledge.ingestion import delete_document, ingest_document, register_upload
from knowledge.models import Answer, AnswerCitation, Feedback, KnowledgeGap, Question, Topic
from knowledge.query import analyze
from tests.factories import make_collection, make_user
from verification import curation
from verification.models import ReviewEvent
from webapp.roles import REVIEWERS_GROUP

pytestmark = pytest.mark.django_db

POLICY = b"""# Checkout errors

## E4012 - Payment token expired

The card token stored in the session has expired. Tokens are valid for 15 minutes after the card form is submitted.

## E4013 - Card declined by issuer

The issuing bank declined the charge. Ask the customer to contact their bank.
"""


def asked(embedder, text: str):
    query = analyze(text)
    return understand(query.normalized, query.cache_key, embedder.embed([query.expanded], kind="query")[0])


def make_answer(embedder, question: str, *, collection=None, status=Answer.Status.VERIFIED, text="An answer [1].",
                confidence=0.9, reviewer=None, citations=None, **fields) -> Answer:
    """A stored answer with its origin question in the graph, as the question path leaves it."""
    collection = collection or make_collection()
    q = asked(embedder, question)
    answer = Answer.objects.create(
        question_text=question, normalized_question=q.normalized, question_embedding=q.vector, text=text,
        confidence=confidence, status=status, collection_ids=[collection.pk], citations=citations or [],
        reviewed_by=reviewer, reviewed_at=timezone.now() if status == Answer.Status.VERIFIED else None, **fields)
    record_citations(answer)
    record_question(q, answer, origin=True, cache="miss")
    return answer


def lookup(embedder, text: str, collection):
    return cache.lookup(asked(embedder, text), [collection.pk])


@pytest.fixture
def reviewer():
    return make_user(first_name="Ana", is_staff=True)


# --- cache levels -------------------------------------------------------------------------------------

def test_exact_level_serves_the_same_question(embedder, reviewer):
    collection = make_collection()
    answer = make_answer(embedder, "What does error E4012 mean?", collection=collection, reviewer=reviewer)
    hit = lookup(embedder, "what does error E4012 mean", collection)
    assert hit.level == "exact" and hit.answer == answer


def test_similar_level_serves_a_paraphrase(embedder, reviewer):
    collection = make_collection()
    answer = make_answer(embedder, "What does error E4012 mean?", collection=collection, reviewer=reviewer)
    hit = lookup(embedder, "What is the meaning of error E4012?", collection)
    assert hit.level == "similar" and hit.answer == answer


def test_graph_level_joins_on_entities_and_topic_when_wording_is_far(embedder, reviewer):
    Topic.objects.create(slug="checkout", name="Checkout", keywords="checkout, payment")
    collection = make_collection()
    answer = make_answer(embedder, "What does checkout error E4012 mean?", collection=collection, reviewer=reviewer)
    far = "our checkout page keeps spitting out E4012 for loads of customers since this morning, any clue?"
    assert cache.lookup(asked(embedder, far), [collection.pk]).level in ("similar", "graph")
    cache_min = cache.SIMILAR_MIN
    try:
        cache.SIMILAR_MIN = 0.999  # only the graph level can find it now
        hit = lookup(embedder, far, collection)
    finally:
        cache.SIMILAR_MIN = cache_min
    assert hit.level == "graph" and hit.answer == answer


def test_graph_level_serves_verified_answers_only(embedder):
    collection = make_collection()
    make_answer(embedder, "What does checkout error E4012 mean?", collection=collection, status=Answer.Status.AUTO)
    cache_min = cache.SIMILAR_MIN
    try:
        cache.SIMILAR_MIN = 0.999
        assert lookup(embedder, "checkout shows E4012 for customers, what is it?", collection) is None
    finally:
        cache.SIMILAR_MIN = cache_min


@pytest.mark.parametrize("asked_text", [
    "What does error E4013 mean?",          # identifier
    "What does error E4012 not mean?",       # negation
])
def test_a_near_identical_question_with_another_meaning_misses(embedder, reviewer, asked_text):
    collection = make_collection()
    make_answer(embedder, "What does error E4012 mean?", collection=collection, reviewer=reviewer)
    assert lookup(embedder, asked_text, collection) is None


def test_option_and_polarity_swaps_miss(embedder, reviewer):
    collection = make_collection()
    make_answer(embedder, "What does git reset --hard do?", collection=collection, reviewer=reviewer)
    make_answer(embedder, "How do I convert numeric to factor in R?", collection=collection, reviewer=reviewer)
    make_answer(embedder, "What happens with asyncio.gather(return_exceptions=True) when a task raises?",
                collection=collection, reviewer=reviewer)
    assert lookup(embedder, "What does git reset --soft do?", collection) is None
    assert lookup(embedder, "How do I convert factor to numeric in R?", collection) is None
    assert lookup(embedder, "What happens with asyncio.gather(return_exceptions=False) when a task raises?",
                  collection) is None


def test_verified_answers_outrank_unreviewed_ones(embedder, reviewer):
    collection = make_collection()
    make_answer(embedder, "What does error E4012 mean?", collection=collection, status=Answer.Status.AUTO)
    verified = make_answer(embedder, "What does error E4012 mean?", collection=collection, reviewer=reviewer)
    assert lookup(embedder, "What does error E4012 mean?", collection).answer == verified


def test_unreviewed_answers_are_reused_only_for_practically_the_same_question(embedder):
    collection = make_collection()
    make_answer(embedder, "What does error E4012 mean?", collection=collection, status=Answer.Status.AUTO)
    assert lookup(embedder, "What does error E4012 mean?", collection).level == "exact"
    assert lookup(embedder, "hey, customer got E4012 at checkout, what is that?", collection) is None


# --- never served -------------------------------------------------------------------------------------

@pytest.mark.parametrize("fields", [{"status": Answer.Status.FLAGGED}, {"stale": True}, {"refused": True}])
def test_flagged_stale_and_refused_answers_are_never_served(embedder, reviewer, fields):
    collection = make_collection()
    make_answer(embedder, "What does error E4012 mean?", collection=collection, reviewer=reviewer, **fields)
    assert lookup(embedder, "What does error E4012 mean?", collection) is None


def test_answers_from_unreadable_collections_are_not_served(embedder, reviewer):
    make_answer(embedder, "What does error E4012 mean?", collection=make_collection(), reviewer=reviewer)
    assert lookup(embedder, "What does error E4012 mean?", make_collection()) is None


def test_verification_expires(embedder, reviewer, settings):
    settings.VERITY_VERIFIED_TTL_DAYS = 90
    collection = make_collection()
    answer = make_answer(embedder, "What does error E4012 mean?", collection=collection, reviewer=reviewer)
    Answer.objects.filter(pk=answer.pk).update(checked_at=timezone.now() - timedelta(days=91))
    assert lookup(embedder, "What does error E4012 mean?", collection) is None
    assert curation.expire_verified_answers() == 1
    answer.refresh_from_db()
    assert answer.status == Answer.Status.NEEDS_REVIEW
    assert answer.review_events.first().action == ReviewEvent.Action.EXPIRED


# --- the question path ------------------------------------------------------------------------------------

def test_served_answer_carries_its_badge_and_the_log_counts_levels(corpus_db, reviewer):
    from knowledge.answering import AskOptions, answer_question
    from knowledge.models import QueryLog

    options = AskOptions(user=reviewer)
    first = answer_question("How long is a payment token valid before E4012?", options)
    assert first.cache == "miss" and not first.refused
    curation.verify(Answer.objects.get(pk=first.answer_id), reviewer)
    again = answer_question("How long is a payment token valid before E4012?", options)
    assert again.cache == "exact" and again.answer_id == first.answer_id
    assert again.badge.startswith("Verified by Ana on ")
    assert again.to_dict()["badge"] == again.badge
    rates = QueryLog.objects.filter(pk__in=[first.log_id, again.log_id]).cache_hit_rates()
    assert rates == {"exact": 0.5, "miss": 0.5}
    assert Question.objects.filter(answer_id=first.answer_id, cache="exact", is_origin=False).exists()
    assert AnswerCitation.objects.filter(answer_id=first.answer_id, document__isnull=False).exists()


def test_a_new_answer_to_a_flagged_question_carries_the_reason_and_waits(corpus_db, reviewer):
    from knowledge.answering import AskOptions, answer_question

    question = "How long is a payment token valid before E4012?"
    first = answer_question(question, AskOptions(user=reviewer))
    curation.flag(Answer.objects.get(pk=first.answer_id), reviewer, note="quotes the old 10 minute limit")
    second = answer_question(question, AskOptions(user=reviewer))
    assert second.cache == "miss" and second.answer_id != first.answer_id
    assert second.status == Answer.Status.NEEDS_REVIEW
    assert "quotes the old 10 minute limit" in second.warning
    assert Answer.objects.get(pk=second.answer_id).flag_reason == "quotes the old 10 minute limit"


def test_ask_json_keeps_cache_and_answer_id(corpus_db):
    out = StringIO()
    call_command("ask", "How long is a payment token valid before E4012?", "--json", stdout=out)
    data = json.loads(out.getvalue())
    assert data["cache"] == "miss" and isinstance(data["answer_id"], int)


# --- freshness ----------------------------------------------------------------------------------------

def _ingest(collection, data: bytes):
    document, needs = register_upload(collection, "errors.md", data)
    if needs:
        ingest_document(document.pk)
    document.refresh_from_db()
    return document


def _cited_answer(embedder, document, reviewer) -> Answer:
    chunk = document.chunks.get(text__contains="15 minutes")
    return make_answer(embedder, "How long is a payment token valid?", collection=document.collection,
                       reviewer=reviewer, text="Tokens are valid for 15 minutes after the card form is submitted [1].",
                       citations=[{"n": 1, "chunk_id": chunk.pk, "source": chunk.citation_source, "quote": chunk.text}])


def test_a_new_version_marks_citing_answers_stale_at_once_and_the_recheck_keeps_supported_ones(
        embedder, reviewer, settings, django_capture_on_commit_callbacks):
    settings.TASK_BACKEND = "sync"
    collection = make_collection()
    document = _ingest(collection, POLICY)
    answer = _cited_answer(embedder, document, reviewer)
    assert AnswerCitation.objects.filter(answer=answer, document=document, version=1).exists()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        _ingest(collection, POLICY + b"\n## E4090 - Duplicate order\n\nThe idempotency key was reused.\n")
    answer.refresh_from_db()
    assert answer.stale and lookup(embedder, "How long is a payment token valid?", collection) is None
    for callback in callbacks:
        callback()
    answer.refresh_from_db()
    assert not answer.stale and answer.status == Answer.Status.VERIFIED and answer.checked_at
    assert answer.review_events.filter(action=ReviewEvent.Action.REVERIFIED).exists()


def test_deleting_a_cited_document_sends_its_answers_back_to_the_queue(
        embedder, reviewer, settings, django_capture_on_commit_callbacks):
    settings.TASK_BACKEND = "sync"
    collection = make_collection()
    document = _ingest(collection, POLICY)
    answer = _cited_answer(embedder, document, reviewer)
    with django_capture_on_commit_callbacks(execute=True):
        delete_document(document.pk)
    answer.refresh_from_db()
    assert answer.stale and answer.status == Answer.Status.NEEDS_REVIEW
    event = answer.review_events.get(action=ReviewEvent.Action.REQUEUED)
    assert event.note  # the reason


def test_a_gap_closes_itself_naming_the_document_that_answers_it(embedder, settings):
    from knowledge.answering.store import record_gap

    collection = make_collection()
    record_gap("How long is a payment token valid before E4012?", asked(embedder, "How long is a payment token "
               "valid before E4012?"), [collection.pk], [])
    record_gap("how long is the payment token valid before E4012", asked(embedder, "how long is the payment token "
               "valid before E4012"), [collection.pk], [])
    gap = KnowledgeGap.objects.get()
    assert gap.times_asked == 2
    document = _ingest(collection, POLICY)
    assert resolve_gaps_for_document(document.pk) == 1
    gap.refresh_from_db()
    assert gap.resolved and gap.resolved_by == document and "errors" in gap.resolution.lower()


# --- who may do what ------------------------------------------------------------------------------------

def test_a_users_flag_queues_the_answer_and_keeps_its_badge(embedder, reviewer):
    collection = make_collection(is_public=True)
    answer = make_answer(embedder, "What does error E4012 mean?", collection=collection, reviewer=reviewer)
    curation.give_feedback(answer, Feedback.Kind.FLAG, user=make_user(), reason="wrong code")
    answer.refresh_from_db()
    assert answer.status == Answer.Status.VERIFIED and answer.flag_pending
    assert answer.badge().startswith("Verified by Ana")
    hit = lookup(embedder, "What does error E4012 mean?", collection)
    assert hit.answer == answer and hit.score == pytest.approx(hit.similarity * cache.VERIFIED_WEIGHT *
                                                                cache.FLAG_PENDING_WEIGHT)
    assert curation.served_answer(answer).warning
    assert answer.review_events.get().action == ReviewEvent.Action.USER_FLAG


def test_a_reviewers_flag_removes_the_answer(embedder, reviewer):
    collection = make_collection()
    answer = make_answer(embedder, "What does error E4012 mean?", collection=collection, reviewer=reviewer)
    member = make_user()
    member.groups.add(Group.objects.get_or_create(name=REVIEWERS_GROUP)[0])
    curation.give_feedback(answer, Feedback.Kind.FLAG, user=member, reason="wrong")
    answer.refresh_from_db()
    assert answer.status == Answer.Status.FLAGGED and not answer.flag_pending
    assert lookup(embedder, "What does error E4012 mean?", collection) is None


def test_only_reviewers_verify_or_flag(embedder):
    answer = make_answer(embedder, "What does error E4012 mean?", status=Answer.Status.AUTO)
    with pytest.raises(PermissionDenied):
        curation.verify(answer, make_user())
    with pytest.raises(PermissionDenied):
        curation.flag(answer, None)


def test_served_answer_respects_visibility(embedder, reviewer):
    answer = make_answer(embedder, "What does error E4012 mean?", collection=make_collection(is_public=False))
    with pytest.raises(PermissionDenied):
        curation.served_answer(answer, make_user())
    assert curation.served_answer(answer, reviewer).answer_id == answer.pk


def test_review_command_verifies_and_flags(embedder, reviewer):
    answer = make_answer(embedder, "What does error E4012 mean?", status=Answer.Status.AUTO)
    out = StringIO()
    call_command("review", "verify", str(answer.pk), "--as", reviewer.username, "--note", "checked", stdout=out)
    assert "Verified by Ana" in out.getvalue()
    call_command("review", "flag", str(answer.pk), "--as", reviewer.username, "--note", "outdated", stdout=out)
    answer.refresh_from_db()
    assert answer.status == Answer.Status.FLAGGED
    assert [e.action for e in answer.review_events.order_by("pk")] == ["verify", "flag"]
    with pytest.raises(CommandError):
        call_command("review", "verify", str(answer.pk), "--as", make_user().username, stdout=out)


# --- admin ------------------------------------------------------------------------------------------------

def test_the_admin_page_slack_links_to_exists_and_shows_history_and_reasons(client, embedder, reviewer):
    answer = make_answer(embedder, "What does error E4012 mean?", reviewer=reviewer)
    curation.give_feedback(answer, Feedback.Kind.UNHELPFUL, user=make_user(), reason="too vague about retries")
    client.force_login(reviewer)
    page = client.get(f"/admin/knowledge/answer/{answer.pk}/change/")
    assert page.status_code == 200
    body = page.content.decode()
    assert "too vague about retries" in body and "Marked not helpful" in body


def test_admin_queue_filters_and_bulk_actions(client, embedder, reviewer):
    Topic.objects.create(slug="checkout", name="Checkout", keywords="checkout")
    collection = make_collection()
    low = make_answer(embedder, "What does checkout error E4012 mean?", collection=collection,
                      status=Answer.Status.NEEDS_REVIEW, confidence=0.2)
    other = make_answer(embedder, "Who approves a $3,000 expense report?", status=Answer.Status.NEEDS_REVIEW,
                        confidence=0.9)
    client.force_login(reviewer)
    for query in ("status=needs_review", "confidence=low", "feedback=none", f"collection={collection.pk}",
                  f"topic={Topic.objects.get().pk}"):
        page = client.get(f"/admin/verification/reviewitem/?{query}")
        assert page.status_code == 200, query
        assert low.question_text in page.content.decode(), query
    page = client.get(f"/admin/verification/reviewitem/?collection={collection.pk}")
    assert other.question_text not in page.content.decode()
    response = client.post("/admin/verification/reviewitem/", {"action": "verify_selected",
                                                               "_selected_action": [low.pk, other.pk]})
    assert response.status_code == 302
    assert set(Answer.objects.filter(pk__in=[low.pk, other.pk]).values_list("status", flat=True)) == {"verified"}
    client.post("/admin/verification/reviewitem/?queue=all", {"action": "flag_selected", "_selected_action": [low.pk]})
    assert Answer.objects.get(pk=low.pk).status == Answer.Status.FLAGGED


def test_non_reviewers_cannot_open_the_queue(client, embedder):
    answer = make_answer(embedder, "What does error E4012 mean?")
    client.force_login(make_user(is_staff=False))
    assert client.get(f"/admin/knowledge/answer/{answer.pk}/change/").status_code == 302  # to the admin login


def test_api_answer_view_and_feedback(client, embedder, reviewer):
    collection = make_collection(is_public=True)
    answer = make_answer(embedder, "What does error E4012 mean?", collection=collection, reviewer=reviewer)
    user = make_user()
    client.force_login(user)
    data = client.get(f"/api/answers/{answer.pk}").json()
    assert data["badge"].startswith("Verified by Ana") and data["warning"] == ""
    response = client.post(f"/api/answers/{answer.pk}/feedback", {"kind": "flag", "reason": "wrong"},
                           content_type="application/json")
    assert response.status_code == 201 and response.json()["answer_status"] == "verified"
    assert client.get(f"/api/answers/{answer.pk}").json()["warning"]
