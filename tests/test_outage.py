"""A database outage: the API answers 503 JSON with Retry-After, the console a friendly page, and both
recover by themselves when the database is back (a PostgreSQL of the test's own, stopped and started)."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest

from tests.live import gunicorn, http, own_postgres

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def own_db(tmp_path):
    with own_postgres(tmp_path / "pg") as db:
        db["token"] = db["run"]("create_api_token", "ops").strip()
        yield db


def test_the_api_and_console_answer_a_database_outage_and_recover(own_db, tmp_path):
    headers = {"Authorization": f"Token {own_db['token']}", "Content-Type": "application/json"}
    ask = json.dumps({"question": "How many days of annual leave do I get?"}).encode()
    with gunicorn(tmp_path / "web.log", DATABASE_URL=own_db["url"], VERITY_API_RATE="1000/min") as base:
        assert http("GET", f"{base}/api/documents/", headers=headers)[0] == 200
        session = _login(base)
        assert http("GET", f"{base}/documents/", headers={"Cookie": session})[0] == 200

        own_db["stop"]()
        for method, path, body in [("GET", "/api/documents/", None), ("POST", "/api/ask", ask)]:
            status, response_headers, content = http(method, base + path, body, headers)
            assert status == 503, content[:300]
            assert response_headers["Content-Type"].startswith("application/json")
            assert json.loads(content)["error"] and int(response_headers["Retry-After"]) > 0
        status, response_headers, content = http("GET", f"{base}/documents/", headers={"Cookie": session})
        assert status == 503 and b"Back in a moment" in content and int(response_headers["Retry-After"]) > 0

        own_db["start"]()  # no restart of the web tier
        assert http("GET", f"{base}/api/documents/", headers=headers)[0] == 200
        status, _, content = http("POST", f"{base}/api/ask", ask, headers)
        assert status == 200 and "answer" in json.loads(content)
        assert http("GET", f"{base}/documents/", headers={"Cookie": session})[0] == 200


def _login(base: str) -> str:
    """A console session cookie for the superuser."""
    import http.cookiejar
    import urllib.request

    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(f"{base}/login/").read()
    csrf = next(c.value for c in jar if c.name == "csrftoken")
    form = urlencode({"username": "ops", "password": "pw-outage-1", "csrfmiddlewaretoken": csrf}).encode()
    opener.open(urllib.request.Request(f"{base}/login/", data=form, headers={"Referer": f"{base}/login/"})).read()
    return "; ".join(f"{c.name}={c.value}" for c in jar)
