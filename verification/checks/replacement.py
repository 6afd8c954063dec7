"""Direction of replacement: "X replaced Y" and "replace Y with X" both make X the new thing.

A claim that says the opposite of its source ("replaced the anchor days with team days" when the
source says "anchor days replaced team days") is a swapped-entity error the role check misses,
because the two phrasings put the new thing on different sides of the verb.
"""

from __future__ import annotations

import re

_WITH = re.compile(r"\breplac(?:e|es|ed|ing)\s+(?P<old>[^.;:]+?)\s+(?:with|by)\s+(?P<new>[^.;:,]+)", re.I)
_ACTIVE = re.compile(r"(?P<new>[A-Za-z][^.;:]{2,80}?)\s+(?:has\s+|have\s+|will\s+)?replac(?:e|es|ed)\s+"
                     r"(?P<old>(?!with\b)[^.;:,]+)", re.I)
_STOP = {"the", "a", "an", "two", "all", "our", "its", "their", "it", "also", "and", "of", "company-wide"}


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z][a-z\-]+", text.lower()) if w not in _STOP}


def _direction(text: str) -> tuple[set[str], set[str]] | None:
    """(old words, new words) of the first replacement stated in text, if any."""
    match = _WITH.search(text)
    if match:
        return _words(match.group("old")), _words(match.group("new"))
    match = _ACTIVE.search(text)
    if match:
        return _words(match.group("old")), _words(match.group("new"))
    return None


def _overlap(a: set[str], b: set[str]) -> float:
    return len(a & b) / max(1, min(len(a), len(b)))


def check_replacement(claim: str, source: str) -> tuple[str, str]:
    """("conflict", detail) when claim and source disagree on which thing replaced which; else ("pass"|"n/a", …)."""
    claimed = _direction(claim)
    if claimed is None:
        return "n/a", "no replacement stated"
    for sentence in re.split(r"(?<=[.;])\s+|\n+|\s-\s", source):
        stated = _direction(sentence)
        if stated is None:
            continue
        old, new = claimed
        src_old, src_new = stated
        if _overlap(old, src_new) >= 0.6 and _overlap(new, src_old) >= 0.6 and _overlap(old, src_old) < 0.6:
            return "conflict", "the claim swaps what replaced what"
        if _overlap(old, src_old) >= 0.6 and _overlap(new, src_new) >= 0.6:
            return "pass", "same direction"
    return "n/a", "no matching replacement in the source"
