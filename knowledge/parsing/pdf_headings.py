"""PDF headings and sections: the heading heuristic for lines without font data, the document's
bookmarks (outline), and the comparable form used to match a bookmark to a line of the page."""

from __future__ import annotations

import logging
import re

import pypdfium2 as pdfium

from .pdf_text import _BULLET

log = logging.getLogger(__name__)

_NUMBERED_HEADING = re.compile(r"^(?:(?i:section|part|chapter|article|appendix)\s+\S+|\d{1,2}(?:\.\d{1,2})*\.?)\s+[A-Z]")
_SMALL_WORDS = {"a", "an", "and", "as", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to", "with", "vs", "via", "per"}


def _looks_like_heading(line: str, prev_ended: bool) -> bool:
    """Best-effort: a short standalone line, no final punctuation, Title Case or numbered."""
    text = line.strip()
    if not prev_ended or not (3 <= len(text) <= 80) or text[-1] in ".,;:!?" or _BULLET.match(text):
        return False
    words = text.split()
    if len(words) > 10 or not any(ch.isalpha() for ch in text) or ": " in text:
        return False
    if _NUMBERED_HEADING.match(text) and len(words) >= 2:
        return True
    letters = [w for w in words if w[0].isalpha()]
    if not letters:
        return False
    if text.isupper() and len(text) >= 4:
        return True
    capitalised = [w for w in letters if w[0].isupper() or w.lower() in _SMALL_WORDS]
    return letters[0][0].isupper() and len(capitalised) == len(letters) and len(letters) >= 2


def _outline(pdf: pdfium.PdfDocument) -> list[tuple[int, str, int]]:
    """(level, title, page index) of the PDF's bookmarks, in order; empty when it has none."""
    entries: list[tuple[int, str, int]] = []
    try:
        for bookmark in pdf.get_toc(max_depth=6):
            dest = bookmark.get_dest()
            title = " ".join((bookmark.get_title() or "").split())
            index = dest.get_index() if dest is not None else None
            if title and index is not None:
                entries.append((bookmark.level, title, index))
    except Exception:  # noqa: BLE001 - a broken outline only means no outline
        log.debug("could not read the PDF outline", exc_info=True)
        return []
    return entries


def _key(text: str) -> str:
    """Comparable form of a heading: letters and digits only, section numbers dropped."""
    text = re.sub(r"^(?:(?:chapter|appendix|section|part)\s+)?[0-9A-Z]{1,3}(?:\.[0-9]+)*\.?\s+", "", text.strip(),
                  flags=re.I)
    return re.sub(r"[^a-z0-9]+", "", text.lower())
