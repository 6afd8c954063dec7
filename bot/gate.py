"""What must hold before Bolt sees a request: Bolt parses the body before checking the signature.

A body that is not UTF-8 JSON (or form fields with a JSON `payload`), or a non-numeric timestamp,
would otherwise crash it into a 500. Pure functions over headers and bytes, shared by the Django view
and the WSGI fast path.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from urllib.parse import parse_qs

# Bolt (and a listener) reading a field that has the wrong type or is missing: a malformed request.
MALFORMED_ERRORS = (KeyError, IndexError, TypeError, ValueError, AttributeError)

# Slack's events, commands and interaction payloads are a few kilobytes; Django's own limit is 2.5 MB.
MAX_BODY_BYTES = 1024 * 1024


def malformed(headers: Mapping[str, str], body: bytes) -> tuple[int, str] | None:
    """(status, reason) for a request Bolt could not parse or verify; None when it is well formed."""
    timestamp = headers.get("X-Slack-Request-Timestamp") or ""
    if not timestamp.isdigit() or not headers.get("X-Slack-Signature"):
        return 401, "Missing or malformed Slack signature headers."
    if len(body) > MAX_BODY_BYTES:
        return 413, "The body is too large."
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return 400, "The body is not UTF-8."
    content_type = headers.get("Content-Type") or ""
    try:
        if content_type.startswith("application/json") or text.lstrip().startswith("{"):
            parsed = json.loads(text)
        else:
            payload = parse_qs(text).get("payload")
            parsed = json.loads(payload[0]) if payload else {}
    except ValueError:
        return 400, "The body is not valid JSON."
    if not isinstance(parsed, dict):
        return 400, "The body must be a JSON object."
    if "\x00" in text or _has_nul(parsed):
        return 400, "The body contains a NUL character."  # PostgreSQL text cannot store it
    return None


def _has_nul(value: object) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_nul(v) for v in value)
    return False
