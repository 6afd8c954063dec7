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


def _running_lines(pages: list[list[tuple[float, object]]]) -> set[str]:
    """Lines repeated at the top or bottom of most pages (running headers and footers)."""
    if len(pages) < 2:
        return set()
    counts: Counter[str] = Counter()
    for items in pages:
        texts = [it.text for _, it in items if isinstance(it, _Line) and it.text.strip()]
        counts.update({_normal(t) for t in texts[:2] + texts[-2:] if len(t) < 100})
    return {text for text, n in counts.items() if n >= 2 and n >= len(pages) / 2}
