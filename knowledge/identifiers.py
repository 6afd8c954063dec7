"""Code-like terms (setting names, error codes, form and ticket ids, versions) found in text."""

from __future__ import annotations

import re

# A token is code-like when it mixes letters with digits, underscores or inner hyphens/dots, or
# is an all-caps acronym of 3+ letters: FEATURE_CHECKOUT_V2, E4012, EXP-204, IT-HELP, v2.3.1.
_TOKEN = re.compile(r"(?<![\w-])[A-Za-z0-9][A-Za-z0-9_.\-]*[A-Za-z0-9](?![\w-])")
_STOP_CAPS = {"THE", "AND", "FOR", "NOT", "YOU", "ARE", "WITH", "FAQ", "ALL", "ANY", "PDF", "HTML", "USD", "EUR"}


def is_identifier(token: str) -> bool:
    """True for tokens that look like codes rather than words."""
    if len(token) < 2 or len(token) > 80:
        return False
    has_digit = any(c.isdigit() for c in token)
    has_alpha = any(c.isalpha() for c in token)
    if "_" in token and has_alpha:
        return True
    if has_digit and has_alpha:
        return True
    if "-" in token and has_alpha and token.split("-")[0].isupper() and len(token.split("-")[0]) >= 2:
        return True
    if token.isupper() and token.isalpha() and 3 <= len(token) <= 10 and token not in _STOP_CAPS:
        return True
    # camelCase / PascalCase with an inner capital: maxRetries, PagerDuty is a name, not a code.
    if has_alpha and token[0].islower() and any(c.isupper() for c in token[1:]):
        return True
    return False


def extract_identifiers(text: str) -> list[str]:
    """Distinct code-like tokens in text, lower-cased, in order of first appearance."""
    seen: dict[str, None] = {}
    for match in _TOKEN.finditer(text):
        token = match.group(0).strip(".-")
        if is_identifier(token):
            seen.setdefault(token.lower(), None)
    return list(seen)
