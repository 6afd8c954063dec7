"""Replace personal data and secrets in text with typed placeholders before it is stored or sent on.

Layer 1 (regexes, always on) lives in `patterns`, layer 2 (Presidio) in `presidio`; this module
holds the result type, the process-wide analyzer with its warm-up, and `redact`, which runs both.
"""

from __future__ import annotations

import logging
import re
import threading
from dataclasses import dataclass, field
from typing import Any

from .patterns import _regex_layer
from .presidio import _PRESIDIO_PLACEHOLDERS, SCORE_THRESHOLD, _build_analyzer, _replace_results

logger = logging.getLogger(__name__)

# Person and organisation names are deliberately NOT redacted: questions like "who approves Dana's
# expense?" need them, and our documents name teams and owners.


@dataclass
class Redaction:
    """Redacted text plus (entity_type, original) pairs for audit; never log `found`."""

    text: str
    found: list[tuple[str, str]] = field(default_factory=list)

    def __repr__(self) -> str:
        # Keep originals out of tracebacks and debug logs that repr() the result.
        return f"Redaction(text={self.text!r}, found=<{len(self.found)} redacted>)"


# The loaded analyzer is process-wide state: it lives here, beside `redact`, so there is one copy
# of it and of its load-once lock.
_lock = threading.Lock()
_analyzer: Any = None
_load_failed = False


def _get_analyzer() -> Any:
    """The process-wide analyzer, or None when Presidio could not load (warned once)."""
    global _analyzer, _load_failed
    if _analyzer is not None or _load_failed:
        return _analyzer
    with _lock:
        if _analyzer is None and not _load_failed:
            try:
                _analyzer = _build_analyzer()
            except Exception:  # noqa: BLE001 - any load failure must degrade, not break questions
                _load_failed = True
                logger.warning("Presidio failed to load; redaction falls back to regexes only", exc_info=True)
    return _analyzer


def warm_up() -> bool:
    """Load Presidio now instead of on the first question; True when it is available."""
    analyzer = _get_analyzer()
    if analyzer is not None:
        # The first spaCy call allocates; do it here rather than on a user's question.
        analyzer.analyze(text="warm up 555", language="en", entities=list(_PRESIDIO_PLACEHOLDERS))
    return analyzer is not None


# Every entity Presidio looks for here needs a digit (or '@' for email). spaCy + Presidio cost a few
# milliseconds per call, so text without either - most questions once layer 1 has run - skips it.
_MAY_HAVE_PII = re.compile(r"[\d@]")

_analyze_failed_warned = False


def _presidio_layer(text: str, found: list[tuple[str, str]]) -> str:
    """Replace what Presidio finds in the (already regex-redacted) text."""
    global _analyze_failed_warned
    if not _MAY_HAVE_PII.search(text):
        return text
    analyzer = _get_analyzer()
    if analyzer is None:
        return text
    try:
        results = analyzer.analyze(text=text, language="en", entities=list(_PRESIDIO_PLACEHOLDERS))
    except Exception:  # noqa: BLE001 - a Presidio bug must not fail the question path
        if not _analyze_failed_warned:
            _analyze_failed_warned = True
            logger.warning("Presidio analyze failed; using regex redaction only", exc_info=True)
        return text
    return _replace_results(text, results, found)


def redact(text: str) -> Redaction:
    """Redact emails, phones, cards, national/bank ids and secrets; names are kept."""
    found: list[tuple[str, str]] = []
    text = _regex_layer(text, found)
    text = _presidio_layer(text, found)
    return Redaction(text=text, found=found)


__all__ = ["Redaction", "redact", "warm_up", "SCORE_THRESHOLD"]
