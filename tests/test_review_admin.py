"""The review queue in Django admin, the other admin pages, and re-verification when sources change."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.urls import reverse

from knowledge.answering import AskOptions, answer_question
from knowledge.ingestion import ingest_document, register_upload
from knowledge.models import Answer, Feedback, GlossaryTerm, KnowledgeGap, QueryLog
from tests.factories import make_collection, make_user
from verification.pipeline import verify_and_correct
from verification.review import review_queue
from webapp.jobs import JOBS, run_job

pytestmark = pytest.mark.django_db

PASSAGE = "Hot desks are booked in the Deskly app up to 14 days ahead. Lockers are assigned by Facilities."
CHANGELIST = "admin:verification_reviewitem_changelist"


def make_answer(question: str = "How far ahead can I book a desk?", *, status=Answer.Status.NEEDS_REVIEW,
                confidence: float = 0.4, text: str | None = None, **fields) -> Answer:
    """An answer with a real verification report: one supported claim, one removed unsupported claim."""
    raw = "Hot desks are booked in the Deskly app up to 14 days ahead [1]. Desks come with free coffee [1]."
    final, report = verify_and_correct(raw, [(1, PASSAGE, "http://testserver/documents/1/#desk", "Desk booking")])
    citations = [{"n": 1, "source": "desk.md#desk", "title": "Desk booking", "url": "http://testserver/d/1/#desk",
                  "chunk_id": 1, "quote": PASSAGE}]
    defaults = dict(question_text=question, normalized_question=question.lower(), text=text or final,
                    confidence=confidence, citations=citations, verification=report, status=status)
    return Answer.objects.create(**{**defaults, **fields})


@pytest.fixture
def staff(client):
    client.force_login(make_user(is_staff=True, is_superuser=True))
    return client


def test_changelist_shows_the_queue_in_priority_order_with_claims(staff):
    low = make_answer("Low confidence question?", confidence=0.2)
    flagged = make_answer("Flagged question?", status=Answer.Status.FLAGGED, confidence=0.9)
    thumbs = make_answer("Thumbs-down question?", status=Answer.Status.AUTO, confidence=0.8, unhelpful_count=1)
    Feedback.objects.create(answer=thumbs, kind=Feedback.Kind.UNHELPFUL, reason="wrong")
    make_answer("Verified and fine?", status=Answer.Status.VERIFIED)

    page = staff.get(reverse(CHANGELIST))
    assert page.status_code == 200
    html = page.content.decode()
    order = [html.index(q) for q in ("Flagged question?", "Thumbs-down question?", "Low confidence question?")]
    assert order == sorted(order)
    assert "Verified and fine?" not in html  # not waiting for review
    assert "1/2 supported" in html and "0 / 1 / 0" in html
    assert [a.pk for a in review_queue()] == [flagged.pk, thumbs.pk, low.pk]

    everything = staff.get(reverse(CHANGELIST), {"queue": "all"}).content.decode()
    assert "Verified and fine?" in everything
    low_only = staff.get(reverse(CHANGELIST), {"confidence": "low"}).content.decode()
    assert "Low confidence question?" in low_only and "Flagged question?" not in low_only


def test_change_form_shows_passages_verdicts_and_rounds(staff):
    answer = make_answer()
    html = staff.get(reverse("admin:verification_reviewitem_change", args=[answer.pk])).content.decode()
    assert "Hot desks are booked in the Deskly app" in html  # cited passage quote
    assert 'href="http://testserver/d/1/#desk"' in html
    assert "Desks come with free coffee." in html and "(removed)" in html and "unsupported" in html
    assert "Save and verify" in html and "correction rounds" in html.lower()


def test_damaged_verification_json_still_renders(staff):
    answer = make_answer(verification={"claims": ["junk", {"verdict": 3}, {"claim": "not a dict"}], "rounds": [7]})
    assert staff.get(reverse(CHANGELIST)).status_code == 200
    assert staff.get(reverse("admin:verification_reviewitem_change", args=[answer.pk])).status_code == 200
    empty = make_answer("Empty?", verification=[], citations=None or [])
    assert staff.get(reverse("admin:verification_reviewitem_change", args=[empty.pk])).status_code == 200


def test_actions_verify_flag_and_recheck(staff):
    first, second, third = make_answer("One?"), make_answer("Two?"), make_answer("Three?")
    url = reverse(CHANGELIST)
    staff.post(url, {"action": "verify_selected", "_selected_action": [first.pk]})
    staff.post(url, {"action": "flag_selected", "_selected_action": [second.pk]})
    staff.post(url, {"action": "recheck_in_30_days", "_selected_action": [third.pk]})
    first.refresh_from_db(), second.refresh_from_db(), third.refresh_from_db()
    assert first.status == Answer.Status.VERIFIED and first.reviewed_by is not None
    assert second.status == Answer.Status.FLAGGED
    assert third.reverify_at == date.today() + timedelta(days=30)


def test_edit_then_verify_from_the_change_form(staff):
    answer = make_answer()
    url = reverse("admin:verification_reviewitem_change", args=[answer.pk])
    response = staff.post(url, {"text": "Desks are booked in Deskly up to 14 days ahead [1].", "review_note": "tidied",
                                "reverify_at": "", "_verify": "Save and verify"})
    assert response.status_code == 302
    answer.refresh_from_db()
    assert answer.status == Answer.Status.VERIFIED and answer.text.startswith("Desks are booked in Deskly")
    assert answer.review_note == "tidied" and answer.reviewed_by is not None

    staff.post(url, {"text": answer.text, "review_note": "", "reverify_at": "", "_flag": "Save and flag"})
    answer.refresh_from_db()
    assert answer.status == Answer.Status.FLAGGED


def test_other_admin_pages_render(staff):
    answer = make_answer()
    Feedback.objects.create(answer=answer, kind=Feedback.Kind.FLAG, reason="outdated")
    QueryLog.objects.create(question="Distinct logged question?", outcome="answered", channel="slack",
                            timings_ms={"total": 1234.4})
    KnowledgeGap.objects.create(normalized_question="gap", example_question="Gap?")
    GlossaryTerm.objects.get_or_create(term="ZZT", defaults={"expansion": "zz test"})
    for name in ("feedback", "querylog", "knowledgegap", "glossaryterm"):
        page = staff.get(reverse(f"admin:knowledge_{name}_changelist"))
        assert page.status_code == 200, name
    logs = staff.get(reverse("admin:knowledge_querylog_changelist"), {"outcome": "answered", "channel": "slack"})
    html = logs.content.decode()
    assert "Distinct logged question?" in html and "1234" in html  # total ms column


def _desk_answer(collection, days: int, extra: str = "") -> Answer:
    document, _ = register_upload(collection, "desk.md", (
        f"# Desk booking\n\nHot desks are booked in the Deskly app up to {days} days ahead.{extra}\n").encode())
    ingest_document(document.pk)
    result = answer_question("How far ahead can hot desks be booked in Deskly?", AskOptions(use_cache=False))
    assert not result.refused
    answer = Answer.objects.get(pk=result.answer_id)
    answer.status = Answer.Status.VERIFIED
    answer.save()
    return answer


def test_reverify_job_sends_an_answer_whose_source_changed_to_review(corpus_db):
    collection = make_collection()
    answer = _desk_answer(collection, 14)
    document, _ = register_upload(collection, "desk.md",
                                  b"# Desk booking\n\nHot desks are booked in the Deskly app up to 30 days ahead.\n")
    ingest_document(document.pk)
    answer.refresh_from_db()
    assert answer.stale

    assert JOBS["reverify_answers"][1] == "verify"
    counts = run_job("reverify_answers")
    answer.refresh_from_db()
    assert counts["needs_review"] >= 1
    assert answer.status == Answer.Status.NEEDS_REVIEW
    assert "no longer supported" in answer.review_note
    assert answer.verification["reverification"]["faithful"] is False
    assert answer in review_queue()


def test_reverify_keeps_an_answer_still_supported_and_clears_stale(corpus_db):
    collection = make_collection()
    answer = _desk_answer(collection, 14)
    document, _ = register_upload(collection, "desk.md", (
        b"# Desk booking\n\nHot desks are booked in the Deskly app up to 14 days ahead. "
        b"Cancel a booking in the app if plans change.\n"))
    ingest_document(document.pk)
    answer.refresh_from_db()
    assert answer.stale
    answer.reverify_at = date.today()
    answer.save()

    counts = run_job("reverify_answers")
    answer.refresh_from_db()
    assert counts["kept"] >= 1, answer.verification.get("reverification")
    assert answer.status == Answer.Status.VERIFIED and not answer.stale
    assert answer.reverify_at == date.today() + timedelta(days=30)
    assert "still supported" in answer.review_note


def test_daily_schedules_exist():
    from django_q.models import Schedule

    from webapp.celery import app

    assert Schedule.objects.filter(name="reverify-answers-daily", func="webapp.jobs.run_job").exists()
    entry = app.conf.beat_schedule["reverify-answers-daily"]
    assert entry["args"][0] == "reverify_answers" and entry["options"]["queue"] == "verify"


def test_an_edit_in_the_change_form_is_checked_against_the_cited_sources(staff):
    from verification.review import edit_findings

    answer = make_answer()
    url = reverse("admin:verification_reviewitem_change", args=[answer.pk])
    response = staff.post(url, {"text": "Desks are booked in Deskly up to 30 days ahead [1].", "review_note": "",
                                "reverify_at": "", "_verify": "Save and verify"}, follow=True)
    answer.refresh_from_db()
    assert answer.status == Answer.Status.VERIFIED and "30 days" in answer.text
    assert edit_findings(answer) and answer.verification["reviewer_edit"]["faithful"] is False
    assert "the cited sources do not support" in response.content.decode()


def test_cited_sources_use_the_cited_chunk_only_while_it_belongs_to_the_cited_document(corpus_db):
    from knowledge.models import Chunk
    from verification.review import cited_sources

    chunk = Chunk.objects.select_related("document").first()
    own = {"n": 1, "source": f"{chunk.document.source}#x", "chunk_id": chunk.pk, "quote": "old quote"}
    foreign = {"n": 2, "source": "elsewhere.md#y", "chunk_id": chunk.pk, "quote": "the saved quote"}
    gone = {"n": 3, "source": "gone.md", "chunk_id": 10**9, "quote": "what was cited"}
    assert [(s.n, s.text) for s in cited_sources([own, foreign, gone])] == [
        (1, chunk.text), (2, "the saved quote"), (3, "what was cited")]
