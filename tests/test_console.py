"""The web console's front door: login, and the dashboard's counts."""

from __future__ import annotations

import pytest

from knowledge.models import Document
from tests.factories import make_collection, make_review_answer, make_user

pytestmark = pytest.mark.django_db


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
    make_review_answer()
    response = client.get("/")
    stats = response.context["stats"]
    assert stats["documents_total"] >= 1
    failed = {status: n for status, _, n in stats["documents_by_status"]}["failed"]
    assert failed >= 1
    assert b"failed" in response.content
    assert stats["awaiting_review"] >= 1
