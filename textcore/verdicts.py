"""The record form of a claim verdict: what reports, the database, the console, Slack and the
`verify-answers` command all read and write (one shape, one writer)."""

from __future__ import annotations

from typing import Any, TypedDict

__all__ = ["VerdictRecord", "verdict_record", "VERDICTS"]

VERDICTS = ("supported", "unsupported", "contradicted")


class VerdictRecord(TypedDict, total=False):
    """One claim's verdict as stored and shown."""

    text: str
    verdict: str
    reason: str
    citations: list[int]
    source_n: int | None
    evidence: str | None
    checks: dict[str, str]


def verdict_record(text: str, verdict: str, reason: str, *, citations: list[int] | None = None,
                   source_n: int | None = None, evidence: str | None = None,
                   checks: dict[str, Any] | None = None) -> VerdictRecord:
    """A verdict record; `verdict` must be one of VERDICTS."""
    if verdict not in VERDICTS:
        raise ValueError(f"unknown verdict {verdict!r}; expected one of {', '.join(VERDICTS)}")
    return VerdictRecord(text=text, verdict=verdict, reason=reason, citations=list(citations or []),
                         source_n=source_n, evidence=evidence, checks=dict(checks or {}))
