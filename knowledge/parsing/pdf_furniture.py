"""PDF page furniture: running headers and footers, page numbers and table-of-contents lines and
pages, which repeat on every page and say nothing about the content."""

from __future__ import annotations

import re
from collections import Counter

from .pdf_extract import _Line

# A table-of-contents line: a title, dot leaders and a page number.
_DOT_LEADER = re.compile(r"(?:\.\s?){4,}\s*[0-9ivxlc]+\s*$", re.I)
_PAGE_NUMBER = re.compile(r"^(?:page\s+)?\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?$", re.I)


def _is_running_title(line: str, title: str) -> bool:
    """The document title with a page number before or after it: a running header."""
    low, title = line.lower(), title.lower()
    for rest in ((low[len(title):] if low.startswith(title) else None),
                 (low[: -len(title)] if low.endswith(title) else None)):
        if rest is not None and (not rest.strip() or _PAGE_NUMBER.match(rest.strip())
                                 or re.fullmatch(r"[ivxlc]+", rest.strip())):
            return True
    return False


def _is_contents_page(lines: list[str]) -> bool:
    """A table-of-contents page: most lines end in page numbers that only go up."""
    numbered = [int(m.group(1)) for line in lines if (m := re.search(r"\s(\d{1,4})$", line))]
    if len(numbered) < 5 or len(numbered) < 0.6 * len([ln for ln in lines if ln]):
        return False
    rising = sum(1 for a, b in zip(numbered, numbered[1:]) if b >= a)
    return rising >= 0.8 * (len(numbered) - 1)


_ROMAN_EDGE = re.compile(r"(?:^[ivxlc]+\b|\b[ivxlc]+$)")


def _normal(line: str) -> str:
    """A line with its page numbers (arabic or roman) masked, to spot running headers and footers."""
    text = re.sub(r"\d+", "#", " ".join(line.lower().split()))
    return _ROMAN_EDGE.sub("#", text)


# A header or footer line is shorter than this.
_EDGE_CHARS = 100


def _page_lines(items: list[tuple[float, object]]) -> tuple[list[_Line], list[_Line]]:
    """A page's text lines, and those at its edges (the first and last two, each once)."""
    lines = [it for _, it in items if isinstance(it, _Line) and it.text.strip()]
    return lines, lines[:2] + lines[2:][-2:]


def _running_lines(pages: list[list[tuple[float, object]]]) -> set[str]:
    """Lines repeated at the top or bottom of most pages (running headers and footers)."""
    if len(pages) < 2:
        return set()
    counts: Counter[str] = Counter()
    for items in pages:
        counts.update({_normal(line.text) for line in _page_lines(items)[1] if len(line.text) < _EDGE_CHARS})
    return {text for text, n in counts.items() if n >= 2 and n >= len(pages) / 2}


# A chapter's running header (the chapter title over every other page of it, as book layouts print it) is at the
# edge of at least this many pages, and of this share of the pages of the same side within its span.
_CHAPTER_RUN_MIN = 3
_CHAPTER_RUN_SHARE = 0.6


def chapter_running_lines(pages: list[list[tuple[float, object]]]) -> set[int]:
    """The ids of the edge lines (first or last two of a page) that repeat on the pages of one side (even or odd)
    over a stretch of the document: a chapter's or section's running header or footer. `_running_lines` finds
    those on most pages of the whole document; these change from chapter to chapter."""
    at: dict[tuple[int, str], list[tuple[int, int]]] = {}
    inside: Counter[str] = Counter()
    for index, items in enumerate(pages):
        lines, edges = _page_lines(items)
        for line in edges:
            if len(line.text) < _EDGE_CHARS:
                at.setdefault((index % 2, _normal(line.text)), []).append((index, id(line)))
        at_edge = {id(line) for line in edges}
        inside.update(_normal(line.text) for line in lines if id(line) not in at_edge)
    drop: set[int] = set()
    for (_, text), found in at.items():
        if inside[text] > 1:
            continue  # a line the body says too ("The default value is: NO."): content that fell at an edge
        indexes = sorted({index for index, _ in found})
        span = (indexes[-1] - indexes[0]) // 2 + 1  # the pages of this side from the first to the last
        if len(indexes) >= _CHAPTER_RUN_MIN and len(indexes) >= _CHAPTER_RUN_SHARE * span:
            drop.update(line_id for _, line_id in found)
    return drop
