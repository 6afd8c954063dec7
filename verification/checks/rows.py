"""Row guard: a claim that reads a table row ("Name: -b; Default: gh-pages") must pair values one row of the
cited tables pairs.

The writer renders a row as "Header: value; Header: value" (`textcore.tables.row_text`), and a hosted model
quoting a table often does the same. Such a claim has no sentence around its values for the context guard to
compare, so a value taken from another row ("Name: -b; Default: None", where None is -m's default) passes
every other check: each value is in the source. Here the claim's fields are matched against the rows: when
no row holds them all, while each of them is in some row, the claim has joined two rows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from textcore.tables import Table, split_tables

_FIELD_SPLIT = re.compile(r";\s+")
_FIELD = re.compile(r"^(?P<name>[^:;]{1,60}?):\s+(?P<value>\S.*)$")
_MARKER = re.compile(r"\s*\[\d+(?:\s*,\s*\d+)*\]")


@dataclass(frozen=True)
class RowCheck:
    """Outcome of the row guard for one claim."""

    status: str  # "pass", "n/a", "conflict"
    detail: str


def _norm(text: str) -> str:
    return " ".join(_MARKER.sub("", text).split()).strip(" .").lower()


def _fields(claim_text: str) -> list[tuple[str, str]]:
    """The claim's "Name: value" parts, in order ("Name: -b, --remote-branch; Default: gh-pages")."""
    out = []
    for part in _FIELD_SPLIT.split(claim_text.strip()):
        m = _FIELD.match(part.strip())
        if m:
            out.append((_norm(m.group("name")), _norm(m.group("value"))))
    return out


def _row_fields(table: Table, row: list[str]) -> set[tuple[str, str]]:
    """A row's (column, value) pairs; in a table without column names, (first cell, second cell)."""
    if any(table.header):
        return {(_norm(h), _norm(v)) for h, v in zip(table.header, row) if h and v}
    return {(_norm(row[0]), _norm(row[1]))} if len(row) == 2 and all(row) else set()


def check_rows(claim_text: str, source_texts: list[str]) -> RowCheck:
    """Conflict when the claim's fields, each found in some row of one cited table, are not all in one row of
    it: two or more fields of a table with column names, or a term and a value of a table without them
    ("Pyramid: not needed" where Flask's row says "not needed")."""
    fields = _fields(claim_text)
    if not fields:
        return RowCheck("n/a", "not a table row")
    for text in source_texts:
        for table in (p for p in split_tables(text) if isinstance(p, Table)):
            rows = [_row_fields(table, row) for row in table.rows]
            if not any(table.header):
                # Term and value: the term's own row must give the value another row gives.
                terms = {t: v for row in rows for t, v in row}
                for term, value in fields:
                    if term in terms and terms[term] != value and value in terms.values():
                        return RowCheck("conflict", f"{value!r} is not what the table gives {term!r} "
                                                    f"({terms[term]!r})")
                continue
            found = [f for f in fields if any(f in row for row in rows)]
            if len(found) < 2:
                continue  # the claim quotes no two fields of this table
            best = max(rows, key=lambda row: sum(f in row for f in found))
            stray = [f for f in found if f not in best]
            if not stray:
                return RowCheck("pass", f"{len(found)} field(s) in one row of the table")
            held = next(f for f in found if f in best)
            return RowCheck("conflict", f"'{stray[0][0]}: {stray[0][1]}' is not in the row of "
                                        f"'{held[0]}: {held[1]}' in the source's table")
    return RowCheck("n/a", "no table row holds two of its fields")
