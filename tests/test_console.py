"""The web console: login, uploads, document pages with citation anchors, ask, review, gaps, permissions."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from knowledge.ingestion import ingest_documents
from knowledge.models import Answer, Document, Feedback, KnowledgeGap
from verification import review as reviews
from tests.factories import make_collection, make_user

pytestmark = pytest.mark.django_db

POLICY = b"# Travel policy\n\n## Per diem\n\nThe daily meal allowance is 55 USD.\n\n## Booking\n\nBook 14 days ahead.\n"


def make_answer(**fields) -> Answer:
    """A stored answer with one citation, waiting for review unless told otherwise."""
    defaults = {"question_text": "What is the meal allowance?", "normalized_question": "meal allowance",
                "text": "The daily meal allowance is 55 USD [1].", "confidence": 0.4,
                "status": Answer.Status.NEEDS_REVIEW,
                "citations": [{"n": 1, "source": "travel.md#per-diem", "title": "Travel policy",
                               "url": "http://127.0.0.1:8000/documents/1/#per-diem", "chunk_id": 0,
                               "quote": "The daily meal allowance is 55 USD."}],
                "verification": {"score": 0.5, "claims": [
                    {"claim": {"text": "The daily meal allowance is 55 USD."}, "verdict": "supported", "reason": "ok"},
                    {"text": "Flat form claim", "verdict": "unsupported", "reason": "not in the source"},
                    "a bare string claim", {"unexpected": "keys"}]}}
    return Answer.objects.create(**{**defaults, **fields})


@pytest.fixture
def staff(client):
    user = make_user(is_staff=True)
    client.force_login(user)
    return user


@pytest.fixture
def sync_jobs(settings, django_capture_on_commit_callbacks):
    """Run enqueued jobs inline when the request's transaction commits."""
    settings.TASK_BACKEND = "sync"

    def run(call):
        with django_capture_on_commit_callbacks(execute=True):
            return call()
    return run


@pytest.mark.parametrize("path", ["/", "/documents/", "/documents/upload/", "/ask/", "/review/", "/gaps/",
                                  "/documents/status.json"])
def test_anonymous_users_are_sent_to_the_login_page(client, path):
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"].startswith(f"/login/?next={path}")


def test_login_page_logs_in_and_lands_on_the_dashboard(client):
    make_user("dana")
    assert client.get("/login/").status_code == 200
    response = client.post("/login/", {"username": "dana", "password": "pw"}, follow=True)
    assert response.redirect_chain[-1][0] == "/"
    assert b"Dashboard" in response.content and b"Recent questions" in response.content


def test_dashboard_shows_counts(client, staff):
    collection = make_collection()
    Document.objects.create(collection=collection, source="a.md", status=Document.Status.FAILED, error="broken")
    make_answer()
    response = client.get("/")
    stats = response.context["stats"]
    assert stats["documents_total"] >= 1
    failed = {status: n for status, _, n in stats["documents_by_status"]}["failed"]
    assert failed >= 1
    assert b"failed" in response.content
    assert stats["awaiting_review"] >= 1


def test_upload_many_files_reports_each_and_ingests_the_good_ones(client, staff, settings, sync_jobs):
    settings.VERITY_MAX_UPLOAD_MB = 1
    collection = make_collection()
    files = [
        SimpleUploadedFile("travel.md", POLICY),
        SimpleUploadedFile("notes.txt", b"Printers are on floor 3. Use the badge reader to print."),
        SimpleUploadedFile("budget.xlsx", b"PK\x03\x04 not really"),
        SimpleUploadedFile("huge.txt", b"word " * 300_000),
    ]
    posted = sync_jobs(lambda: client.post("/documents/upload/", {"collection": collection.pk, "files": files}))
    assert posted.status_code == 302  # post/redirect/get: reloading the results never uploads again
    response = client.get(posted.url)
    outcomes = {o.name: o for o in response.context["outcomes"]}
    assert outcomes["travel.md"].accepted and outcomes["notes.txt"].accepted
    assert not outcomes["budget.xlsx"].accepted and "cannot read this kind of file" in outcomes["budget.xlsx"].message
    assert not outcomes["huge.txt"].accepted and "over the 1 MB limit" in outcomes["huge.txt"].message
    documents = {d.source: d for d in Document.objects.filter(collection=collection)}
    assert set(documents) == {"travel.md", "notes.txt"}
    assert all(d.status == Document.Status.READY and d.chunk_count > 0 for d in documents.values())
    assert documents["travel.md"].owner == staff
    assert b"2 of 4 files accepted" in response.content
    assert b"Ready" in response.content  # statuses as they are now, not as they were at upload time
    assert client.get("/documents/upload/").context["outcomes"] is None  # shown once


def test_upload_queues_without_running_when_a_worker_is_used(client, staff, settings, django_capture_on_commit_callbacks):
    settings.TASK_BACKEND = "django_q"
    collection = make_collection()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        client.post("/documents/upload/", {"collection": collection.pk, "files": [SimpleUploadedFile("a.md", POLICY)]})
    assert len(callbacks) == 1
    document = Document.objects.get(collection=collection)
    assert document.status == Document.Status.QUEUED
    status = client.get("/documents/status.json", {"collection": collection.pk}).json()
    assert status["total"] == 1 and status["active"] == 1 and status["done"] == 0
    assert status["documents"] == [{"id": document.pk, "status": "queued", "label": "Queued", "error": "",
                                    "advice": "", "chunks": 0}]
    page = client.get("/documents/", {"collection": collection.pk})
    assert b'data-active="1"' in page.content and b"Reading documents" in page.content


def test_upload_without_files_asks_for_some(client, staff):
    response = client.post("/documents/upload/", {"collection": make_collection().pk})
    assert b"Choose or drop at least one file." in response.content


def test_document_list_filters_and_explains_failures(client, staff):
    collection = make_collection()
    Document.objects.create(collection=collection, source="scan.pdf", status=Document.Status.FAILED,
                            error="The document has no readable text.")
    Document.objects.create(collection=collection, source="ok.md", status=Document.Status.READY)
    response = client.get("/documents/", {"collection": collection.pk, "status": "failed"})
    assert [d.source for d in response.context["documents"]] == ["scan.pdf"]
    assert b"The document has no readable text." in response.content
    assert b"badge-bad" in response.content


def test_document_page_has_an_id_for_every_cited_anchor(client, staff, corpus_db):
    document = Document.objects.get(source="hr/parental-leave.md")
    anchors = set(document.chunks.exclude(anchor="").values_list("anchor", flat=True))
    assert "leave-entitlement" in anchors
    html = client.get(f"/documents/{document.pk}/").content.decode()
    ids = re.findall(r'id="([^"]+)"', html)
    assert anchors <= set(ids)
    assert len([i for i in ids if i in anchors]) == len(anchors), "each anchor is used as an id once"
    assert "16 weeks of fully paid parental leave" in html


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


def test_feedback_from_the_ask_page_flags_the_answer(client, staff, corpus_db):
    answer_id = client.post("/ask/", {"question": "How do I set up the VPN?"}).context["card"]["answer_id"]
    response = client.post(f"/answers/{answer_id}/feedback/", {"kind": "flag"}, follow=True)
    assert Answer.objects.get(pk=answer_id).status == Answer.Status.FLAGGED
    assert b"Flagged" in response.content
    client.post(f"/answers/{answer_id}/feedback/", {"kind": "unhelpful", "reason": "out of date"})
    assert Feedback.objects.filter(answer_id=answer_id, kind="unhelpful", reason="out of date").exists()


def test_someone_elses_answer_is_not_shown(client):
    answer = make_answer()
    client.force_login(make_user())
    assert client.get("/ask/", {"answer": answer.pk}).status_code == 404
    assert client.post(f"/answers/{answer.pk}/feedback/", {"kind": "flag"}).status_code == 404


@pytest.mark.parametrize("confidence, warning", [
    (0.3, "Low confidence (30%)"),                               # waits for review because it is unsure
    (0.9, "A reviewer has been asked to check this answer"),     # waits after a thumbs-down: not "low confidence"
])
def test_a_stored_answer_waiting_for_review_says_why(client, staff, settings, confidence, warning):
    settings.VERITY_ANSWER_MIN_CONFIDENCE = 0.55
    answer = make_answer(confidence=confidence)
    html = client.get("/ask/", {"answer": answer.pk}).content.decode()
    assert warning in html
    assert ("Low confidence" in html) == (confidence < 0.55)


def test_passages_show_their_tables_as_tables_and_escape_text():
    from webapp.templatetags.console_tags import chunk_html

    html = chunk_html("Rates <b>below</b>.\n\n| Tier | Rate |\n| --- | --- |\n| 1 | <i>$95</i> |")
    assert "Rates &lt;b&gt;below&lt;/b&gt;." in html and "<b>" not in html
    assert "<th>Tier</th><th>Rate</th>" in html and "<td>&lt;i&gt;$95&lt;/i&gt;</td>" in html
    assert "| --- |" not in html


def test_review_queue_shows_claims_defensively(client, staff):
    answer = make_answer()
    response = client.get("/review/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'id="answer-{answer.pk}"' in html
    assert "The daily meal allowance is 55 USD." in html and "Flat form claim" in html
    assert "a bare string claim" in html and "not in the source" in html


def test_review_verify_with_edit_flag_and_schedule(client, staff):
    answer = make_answer()
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
    answer = make_answer()
    response = client.post(f"/review/{answer.pk}/", {"action": "schedule"}, follow=True)
    assert b"Pick the date" in response.content
    answer.refresh_from_db()
    assert answer.reverify_at is None


def test_review_is_for_staff_only(client):
    answer = make_answer()
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


def test_plain_users_cannot_manage_documents(client):
    collection = make_collection()
    document = Document.objects.create(collection=collection, source="a.md", status=Document.Status.READY)
    client.force_login(make_user())
    assert client.get(f"/documents/{document.pk}/").status_code == 200
    assert client.post(f"/documents/{document.pk}/delete/").status_code == 403
    assert client.get("/documents/upload/").status_code == 403
    assert client.get("/gaps/").status_code == 403
    assert Document.objects.filter(pk=document.pk).exists()


def test_collection_owner_can_delete_after_confirming(client):
    owner = make_user()
    collection = make_collection()
    collection.owners.add(owner)
    document = Document.objects.create(collection=collection, source="a.md", status=Document.Status.READY)
    client.force_login(owner)
    confirm = client.get(f"/documents/{document.pk}/delete/")
    assert b"Delete permanently" in confirm.content
    assert Document.objects.filter(pk=document.pk).exists()
    response = client.post(f"/documents/{document.pk}/delete/")
    assert response.status_code == 302 and not Document.objects.filter(pk=document.pk).exists()


def test_private_collection_documents_are_hidden(client):
    document = Document.objects.create(collection=make_collection(is_public=False), source="secret.md")
    client.force_login(make_user())
    assert client.get(f"/documents/{document.pk}/").status_code == 404
    assert document not in client.get("/documents/").context["documents"]


def test_replace_uploads_a_new_version_of_the_same_source(client, staff, sync_jobs):
    collection = make_collection()
    sync_jobs(lambda: client.post("/documents/upload/", {"collection": collection.pk,
                                                         "files": [SimpleUploadedFile("travel.md", POLICY)]}))
    document = Document.objects.get(collection=collection)
    new = SimpleUploadedFile("travel-v2.md", POLICY.replace(b"55 USD", b"70 USD"))
    sync_jobs(lambda: client.post(f"/documents/{document.pk}/replace/", {"file": new}))
    document.refresh_from_db()
    assert document.version == 2 and document.source == "travel.md" and document.status == Document.Status.READY
    assert document.chunks.filter(text__contains="70 USD").exists()
    page = client.get(f"/documents/{document.pk}/").content.decode()
    assert "v2" in page and "v1" in page

    wrong = client.post(f"/documents/{document.pk}/replace/", {"file": SimpleUploadedFile("x.pdf", b"%PDF-")},
                        follow=True)
    assert b"same type (.md)" in wrong.content


def test_review_queue_is_paged(client, staff):
    from webapp.console.views import REVIEW_PAGE_SIZE

    answers = [make_answer(question_text=f"Question number {i}?") for i in range(REVIEW_PAGE_SIZE + 3)]
    first = client.get("/review/").content.decode()
    second = client.get("/review/", {"page": 2}).content.decode()
    shown_first = {a.pk for a in answers if f'id="answer-{a.pk}"' in first}
    shown_second = {a.pk for a in answers if f'id="answer-{a.pk}"' in second}
    assert len(shown_first) == REVIEW_PAGE_SIZE and len(shown_second) == 3
    assert not shown_first & shown_second  # every waiting answer is reachable, once
    assert f"{REVIEW_PAGE_SIZE + 3} waiting" in first and "Page 1 of 2" in first and "?page=2" in first
    assert "Page 2 of 2" in second
    assert client.get("/review/", {"page": "not-a-number"}).status_code == 200  # falls back to the first page


def test_a_reviewers_edit_is_checked_against_the_cited_sources(client, staff):
    faithful = make_answer()
    client.post(f"/review/{faithful.pk}/", {"action": "verify", "text": "The meal allowance is 55 USD per day [1]."})
    faithful.refresh_from_db()
    assert faithful.status == Answer.Status.VERIFIED
    assert faithful.verification["reviewer_edit"]["faithful"] is True and not reviews.edit_findings(faithful)

    wrong = make_answer()
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


def test_upload_page_watches_its_own_files_until_ready_or_failed(client, staff, settings,
                                                                  django_capture_on_commit_callbacks):
    settings.TASK_BACKEND = "django_q"
    collection = make_collection()
    with django_capture_on_commit_callbacks(execute=False):
        client.post("/documents/upload/", {"collection": collection.pk, "files": [
            SimpleUploadedFile("a.md", POLICY), SimpleUploadedFile("b.md", b"---\ntitle: Only front matter\n---\n")]},
                    follow=True)
    ids = sorted(Document.objects.filter(collection=collection).values_list("pk", flat=True))
    other = Document.objects.create(collection=collection, source="other.md", status="queued")
    watched = client.get("/documents/status.json", {"ids": ",".join(map(str, ids))}).json()
    assert sorted(d["id"] for d in watched["documents"]) == ids and other.pk not in ids
    assert watched["active"] == 2

    ingest_documents(ids)  # what the worker does
    watched = {d["id"]: d for d in client.get("/documents/status.json", {"ids": ",".join(map(str, ids))}).json()["documents"]}
    ready, failed = (watched[Document.objects.get(collection=collection, source=name).pk] for name in ("a.md", "b.md"))
    assert ready["status"] == "ready" and ready["chunks"] > 0 and not ready["advice"]
    assert failed["status"] == "failed" and "no text to index" in failed["error"] and "upload" in failed["advice"]


def test_upload_results_poll_only_the_uploaded_documents(client, staff, settings):
    settings.TASK_BACKEND = "django_q"
    collection = make_collection()
    response = client.post("/documents/upload/", {"collection": collection.pk,
                                                  "files": [SimpleUploadedFile("a.md", POLICY)]}, follow=True)
    document = Document.objects.get(collection=collection)
    html = response.content.decode()
    assert f'data-status-url="/documents/status.json?ids={document.pk}"' in html
    assert 'data-active="1"' in html and f'data-doc-id="{document.pk}"' in html


@pytest.mark.parametrize("query, expected", [
    ("parental", "hr/parental-leave.md"),          # a title
    ("vpn-setup", "it/vpn-setup.html"),             # a source path
    ("twins", "hr/parental-leave.md"),              # only in the text
])
def test_document_search_finds_titles_and_text(client, staff, corpus_db, query, expected):
    response = client.get("/documents/", {"q": query})
    sources = {d.source for d in response.context["documents"]}
    assert expected in sources
    assert len(sources) < Document.objects.count(), "the search narrows the list"
    assert 'name="q"' in response.content.decode()


def test_document_search_with_no_match_says_so(client, staff, corpus_db):
    response = client.get("/documents/", {"q": "xylophone quokka"})
    assert list(response.context["documents"]) == [] and b"No documents match" in response.content


def test_citation_link_opens_the_document_on_the_highlighted_passage(client, staff, corpus_db):
    card = client.post("/ask/", {"question": "What is the daily meal allowance when travelling?"}).context["card"]
    assert card["citations"], card["answer"]
    citation = card["citations"][0]
    assert f"?chunk={citation['chunk_id']}#" in citation["href"]
    html = client.get(citation["href"].split("#")[0]).content.decode()
    cited = re.findall(r'<p class="cited"( id="cited-passage" tabindex="-1")?>', html)
    assert cited and cited[0], "the cited paragraphs are marked; the first carries the id the page scrolls to"
    assert html.count('id="cited-passage"') == 1 and "scrollIntoView" in html
