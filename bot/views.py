"""HTTP mode: Slack posts events, commands and interactions to /slack/events; Bolt verifies the signature."""

from __future__ import annotations

import logging
import threading

from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from slack_bolt.adapter.django import SlackRequestHandler

from bot.app import app_from_settings
from bot.gate import MALFORMED_ERRORS, malformed

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
    problem = malformed(request.headers, request.body)
    if problem is not None:  # never log the body: it may hold what people typed
        log.info("Slack request refused (%s): %s", problem[0], problem[1])
        return JsonResponse({"error": problem[1]}, status=problem[0])
    try:
        slack = handler()
    except ImproperlyConfigured as exc:  # Slack shows the admin "dispatch_failed"; the log and body say why
        log.error("Slack request refused: %s", exc)
        return JsonResponse({"error": str(exc)}, status=503)
    try:
        return slack.handle(request)
    except MALFORMED_ERRORS as exc:  # Bolt's own parsing of a request of the wrong shape
        log.warning("Slack request refused as malformed: %s: %s", exc.__class__.__name__, exc)
        return JsonResponse({"error": "Malformed Slack request."}, status=400)
