"""The OpenAPI schema and docs page, and one JSON error shape for every /api/ response."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import make_user
from tests.test_api import token_client

pytestmark = pytest.mark.django_db


def test_schema_is_openapi_3_and_lists_every_endpoint():
    response = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert {"/api/ask", "/api/documents/", "/api/documents/{id}/", "/api/answers/{id}/feedback",
            "/api/conversations/{id}"} <= set(schema["paths"])
    ask = schema["paths"]["/api/ask"]["post"]
    assert ask["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith("/AskResult")
    assert "conversation" in schema["components"]["schemas"]["AskRequest"]["properties"]
    assert {"conversation", "standalone_question"} <= set(schema["components"]["schemas"]["AskResult"]["properties"])
    assert "404" in schema["paths"]["/api/conversations/{id}"]["get"]["responses"]
    assert "tokenAuth" in schema["components"]["securitySchemes"]
    error = schema["components"]["schemas"]["Error"]
    assert {"error", "fields", "hint"} <= set(error["properties"])


def test_docs_page_serves_swagger_ui_from_installed_files():
    response = APIClient().get("/api/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "/api/schema/" in page and "swagger-ui" in page
    assert "cdn.jsdelivr" not in page and "unpkg.com" not in page


@pytest.mark.parametrize("method, path, code", [
    ("get", "/api/nowhere", 404),
    ("get", "/api/documents/999999/", 404),
    ("post", "/api/answers/999999/feedback", 404),
    ("get", "/api/conversations/999999", 404),
    ("get", "/api/ask", 405),
    ("patch", "/api/ask", 405),
    ("put", "/api/answers/1/feedback", 405),
])
def test_api_errors_are_json_with_a_message(method, path, code):
    response = getattr(token_client(make_user(is_staff=True)), method)(path, {}, format="json")
    assert response.status_code == code
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert isinstance(body["error"], str) and body["error"]


def test_unauthenticated_error_says_how_to_authenticate():
    response = APIClient().get("/api/documents/")
    assert response.status_code == 401
    assert response.json()["error"] and "Token" in response.json()["hint"]


def test_pages_outside_the_api_keep_html_404(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert not response["Content-Type"].startswith("application/json")
