"""The web console's uploads: many files at once, queued or run inline, watched until ready, replaced."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from knowledge.ingestion import ingest_documents
from knowledge.models import Document
from tests.factories import make_collection

pytestmark = pytest.mark.django_db

POLICY = b"# Travel policy\n\n## Per diem\n\nThe daily meal allowance is 55 USD.\n\n## Booking\n\nBook 14 days ahead.\n"


@pytest.fixture
def sync_jobs(settings, django_capture_on_commit_callbacks):
    """Run enqueued jobs inline when the request's transaction commits."""
    settings.TASK_BACKEND = "sync"

    def run(call):
        with django_capture_on_commit_callbacks(execute=True):
            return call()
    return run


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
