"""The offline generator: an answer built only from the best supporting sentences of the passages.

It never writes a word that is not in the sources, apart from the [n] markers and, for a table
row, the column headers placed before their values.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
from django.db import connection

from knowledge.answering.passages import SourcePassage
from knowledge.chunking import split_sentences
from knowledge.lexicon import TermStats, parse_tsvector

MAX_SENTENCES = 3
_TABLE_SEPARATOR = re.compile(r"^\|?\s*:?-{2,}")
_NUMBER = re.compile(r"\d")


@dataclass
class Candidate:
    """A sentence (or table row) that could go into the answer."""

    passage: SourcePassage
    position: int
    text: str
    score: float = 0.0
    coverage: float = 0.0


def units_of(passage: SourcePassage) -> list[str]:
    """Sentences, list items and table rows (rendered with their headers) of a passage."""
    units: list[str] = []
    header: list[str] | None = None
    for line in passage.text.splitlines():
        stripped = line.strip()
        if not stripped:
            header = None
            continue
        if stripped.startswith("|"):
            cells = [c.strip() for c in stripped.strip("|").split("|")]
            if _TABLE_SEPARATOR.match(stripped):
                continue
            if header is None:
                header = cells
                continue
            pairs = [f"{h}: {v}" for h, v in zip(header, cells) if v]
            units.append("; ".join(pairs) if pairs else stripped)
            continue
        header = None
        stripped = re.sub(r"^(?:[-*+•]|\d{1,3}[.)])\s+", "", stripped)
        units.extend(s.strip() for s in split_sentences(stripped) if len(s.strip()) > 2)
    return units


def _lexeme_sets(texts: list[str]) -> list[dict[str, tuple[int, int]]]:
    if not texts:
        return []
    with connection.cursor() as cursor:
        cursor.execute("SELECT to_tsvector('english', t)::text FROM unnest(%s::text[]) WITH ORDINALITY AS u(t, i) "
                       "ORDER BY i", [texts])
        return [parse_tsvector(row[0]) for row in cursor.fetchall()]


def score_candidates(question_lexemes: list[str], passages: list[SourcePassage], stats: TermStats,
                     asks_for: list[str], embed=None, query_vector: np.ndarray | None = None) -> list[Candidate]:
    """Every unit of every passage, scored by idf-weighted coverage of the question (plus cosine when given)."""
    candidates = [Candidate(p, i, text) for p in passages for i, text in enumerate(units_of(p))]
    terms = list(dict.fromkeys(question_lexemes))
    idf = {t: stats.idf(t) for t in terms}
    total = sum(idf.values()) or 1.0
    lexemes = _lexeme_sets([c.text for c in candidates])
    for candidate, present in zip(candidates, lexemes):
        heading = candidate.passage.first.heading_text.lower()
        covered = sum(idf[t] for t in terms if t in present)
        in_heading = sum(idf[t] for t in terms if t not in present and t[:5] in heading)
        candidate.coverage = (covered + 0.5 * in_heading) / total
        fact_bonus = 0.1 if "number" in asks_for and _NUMBER.search(candidate.text) else 0.0
        rank_prior = 0.08 * (1.0 / candidate.passage.n)
        candidate.score = candidate.coverage + fact_bonus + rank_prior - 0.02 * candidate.position / 10
    if embed is not None and query_vector is not None and candidates:
        top = sorted(candidates, key=lambda c: c.score, reverse=True)[:12]
        vectors = embed([c.text for c in top], kind="document")
        for candidate, vector in zip(top, vectors):
            candidate.score += 0.35 * float(np.dot(vector, query_vector))
    return candidates


def compose(candidates: list[Candidate]) -> tuple[str, list[Candidate]]:
    """The best unit, then up to two more that are nearly as good, in reading order, each with its [n]."""
    if not candidates:
        return "", []
    ranked = sorted(candidates, key=lambda c: c.score, reverse=True)
    best = ranked[0]
    chosen = [best]
    for candidate in ranked[1:]:
        if len(chosen) >= MAX_SENTENCES:
            break
        if candidate.score < 0.75 * best.score or candidate.coverage < 0.3:
            continue
        if any(_near_duplicate(candidate.text, c.text) for c in chosen):
            continue
        chosen.append(candidate)
    chosen.sort(key=lambda c: (c.passage.n != best.passage.n, c.passage.n, c.position))
    parts = []
    for candidate in chosen:
        text = candidate.text.rstrip()
        end = text[-1] if text[-1] in ".!?" else "."
        body = text[:-1] if text[-1] in ".!?" else text
        parts.append(f"{body} [{candidate.passage.n}]{end}")
    return " ".join(parts), chosen


def _near_duplicate(a: str, b: str) -> bool:
    wa, wb = set(a.lower().split()), set(b.lower().split())
    return bool(wa and wb) and len(wa & wb) / min(len(wa), len(wb)) > 0.8
