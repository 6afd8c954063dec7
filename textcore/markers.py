"""Citation markers: [1], [1][2], [1, 2], [1-3]. Parsed, stripped and renumbered in one place."""

from __future__ import annotations

import re

from textcore.sentences import MARKER_NUMBERS, is_code_block, paragraphs

__all__ = ["MARKER_RE", "MARKER_RUN_RE", "parse_markers", "strip_markers", "renumber", "marker_numbers",
           "as_literal"]

# "[link removed]" and other bracketed words are not markers, nor is an index glued into code on both sides
# ("contributors[0].email", "a[2]b"): a citation is never followed by more of the same name.
_NOT_INDEX = r"(?!(?<=[\w\])])\[\d+\](?:\.\w|[\w(]))"
_NUMBERS = MARKER_NUMBERS  # what a marker holds: "1", "1, 2", "1-3"
MARKER_RE = re.compile(_NOT_INDEX + rf"\[({_NUMBERS})\]")
MARKER_RUN_RE = re.compile(r"(?:\s*" + _NOT_INDEX + rf"\[{_NUMBERS}\])+")
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
SPACED_MARKER_RE = re.compile(r"(?P<space>[ \t]*)" + _NOT_INDEX + rf"\[(?P<inner>{_NUMBERS})\]")


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


# U+2060 WORD JOINER: invisible, and no digit follows the bracket any more, so no marker pattern matches.
_JOINER = "\u2060"
# Only a group that stands apart as a word does ("in the range [50, 2000].", a footnote "[3]"); an index glued
# to code ("items[0]") and code blocks are left as they are, so code copied from an answer still runs.
_LITERAL = re.compile(rf"(?:(?<=\s)|^)\[(?={_NUMBERS}\](?:[\s.,;:!?)]|$))")


def as_literal(text: str) -> str:
    """Source prose whose bracketed numbers can never be read as citation markers once it is quoted in an
    answer (they would be renumbered or dropped with the markers). The text reads the same."""
    out, pos = [], 0
    for start, end in paragraphs(text):
        block = text[start:end]
        out += [text[pos:start], block if is_code_block(block) else _LITERAL.sub("[" + _JOINER, block)]
        pos = end
    out.append(text[pos:])
    return "".join(out)
