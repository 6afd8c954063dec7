"""Counts and list numbers an answer backs itself: the items it enumerates ("three options: A, B and C"), the
list items a lead-in introduces, the items a cited source lists, and list numbering that breaks its own count."""

from __future__ import annotations

import re
from functools import lru_cache

from textcore.markers import strip_markers
from textcore.sentences import LIST_ITEM
from textcore.words import WORD_NUMBERS


_ENUMERATOR = re.compile(r"^\s*(\d{1,3})[.)]\s")


def enumeration_breaks(raws: list[str], passages: list[str]) -> dict[int, str]:
    """Claims (by position) whose list number breaks the answer's own count: an item numbered other than
    one more than the previous numbered item, or a first item numbered other than 1 that the cited
    passages do not number so either. A list number is layout that the sources cannot back, so a changed
    one is caught here rather than by the number guard."""
    breaks: dict[int, str] = {}
    previous: int | None = None
    for i, raw in enumerate(raws):
        m = _ENUMERATOR.match(raw)
        if not m:
            continue
        n = int(m.group(1))
        if previous is None:
            copied = any(re.search(rf"(?:^|\s){n}[.)]\s", p) for p in passages)
            if n != 1 and not copied:
                breaks[i] = f"list starts at {n}"
        elif n != previous + 1 and n != 1:
            breaks[i] = f"item {n} follows item {previous}"
        previous = n
    return breaks


# "A, B and C" / "A, B, or C": items of up to four words joined by commas and a last "and"/"or".
_WORD = r"(?!(?:and|or)\b)[^\s,;:()]+"  # a series' conjunction joins items; it is in none of them
_ITEM = rf"{_WORD}(?: {_WORD}){{0,3}}"
# Two items joined by "and" are too common to count as an enumeration; a series has a comma.
_SERIES = re.compile(rf"{_ITEM}(?:, {_ITEM})+,? (?:and|or) {_ITEM}")


_ASIDE = re.compile(r"\s*\([^()]*\)")


def _listed_after_colon(text: str) -> int:
    """How many items a colon introduces: two joined by "and"/"or" ("only two are handled: A and B"), or
    items set apart by semicolons ("three options: human, the default; json; and short"), or three or more set
    apart by commas, the last joined by "and"/"or"; 0 when none."""
    _, colon, rest = text.partition(": ")
    if not colon:
        return 0
    rest = rest.rstrip(" .")
    parts = [p for p in re.split(r";\s+(?:(?:and|or)\s+)?", rest) if p.strip()]
    if len(parts) >= 2:
        return len(parts)
    # Items of any length set apart by commas, the last joined by "and"/"or" ("four steps: create a virtualenv,
    # upgrade pip, and install the hooks").
    parts = [p for p in re.split(r",\s+(?:(?:and|or)\s+)?", rest) if p.strip()]
    if len(parts) >= 2 and not re.search(r",\s+(?:and|or)\s+", rest):
        parts[-1:] = re.split(r"\s+(?:and|or)\s+(?!.*\s(?:and|or)\s)", parts[-1])
    if len(parts) >= 3 and re.search(r"(?:^|[\s,])(?:and|or)\s", rest):
        return len(parts)
    return 2 if re.fullmatch(rf"{_ITEM} (?:and|or) {_ITEM}", rest) else 0


def list_items_after(raws: list[str], i: int) -> int:
    """How many list items follow claim i when it is a lead-in (ends with ":"), else 0."""
    if not strip_markers(raws[i]).rstrip().endswith(":"):
        return 0
    items = 0
    for later in raws[i + 1:]:
        if not LIST_ITEM.match(later):
            break
        items += 1
    return items


@lru_cache(maxsize=4096)
def listed_counts(text: str) -> frozenset[int]:
    """How many items each list of a source holds: a run of list items at one indentation, which code, blank
    lines and deeper lines inside it do not break. A spelled count of them ("four more kinds", "Two
    clarifications apply") is stated by the list."""
    counts: set[int] = set()
    indent, items = None, 0
    for line in text.splitlines():
        if not line.strip():
            continue
        depth = len(line) - len(line.lstrip())
        if LIST_ITEM.match(line) and (indent is None or depth == indent):
            indent, items = depth, items + 1
        elif indent is None or depth <= indent:
            if items >= 2:
                counts.add(items)
            indent, items = (depth, 1) if LIST_ITEM.match(line) else (None, 0)
    if items >= 2:
        counts.add(items)
    return frozenset(counts)


def _series_items(series: str) -> int:
    """How many items a series names. A first item that counts things in the plural is the head the series
    stands in apposition to, not an item ("three built-in themes, mkdocs and readthedocs" names two)."""
    items = series.count(", ") + 2 - (1 if ", and " in series or ", or " in series else 0)
    return items - 1 if _COUNTED_PLURAL.search(series.split(", ", 1)[0]) else items


# A count of two or more before a plural noun, a word or two on ("three built-in themes", "2 optional arguments").
_COUNTS = "|".join(sorted((w for w, n in WORD_NUMBERS.items() if n >= 2 and w != "twice"), key=len, reverse=True))
_COUNTED_PLURAL = re.compile(rf"(?i)\b(?:{_COUNTS}|[2-9]|\d{{2,}})(?:\s+[\w-]+){{0,2}}?\s+[a-z][\w-]*[a-z]s\b")


def enumeration_counts(raws: list[str]) -> list[frozenset[int]]:
    """For each claim (by position), how many things the answer enumerates right there: the items of a
    series of three or more inside the claim ("sets A, B and C", counted by its commas), the items a colon
    introduces inside it ("two are handled: A and B"; see _listed_after_colon) and, for a lead-in ending with
    ":", the list items that follow it. A spelled count ("three lints", "a two-stage process") that
    matches one of these is the answer counting its own list, not a fact the source must state."""
    out: list[frozenset[int]] = []
    for i, raw in enumerate(raws):
        # An aside in brackets belongs to the item before it ("hoisted (the default), nested or linked").
        text = _ASIDE.sub("", strip_markers(raw))
        counts = {_series_items(m.group(0)) for m in _SERIES.finditer(text)}
        after_colon = _listed_after_colon(text)
        if after_colon:
            counts.add(after_colon)
        items = list_items_after(raws, i)
        if items:
            counts.add(items)
        out.append(frozenset(counts))
    return out
