"""Layer 1 of redaction: regexes for secrets, emails, cards, national and bank ids and phones,
always on, each match confirmed by its validator before it is replaced."""

from __future__ import annotations

import functools
import re
from typing import Callable

from .validators import _card_ok, _high_entropy, _iban_ok, _phone_ok, _ssn_ok

# Not preceded by a word char, another digit group, a currency sign or a code prefix like "IT-".
_NUM_START = r"(?<![\w$£€.,/:+-])"
# Not followed by more digits (a longer number), a decimal part, or a word char.
_NUM_END = r"(?![\w/]|[.,:-]\d)"

_Rule = tuple[str, str, "re.Pattern[str]", Callable[[str], bool] | None]

# Order matters: each rule runs on the output of the previous ones, so specific secrets come first
# and the loose phone and entropy rules cannot match inside something already replaced.
_RULES: list[_Rule] = [
    (
        "PRIVATE_KEY",
        "API_TOKEN",
        re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?-----END [A-Z ]*PRIVATE KEY-----", re.S),
        None,
    ),
    ("JWT", "API_TOKEN", re.compile(r"\beyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*"), None),
    ("API_TOKEN", "API_TOKEN", re.compile(r"(?<![\w-])sk[-_][A-Za-z0-9_-]{16,}"), None),
    ("SLACK_TOKEN", "API_TOKEN", re.compile(r"(?<![\w-])xox[abprs]-[A-Za-z0-9-]{10,}"), None),
    (
        "GITHUB_TOKEN",
        "API_TOKEN",
        re.compile(r"(?<![\w-])(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\w{22,})"),
        None,
    ),
    ("AWS_ACCESS_KEY", "API_TOKEN", re.compile(r"(?<![A-Z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Z0-9])"), None),
    (
        "EMAIL",
        "EMAIL",
        re.compile(r"(?<![\w.%+'-])[\w.%+'-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b"),
        None,
    ),
    # IBAN: country, check digits, then 4-char groups (printed with or without spaces).
    (
        "IBAN",
        "NATIONAL_ID",
        re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b"),
        _iban_ok,
    ),
    ("CREDIT_CARD", "CARD", re.compile(_NUM_START + r"\d(?:[ -]?\d){12,18}" + _NUM_END), _card_ok),
    ("US_SSN", "NATIONAL_ID", re.compile(_NUM_START + r"\d{3}-\d{2}-\d{4}" + _NUM_END), _ssn_ok),
    (
        "UK_NINO",
        "NATIONAL_ID",
        re.compile(
            r"\b(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b"
        ),
        None,
    ),
    (
        "PHONE",
        "PHONE",
        re.compile(
            _NUM_START
            + r"(?:"
            # International: +CC then groups separated by space, dot or dash, optional (0) or (area).
            + r"\+\d{1,3}(?:[ .-]?\(\d{1,4}\))?(?:[ .-]?\d{1,5}){2,6}"
            # US: (415) 555-0134, 415-555-0134, 415.555.0134, 1-415-555-0134.
            + r"|(?:1[ .-])?(?:\(\d{3}\) ?|\d{3}[ .-])\d{3}[ .-]\d{4}"
            # UK national: 020 7946 0958, 07700 900123, 0161-496-0000.
            + r"|0\d{2,4}[ -]\d{3,4}(?:[ -]?\d{3,4})?"
            + r")"
            + _NUM_END
        ),
        _phone_ok,
    ),
    # Long random-looking strings: hex digests/keys and base64/base64url secrets.
    ("SECRET", "API_TOKEN", re.compile(r"(?<![\w+/-])[A-Za-z0-9+/_-]{32,}={0,2}(?![\w+/=-])"), _high_entropy),
]


def _regex_layer(text: str, found: list[tuple[str, str]]) -> str:
    """Apply every regex rule in order, appending what was replaced to `found`."""
    for entity, placeholder, pattern, validate in _RULES:
        text = pattern.sub(functools.partial(_replace, entity, placeholder, validate, found), text)
    return text


def _replace(
    entity: str,
    placeholder: str,
    validate: Callable[[str], bool] | None,
    found: list[tuple[str, str]],
    match: re.Match[str],
) -> str:
    """re.sub callback: the placeholder when the match validates, else the match unchanged."""
    original = match.group(0)
    if validate is not None and not validate(original):
        return original
    found.append((entity, original))
    return f"<{placeholder}>"
