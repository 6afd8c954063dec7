"""Reranking behind a seam. The default needs no model: BM25 and idf-weighted term coverage computed
from the chunks' own tsvectors (so stemming matches PostgreSQL's), blended with the dense cosine and with
what each hit's document holds among the candidates."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Protocol

from knowledge import fitted
from knowledge.scoring import probability
from knowledge.lexicon import TermStats, parse_tsvector
from knowledge.retrieval import Hit

BM25_K1 = 1.2
BM25_B = 0.75


@lru_cache(maxsize=8192)
def _counts(search_vector: str) -> MappingProxyType:
    """A chunk's parsed tsvector, read-only and parsed once: the own and the document features both read it,
    and the same chunks come back for question after question."""
    return MappingProxyType(parse_tsvector(search_vector))


class Reranker(Protocol):
    """Orders candidate hits for a question and sets `hit.score` in 0..1."""

    name: str

    def rerank(self, question: str, lexemes: list[str], hits: list[Hit], stats: TermStats) -> list[Hit]: ...


@dataclass
class LexicalFeatures:
    """Per-hit lexical evidence."""

    coverage: float
    bm25: float
    heading: float


def lexical_features(lexemes: list[str], hit: Hit, stats: TermStats) -> LexicalFeatures:
    """idf-weighted coverage of the query's lexemes, a normalised BM25, and heading coverage."""
    terms = list(dict.fromkeys(lexemes))
    if not terms:
        return LexicalFeatures(0.0, 0.0, 0.0)
    counts = _counts(hit.search_vector)
    length = sum(count for count, _ in counts.values()) or 1
    idf = {term: stats.idf(term) for term in terms}
    total_idf = sum(idf.values()) or 1.0
    covered = heading = bm25 = 0.0
    for term in terms:
        count, in_heading = counts.get(term, (0, 0))
        if not count:
            continue
        covered += idf[term]
        heading += idf[term] if in_heading else 0.0
        tf = count + in_heading  # a term in the heading counts twice
        bm25 += idf[term] * tf * (BM25_K1 + 1) / (tf + BM25_K1 * (1 - BM25_B + BM25_B * length / stats.avg_length))
    return LexicalFeatures(covered / total_idf, bm25 / (total_idf * (BM25_K1 + 1)), heading / total_idf)


def rerank_features(lexemes: list[str], hit: Hit, stats: TermStats) -> dict[str, float]:
    """What the model-free reranker weighs: lexical coverage, BM25, heading match, dense cosine,
    exact identifiers, and the hit's rank in the lexical and dense lists."""
    features = lexical_features(lexemes, hit, stats)
    return {
        "coverage": features.coverage,
        "bm25": min(1.0, features.bm25 * 2),
        "heading": features.heading,
        "dense": _dense_scaled(hit.dense),
        "identifier": 1.0 if hit.identifier_matches else 0.0,
        "lexical_rank": 1.0 / hit.ranks["lexical"] if "lexical" in hit.ranks else 0.0,
        "dense_rank": 1.0 / hit.ranks["dense"] if "dense" in hit.ranks else 0.0,
    }


def pool_features(lexemes: list[str], hits: list[Hit], stats: TermStats) -> list[dict[str, float]]:
    """What a hit's document says as a whole among the candidates: the idf-weighted share of the question's
    lexemes that the document's candidate chunks hold together, how many candidates it has (log share of the
    pool), its best dense cosine, and whether this hit is the document's best by cosine. A question whose
    words spread over several sections of one document is about that document, even where another
    document's single chunk matches a few of them better."""
    terms = list(dict.fromkeys(lexemes))
    idf = {term: stats.idf(term) for term in terms}
    total = sum(idf.values()) or 1.0
    by_document: dict[int, list[Hit]] = {}
    for hit in hits:
        by_document.setdefault(hit.document_id, []).append(hit)
    summary: dict[int, tuple[float, float, float]] = {}
    for document, members in by_document.items():
        held = set().union(*(_counts(h.search_vector) for h in members))
        summary[document] = (sum(idf[t] for t in terms if t in held) / total,
                             math.log1p(len(members)) / math.log1p(len(hits)),
                             max(h.dense for h in members))
    out = []
    for hit in hits:
        coverage, count, best_dense = summary[hit.document_id]
        out.append({"doc_coverage": coverage, "doc_count": count, "doc_dense_max": _dense_scaled(best_dense),
                    "doc_best_dense": 1.0 if hit.dense >= best_dense else 0.0})
    return out


def all_features(lexemes: list[str], hits: list[Hit], stats: TermStats) -> list[dict[str, float]]:
    """Each hit's own rerank features and its document's (`pool_features`), in the order of `hits`."""
    return [{**rerank_features(lexemes, hit, stats), **pooled}
            for hit, pooled in zip(hits, pool_features(lexemes, hits, stats))]


class LexicalReranker:
    """The offline default: a logistic blend of lexical coverage, BM25, dense cosine and exact identifiers,
    with weights fitted on the dev split (knowledge/fitted.py)."""

    name = "lexical"

    def rerank(self, question: str, lexemes: list[str], hits: list[Hit], stats: TermStats) -> list[Hit]:
        for hit, features in zip(hits, all_features(lexemes, hits, stats)):
            hit.features.update(features)
            hit.score = probability(fitted.RERANK, hit.features)
        return sorted(hits, key=lambda h: h.score, reverse=True)


class ProviderReranker:
    """A hosted or local model reranker (Cohere Rerank, a cross-encoder), blended with lexical evidence."""

    def __init__(self, backend, name: str) -> None:
        self.backend = backend
        self.name = name

    def rerank(self, question: str, lexemes: list[str], hits: list[Hit], stats: TermStats) -> list[Hit]:
        ordered = LexicalReranker().rerank(question, lexemes, hits, stats)
        if not ordered:
            return ordered
        documents = [f"{hit.heading_text}\n{hit.text}" for hit in ordered]
        scores = dict(self.backend.rerank(question, documents, top_n=len(documents)))
        for index, hit in enumerate(ordered):
            model_score = float(scores.get(index, 0.0))
            hit.features["model"] = model_score
            hit.score = 0.6 * model_score + 0.4 * hit.score
        return sorted(ordered, key=lambda h: h.score, reverse=True)


def _dense_scaled(cosine: float) -> float:
    # MiniLM cosines for related passages sit roughly in 0.2–0.8; stretch that range to 0–1.
    return max(0.0, min(1.0, (cosine - 0.15) / 0.6))

