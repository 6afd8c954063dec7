"""API errors as `{"error": "one line", ...}`, whatever raised them."""

from __future__ import annotations

from rest_framework.views import exception_handler as drf_exception_handler


def exception_handler(exc, context):
    """DRF's handler, plus a one-line `error` beside DRF's own keys (e.g. `detail`)."""
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "error" not in response.data:
        detail = response.data.get("detail")
        response.data["error"] = str(detail) if detail is not None else "Invalid request."
    elif response is not None and not isinstance(response.data, dict):
        response.data = {"error": "Invalid request.", "detail": response.data}
    return response
