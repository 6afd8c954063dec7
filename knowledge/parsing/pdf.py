"""PDF parsing entry point: page text via pypdfium2, tables via pdfplumber, with quality fallbacks.

The topics live in sibling modules: pdf_extract (reading pages), pdf_text (line cleanup and
joining), pdf_headings (heading heuristic and outline), pdf_furniture (running headers, footers,
page numbers, contents pages), pdf_sections (lines into heading-scoped blocks) and pdf_meta
(metadata and title).
"""

from __future__ import annotations

import io
import logging
import re

from .base import IngestionError, ParsedDocument
from .pdf_extract import (
    _fallback_page_text,
    _Line,
    _lost_spaces,
    _open_pdfium,
    _page_has_paths,
    _pdfium_lines,
    _tables_and_lines,
)
from .pdf_headings import _looks_like_heading, _outline  # noqa: F401 - _looks_like_heading is imported from here
from .pdf_meta import _fallback_title, _first_title_line, _metadata
from .pdf_sections import _PageBuilder

__all__ = ["parse_pdf"]

log = logging.getLogger(__name__)


def parse_pdf(data: bytes, filename: str) -> ParsedDocument:
    """Parse PDF bytes into blocks: one text run per heading per page, tables kept whole."""
    if b"%PDF-" not in data[:1024]:
        raise IngestionError(
            f"{filename} is not a valid PDF (it has no PDF header); check the file and its extension."
        )
    pdf = _open_pdfium(data, filename)
    plumber_pdf = None
    try:
        try:
            import pdfplumber

            plumber_pdf = pdfplumber.open(io.BytesIO(data))
        except Exception:  # noqa: BLE001 - tables are best effort; text still comes from pdfium
            log.info("pdfplumber could not open %s; tables will not be detected", filename)
        meta = _metadata(pdf)
        outline = _outline(pdf)
        page_texts: list[list[tuple[float, object]]] = []
        for index in range(len(pdf)):
            page = pdf[index]
            try:
                items: list[tuple[float, object]] = []
                if plumber_pdf is not None and _page_has_paths(page):
                    try:
                        tables, lines = _tables_and_lines(plumber_pdf.pages[index])
                    except Exception:  # noqa: BLE001
                        log.debug("table detection failed on page %s", index + 1, exc_info=True)
                        tables, lines = [], []
                    if tables:
                        items = sorted([(ln.top or 0.0, ln) for ln in lines] + tables, key=lambda it: it[0])
                if not items:
                    textpage = page.get_textpage()
                    lines = _pdfium_lines(textpage)
                    textpage.close()
                    if _lost_spaces("\n".join(ln.text for ln in lines)):
                        text = _fallback_page_text(data, index, plumber_pdf)
                        lines = [_Line(line) for line in re.split(r"\r\n|\r|\n", text)]
                    items = [(0.0, ln) for ln in lines]
                page_texts.append(items)
            finally:
                page.close()
    finally:
        if plumber_pdf is not None:
            plumber_pdf.close()
        pdf.close()

    has_text = any(
        (isinstance(item, _Line) and item.text.strip()) or not isinstance(item, _Line)
        for items in page_texts for _, item in items
    )
    if not has_text:
        raise IngestionError(
            f"{filename} has no extractable text (it is probably a scanned image); "
            "run OCR on it or upload a text-based PDF."
        )

    title = meta.pop("title", "") or _first_title_line(page_texts) or _fallback_title(filename)
    builder = _PageBuilder(title, page_texts, outline)
    for number, items in enumerate(page_texts, start=1):
        builder.add_page(number, items)
    if not builder.blocks:
        raise IngestionError(f"{filename} has no extractable text; upload a text-based PDF.")
    return ParsedDocument(title=title, blocks=builder.blocks, metadata=meta)
