"""Malformed requests get a 4xx with a JSON error under /api/ and /slack/; never a 500 (fuzzed)."""

from __future__ import annotations

import io
import json
import random
from wsgiref.util import setup_testing_defaults

import pytest
from django.core.cache import cache
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from slack_bolt.adapter.django import SlackRequestHandler
from slack_sdk import WebClient

from bot.app import build_app
from bot.views import reset_handler
from knowledge.models import Answer, Document
from tests.factories import make_collection, make_user
from tests.servers.fake_slack import FakeSlack, block_action, event_callback, mention, signed_headers
from webapp.wsgi import application

pytestmark = pytest.mark.django_db

SECRET = "bad-input-signing-secret"
FUZZ_SEED = 20261123
FUZZ_REQUESTS = 400


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def slack(settings):
    with FakeSlack() as fake:
        settings.SLACK_BOT_TOKEN, settings.SLACK_SIGNING_SECRET = "xoxb-test", SECRET
        settings.SLACK_API_URL, settings.TASK_BACKEND = fake.api_url, "sync"
        reset_handler(SlackRequestHandler(build_app(token="xoxb-test", signing_secret=SECRET,
                                                    client=WebClient(base_url=fake.api_url),
                                                    process_before_response=True)))
        yield fake
        reset_handler(None)


def wsgi(method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None,
         content_type: str = "application/json") -> tuple[int, str, bytes]:
    """One request through the production WSGI application (Slack's fast path included)."""
    environ = {"REQUEST_METHOD": method, "PATH_INFO": path, "wsgi.input": io.BytesIO(body),
               "CONTENT_LENGTH": str(len(body)), "CONTENT_TYPE": content_type, "HTTP_HOST": "127.0.0.1"}
    for name, value in (headers or {}).items():
        environ["HTTP_" + name.upper().replace("-", "_")] = value
    setup_testing_defaults(environ)
    started = []
    chunks = application(environ, lambda s, h, exc_info=None: started.append((s, dict(h))))
    content = b"".join(chunks)
    getattr(chunks, "close", lambda: None)()
    return int(started[0][0].split()[0]), started[0][1].get("Content-Type", ""), content


def token_client(user=None) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user or make_user())[0].key}")
    return client


def assert_json_4xx(status: int, content_type: str, content: bytes) -> None:
    assert 400 <= status < 500, (status, content[:200])
    assert content_type.startswith("application/json"), content[:200]
    assert json.loads(content)["error"]


# --- /slack/events ---------------------------------------------------------------------------------


@pytest.mark.parametrize("body, headers", [
    (b"{not json", {}),
    (b"{not json", {"X-Slack-Request-Timestamp": "soon", "X-Slack-Signature": "v0=abc"}),
    (b'{"type": "event_callback"}', {"X-Slack-Request-Timestamp": "1e9", "X-Slack-Signature": "v0=abc"}),
    (b"\xff\xfe not utf-8", {"X-Slack-Request-Timestamp": "1700000000", "X-Slack-Signature": "v0=abc"}),
    (b"[1, 2, 3]", {"X-Slack-Request-Timestamp": "1700000000", "X-Slack-Signature": "v0=abc"}),
])
@pytest.mark.parametrize("route", ["django", "wsgi"])
def test_malformed_slack_requests_get_a_json_4xx(slack, client, body, headers, route):
    if route == "django":
        response = client.post("/slack/events", data=body, content_type="application/json", headers=headers)
        assert_json_4xx(response.status_code, response["Content-Type"], response.content)
    else:
        assert_json_4xx(*wsgi("POST", "/slack/events", body, headers))


@pytest.mark.parametrize("route", ["django", "wsgi"])
def test_signed_but_unparseable_slack_bodies_get_a_json_400(slack, client, route):
    for body in ["{broken", '"a string"', json.dumps({"payload": None}), "payload=%7Bbroken",
                 json.dumps(event_callback(mention("nul \x00 inside")))]:
        content_type = "application/x-www-form-urlencoded" if body.startswith("payload=") else "application/json"
        headers = signed_headers(body, SECRET)
        if route == "django":
            response = client.post("/slack/events", data=body, content_type=content_type, headers=headers)
            status, content = response.status_code, response.content
        else:
            status, _, content = wsgi("POST", "/slack/events", body.encode(), headers, content_type)
        assert status < 500, (body, content)


def _nasty_strings(rng: random.Random) -> list:
    return ["", " ", "\x00", "a\x00b", "é" * 3, "\ud7ff", "1e309", "-1", "0", "99999999999999999999",
            "' OR 1=1 --", "<script>x</script>", "../../etc/passwd", "%00", "\\", "{}", "[]", "null",
            "x" * rng.choice([10, 3000, 70000]), "".join(chr(rng.randrange(1, 0xD7FF)) for _ in range(20))]


def _nasty_values(rng: random.Random) -> list:
    nested: object = "deep"
    for _ in range(rng.choice([5, 200])):
        nested = [nested]
    return [None, True, 0, -1, 2**63, 1.5, float("1e308"), [], {}, [1, "a", None], {"a": {"b": []}}, nested,
            *_nasty_strings(rng)]


def test_fuzzed_slack_events_never_get_a_5xx(slack, client):
    rng = random.Random(FUZZ_SEED)
    templates = [event_callback(mention("How many weeks of leave?")), block_action("verity_helpful", "1:1"),
                 {"type": "url_verification", "challenge": "abc"}, {"token": "x", "command": "/ask", "text": "hi"}]
    statuses = []
    for _ in range(120):
        payload = json.loads(json.dumps(rng.choice(templates)))
        _mutate(payload, rng)
        body = json.dumps(payload, ensure_ascii=rng.random() < 0.5)
        if rng.random() < 0.3:
            body = "payload=" + json.dumps(payload)
        signed = rng.random() < 0.8
        headers = signed_headers(body, SECRET) if signed else {}
        content_type = "application/x-www-form-urlencoded" if body.startswith("payload=") else "application/json"
        status, _, content = wsgi("POST", "/slack/events", body.encode("utf-8", "surrogatepass"), headers,
                                  content_type)
        assert status < 500, (body[:300], content[:300])
        statuses.append(status)
    assert 200 in statuses and 401 in statuses  # both the accepted and the refused paths were exercised


def _mutate(value, rng: random.Random) -> None:
    """Replace a few values anywhere in a JSON object with nasty ones."""
    containers = [value]
    for _ in range(rng.randint(1, 4)):
        target = rng.choice(containers)
        if isinstance(target, dict) and target:
            key = rng.choice(list(target))
            if isinstance(target[key], (dict, list)) and target[key] and rng.random() < 0.6:
                containers.append(target[key])
            else:
                target[key] = rng.choice(_nasty_values(rng))
        elif isinstance(target, list) and target:
            target[rng.randrange(len(target))] = rng.choice(_nasty_values(rng))


# --- /api/ ----------------------------------------------------------------------------------------


def test_a_nul_byte_in_a_query_parameter_is_a_json_400():
    response = token_client().get("/api/documents/?status=%00")
    assert_json_4xx(response.status_code, response["Content-Type"], response.content)
    response = token_client().get("/api/documents/?collection=1%00")
    assert_json_4xx(response.status_code, response["Content-Type"], response.content)


def test_too_large_and_garbage_bodies_get_json_errors(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    api = token_client()
    big = json.dumps({"question": "x" * 20_000})
    response = api.post("/api/ask", data=big, content_type="application/json")
    assert_json_4xx(response.status_code, response["Content-Type"], response.content)
    for body, content_type in [(b"{not json", "application/json"), (b"\xff\xfe", "application/json"),
                               (b"question=\xff", "application/x-www-form-urlencoded"),
                               (b"<xml/>", "application/xml")]:
        response = api.post("/api/ask", data=body, content_type=content_type)
        assert_json_4xx(response.status_code, response["Content-Type"], response.content)
    response = api.get("/api/no-such-route/")
    assert_json_4xx(response.status_code, response["Content-Type"], response.content)


def test_fuzzed_api_requests_never_get_a_5xx():
    """Every API route and method, with nasty path ids, query strings, headers and bodies."""
    rng = random.Random(FUZZ_SEED)
    owner = make_user()
    collection = make_collection()
    collection.owners.add(owner)
    document = Document.objects.create(collection=collection, source="a.md", status=Document.Status.READY)
    answer = Answer.objects.create(question_text="q?", normalized_question="q", text="a [1].")
    clients = [token_client(owner), token_client(), APIClient()]
    ids = [str(document.pk), str(answer.pk), "0", "999999999999", "99999999999999999999999"]
    routes = [("post", "/api/ask"), ("get", "/api/documents/"), ("post", "/api/documents/"),
              ("get", "/api/documents/{id}/"), ("post", "/api/answers/{id}/feedback"),
              ("put", "/api/ask"), ("delete", "/api/documents/{id}/"), ("patch", "/api/answers/{id}/feedback")]
    fields = ["question", "collections", "kind", "reason", "collection", "file", "status", "page", "page_size"]
    statuses = []
    for _ in range(FUZZ_REQUESTS):
        method, template = rng.choice(routes)
        path = template.replace("{id}", rng.choice(ids))
        query = "&".join(f"{rng.choice(fields)}={_quote(rng.choice(_nasty_strings(rng)))}"
                         for _ in range(rng.randint(0, 3)))
        data = {rng.choice(fields): rng.choice(_nasty_values(rng)) for _ in range(rng.randint(0, 4))}
        if rng.random() < 0.3:
            data["question"] = "How many weeks of parental leave?"
        kind = rng.choice(["json", "form", "raw"])
        client = rng.choice(clients)
        url = f"{path}?{query}" if query else path
        if method in ("get", "delete"):
            response = getattr(client, method)(url)
        elif kind == "json":
            response = getattr(client, method)(url, data=json.dumps(data, default=str), content_type="application/json")
        elif kind == "form":
            flat = {k: (v if isinstance(v, (str, int, float)) else json.dumps(v)) for k, v in data.items()}
            response = getattr(client, method)(url, data=flat, format="multipart" if rng.random() < 0.5 else None)
        else:
            raw = bytes(rng.randrange(256) for _ in range(rng.choice([0, 10, 500])))
            response = getattr(client, method)(url, data=raw, content_type=rng.choice(
                ["application/json", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                 "text/plain", "multipart/form-data"]))
        assert response.status_code < 500, (method, url, data, response.content[:300])
        if response.status_code >= 400:
            assert response["Content-Type"].startswith("application/json"), (method, url, response.content[:200])
        statuses.append(response.status_code)
    assert {200, 400, 401, 404} <= set(statuses)


def _quote(value: str) -> str:
    from urllib.parse import quote

    return quote(value, safe="")
