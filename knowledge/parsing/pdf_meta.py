"""PDF metadata and title: author and dates from the document info dictionary, and a title from
the info, the first page or the file name."""

from __future__ import annotations

import re

import pypdfium2 as pdfium

from .pdf_extract import _Line
from .pdf_headings import _looks_like_heading
from .pdf_text import _clean_line


def _pdf_date(value: str | None) -> str | None:
    """Convert a PDF date (D:YYYYMMDDHHmmSS...) to an ISO date string."""
    if not value:
        return None
    m = re.match(r"(?:D:)?(\d{4})(\d{2})?(\d{2})?", value.strip())
    if not m:
        return None
    year, month, day = m.group(1), m.group(2) or "01", m.group(3) or "01"
    if not ("01" <= month <= "12" and "01" <= day <= "31"):
        return None
    return f"{year}-{month}-{day}"


def _metadata(pdf: pdfium.PdfDocument) -> dict:
    try:
        info = pdf.get_metadata_dict(skip_empty=True)
    except Exception:  # noqa: BLE001 - metadata is optional
        return {}
    meta: dict = {}
    if info.get("Author"):
        meta["author"] = info["Author"].strip()
    if (created := _pdf_date(info.get("CreationDate"))):
        meta["created"] = created
    if (modified := _pdf_date(info.get("ModDate"))):
        meta["modified"] = modified
    if info.get("Title"):
        meta["title"] = re.sub(r"^Microsoft (?:Word|PowerPoint) - ", "", info["Title"].strip())
    return meta


def _fallback_title(filename: str) -> str:
    stem = re.sub(r"\.[A-Za-z0-9]+$", "", filename.rsplit("/", 1)[-1])
    return re.sub(r"[_-]+", " ", stem).strip() or "Untitled document"


def _first_title_line(page_texts: list[list[tuple[float, object]]]) -> str:
    """A title from page one: its largest-font opening line, or a heading-like first line."""
    if not page_texts:
        return ""
    opening = [it for _, it in page_texts[0] if isinstance(it, _Line) and _clean_line(it.text)][:5]
    sized = [ln for ln in opening if ln.size]
    if sized:
        biggest = max(sized, key=lambda ln: ln.size or 0.0)
        others = sorted(ln.size or 0.0 for ln in sized)
        if (biggest.size or 0.0) > others[len(others) // 2] and len(biggest.text) <= 120:
            return _clean_line(biggest.text)
    if opening and _looks_like_heading(_clean_line(opening[0].text), True):
        return _clean_line(opening[0].text)
    return ""
