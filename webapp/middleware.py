"""Requests that cannot be served become answers a client can act on, never a stack-trace page.

Under /api/ and /slack/ every error is JSON `{"error": ...}`; a database outage is a 503 with
Retry-After everywhere (the console shows a friendly page), and the next request after recovery works
because Django reconnects per request.
"""

from __future__ import annotations

import logging
from http import HTTPStatus

from django.core.exceptions import RequestDataTooBig, SuspiciousOperation, TooManyFieldsSent
from django.db import close_old_connections
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string

from webapp.api.errors import error_body
from webapp.outage import RETRY_AFTER_S, is_database_outage

log = logging.getLogger(__name__)

JSON_PREFIXES = ("/api/", "/slack/")


def wants_json(request: HttpRequest) -> bool:
    return request.path.startswith(JSON_PREFIXES)


def json_error(message: str, status: int, **headers) -> JsonResponse:
    """The API's one error shape (webapp.api.errors.error_body), for requests no view answered."""
    response = JsonResponse(error_body(message), status=status)
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


def outage_response(request: HttpRequest) -> HttpResponse:
    """503 with Retry-After: JSON for API and Slack clients, a page for people."""
    # Drop the broken connection now, so the next request opens a fresh one.
    close_old_connections()
    message = "The knowledge base is briefly unavailable. Try again in a minute."
    if wants_json(request):
        return json_error(message, 503, Retry_After=str(RETRY_AFTER_S))
    page = render_to_string("console/unavailable.html", {"message": message, "retry_after": RETRY_AFTER_S})
    response = HttpResponse(page, status=503)
    response["Retry-After"] = str(RETRY_AFTER_S)
    return response


def _has_nul(request: HttpRequest) -> bool:
    return "\x00" in request.path or any("\x00" in k or any("\x00" in v for v in values)
                                         for k, values in request.GET.lists())


class RobustRequestsMiddleware:
    """Bad input is a 4xx, a database outage a 503, and JSON routes answer JSON whatever went wrong."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _has_nul(request):  # PostgreSQL text cannot hold NUL: refuse before any query sees it
            return self._bad(request, "The request contains a NUL character.")
        response = self.get_response(request)
        if wants_json(request) and response.status_code >= 400 and not _is_json(response):
            reason = HTTPStatus(response.status_code).phrase if response.status_code in HTTPStatus._value2member_map_ \
                else "Error"
            replaced = json_error(reason, response.status_code)
            for header in ("Retry-After", "WWW-Authenticate", "Allow"):
                if response.has_header(header):
                    replaced[header] = response[header]
            return replaced
        return response

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if is_database_outage(exc):
            log.warning("database unavailable on %s %s: %s", request.method, request.path, exc.__class__.__name__)
            return outage_response(request)
        if isinstance(exc, RequestDataTooBig):
            return self._bad(request, "The request body is too large.", 413)
        if isinstance(exc, (TooManyFieldsSent, SuspiciousOperation)):
            return self._bad(request, "The request is malformed.")
        if isinstance(exc, UnicodeDecodeError):
            return self._bad(request, "The request is not valid UTF-8.")
        return None

    @staticmethod
    def _bad(request: HttpRequest, message: str, status: int = 400) -> HttpResponse:
        if wants_json(request):
            return json_error(message, status)
        return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")


def _is_json(response: HttpResponse) -> bool:
    return response.get("Content-Type", "").startswith("application/json")
