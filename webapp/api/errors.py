"""One error shape for every /api/ response: `{"error": "one line a person can act on", ...}`.

DRF's exceptions (401, 403, 404, 405, 415, 429, parse errors) come through `exception_handler`;
Django's own 404/500 for paths no API view matched come through `not_found` / `server_error`, which
answer JSON under /api/ and defer to Django's HTML pages elsewhere. Views that reject input build
their response with `error_response` or `bad_request`, so the shape is decided here once.
"""

from __future__ import annotations

from django.http import JsonResponse
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

API_PREFIX = "/api/"

# What to do next, by status, where DRF's own message only says what went wrong.
_HINTS = {
    401: "Send 'Authorization: Token <key>' (create one with `manage.py create_api_token USER`).",
    405: "See /api/docs/ for the methods each endpoint takes.",
    429: "Wait and retry; the limit is VERITY_API_RATE requests per user.",
}


def error_body(message: str, *, fields: dict | None = None, hint: str = "") -> dict:
    """The JSON body of an error: `error`, optional `fields` (per-field messages) and `hint`."""
    body: dict = {"error": message}
    if fields:
        body["fields"] = fields
    if hint:
        body["hint"] = hint
    return body


def error_response(message: str, status_code: int, *, fields: dict | None = None, hint: str = "") -> Response:
    """A DRF response carrying one error."""
    return Response(error_body(message, fields=fields, hint=hint), status=status_code)


def first_error(errors) -> str:
    """A one-line message from serializer errors, e.g. 'question: This field is required.'"""
    if isinstance(errors, list):
        return str(errors[0]) if errors else "Invalid request."
    for field, messages in errors.items():
        message = messages[0] if isinstance(messages, list) and messages else messages
        if isinstance(message, dict):  # nested (list items)
            message = next(iter(message.values()))[0]
        return str(message) if field in ("non_field_errors", "detail") else f"{field}: {message}"
    return "Invalid request."


def bad_request(errors) -> Response:
    """400 with the first serializer error as the message and all of them under `fields`."""
    return error_response(first_error(errors), status.HTTP_400_BAD_REQUEST, fields=errors)


def exception_handler(exc, context):
    """DRF's handler (status, headers such as WWW-Authenticate and Retry-After) with our body."""
    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # not an API exception: Django's 500 handling (server_error below) applies
    data = response.data
    if isinstance(exc, exceptions.ValidationError):
        response.data = error_body(first_error(data), fields=data if isinstance(data, dict) else None)
    else:
        message = data.get("detail", "") if isinstance(data, dict) else first_error(data)
        response.data = error_body(str(message), hint=_HINTS.get(response.status_code, ""))
    return response


def _is_api(request) -> bool:
    return request.path.startswith(API_PREFIX)


def not_found(request, exception=None):
    """Django's 404 for any unmatched path: JSON under /api/, the HTML page elsewhere."""
    if _is_api(request):
        return JsonResponse(error_body(f"No API endpoint at {request.path}.",
                                       hint="See /api/docs/ for the endpoints."), status=404)
    return defaults.page_not_found(request, exception)


def server_error(request):
    """Django's 500: JSON under /api/, the HTML page elsewhere."""
    if _is_api(request):
        return JsonResponse(error_body("The server failed to answer this request; it has been logged.",
                                       hint="Retry later; tell an administrator if it keeps happening."),
                            status=500)
    return defaults.server_error(request)
