"""Shared data types and helpers for document parsers (pure Python, no Django)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Literal

from textcore.tables import table_to_text

__all__ = [
    "Block",
    "ParsedDocument",
    "IngestionError",
    "slugify_heading",
    "github_slug",
    "table_to_text",
    "normalize_rows",
    "clean_text",
    "table_block",
]


class IngestionError(Exception):
    """A document could not be ingested; the message tells a person what to do about it."""

    def __init__(self, message: str, *, permanent: bool = True) -> None:
        super().__init__(message)
        self.message = message
        # Permanent errors will fail again on retry (bad file); transient ones may not.
        self.permanent = permanent

    def __str__(self) -> str:
        return self.message


@dataclass
class Block:
    """A heading-scoped piece of content: a run of text or a whole table."""

    kind: Literal["text", "table"]
    text: str
    heading_path: tuple[str, ...]
    page: int | None = None
    anchor: str = ""
    rows: list[list[str]] | None = field(default=None)


@dataclass
class ParsedDocument:
    """The result of parsing one file: a title, ordered blocks and file metadata."""

    title: str
    blocks: list[Block]
    metadata: dict = field(default_factory=dict)


# Hyphens that only break a word at a line end (never the word's own): the soft hyphen, and U+2010 as groff
# sets it at the right margin of a rendered man page.
BREAK_HYPHENS = ("\u00ad", "\u2010")

_SLUG_STRIP = re.compile(r"[^a-z0-9]+")


def with_term(term: str, text: str) -> str:
    """A definition's text after its term: "term: text", or "term text" when the term already ends with a colon
    or a dash (Sphinx's "`.. ifconfig::`", an admonition's "Note —")."""
    return f"{term}{' ' if term.endswith((':', '—')) else ': '}{text}"


def slugify_heading(text: str) -> str:
    """Turn a heading into a GitHub-style anchor slug ("Leave & PTO" -> "leave-pto")."""
    normalized = unicodedata.normalize("NFKD", text)
    ascii_text = normalized.encode("ascii", "ignore").decode("ascii").lower()
    return _SLUG_STRIP.sub("-", ascii_text).strip("-")


def github_slug(text: str) -> str:
    """The anchor GitHub gives a Markdown heading: lower case, punctuation dropped, spaces to hyphens
    ("What's new?" -> "whats-new"). Markdown, DOCX and plain-text sections are cited by it."""
    lowered = " ".join(text.split()).lower()
    return re.sub(r"[^\w\- ]", "", lowered).replace(" ", "-")


_WS = re.compile(r"[ \t\u00a0\u2000-\u200b\u202f\u205f\u3000]+")


def clean_text(text: str) -> str:
    """Collapse runs of horizontal whitespace and trim each line; drop empty edge lines."""
    lines = [_WS.sub(" ", line).strip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    return "\n".join(lines).strip()


def normalize_rows(rows: list[list[str | None]]) -> list[list[str]]:
    """Clean cell text, drop fully empty rows, and pad rows to a common width."""
    cleaned: list[list[str]] = []
    for row in rows:
        cells = [" ".join((cell or "").split()) for cell in row]
        if any(cells):
            cleaned.append(cells)
    if not cleaned:
        return []
    width = max(len(r) for r in cleaned)
    # Drop columns that are empty in every row (common with merged cells in PDFs).
    keep = [i for i in range(width) if any(i < len(r) and r[i] for r in cleaned)]
    return [[(r[i] if i < len(r) else "") for i in keep] for r in cleaned]


# A column name written in a plain cell: a few words of letters, capitalised ("Queue", "Card type").
_LABEL = re.compile(r"[A-Z][A-Za-z&/()' -]*")
_LABEL_MAX_WORDS = 3


def label_row(cells: list[str]) -> bool:
    """Every filled cell is a short capitalised label: a first row like this names the table's columns
    ("Queue | Team", "Variable | Template | Result"), where a row of data has code, digits or a sentence."""
    filled = [cell for cell in cells if cell]
    return bool(filled) and all(_LABEL.fullmatch(c) and len(c.split()) <= _LABEL_MAX_WORDS for c in filled)


def table_block(rows: list[list[str | None]], heading_path: tuple[str, ...], *,
                page: int | None = None, anchor: str = "", header: bool = True) -> Block | None:
    """Build a table Block from raw rows, or None when the table is empty. A table whose source marks no
    header row (`header=False`) gets an empty one, so its first row is read as data, not as column names."""
    norm = normalize_rows(rows)
    if not norm:
        return None
    if not header:
        norm = [[""] * len(norm[0])] + norm
    return Block(kind="table", text=table_to_text(norm), heading_path=heading_path,
                 page=page, anchor=anchor, rows=norm)
