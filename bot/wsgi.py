"""Slack's HTTP requests straight to Bolt, ahead of Django's request handling.

Slack needs its 200 within 3 s and counts every late one against the app; a burst of events is
acknowledged fastest when each request costs little. Django's request objects, middleware and
URL resolution cost about twice what Bolt itself spends on an event, and none of it is needed
there: Bolt verifies the signature. So the WSGI application routes `POST /slack/events` to Bolt's
WSGI adapter (the same App as the Django view in bot.views, which stays for test clients and
ASGI/other front ends) and everything else to Django.
"""

from __future__ import annotations

import io
import json
import logging
from http import HTTPStatus
from typing import Callable, Iterable

from slack_bolt.adapter.wsgi import SlackRequestHandler as WsgiSlackRequestHandler

from bot.gate import MALFORMED_ERRORS, MAX_BODY_BYTES, malformed

log = logging.getLogger(__name__)

SLACK_EVENTS_PATH = "/slack/events"


class SlackEventsFirst:
    """WSGI middleware: POST /slack/events goes to Bolt, everything else to `django_app`."""

    def __init__(self, django_app: Callable, path: str = SLACK_EVENTS_PATH) -> None:
        self.django_app = django_app
        self.path = path
        self._bolt: tuple[object, WsgiSlackRequestHandler] | None = None

    def _bolt_handler(self) -> WsgiSlackRequestHandler:
        from bot.views import handler

        app = handler().app  # built once per process; tests may swap it (bot.views.reset_handler)
        if self._bolt is None or self._bolt[0] is not app:
            self._bolt = (app, WsgiSlackRequestHandler(app, path=self.path))
        return self._bolt[1]

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "POST" and environ.get("PATH_INFO") == self.path:
            try:
                bolt = self._bolt_handler()
            except Exception:  # noqa: BLE001 - not configured: Django's view reports it the usual way
                log.debug("Slack app unavailable; passing %s to Django", self.path, exc_info=True)
            else:
                refused = _refuse_malformed(environ, start_response)
                if refused is not None:
                    return refused
                try:
                    return bolt(environ, start_response)
                except MALFORMED_ERRORS as exc:  # Bolt's own parsing of a request of the wrong shape
                    log.warning("Slack request refused as malformed: %s: %s", exc.__class__.__name__, exc)
                    return _json(start_response, 400, "Malformed Slack request.")
        return self.django_app(environ, start_response)


def _refuse_malformed(environ: dict, start_response: Callable) -> Iterable[bytes] | None:
    """A JSON 4xx for a request Bolt could not parse (see bot.gate); the body is left readable for Bolt."""
    try:
        length = int(environ.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = -1
    if length < 0:
        problem: tuple[int, str] | None = (400, "Bad Content-Length.")
    elif length > MAX_BODY_BYTES:
        problem = (413, "The body is too large.")
    else:
        body = environ["wsgi.input"].read(length) if length else b""
        environ["wsgi.input"] = io.BytesIO(body)
        headers = {key[5:].replace("_", "-").title(): value for key, value in environ.items()
                   if key.startswith("HTTP_")}
        headers["Content-Type"] = environ.get("CONTENT_TYPE", "")
        problem = malformed(headers, body)
    if problem is None:
        return None
    log.info("Slack request refused (%s): %s", *problem)  # never the body: it holds what people typed
    return _json(start_response, *problem)


def _json(start_response: Callable, status: int, message: str) -> list[bytes]:
    payload = json.dumps({"error": message}).encode()
    start_response(f"{status} {HTTPStatus(status).phrase}",
                   [("Content-Type", "application/json"), ("Content-Length", str(len(payload)))])
    return [payload]
