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


def _is_heading_echo(text: str, passage: SourcePassage) -> bool:
    """A unit that only repeats a heading ("Pay and payslips > When is payday?") answers nothing."""
    bare = text.strip().rstrip("?:.").lower()
    headings = {h.strip().lower() for hit in passage.hits for h in hit.heading_text.split(" > ")}
    return bare in headings or (" > " in text and len(text) < 120) or (text.endswith("?") and len(text) < 90)


def score_candidates(question_lexemes: list[str], passages: list[SourcePassage], stats: TermStats,
                     asks_for: list[str], embed=None, query_vector: np.ndarray | None = None,
                     identifiers: list[str] | None = None) -> list[Candidate]:
    """Every unit of every passage, scored by idf-weighted coverage of the question, the passage's own
    rerank score, and whether it holds the kind of fact asked for (plus cosine when embed is given)."""
    candidates = [Candidate(p, i, text) for p in passages for i, text in enumerate(units_of(p))
                  if not _is_heading_echo(text, p)]
    terms = list(dict.fromkeys(question_lexemes))
    idf = {t: stats.idf(t) for t in terms}
    total = sum(idf.values()) or 1.0
    lexemes = _lexeme_sets([c.text for c in candidates])
    wanted_ids = [i.lower() for i in identifiers or []]
    for candidate, present in zip(candidates, lexemes):
        heading = candidate.passage.first.heading_text.lower()
        covered = sum(idf[t] for t in terms if t in present)
        in_heading = sum(idf[t] for t in terms if t not in present and t[:5] in heading)
        candidate.coverage = (covered + 0.6 * in_heading) / total
        fact = 0.0
        if "number" in asks_for and _NUMBER.search(candidate.text):
            fact = 0.12
        elif "date" in asks_for and _NUMBER.search(candidate.text):
            fact = 0.08
        lowered = candidate.text.lower()
        named = 0.15 if wanted_ids and any(i in lowered or i in heading for i in wanted_ids) else 0.0
        first_in_section = 0.05 if candidate.position == 0 else 0.0
        candidate.score = (0.55 * candidate.coverage + 0.35 * candidate.passage.score + fact + named
                           + first_in_section - 0.01 * min(candidate.position, 10))
    if embed is not None and query_vector is not None and candidates:
        top = sorted(candidates, key=lambda c: c.score, reverse=True)[:12]
        vectors = embed([c.text for c in top], kind="document")
        for candidate, vector in zip(top, vectors):
            candidate.score += 0.35 * float(np.dot(vector, query_vector))
    return candidates


MAX_STEPS = 6


def _steps(best: Candidate, candidates: list[Candidate]) -> list[Candidate]:
    """For a how-to question: the best passage's units in order, from the start of its steps."""
    same = sorted((c for c in candidates if c.passage.n == best.passage.n), key=lambda c: c.position)
    start = max(0, min(best.position, 1) if best.position <= 2 else best.position - 1)
    picked, length = [], 0
    for candidate in same:
        if candidate.position < start:
            continue
        if len(picked) >= MAX_STEPS or length > 900:
            break
        picked.append(candidate)
        length += len(candidate.text)
    return picked or [best]


def compose(candidates: list[Candidate], asks_for: list[str] | None = None) -> tuple[str, list[Candidate]]:
    """The best unit, then up to two more that are nearly as good, in reading order, each with its [n];
    for a how-to question, the steps of the best passage in order."""
    if not candidates:
        return "", []
    ranked = sorted(candidates, key=lambda c: c.score, reverse=True)
    best = ranked[0]
    if asks_for and "procedure" in asks_for and len(asks_for) == 1:
        steps = _steps(best, candidates)
        if len(steps) > 1:
            body = " ".join(_with_marker(c) for c in steps[:-1])
            return f"{body} {_with_marker(steps[-1])}".strip(), steps
    chosen = [best]
    for candidate in ranked[1:]:
        if len(chosen) >= MAX_SENTENCES:
            break
        same_passage = candidate.passage.n == best.passage.n
        if candidate.score < (0.8 if same_passage else 0.9) * best.score or candidate.coverage < 0.3:
            continue
        if any(_near_duplicate(candidate.text, c.text) for c in chosen):
            continue
        chosen.append(candidate)
    chosen.sort(key=lambda c: (c.passage.n != best.passage.n, c.passage.n, c.position))
    return " ".join(_with_marker(c) for c in chosen), chosen


def _with_marker(candidate: Candidate) -> str:
    text = candidate.text.rstrip()
    end = text[-1] if text[-1] in ".!?" else "."
    body = text[:-1] if text[-1] in ".!?" else text
    return f"{body} [{candidate.passage.n}]{end}"


def _near_duplicate(a: str, b: str) -> bool:
    wa, wb = set(a.lower().split()), set(b.lower().split())
    return bool(wa and wb) and len(wa & wb) / min(len(wa), len(wb)) > 0.8
