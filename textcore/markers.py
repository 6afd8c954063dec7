"""Citation markers: [1], [1][2], [1, 2], [1-3]. Parsed, stripped and renumbered in one place."""

from __future__ import annotations

import re

__all__ = ["MARKER_RE", "MARKER_RUN_RE", "parse_markers", "strip_markers", "renumber", "marker_numbers"]

# "[link removed]" and other bracketed words are not markers, nor is an index glued into code on both sides
# ("contributors[0].email", "a[2]b"): a citation is never followed by more of the same name.
_NOT_INDEX = r"(?!(?<=[\w\])])\[\d+\](?:\.\w|[\w(]))"
MARKER_RE = re.compile(_NOT_INDEX + r"\[(\d+(?:\s*[,;\-–]\s*\d+)*)\]")
MARKER_RUN_RE = re.compile(r"(?:\s*" + _NOT_INDEX + r"\[\d+(?:\s*[,;\-–]\s*\d+)*\])+")
_MAX_RANGE = 20


def marker_numbers(inner: str) -> list[int]:
    """The numbers one marker stands for: "1, 2" -> [1, 2]; "1-3" -> [1, 2, 3]."""
    numbers: list[int] = []
    for part in re.split(r"\s*[,;]\s*", inner.strip()):
        if re.fullmatch(r"\d+\s*[\-–]\s*\d+", part):
            low, high = (int(x) for x in re.split(r"\s*[\-–]\s*", part))
            numbers.extend(range(low, high + 1) if 0 <= high - low <= _MAX_RANGE else [low, high])
        elif part.isdigit():
            numbers.append(int(part))
    return numbers


def parse_markers(text: str) -> list[int]:
    """All citation numbers in text, in order of first appearance."""
    seen: list[int] = []
    for match in MARKER_RE.finditer(text):
        for n in marker_numbers(match.group(1)):
            if n not in seen:
                seen.append(n)
    return seen


# A marker with the spaces before it: "in it [1]." loses " [1]", so no space is left before the
# full stop, while a word that starts with a dot (".github/", ".. note::") keeps the space before it.
SPACED_MARKER_RE = re.compile(r"(?P<space>[ \t]*)" + _NOT_INDEX + r"\[(?P<inner>\d+(?:\s*[,;\-–]\s*\d+)*)\]")


def strip_markers(text: str) -> str:
    """Text without citation markers, with the spacing they leave tidied."""
    out = SPACED_MARKER_RE.sub("", text)
    return re.sub(r"[ \t]{2,}", " ", out).strip()


def renumber(text: str, mapping: dict[int, int], *, drop_unmapped: bool = True) -> str:
    """Markers rewritten through mapping (old -> new); numbers not in it dropped (or kept)."""

    def rewrite(match: re.Match[str]) -> str:
        numbers = []
        for n in marker_numbers(match.group("inner")):
            new = mapping.get(n, None if drop_unmapped else n)
            if new is not None and new not in numbers:
                numbers.append(new)
        return match.group("space") + "".join(f"[{n}]" for n in numbers) if numbers else ""

    return SPACED_MARKER_RE.sub(rewrite, text)
