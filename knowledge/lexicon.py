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
_RECHECK_S = 5.0
_COMBINED_MAX = 32
# Below this many chunks, term statistics are blended with an even weight (see TermStats.idf); the sample
# corpus (199 chunks) and the evaluation corpus are above it.
FEW_CHUNKS = 50
_EVEN_IDF = math.log(2.0)  # what BM25's idf gives every word of an empty collection
_TSV_ENTRY = re.compile(r"'((?:[^']|'')+)'(?::([0-9A-D,]+))?")


@dataclass
class TermStats:
    """Document frequencies of lexemes over the chunks of some collections."""

    total: int
    avg_length: float
    df: dict[str, int]

    def idf(self, lexeme: str) -> float:
        """BM25's idf, never negative. Over fewer than `FEW_CHUNKS` chunks document frequencies say little
        (in a one-chunk collection every word the question shares with it looks common and every other
        word rare), so the idf leans towards one weight for every word, the more the fewer chunks."""
        n = self.df.get(lexeme, 0)
        full = math.log(1 + (self.total - n + 0.5) / (n + 0.5))
        if self.total >= FEW_CHUNKS:
            return full
        share = self.total / FEW_CHUNKS
        return share * full + (1 - share) * _EVEN_IDF


@dataclass
class _CollectionStats:
    stamp: tuple
    total: int
    length: float  # sum of tsvector lengths
    df: dict[str, int]


# Statistics come only from the collections being searched (the asker's readable ones): counting every
# chunk would tell an outsider whether a word exists in a collection they cannot read.
_PER_COLLECTION: dict[int, _CollectionStats] = {}
_COMBINED: dict[frozenset, tuple[tuple, TermStats]] = {}
_CHECKED: dict[str, float] = {"at": 0.0}
_STAMPS: dict[int, tuple | None] = {}


def _stamps() -> dict[int, tuple]:
    """Per collection: (ready documents, last indexing time) — changes whenever its chunks change."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT collection_id, count(*), max(indexed_at) FROM knowledge_document "
                       "WHERE status = 'ready' GROUP BY collection_id")
        return {row[0]: (row[1], row[2]) for row in cursor.fetchall()}


def _collection_stats(collection_id: int, stamp: tuple) -> _CollectionStats:
    cached = _PER_COLLECTION.get(collection_id)
    if cached is not None and cached.stamp == stamp:
        return cached
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*), coalesce(sum(length(search_vector)), 0) FROM knowledge_chunk "
                       "WHERE collection_id = %s", [collection_id])
        total, length = cursor.fetchone()
        # ts_stat takes a query text; the id is an int from our own database, never user input.
        cursor.execute(f"SELECT word, ndoc FROM ts_stat('SELECT search_vector FROM knowledge_chunk "
                       f"WHERE collection_id = {int(collection_id)}')")
        df = dict(cursor.fetchall())
    stats = _CollectionStats(stamp, int(total), float(length), df)
    _PER_COLLECTION[collection_id] = stats
    return stats


def term_stats(collection_ids: list[int]) -> TermStats:
    """Stats over the chunks of these collections; recomputed when one of them is re-indexed."""
    key = frozenset(collection_ids)
    now = time.monotonic()
    with _LOCK:
        # Stamps are re-read every few seconds, and at once for a collection they do not know yet (created
        # since, or ready for the first time): its chunks would otherwise count as none at all.
        if now - _CHECKED["at"] >= _RECHECK_S or any(cid not in _STAMPS for cid in key):
            _STAMPS.clear()
            _STAMPS.update(_stamps())
            _STAMPS.update({cid: None for cid in key if cid not in _STAMPS})  # none ready: known, until the next read
            _CHECKED["at"] = now
        stamp = tuple(sorted((cid, _STAMPS.get(cid)) for cid in key))
        cached = _COMBINED.get(key)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        parts = [_collection_stats(cid, _STAMPS[cid]) for cid in sorted(key) if _STAMPS.get(cid) is not None]
        if len(parts) == 1:
            df = parts[0].df
        else:
            df: dict[str, int] = {}
            for part in parts:
                for word, n in part.df.items():
                    df[word] = df.get(word, 0) + n
        total = sum(p.total for p in parts)
        length = sum(p.length for p in parts)
        stats = TermStats(total=total, avg_length=(length / total) if total else 1.0, df=df)
        if len(_COMBINED) >= _COMBINED_MAX:
            _COMBINED.pop(next(iter(_COMBINED)))
        _COMBINED[key] = (stamp, stats)
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


def lexeme_words(text: str) -> dict[str, list[str]]:
    """The words of a text behind each of its English lexemes ({'instal': ['installing']})."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT token, lexemes FROM ts_debug('english', %s) WHERE lexemes IS NOT NULL", [text])
        rows = cursor.fetchall()
    out: dict[str, list[str]] = {}
    for token, lexemes in rows:
        for lexeme in lexemes or []:
            out.setdefault(lexeme, []).append(token)
    return out


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
