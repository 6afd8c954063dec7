"""DOCX parsing with python-docx: headings, paragraphs, list items and tables in body order."""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator

from textcore.sentences import code_block

from .base import Block, IngestionError, ParsedDocument, github_slug, table_block

__all__ = ["parse_docx", "check_zip_safety"]

MAX_UNCOMPRESSED_BYTES = 200 * 1024 * 1024
RATIO_CHECK_ABOVE_BYTES = 20 * 1024 * 1024
MAX_COMPRESSION_RATIO = 100
MAX_ZIP_ENTRIES = 5000

_W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_W = "{%s}" % _W_NS
# Paragraph styles that hold code (pandoc writes "Source Code"; Word has "HTML Preformatted").
_CODE_STYLES = {"source code", "code", "html preformatted", "plain text", "macro text", "preformatted text"}
_HEADING_STYLE = re.compile(r"^heading\s*([1-9])$", re.I)
_LIST_STYLE = re.compile(r"^list", re.I)


def check_zip_safety(data: bytes, filename: str) -> zipfile.ZipFile:
    """Open the zip container and refuse archives that would expand to an unreasonable size."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise IngestionError(
            f"{filename} is not a valid Word document (.docx files are zip archives and this one "
            "is not); if it is an old .doc file, save it as .docx and upload again."
        ) from exc
    entries = archive.infolist()
    total = sum(info.file_size for info in entries)
    if (len(entries) > MAX_ZIP_ENTRIES or total > MAX_UNCOMPRESSED_BYTES
            or (total > RATIO_CHECK_ABOVE_BYTES and total > MAX_COMPRESSION_RATIO * max(len(data), 1))):
        raise IngestionError(
            f"{filename} looks like a zip bomb (it would expand to {total // (1024 * 1024)} MB "
            f"from {len(entries)} entries); it was not opened. Upload the real document instead."
        )
    if "word/document.xml" not in archive.namelist():
        raise IngestionError(
            f"{filename} is a zip file but not a Word document (word/document.xml is missing); "
            "save it from Word as .docx and upload again."
        )
    return archive


def _iter_body(element) -> Iterator:
    """Yield w:p and w:tbl elements in document order, descending into content controls."""
    for child in element.iterchildren():
        tag = child.tag
        if tag in (_W + "p", _W + "tbl"):
            yield child
        elif tag == _W + "sdt":
            content = child.find(_W + "sdtContent")
            if content is not None:
                yield from _iter_body(content)


def _table_rows(table) -> list[list[str]]:
    rows: list[list[str]] = []
    for row in table.rows:
        cells: list[str] = []
        seen: set[int] = set()
        for cell in row.cells:
            # Horizontally merged cells come back repeatedly as the same underlying element.
            if id(cell._tc) in seen:
                continue
            seen.add(id(cell._tc))
            cells.append(" ".join(cell.text.split()))
        rows.append(cells)
    return rows


def _iso(value) -> str | None:
    return value.date().isoformat() if value is not None and hasattr(value, "date") else None


def _is_list_item(paragraph) -> bool:
    ppr = paragraph._p.pPr
    if ppr is not None and ppr.numPr is not None:
        return True
    style = paragraph.style.name if paragraph.style is not None else ""
    return bool(_LIST_STYLE.match(style or ""))


def parse_docx(data: bytes, filename: str) -> ParsedDocument:
    """Parse DOCX bytes into heading-scoped text and table blocks."""
    check_zip_safety(data, filename).close()
    try:
        import docx
        from docx.table import Table
        from docx.text.paragraph import Paragraph

        document = docx.Document(io.BytesIO(data))
    except Exception as exc:  # noqa: BLE001 - python-docx raises many types for broken packages
        raise IngestionError(
            f"{filename} could not be opened as a Word document ({type(exc).__name__}); "
            "open it in Word, save it as .docx again and re-upload."
        ) from exc

    core = document.core_properties
    meta: dict = {}
    if core.author:
        meta["author"] = core.author.strip()
    if (created := _iso(core.created)):
        meta["created"] = created
    if (modified := _iso(core.modified)):
        meta["modified"] = modified

    title = (core.title or "").strip()
    stack: list[tuple[int, str, str]] = []
    blocks: list[Block] = []
    pending: list[str] = []
    slugs: dict[str, int] = {}
    first_heading = ""
    term = ""  # a "Definition Term" paragraph waiting for its definition

    def path() -> tuple[str, ...]:
        return tuple(text for _, text, _ in stack)

    def anchor() -> str:
        return stack[-1][2] if stack else ""

    def flush() -> None:
        text = "\n\n".join(p for p in pending if p.strip()).strip("\n")
        if text:
            blocks.append(Block("text", text, path(), anchor=anchor()))
        pending.clear()

    def add(text: str, *, item: bool = False) -> None:
        nonlocal term
        if term:
            text, term = f"{term}: {text}", ""
        # List items of one list stay in one paragraph; everything else is a paragraph of its own.
        if item and pending and pending[-1].startswith("- "):
            pending[-1] += "\n- " + text
        else:
            pending.append(f"- {text}" if item else text)

    for element in _iter_body(document.element.body):
        if element.tag == _W + "tbl":
            flush()
            block = table_block(_table_rows(Table(element, document)), path(), anchor=anchor())
            if block:
                blocks.append(block)
            continue
        paragraph = Paragraph(element, document)
        style = (paragraph.style.name if paragraph.style is not None else "") or ""
        if style.lower() in _CODE_STYLES:
            lines = [line.rstrip() for line in paragraph.text.split("\n")]
            if any(line.strip() for line in lines):
                pending.append(code_block(lines))
            continue
        text = " ".join(paragraph.text.split())
        if not text:
            continue
        if style.lower() == "title":
            title = title or text
            if not stack:
                # The title heads the document: its intro is cited by the title's anchor.
                flush()
                slugs[github_slug(text)] = 1
                stack.append((0, text, github_slug(text)))
            continue
        match = _HEADING_STYLE.match(style)
        if match:
            flush()
            level = int(match.group(1))
            while stack and stack[-1][0] >= level:
                stack.pop()
            slug = github_slug(text)
            seen = slugs.get(slug, 0)
            slugs[slug] = seen + 1
            stack.append((level, text, f"{slug}-{seen}" if seen else slug))
            first_heading = first_heading or text
            continue
        if style.lower() in ("definition term", "term"):
            term = f"{term}, {text}" if term else text
            continue
        add(text, item=_is_list_item(paragraph))
    if term:
        pending.append(term)
    flush()

    if not blocks:
        raise IngestionError(f"{filename} contains no text to index; check that it is the right document.")
    stem = re.sub(r"\.docx$", "", filename.rsplit("/", 1)[-1], flags=re.I)
    return ParsedDocument(title=title or first_heading or stem, blocks=blocks, metadata=meta)
