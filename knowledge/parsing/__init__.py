"""Document parsing entry point: pick a parser by extension after sniffing the bytes."""

from __future__ import annotations

import os

from .base import Block, IngestionError, ParsedDocument, slugify_heading
from .decoding import decode_text

__all__ = [
    "Block",
    "IngestionError",
    "ParsedDocument",
    "SUPPORTED_EXTENSIONS",
    "mime_type_for",
    "parse_file",
    "slugify_heading",
]

_MIME_TYPES = {
    ".pdf": "application/pdf",
    ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ".html": "text/html",
    ".htm": "text/html",
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".txt": "text/plain",
    ".text": "text/plain",
    ".rst": "text/x-rst",
}
SUPPORTED_EXTENSIONS: frozenset[str] = frozenset(_MIME_TYPES)

_TEXT_EXTENSIONS = {".html", ".htm", ".md", ".markdown", ".txt", ".text", ".rst"}
# Leading bytes of formats people commonly upload under the wrong name.
_SIGNATURES = [
    (b"%PDF-", "a PDF", ".pdf"),
    (b"PK\x03\x04", "a zip archive (for example .docx, .xlsx or .pptx)", ".docx"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "a legacy Microsoft Office file (.doc/.xls/.ppt)", ".doc"),
    (b"\x89PNG", "a PNG image", ".png"),
    (b"\xff\xd8\xff", "a JPEG image", ".jpg"),
    (b"GIF8", "a GIF image", ".gif"),
    (b"\x7fELF", "a program binary", ""),
    (b"\x1f\x8b", "a gzip archive", ".gz"),
]


def _extension(filename: str) -> str:
    return os.path.splitext(filename.lower())[1]


def mime_type_for(filename: str) -> str:
    """MIME type for a supported filename, or application/octet-stream."""
    return _MIME_TYPES.get(_extension(filename), "application/octet-stream")


def _sniff(data: bytes) -> tuple[str, str] | None:
    head = data[:16]
    for signature, description, ext in _SIGNATURES:
        if head.startswith(signature):
            return description, ext
    return None


def parse_file(data: bytes, filename: str, *, max_bytes: int | None = None) -> ParsedDocument:
    """Parse an uploaded file into a ParsedDocument, or raise IngestionError with a clear reason."""
    name = os.path.basename(filename) or "The file"
    ext = _extension(filename)
    if ext not in SUPPORTED_EXTENSIONS:
        supported = ", ".join(sorted(SUPPORTED_EXTENSIONS))
        shown = ext or "no extension"
        raise IngestionError(f"{name} has an unsupported file type ({shown}); supported types are: {supported}.")
    if max_bytes is not None and len(data) > max_bytes:
        raise IngestionError(
            f"{name} is {len(data) / 1_048_576:.1f} MB, over the {max_bytes / 1_048_576:.1f} MB limit; "
            "split it into smaller documents or remove embedded images, then upload again."
        )
    if not data or not data.strip():
        raise IngestionError(f"{name} is empty; upload a copy that has content.")

    sniffed = _sniff(data)
    if ext == ".pdf":
        if sniffed and sniffed[1] != ".pdf":
            raise IngestionError(f"{name} is named .pdf but is actually {sniffed[0]}; upload a real PDF.")
        from .pdf import parse_pdf

        return parse_pdf(data, name)
    if ext == ".docx":
        if sniffed and sniffed[1] not in (".docx",):
            hint = " Open it in Word and save it as .docx." if sniffed[1] == ".doc" else ""
            raise IngestionError(f"{name} is named .docx but is actually {sniffed[0]}.{hint}")
        from .docx import parse_docx

        return parse_docx(data, name)

    # Text formats: anything that sniffs as a known binary format is mislabelled.
    if sniffed:
        raise IngestionError(
            f"{name} is named {ext} but is actually {sniffed[0]}; rename it with the right extension"
            + (f" ({sniffed[1]})" if sniffed[1] in SUPPORTED_EXTENSIONS else "")
            + " or upload the intended file."
        )
    text = decode_text(data, name)
    if not text.strip():
        raise IngestionError(f"{name} contains only whitespace; upload a copy that has content.")
    if ext in (".html", ".htm"):
        from .html import parse_html

        return parse_html(text, name)
    if ext in (".md", ".markdown"):
        from .markdown import parse_markdown

        return parse_markdown(text, name)
    if ext in (".rst", ".txt"):
        from .rst import looks_like_rst, parse_rst

        # A .txt file in reStructuredText (Sphinx sources are often kept as .txt) is read as such.
        parsed = parse_rst(text, name) if ext == ".rst" or looks_like_rst(text) else None
        if parsed is not None:
            parsed.title = parsed.title or os.path.splitext(name)[0]
            return parsed
    from .text import parse_plain_text

    return parse_plain_text(text, name)
