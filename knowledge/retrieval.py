"""Hybrid retrieval inside PostgreSQL: pgvector HNSW + full text + exact identifiers, fused by RRF."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field

import numpy as np
from django.conf import settings
from django.db import connection, transaction

from knowledge.chunking import section_pieces
from knowledge.lexicon import TermStats, query_lexemes, term_stats
from knowledge.query import QueryAnalysis, answer_type_lexemes
from textcore.words import zipf

RRF_K = 60
# Lexical and identifier evidence is weighted above dense: on documentation, exact terms are the
# strongest signal, and a weak dense top-1 must not push a strong lexical hit out of the list.
RRF_WEIGHTS = {"dense": 1.0, "lexical": 1.3, "identifier": 2.0}


@dataclass
class Hit:
    """One retrieved chunk with the evidence each retriever gave for it."""

    chunk_id: int
    document_id: int
    collection_id: int
    order: int
    text: str
    heading_text: str
    anchor: str
    page: int | None
    search_vector: str
    source: str
    title: str
    collection: str
    updated_at: object
    identifiers: list[str] = field(default_factory=list)
    sections: list[dict] = field(default_factory=list)  # Chunk.sections: where a merged section begins
    dense: float = 0.0
    lexical: float = 0.0
    identifier_matches: list[str] = field(default_factory=list)
    ranks: dict[str, int] = field(default_factory=dict)
    fused: float = 0.0
    score: float = 0.0
    features: dict[str, float] = field(default_factory=dict)

    @property
    def retrievers(self) -> list[str]:
        return sorted(self.ranks)

    @property
    def citation_source(self) -> str:
        return f"{self.source}#{self.anchor}" if self.anchor else self.source

    def spans(self) -> list[tuple[str, str]]:
        """The chunk's text cut where it passes into another section: (text, anchor) in order; the whole text
        with the chunk's anchor when it is one section's."""
        return [(piece, mark["anchor"]) for piece, mark in section_pieces(self.text, self.sections)] \
            or [(self.text, self.anchor)]

    @property
    def section_sources(self) -> list[str]:
        """`source#anchor` of every section the chunk holds text of, its own first."""
        anchors = [self.anchor] + [mark["anchor"] for mark in self.sections]
        return list(dict.fromkeys(f"{self.source}#{a}" if a else self.source for a in anchors))


@dataclass
class Candidates:
    """Everything the retrievers found for one question."""

    hits: list[Hit]
    lexemes: list[str]
    query_vector: np.ndarray
    timings_ms: dict[str, float]


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 2)


def dense_search(vector: np.ndarray, collection_ids: list[int], limit: int) -> list[tuple[int, float]]:
    """(chunk_id, cosine similarity) from the HNSW index."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"SET LOCAL hnsw.ef_search = {int(max(settings.VERITY_HNSW_EF_SEARCH, limit))}")
        cursor.execute(
            "SELECT id, 1 - (embedding <=> %s::vector) FROM knowledge_chunk "
            "WHERE collection_id = ANY(%s) AND embedding IS NOT NULL "
            "ORDER BY embedding <=> %s::vector LIMIT %s",
            [_vector_literal(vector), collection_ids, _vector_literal(vector), limit],
        )
        return [(row[0], float(row[1])) for row in cursor.fetchall()]


def lexical_search(lexemes: list[str], websearch_text: str, collection_ids: list[int],
                   limit: int) -> list[tuple[int, float]]:
    """(chunk_id, ts_rank_cd) for chunks matching any informative query lexeme; all-terms matches first."""
    informative = _informative(lexemes, collection_ids)
    if not informative:
        return []
    any_query = " | ".join("'" + lexeme.replace("'", "''") + "'" for lexeme in informative)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.id, ts_rank_cd(c.search_vector, q, 1) + "
            "CASE WHEN c.search_vector @@ websearch_to_tsquery('english', %s) THEN 1 ELSE 0 END AS rank "
            "FROM knowledge_chunk c, to_tsquery('english', %s) q "
            "WHERE c.collection_id = ANY(%s) AND c.search_vector @@ q ORDER BY rank DESC LIMIT %s",
            [websearch_text, any_query, collection_ids, limit],
        )
        return [(row[0], float(row[1])) for row in cursor.fetchall()]


def identifier_search(identifiers: list[str], collection_ids: list[int], limit: int) -> list[tuple[int, float]]:
    """(chunk_id, number of question identifiers the chunk contains) for exact code matches."""
    if not identifiers:
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT id, cardinality(ARRAY(SELECT unnest(identifiers) INTERSECT SELECT unnest(%s::varchar[]))) AS n "
            "FROM knowledge_chunk WHERE collection_id = ANY(%s) AND identifiers && %s::varchar[] "
            "ORDER BY n DESC, id LIMIT %s",
            [identifiers, collection_ids, identifiers, limit],
        )
        return [(row[0], float(row[1])) for row in cursor.fetchall()]


# A misspelled word ("conections", "seperate") is a lexeme no chunk holds, one edit away from one many do.
# Short words, names and English words are left alone: "pnpm" is not a typo of "npm", nor "abroad" of "broad".
RESPELL_MIN_LENGTH = 6
RESPELL_MIN_DF = 5
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _english(word: str) -> bool:
    """An everyday English word ("abroad"): a word the collections lack, not a misspelling of one they have."""
    return zipf(word) >= 2.5


def respelled(lexemes: list[str], stats: TermStats, identifiers: list[str] = ()) -> list[str]:
    """The lexemes with each one the collections never use replaced by the most used lexeme one edit away
    (a letter dropped, added, changed or two swapped), when there is one."""
    named = {i.lower() for i in identifiers}
    out = []
    for lexeme in lexemes:
        if (stats.df.get(lexeme, 0) or len(lexeme) < RESPELL_MIN_LENGTH or not lexeme.isalpha()
                or any(lexeme in n for n in named) or _english(lexeme)):
            out.append(lexeme)
            continue
        splits = [(lexeme[:i], lexeme[i:]) for i in range(len(lexeme) + 1)]
        edits = {a + b[1:] for a, b in splits if b} | {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
        edits |= {a + c + b[1:] for a, b in splits if b for c in _LETTERS} | {a + c + b for a, b in splits
                                                                             for c in _LETTERS}
        best = max(edits, key=lambda e: stats.df.get(e, 0))
        out.append(best if stats.df.get(best, 0) >= RESPELL_MIN_DF else lexeme)
    return out


def retrieve(query: QueryAnalysis, query_vector: np.ndarray, collection_ids: list[int], *,
             limit: int = 40) -> Candidates:
    """Run the three retrievers and fuse their rankings with reciprocal rank fusion."""
    timings: dict[str, float] = {}
    started = time.perf_counter()
    lexemes = respelled(query_lexemes(query.expanded), term_stats(collection_ids), query.identifiers)
    timings["lexemes"] = _ms(started)

    started = time.perf_counter()
    dense = dense_search(query_vector, collection_ids, limit)
    timings["dense"] = _ms(started)
    started = time.perf_counter()
    lexical = lexical_search(lexemes, query.expanded, collection_ids, limit)
    timings["lexical"] = _ms(started)
    started = time.perf_counter()
    exact = identifier_search(query.identifiers, collection_ids, limit)
    timings["identifier"] = _ms(started)

    started = time.perf_counter()
    fused: dict[int, float] = {}
    ranks: dict[int, dict[str, int]] = {}
    raw: dict[int, dict[str, float]] = {}
    for name, results in (("dense", dense), ("lexical", lexical), ("identifier", exact)):
        for rank, (chunk_id, value) in enumerate(results, start=1):
            fused[chunk_id] = fused.get(chunk_id, 0.0) + RRF_WEIGHTS[name] / (RRF_K + rank)
            ranks.setdefault(chunk_id, {})[name] = rank
            raw.setdefault(chunk_id, {})[name] = value
    hits = load_hits(list(fused))
    for hit in hits:
        hit.fused = fused[hit.chunk_id]
        hit.ranks = ranks[hit.chunk_id]
        hit.dense = raw[hit.chunk_id].get("dense", 0.0)
        hit.lexical = raw[hit.chunk_id].get("lexical", 0.0)
    _fill_missing_dense(hits, query_vector)
    identifier_set = set(query.identifiers)
    for hit in hits:
        hit.identifier_matches = sorted(identifier_set & set(hit.identifiers))
    hits.sort(key=lambda h: h.fused, reverse=True)
    timings["fuse"] = _ms(started)
    # What the evidence must cover: the topic words; the word naming the answer's kind ("number") is answered
    # by the fact itself (the lexical search above still reads it).
    kind_words = answer_type_lexemes(query.asks_for)
    asked = [lexeme for lexeme in lexemes if lexeme not in kind_words] or lexemes
    return Candidates(hits=hits, lexemes=asked, query_vector=query_vector, timings_ms=timings)


def load_hits(chunk_ids: list[int]) -> list[Hit]:
    """Chunk rows with their document's citation fields, in one query."""
    if not chunk_ids:
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.id, c.document_id, c.collection_id, c.order, c.text, c.heading_text, c.anchor, c.page, "
            "c.search_vector::text, d.source, d.title, k.name, d.updated_at, c.identifiers, c.sections "
            "FROM knowledge_chunk c JOIN knowledge_document d ON d.id = c.document_id "
            "JOIN knowledge_collection k ON k.id = c.collection_id WHERE c.id = ANY(%s)",
            [chunk_ids],
        )
        rows = cursor.fetchall()
    # A raw cursor reads jsonb as its text (Django's psycopg set-up leaves decoding to the field).
    return [Hit(*row[:13], identifiers=list(row[13] or []),
                sections=json.loads(row[14]) if isinstance(row[14], str) else list(row[14] or [])) for row in rows]


def chunk_texts_at(places: list[tuple[int, int]]) -> dict[tuple[int, int], str]:
    """The text of the chunk at each (document id, order), where there is one, in one query."""
    if not places:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.document_id, c.order, c.text FROM knowledge_chunk c "
            "JOIN unnest(%s::bigint[], %s::int[]) AS p(document_id, ord) "
            "ON c.document_id = p.document_id AND c.order = p.ord",
            [[d for d, _ in places], [o for _, o in places]],
        )
        return {(d, o): text for d, o, text in cursor.fetchall()}


def _fill_missing_dense(hits: list[Hit], query_vector: np.ndarray) -> None:
    """Exact cosine for candidates the dense retriever did not return (found lexically only)."""
    missing = [hit.chunk_id for hit in hits if "dense" not in hit.ranks]
    if not missing:
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT id, 1 - (embedding <=> %s::vector) FROM knowledge_chunk WHERE id = ANY(%s)",
                       [_vector_literal(query_vector), missing])
        similarity = dict(cursor.fetchall())
    for hit in hits:
        if hit.chunk_id in similarity:
            hit.dense = float(similarity[hit.chunk_id] or 0.0)


MAX_LEXICAL_TERMS = 6


def _informative(lexemes: list[str], collection_ids: list[int]) -> list[str]:
    """The rarest query lexemes (at most MAX_LEXICAL_TERMS), without those so common that they select a
    large part of the index: those add little evidence and make the OR query rank thousands of rows."""
    unique = list(dict.fromkeys(lexemes))
    stats = term_stats(collection_ids)
    if stats.total < 200:
        return unique
    cutoff = max(50, int(stats.total * 0.05))
    kept = [lexeme for lexeme in unique if stats.df.get(lexeme, 0) <= cutoff]
    if not kept:
        kept = sorted(unique, key=lambda lexeme: stats.df.get(lexeme, 0))[:2]
    return sorted(kept, key=lambda lexeme: stats.df.get(lexeme, 0))[:MAX_LEXICAL_TERMS]


def _vector_literal(vector: np.ndarray) -> str:
    return "[" + ",".join(f"{x:.6f}" for x in np.asarray(vector, dtype=np.float32).tolist()) + "]"
