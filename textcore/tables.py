"""Markdown pipe tables: the one form every parser writes a table in, and that form read back for display.

`table_to_text` writes `| a | b |` rows under a `| --- |` separator (a `|` inside a cell as `\\|`);
`split_tables` finds such tables (and any GitHub-style pipe table) in a chunk's text again, so the
console can show them as tables while retrieval and citations keep working on the plain text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Table", "escape_cell", "has_table", "row_text", "split_row", "split_tables", "table_to_text"]

_SEPARATOR_CELL = re.compile(r":?-+:?")
_CELL_BORDER = re.compile(r"(?<!\\)\|")


@dataclass
class Table:
    """A pipe table read back: its header row and body rows, every row as wide as the header."""

    header: list[str]
    rows: list[list[str]]


def escape_cell(cell: str) -> str:
    """A cell's text made safe inside a pipe row."""
    return cell.replace("|", "\\|")


def table_to_text(rows: list[list[str]]) -> str:
    """Render rows as Markdown-style pipe rows; the first row is the header."""
    if not rows:
        return ""
    lines = ["| " + " | ".join(escape_cell(c) for c in rows[0]) + " |"]
    lines.append("| " + " | ".join("---" for _ in rows[0]) + " |")
    for row in rows[1:]:
        lines.append("| " + " | ".join(escape_cell(c) for c in row) + " |")
    return "\n".join(lines)


def split_row(line: str) -> list[str]:
    """The cells of one pipe row (outer pipes optional, `\\|` a literal pipe inside a cell)."""
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    return [cell.strip().replace("\\|", "|") for cell in _CELL_BORDER.split(body)]


def row_text(header: list[str], cells: list[str]) -> str:
    """One body row read as prose: "Header: value; Header: value". Without column names, a row of two cells
    reads as a term and what it has ("Pyramid: pyramid_celery"), a longer one as its cells in order."""
    pairs = [f"{h}: {v}" for h, v in zip(header, cells) if v and h]
    if pairs:
        # A cell's closing full stop goes before the next cell's "; " ("in config.; Default" reads badly).
        return "; ".join([re.sub(r"(?<![.\s])\.$", "", p) for p in pairs[:-1]] + pairs[-1:])
    filled = [c for c in cells if c]
    if len(filled) == 2 and len(cells) == 2:
        return f"{filled[0]}: {filled[1]}"
    return "; ".join(filled)


def _is_row(line: str) -> bool:
    return bool(_CELL_BORDER.search(line.strip()))


def _is_separator(line: str, width: int) -> bool:
    cells = split_row(line)
    return len(cells) == width and all(_SEPARATOR_CELL.fullmatch(cell.replace(" ", "")) for cell in cells)


def split_tables(text: str) -> list[str | Table]:
    """The text cut into plain stretches and tables, in order; text without a table comes back whole.

    A table is a row of cells, a separator row of dashes as wide as it, and the rows that follow
    while each line still has a cell border; body rows are padded or cut to the header's width.
    """
    if not text:
        return []
    lines = text.split("\n")
    parts: list[str | Table] = []
    plain: list[str] = []
    i = 0
    while i < len(lines):
        header = split_row(lines[i]) if _is_row(lines[i]) else []
        if header and i + 1 < len(lines) and _is_separator(lines[i + 1], len(header)):
            j = i + 2
            rows = []
            while j < len(lines) and lines[j].strip() and _is_row(lines[j]):
                cells = split_row(lines[j])
                rows.append((cells + [""] * len(header))[:len(header)])
                j += 1
            if plain:
                parts.append("\n".join(plain))
                plain = []
            parts.append(Table(header, rows))
            i = j
            continue
        plain.append(lines[i])
        i += 1
    if plain:
        parts.append("\n".join(plain))
    return parts


def has_table(text: str) -> bool:
    """True when the text holds at least one pipe table."""
    return "|" in text and any(isinstance(part, Table) for part in split_tables(text))
