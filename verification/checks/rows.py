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
from functools import lru_cache

from textcore.tables import Table, split_tables

_FIELD_SPLIT = re.compile(r";\s+")
_FIELD = re.compile(r"^(?P<name>[^:;]{1,60}?):\s+(?P<value>\S.*)$")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
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
    """A row's (column, value) pairs, each sentence of a cell a value too; in a table without column names,
    (first cell, second cell)."""
    if any(table.header):
        # A cell of several sentences is quoted one sentence at a time too ("Description: A commit message to use").
        return {(_norm(h), _norm(part)) for h, v in zip(table.header, row) if h and v
                for part in [v, *_SENTENCE_END.split(v)]}
    return {(_norm(row[0]), _norm(row[1]))} if len(row) == 2 and all(row) else set()


@lru_cache(maxsize=1024)
def _tables(text: str) -> tuple[tuple[bool, tuple[frozenset[tuple[str, str]], ...]], ...]:
    """Each table of a passage: whether it names its columns, and its rows' fields. Cached: every claim of an
    answer reads the same passages."""
    return tuple((any(t.header), tuple(frozenset(_row_fields(t, row)) for row in t.rows))
                 for t in split_tables(text) if isinstance(t, Table))


def check_rows(claim_text: str, source_texts: list[str]) -> RowCheck:
    """Conflict when the claim's fields, each found in some row of one cited table, are not all in one row of
    it: two or more fields of a table with column names, or a term and a value of a table without them
    ("Pyramid: not needed" where Flask's row says "not needed")."""
    fields = _fields(claim_text)
    if not fields:
        return RowCheck("n/a", "not a table row")
    for text in source_texts:
        for named, rows in _tables(text):
            if not named:
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
