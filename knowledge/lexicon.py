"""Term statistics of the indexed chunks (document frequencies), for IDF weighting, cached per process."""

from __future__ import annotations

import math
import re
import threading
import time
from dataclasses import dataclass

from django.db import connection

from knowledge.query import FILLER_LEXEMES

_LOCK = threading.Lock()
_CACHE: dict[str, object] = {"stamp": None, "stats": None, "checked": 0.0}
_RECHECK_S = 5.0
_TSV_ENTRY = re.compile(r"'((?:[^']|'')+)'(?::([0-9A-D,]+))?")


@dataclass
class TermStats:
    """Document frequencies of lexemes over all chunks."""

    total: int
    avg_length: float
    df: dict[str, int]

    def idf(self, lexeme: str) -> float:
        """BM25's idf, never negative."""
        n = self.df.get(lexeme, 0)
        return math.log(1 + (self.total - n + 0.5) / (n + 0.5))


def _stamp() -> tuple:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*), coalesce(max(indexed_at), now()) FROM knowledge_document WHERE status = 'ready'")
        return tuple(cursor.fetchone())


def term_stats() -> TermStats:
    """Stats for the current index; recomputed when a document has been (re)indexed."""
    now = time.monotonic()
    with _LOCK:
        if _CACHE["stats"] is not None and now - _CACHE["checked"] < _RECHECK_S:
            return _CACHE["stats"]  # type: ignore[return-value]
        stamp = _stamp()
        _CACHE["checked"] = now
        if stamp == _CACHE["stamp"] and _CACHE["stats"] is not None:
            return _CACHE["stats"]  # type: ignore[return-value]
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*), coalesce(avg(length(search_vector)), 1) FROM knowledge_chunk")
            total, avg_len = cursor.fetchone()
            cursor.execute("SELECT word, ndoc FROM ts_stat('SELECT search_vector FROM knowledge_chunk')")
            df = dict(cursor.fetchall())
        stats = TermStats(total=int(total), avg_length=float(avg_len or 1), df=df)
        _CACHE.update(stamp=stamp, stats=stats)
        return stats


def parse_tsvector(value: str) -> dict[str, tuple[int, int]]:
    """'leav':3B,5A -> {'leav': (count, heading_count)} from a tsvector's text form."""
    result: dict[str, tuple[int, int]] = {}
    for match in _TSV_ENTRY.finditer(value or ""):
        lexeme = match.group(1).replace("''", "'")
        positions = (match.group(2) or "").split(",") if match.group(2) else [""]
        heading = sum(1 for p in positions if p.endswith("A"))
        result[lexeme] = (len(positions), heading)
    return result


def query_lexemes(text: str) -> list[str]:
    """The English-stemmed lexemes of a text (stop words dropped), in order."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT to_tsvector('english', %s)::text", [text])
        (vector,) = cursor.fetchone()
    positions: list[tuple[int, str]] = []
    for match in _TSV_ENTRY.finditer(vector or ""):
        lexeme = match.group(1).replace("''", "'")
        first = min(int(re.sub(r"[A-D]$", "", p)) for p in (match.group(2) or "0").split(","))
        positions.append((first, lexeme))
    return [lexeme for _, lexeme in sorted(positions) if lexeme not in FILLER_LEXEMES]
