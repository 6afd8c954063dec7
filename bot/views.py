"""HTTP mode: Slack posts events, commands and interactions to /slack/events; Bolt verifies the signature."""

from __future__ import annotations

import logging
import threading

from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from slack_bolt.adapter.django import SlackRequestHandler

from bot.app import app_from_settings

log = logging.getLogger(__name__)

_handler: SlackRequestHandler | None = None
_lock = threading.Lock()


def handler() -> SlackRequestHandler:
    """The request handler, with the App built on first use (never at import)."""
    global _handler
    if _handler is None:
        with _lock:
            if _handler is None:
                _handler = SlackRequestHandler(app=app_from_settings())
    return _handler


def reset_handler(new: SlackRequestHandler | None = None) -> None:
    """Replace (or drop) the cached handler: for tests and after settings change."""
    global _handler
    with _lock:
        _handler = new


@csrf_exempt
@require_POST
def slack_events(request: HttpRequest) -> HttpResponse:
    try:
        slack = handler()
    except ImproperlyConfigured as exc:  # Slack shows the admin "dispatch_failed"; the log and body say why
        log.error("Slack request refused: %s", exc)
        return HttpResponse(str(exc), status=503, content_type="text/plain; charset=utf-8")
    return slack.handle(request)
