"""The web console's review queue and knowledge gaps: staff check, edit, flag and schedule answers."""

from __future__ import annotations

from datetime import date

import pytest

from knowledge.models import Answer, KnowledgeGap
from verification import review as reviews
from tests.factories import make_review_answer, make_user

pytestmark = pytest.mark.django_db


def test_review_queue_shows_claims_defensively(client, staff):
    answer = make_review_answer()
    response = client.get("/review/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'id="answer-{answer.pk}"' in html
    assert "The daily meal allowance is 55 USD." in html and "Flat form claim" in html
    assert "a bare string claim" in html and "not in the source" in html


def test_review_queue_is_paged(client, staff):
    from webapp.console.views import REVIEW_PAGE_SIZE

    answers = [make_review_answer(question_text=f"Question number {i}?") for i in range(REVIEW_PAGE_SIZE + 3)]
    first = client.get("/review/").content.decode()
    second = client.get("/review/", {"page": 2}).content.decode()
    shown_first = {a.pk for a in answers if f'id="answer-{a.pk}"' in first}
    shown_second = {a.pk for a in answers if f'id="answer-{a.pk}"' in second}
    assert len(shown_first) == REVIEW_PAGE_SIZE and len(shown_second) == 3
    assert not shown_first & shown_second  # every waiting answer is reachable, once
    assert f"{REVIEW_PAGE_SIZE + 3} waiting" in first and "Page 1 of 2" in first and "?page=2" in first
    assert "Page 2 of 2" in second
    assert client.get("/review/", {"page": "not-a-number"}).status_code == 200  # falls back to the first page


def test_review_verify_with_edit_flag_and_schedule(client, staff):
    answer = make_review_answer()
    client.post(f"/review/{answer.pk}/", {"action": "verify", "text": "The allowance is 55 USD a day [1].",
                                          "note": "checked"})
    answer.refresh_from_db()
    assert answer.status == Answer.Status.VERIFIED and answer.text == "The allowance is 55 USD a day [1]."
    assert answer.reviewed_by == staff and answer.review_note == "checked"

    client.post(f"/review/{answer.pk}/", {"action": "schedule", "reverify_at": "2030-01-31"})
    answer.refresh_from_db()
    assert answer.reverify_at == date(2030, 1, 31)

    client.post(f"/review/{answer.pk}/", {"action": "flag", "note": "wrong"})
    answer.refresh_from_db()
    assert answer.status == Answer.Status.FLAGGED


def test_schedule_without_a_date_is_refused(client, staff):
    answer = make_review_answer()
    response = client.post(f"/review/{answer.pk}/", {"action": "schedule"}, follow=True)
    assert b"Pick the date" in response.content
    answer.refresh_from_db()
    assert answer.reverify_at is None


def test_a_reviewers_edit_is_checked_against_the_cited_sources(client, staff):
    faithful = make_review_answer()
    client.post(f"/review/{faithful.pk}/", {"action": "verify", "text": "The meal allowance is 55 USD per day [1]."})
    faithful.refresh_from_db()
    assert faithful.status == Answer.Status.VERIFIED
    assert faithful.verification["reviewer_edit"]["faithful"] is True and not reviews.edit_findings(faithful)

    wrong = make_review_answer()
    response = client.post(f"/review/{wrong.pk}/", {"action": "verify", "note": "updated",
                                                    "text": "The daily meal allowance is 75 USD [1]."}, follow=True)
    wrong.refresh_from_db()
    assert wrong.status == Answer.Status.VERIFIED  # the reviewer decides...
    findings = reviews.edit_findings(wrong)
    assert findings and "75" in findings[0]  # ...but is told what the sources do not support
    assert "the cited sources do not support" in response.content.decode()
    assert "updated" in wrong.review_note and "reviewer's edit has 1 of 1 claim(s)" in wrong.review_note

    client.post(f"/review/{wrong.pk}/", {"action": "verify", "text": "The daily meal allowance is 55 USD [1]."})
    wrong.refresh_from_db()
    assert not reviews.edit_findings(wrong)  # findings belong to the text they were found in


def test_review_is_for_staff_only(client):
    answer = make_review_answer()
    client.force_login(make_user())
    assert client.get("/review/").status_code == 403
    assert client.post(f"/review/{answer.pk}/", {"action": "verify"}).status_code == 403
    answer.refresh_from_db()
    assert answer.status == Answer.Status.NEEDS_REVIEW


def test_gaps_are_listed_and_can_be_resolved(client, staff):
    gap = KnowledgeGap.objects.create(normalized_question="dog office", example_question="Can I bring my dog?",
                                      times_asked=4, searched=[{"source": "faq.html#badges", "score": 0.2}])
    response = client.get("/gaps/")
    assert b"Can I bring my dog?" in response.content and b"4\xc3\x97" in response.content
    assert b"faq.html#badges" in response.content
    client.post(f"/gaps/{gap.pk}/resolve/", {"resolved": "1"})
    gap.refresh_from_db()
    assert gap.resolved
    assert b"Can I bring my dog?" not in client.get("/gaps/").content
    assert b"Can I bring my dog?" in client.get("/gaps/", {"show": "resolved"}).content
