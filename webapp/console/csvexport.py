"""CSV written a row at a time for a streamed download, with every text cell safe to open in a spreadsheet."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator

# A spreadsheet runs a cell that starts with one of these as a formula (tab and carriage return too: some
# programs strip them and then read what follows as a formula).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value) -> object:
    """Text that a spreadsheet would run as a formula gets a leading apostrophe; numbers stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class _Echo:
    """A file-like object whose write returns what it was given, so csv.writer yields lines."""

    def write(self, value: str) -> str:
        return value


def csv_lines(header: list[str], rows: Iterable[Iterable]) -> Iterator[str]:
    """The header then each row as one CSV line, cells made formula-safe."""
    writer = csv.writer(_Echo())
    yield writer.writerow([safe_cell(c) for c in header])
    for row in rows:
        yield writer.writerow([safe_cell(c) for c in row])
