"""Slack's HTTP requests straight to Bolt, ahead of Django's request handling.

Slack needs its 200 within 3 s and counts every late one against the app; a burst of events is
acknowledged fastest when each request costs little. Django's request objects, middleware and
URL resolution cost about twice what Bolt itself spends on an event, and none of it is needed
there: Bolt verifies the signature. So the WSGI application routes `POST /slack/events` to Bolt's
WSGI adapter (the same App as the Django view in bot.views, which stays for test clients and
ASGI/other front ends) and everything else to Django.
"""

from __future__ import annotations

import logging
from typing import Callable, Iterable

from slack_bolt.adapter.wsgi import SlackRequestHandler as WsgiSlackRequestHandler

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
                return bolt(environ, start_response)
        return self.django_app(environ, start_response)
