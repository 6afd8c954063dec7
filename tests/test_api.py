"""The REST API: token auth, ask (same JSON as `ask --json`), documents, upload, feedback, throttling."""

from __future__ import annotations

import io

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from rest_framework.throttling import UserRateThrottle

from knowledge.answering import AnswerResult
from knowledge.models import Answer, Document
from tests.factories import make_collection, make_user

pytestmark = pytest.mark.django_db

ASK_KEYS = {"answer", "refused", "confidence", "citations", "cache", "verification", "timings_ms"}
CITATION_KEYS = {"n", "source", "title", "url", "chunk_id", "quote"}
POLICY = b"# Travel policy\n\n## Per diem\n\nThe daily meal allowance is 55 USD.\n"


@pytest.fixture(autouse=True)
def fresh_throttle():
    cache.clear()  # throttle history lives in the cache
    yield
    cache.clear()


def token_client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


@pytest.fixture
def api():
    return token_client(make_user())


@pytest.mark.parametrize("method, path", [("post", "/api/ask"), ("get", "/api/documents/"),
                                          ("get", "/api/documents/1/"), ("post", "/api/answers/1/feedback")])
def test_requests_without_a_token_get_401(method, path):
    response = getattr(APIClient(), method)(path, {}, format="json")
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Token")


def test_a_wrong_token_gets_401():
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    assert client.post("/api/ask", {"question": "hi there"}, format="json").status_code == 401


def test_ask_returns_the_ask_json_shape(api, corpus_db):
    response = api.post("/api/ask", {"question": "How many weeks of paid parental leave do employees get?"}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert ASK_KEYS <= set(body)
    # The JSON of `ask --json`, and the conversation the question was asked in.
    assert set(body) == set(AnswerResult(question="", answer="", refused=False, confidence=0).to_dict()) | {
        "conversation", "standalone_question"}
    assert body["refused"] is False and body["citations"]
    assert all(CITATION_KEYS <= set(c) for c in body["citations"])
    assert "/documents/" in body["citations"][0]["url"] and "#" in body["citations"][0]["url"]
    assert 0 <= body["confidence"] <= 1 and "total" in body["timings_ms"]
    assert Answer.objects.filter(pk=body["answer_id"]).exists()


def test_ask_refuses_what_the_corpus_does_not_cover(api, corpus_db):
    body = api.post("/api/ask", {"question": "What is the company's stock ticker symbol?"}, format="json").json()
    assert body["refused"] is True and body["citations"] == []


@pytest.mark.parametrize("payload, message", [
    ({}, "question: This field is required."),
    ({"question": "  "}, "question: This field may not be blank."),
    ({"question": "hi"}, "question: Ask a full question"),
    ({"question": "How much PTO?", "collections": "general"}, "collections:"),
    ({"question": "How much PTO?", "collections": [999999]}, "Unknown collection ids"),
])
def test_bad_ask_input_gets_400_with_a_clear_message(api, payload, message):
    response = api.post("/api/ask", payload, format="json")
    assert response.status_code == 400
    assert message in response.json()["error"]


def test_ask_cannot_target_a_collection_the_user_cannot_read(api):
    private = make_collection(is_public=False)
    response = api.post("/api/ask", {"question": "How much PTO?", "collections": [private.pk]}, format="json")
    assert response.status_code == 400 and str(private.pk) in response.json()["error"]


def test_document_list_shows_readable_collections_only(api):
    public = Document.objects.create(collection=make_collection(), source="public.md", status="ready")
    secret = Document.objects.create(collection=make_collection(is_public=False), source="secret.md")
    response = api.get("/api/documents/", {"collection": public.collection_id})
    assert [d["source"] for d in response.json()["results"]] == ["public.md"]
    assert "secret.md" not in {d["source"] for d in api.get("/api/documents/").json()["results"]}
    detail = api.get(f"/api/documents/{public.pk}/").json()
    assert detail["source"] == "public.md" and detail["url"].endswith(f"/documents/{public.pk}/")
    assert "versions" in detail and "content" not in detail
    assert api.get(f"/api/documents/{secret.pk}/").status_code == 404


def test_owner_uploads_files_and_they_are_ingested(settings, django_capture_on_commit_callbacks):
    settings.TASK_BACKEND = "sync"
    owner = make_user()
    collection = make_collection()
    collection.owners.add(owner)
    client = token_client(owner)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/api/documents/", {"collection": collection.pk, "file": [
            SimpleUploadedFile("travel.md", POLICY), SimpleUploadedFile("sheet.xlsx", b"PK\x03\x04")]},
            format="multipart")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert [r["accepted"] for r in body["results"]] == [True, False]
    assert "cannot read this kind of file" in body["results"][1]["message"]
    document = Document.objects.get(collection=collection, source="travel.md")
    document.refresh_from_db()
    assert document.status == Document.Status.READY and document.owner == owner
    assert client.get(f"/api/documents/{document.pk}/").json()["chunk_count"] > 0


def test_upload_of_only_bad_files_is_400(settings):
    staff = make_user(is_staff=True)
    response = token_client(staff).post("/api/documents/", {"collection": make_collection().pk,
                                                           "file": SimpleUploadedFile("a.exe", b"MZ")},
                                        format="multipart")
    assert response.status_code == 400 and "cannot read this kind of file" in response.json()["error"]


def test_upload_needs_a_file_and_a_collection():
    staff = token_client(make_user(is_staff=True))
    response = staff.post("/api/documents/", {"collection": make_collection().pk}, format="multipart")
    assert response.status_code == 400 and response.json()["error"].startswith("file:")


def test_non_owners_cannot_upload(api):
    response = api.post("/api/documents/", {"collection": make_collection().pk,
                                            "file": SimpleUploadedFile("a.md", POLICY)}, format="multipart")
    assert response.status_code == 403
    assert not Document.objects.filter(source="a.md").exists()


def test_an_owner_cannot_upload_to_someone_elses_collection():
    owner = make_user()
    make_collection().owners.add(owner)
    other = make_collection()
    response = token_client(owner).post("/api/documents/", {"collection": other.pk,
                                                            "file": SimpleUploadedFile("a.md", POLICY)},
                                        format="multipart")
    assert response.status_code == 403 and "owners" in response.json()["error"]


def test_feedback_records_and_flags(api):
    answer = Answer.objects.create(question_text="q", normalized_question="q", text="a [1]")
    response = api.post(f"/api/answers/{answer.pk}/feedback", {"kind": "unhelpful", "reason": "outdated"},
                        format="json")
    assert response.status_code == 201
    assert response.json()["answer_status"] == Answer.Status.NEEDS_REVIEW
    assert answer.feedback.get().reason == "outdated"
    flagged = api.post(f"/api/answers/{answer.pk}/feedback", {"kind": "flag"}, format="json").json()
    # An asker's flag queues the answer for a reviewer; only a reviewer's flag removes it.
    answer.refresh_from_db()
    assert flagged["answer_status"] == Answer.Status.NEEDS_REVIEW and answer.flag_pending
    reviewer = token_client(make_user(is_staff=True))
    removed = reviewer.post(f"/api/answers/{answer.pk}/feedback", {"kind": "flag"}, format="json").json()
    assert removed["answer_status"] == Answer.Status.FLAGGED


def test_bad_feedback_is_400_and_unknown_answer_404(api):
    answer = Answer.objects.create(question_text="q", normalized_question="q", text="a")
    bad = api.post(f"/api/answers/{answer.pk}/feedback", {"kind": "love"}, format="json")
    assert bad.status_code == 400 and bad.json()["error"].startswith("kind:")
    assert api.post("/api/answers/999999/feedback", {"kind": "flag"}, format="json").status_code == 404


def test_requests_are_throttled_per_user(api, monkeypatch):
    monkeypatch.setitem(UserRateThrottle.THROTTLE_RATES, "user", "2/min")
    statuses = [api.get("/api/documents/").status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    assert token_client(make_user()).get("/api/documents/").status_code == 200, "the limit is per user"


def test_create_api_token_prints_a_working_token():
    user = make_user("robot")
    out = io.StringIO()
    call_command("create_api_token", "robot", stdout=out)
    key = out.getvalue().strip()
    assert key == Token.objects.get(user=user).key
    call_command("create_api_token", "robot", stdout=out)
    assert out.getvalue().split() == [key, key], "running it again prints the same token"
    reset = io.StringIO()
    call_command("create_api_token", "robot", "--reset", stdout=reset)
    assert reset.getvalue().strip() != key


def test_create_api_token_for_an_unknown_user_fails_clearly():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="No user named 'ghost'"):
        call_command("create_api_token", "ghost")


def test_document_list_comes_a_page_at_a_time(api):
    collection = make_collection()
    Document.objects.bulk_create([Document(collection=collection, source=f"doc-{i:03d}.md", status="ready")
                                  for i in range(7)])
    first = api.get("/api/documents/", {"collection": collection.pk, "page_size": 5}).json()
    assert first["count"] == 7 and len(first["results"]) == 5 and first["previous"] is None
    second = api.get(first["next"]).json()
    assert [d["source"] for d in second["results"]] == ["doc-005.md", "doc-006.md"] and second["next"] is None
    assert api.get("/api/documents/", {"collection": collection.pk, "page": 9}).status_code == 404
