"""The web console's ask page: answers with linked citations, refusals, feedback, stored answers."""

from __future__ import annotations

import re

import pytest

from knowledge.models import Answer, Document, Feedback
from tests.factories import make_review_answer, make_user

pytestmark = pytest.mark.django_db


def test_ask_page_renders_an_answer_with_linked_citations(client, staff, corpus_db):
    response = client.post("/ask/", {"question": "How many weeks of paid parental leave do employees get?"})
    card = response.context["card"]
    assert not card["refused"] and card["citations"], card["answer"]
    html = response.content.decode()
    assert 'class="cite" href="#source-1"' in html
    assert 'id="source-1"' in html
    document = Document.objects.get(source="hr/parental-leave.md")
    assert f'href="/documents/{document.pk}/?chunk=' in html
    assert "Confidence" in html and "Sources" in html
    assert Answer.objects.filter(pk=card["answer_id"]).exists()


def test_citation_link_opens_the_document_on_the_highlighted_passage(client, staff, corpus_db):
    card = client.post("/ask/", {"question": "What is the daily meal allowance when travelling?"}).context["card"]
    assert card["citations"], card["answer"]
    citation = card["citations"][0]
    assert f"?chunk={citation['chunk_id']}#" in citation["href"]
    html = client.get(citation["href"].split("#")[0]).content.decode()
    cited = re.findall(r'<p class="cited"( id="cited-passage" tabindex="-1")?>', html)
    assert cited and cited[0], "the cited paragraphs are marked; the first carries the id the page scrolls to"
    assert html.count('id="cited-passage"') == 1 and "scrollIntoView" in html


def test_refusal_links_the_closest_documents(client, staff, corpus_db):
    response = client.post("/ask/", {"question": "What is the dress code for the annual gala dinner?",
                                     "no_cache": "on"})
    card = response.context["card"]
    assert card["refused"] is True
    page = response.content.decode()
    assert card["closest"], "a refusal names the documents it came closest to"
    for document in card["closest"]:
        assert document["title"] in card["answer"]
        assert f'href="{document["href"]}"' in page and "/documents/" in document["href"]


def test_feedback_from_the_ask_page_flags_the_answer(client, staff, corpus_db):
    answer_id = client.post("/ask/", {"question": "How do I set up the VPN?"}).context["card"]["answer_id"]
    response = client.post(f"/answers/{answer_id}/feedback/", {"kind": "flag"}, follow=True)
    assert Answer.objects.get(pk=answer_id).status == Answer.Status.FLAGGED
    assert b"Flagged" in response.content
    client.post(f"/answers/{answer_id}/feedback/", {"kind": "unhelpful", "reason": "out of date"})
    assert Feedback.objects.filter(answer_id=answer_id, kind="unhelpful", reason="out of date").exists()


def test_someone_elses_answer_is_not_shown(client):
    answer = make_review_answer()
    client.force_login(make_user())
    assert client.get("/ask/", {"answer": answer.pk}).status_code == 404
    assert client.post(f"/answers/{answer.pk}/feedback/", {"kind": "flag"}).status_code == 404


@pytest.mark.parametrize("confidence, warning", [
    (0.3, "Low confidence (30%)"),                               # waits for review because it is unsure
    (0.9, "A reviewer has been asked to check this answer"),     # waits after a thumbs-down: not "low confidence"
])
def test_a_stored_answer_waiting_for_review_says_why(client, staff, settings, confidence, warning):
    settings.VERITY_ANSWER_MIN_CONFIDENCE = 0.55
    answer = make_review_answer(confidence=confidence)
    html = client.get("/ask/", {"answer": answer.pk}).content.decode()
    assert warning in html
    assert ("Low confidence" in html) == (confidence < 0.55)
