"""The offline generator: an answer built only from the best supporting units of the passages.

This module scores the units of the passages; `compose` puts the answer together from the best ones.
It never writes a word that is not in the sources, apart from the [n] markers, a definition's
term put back in front of its sentence, and a table row's column headers placed before its values.
"""

from __future__ import annotations

import dataclasses
import re
import textwrap
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
from django.db import connection

from knowledge import fitted
from knowledge.answering.passages import SHORT_LEAD_WORDS, SourcePassage
from knowledge.answering.units import Unit, units_of, windows
from knowledge.lexicon import TermStats, parse_tsvector
from knowledge.scoring import logit, probability
from textcore.identifiers import code_terms

_DIGIT = re.compile(r"\d")
_DEFAULT = re.compile(r"\bdefault", re.I)
# A key or key combination to press ("Ctrl-click", "Shift+Tab", "press Enter"): an instruction's action.
_KEYS = re.compile(r"\b(?:ctrl|alt|shift|cmd|meta|super|esc|enter|tab|press)\b", re.I)
_PRONOUN_START = re.compile(r"^(?:this|it|these|they|that|those|its|their|such)\b", re.I)


@dataclass
class Candidate:
    """A unit that could go into the answer, with its score."""

    passage: SourcePassage
    unit: Unit
    score: float = 0.0
    coverage: float = 0.0
    features: dict = field(default_factory=dict)
    # For a table row: the question's terms its first cell holds, with their idf (read by compose).
    row_key: dict = field(default_factory=dict)

    @property
    def text(self) -> str:
        return self.unit.text

    @property
    def position(self) -> int:
        return self.unit.position


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


def candidates_of(passages: list[SourcePassage]) -> list[Candidate]:
    """Every unit of every passage, and every window of two adjacent units; headings echoed as text
    left out."""
    out = []
    for passage in passages:
        section = passage.first.heading_text.split(" > ")[-1].strip()
        units = [u for u in units_of(passage.text, section) if not _is_heading_echo(u.text, passage)]
        out.extend(Candidate(passage, unit) for unit in units + windows(units))
    return out


def unit_features(candidate: Candidate, present: dict, terms: list[str], idf: dict[str, float],
                  asks_for: list[str], wanted_ids: list[str]) -> dict[str, float]:
    """What the unit scorer weighs (weights fitted on the dev split: knowledge/fitted.py UNIT)."""
    total = sum(idf.values()) or 1.0
    unit, passage = candidate.unit, candidate.passage
    heading = passage.first.heading_text.lower()
    covered = sum(idf[t] for t in terms if t in present)
    in_heading = [t for t in terms if t not in present and t[:5] in heading]
    focus = [t for t in terms if t[:5] not in heading]
    focus_total = sum(idf[t] for t in focus) or 1.0
    term = unit.term.lower()
    text = candidate.text
    lowered = text.lower()
    words = len(text.split())
    named = bool(code_terms(text, kinds=("code", "option")))
    return {
        "coverage": covered / total,
        "heading_coverage": sum(idf[t] for t in in_heading) / total,
        "focus_coverage": sum(idf[t] for t in focus if t in present) / focus_total if focus else 0.0,
        "term_coverage": sum(idf[t] for t in terms if term and t[:5] in term) / total,
        "passage_score": passage.score,
        "passage_top": 1.0 if passage.n == 1 else 0.0,
        "first_in_section": 1.0 if unit.position == 0 else 0.0,
        "position": min(unit.position, 10) / 10,
        "number_match": 1.0 if ("number" in asks_for or "date" in asks_for) and _DIGIT.search(text) else 0.0,
        "default_match": 1.0 if ("default" in asks_for or "unset" in asks_for) and _DEFAULT.search(text) else 0.0,
        "identifier_match": 1.0 if any(names_identifier(lowered, heading, i) for i in wanted_ids) else 0.0,
        "name_match": 1.0 if "name" in asks_for and named else 0.0,
        "names_code": 1.0 if named else 0.0,
        # How-to answers are actions: an option to pass, a setting to write, a key to press.
        "howto_action": 1.0 if "procedure" in asks_for and (named or _KEYS.search(text)) else 0.0,
        "quotable": 1.0 if unit.quotable else 0.0,
        "code": 1.0 if unit.kind == "code" else 0.0,
        "item": 1.0 if unit.kind == "item" else 0.0,
        "row": 1.0 if unit.kind == "row" else 0.0,
        "lead": 1.0 if unit.kind == "lead" else 0.0,
        "window": 1.0 if unit.kind == "window" else 0.0,
        "howto_code": 1.0 if unit.kind == "code" and "procedure" in asks_for else 0.0,
        "length": min(words, 60) / 60,
        "pronoun_start": 1.0 if _PRONOUN_START.match(text) else 0.0,
    }


def names_identifier(lowered: str, heading: str, identifier: str) -> bool:
    """A unit's text or its section heading (both lower-cased) names the identifier, as a whole: "-p" is not
    named by "--package", nor "session_cookie" by "session_cookie_name"."""
    pattern = _identifier_pattern(identifier)
    return bool(pattern.search(lowered) or pattern.search(heading))


@lru_cache(maxsize=1024)
def _identifier_pattern(identifier: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w-])" + re.escape(identifier) + r"(?![\w-])")


def row_key_terms(row: str, terms: list[str]) -> frozenset[str]:
    """The question's terms in a table row's first cell, which names what the row is about ("Rating: 4",
    "Plan: Northwind PPO 1500"; "Header: value; …" -> value)."""
    first = row.split("; ", 1)[0]
    value = first.split(": ", 1)[1] if ": " in first else first
    words = re.findall(r"[a-z0-9]+", value.lower())
    return frozenset(t for t in terms if any(w == t or (len(t) >= 4 and w.startswith(t[:5])) for w in words))


def score_candidates(question_lexemes: list[str], passages: list[SourcePassage], stats: TermStats,
                     asks_for: list[str], identifiers: list[str] | None = None, embed=None,
                     query_vector=None) -> list[Candidate]:
    """Every unit of every passage with its features and its probability of holding the answer: a
    lexical model ranks them all, then the best DENSE_TOP are embedded and ranked again with their
    cosine to the question (paraphrases share meaning, not words)."""
    candidates = candidates_of(passages)
    terms = list(dict.fromkeys(question_lexemes))
    idf = {t: stats.idf(t) for t in terms}
    lexemes = _lexeme_sets([c.text for c in candidates])
    wanted_ids = [i.lower() for i in identifiers or []]
    for candidate, present in zip(candidates, lexemes):
        candidate.features = unit_features(candidate, present, terms, idf, asks_for, wanted_ids)
        candidate.coverage = candidate.features["coverage"]
        if candidate.unit.kind == "row":
            candidate.row_key = {t: idf[t] for t in row_key_terms(candidate.text, terms)}
    # How a unit compares with the best of this question's units: a unit is chosen against the others,
    # and what is a high coverage for one question is a low one for another.
    for name in ("coverage", "focus_coverage"):
        best = max((c.features[name] for c in candidates), default=0.0) or 1.0
        for candidate in candidates:
            candidate.features[f"{name}_rel"] = candidate.features[name] / best
    for candidate in candidates:
        candidate.score = probability(fitted.UNIT, candidate.features)
    if embed is not None and query_vector is not None and candidates:
        rescore_densely(candidates, embed, query_vector)
    return candidates


# Embedding a unit costs 3-20 ms on two cores (more for long ones): on the 481 dev questions, 8 units
# instead of 16 cut answer p50 from 228 to 133 ms (p95 545 -> 281 ms), one answerable question fewer
# answered and one unanswerable more refused, the asked fact in one answer fewer.
DENSE_TOP = 8
# Units outside the embedded top keep their lexical score scaled down, so that they rank below it.
_UNEMBEDDED = 0.5
# At most _DENSE_EXTRA more units are embedded: those that hold at least _WORDS_ALL of the best unit's share of
# the question's words.
_DENSE_EXTRA = 2
_WORDS_ALL = 0.9


def rescore_densely(candidates: list[Candidate], embed, query_vector) -> None:
    """Embed the DENSE_TOP best units and score them with the UNIT_DENSE model."""
    ranked = sorted(candidates, key=lambda c: c.score, reverse=True)
    # A unit below the top that holds nearly as many of the question's words as the best one is read too: a
    # later passage's sentence ("Context locals are implemented using …") loses to the top passage's by position.
    top = ranked[:DENSE_TOP] + [c for c in ranked[DENSE_TOP:] if c.features.get("coverage_rel", 0.0) >= _WORDS_ALL
                                and c.unit.kind != "window"][:_DENSE_EXTRA]
    embedded = {id(c) for c in top}
    rest = [c for c in ranked if id(c) not in embedded]
    vectors = embed([textwrap.dedent(c.text) for c in top], kind="document")
    cosines = [float(np.dot(vector, query_vector)) for vector in vectors]
    for candidate, cosine in zip(top, cosines):
        candidate.features["unit_dense"] = cosine
        candidate.features["dense_gap"] = max(cosines) - cosine
        candidate.features["lexical_logit"] = logit(fitted.UNIT, candidate.features)
        candidate.score = probability(fitted.UNIT_DENSE, candidate.features)
    for candidate in rest:
        candidate.score *= _UNEMBEDDED


# How far before a code block its introduction may stand (a file name may come between).
_INTRODUCED_FROM = 2


def _names(candidate: Candidate, identifier: str) -> bool:
    """The unit or its section heading names the identifier (lower-cased), as `identifier_match` reads it."""
    heading = candidate.passage.first.heading_text.lower() if candidate.passage.hits else ""
    return names_identifier(candidate.text.lower(), heading, identifier)


def about_identifiers(scored: list, strict_ids: list[str], stats: TermStats | None = None) -> list:
    """When the question names a code or an option (E4012, --soft), only units about it may answer: the
    text of its own section, a unit naming it, or the units that read on from such a unit in the same passage
    (the example or the consequence that follows the sentence naming it), never an overview that merely ranks
    higher. Of several identifiers ("define what in conf.py to use sphinx.ext.linkcode?") the rarest one the
    units name is what the question is about: a file every section names ("conf.py") is only where."""
    if not strict_ids:
        return scored
    naming = [c for c in scored if c.features.get("identifier_match")]
    if not naming:
        return scored
    if stats is not None and len(strict_ids) > 1:
        for identifier in sorted((i.lower() for i in strict_ids), key=lambda i: -stats.idf(i)):
            rarest = [c for c in naming if _names(c, identifier)]
            if rarest:
                naming = rarest
                break
    # The answer may read on past the first unit naming it to the end of its passage: the lead-in after it and
    # what that introduces ("... disable the standalone mode. So you can do something like this: <code>"), and
    # what the passage goes on to say of it without naming it again ("The debugger may be started by multiple
    # processes ..., starting from the base port (6900 by default)"). On the 739 answerable dev questions the
    # answers held the hint 498 times reading on at most 2 units, 499 with 3, 502 with 5, 504 with 8 and with
    # the rest of the passage (the unanswerable refused the same 0.860 each time).
    named_from: dict[int, int] = {}
    for c in naming:
        at = max(unit_positions(c))
        named_from[c.passage.n] = min(named_from.get(c.passage.n, at), at)
    # A code block naming it comes with the sentence that introduces it ("Use app_context() in a with block.").
    intros = {id(i) for c in naming if c.unit.kind == "code" for i in [introduction(c, scored)] if i is not None}
    kept = {id(c) for c in naming} | intros
    about = [c for c in scored if id(c) in kept
             or (c.passage.n in named_from and min(unit_positions(c)) > named_from[c.passage.n])]
    # Named only where no sentence can be quoted (an example's arguments: "invoke(log, args=['-vvv'])"), it says
    # nothing the answer could use: every unit may answer, as when nothing names it.
    return about if any(c.unit.quotable for c in about) else scored


def introduction(code: Candidate, candidates: list[Candidate]) -> Candidate | None:
    """The sentence right before a code block, which says what the code does; a stray fragment between
    them (a file name left as a line of its own) is passed over."""
    before = sorted((c for c in candidates if c.passage.n == code.passage.n and c.unit.kind != "window"
                     and code.position - _INTRODUCED_FROM <= c.position < code.position), key=lambda c: -c.position)
    for candidate in before:
        if candidate.unit.kind == "lead" or (candidate.unit.kind in ("sentence", "item") and candidate.unit.quotable):
            return candidate
        if candidate.unit.kind not in ("sentence", "item"):
            break
    return None


def label_of(code: Candidate, candidates: list[Candidate]) -> Candidate | None:
    """The short line right over a code block no sentence introduces ("Synopsis", "Homebrew"), as its lead-in."""
    before = next((c for c in candidates if c.passage.n == code.passage.n and c.unit.kind == "sentence"
                   and c.position == code.position - 1), None)
    if before is None or len(before.text.split()) > SHORT_LEAD_WORDS or before.text.strip()[-1:] in ".!?:;,":
        return None
    unit = dataclasses.replace(before.unit, text=f"{before.text.strip()}:", kind="lead", quotable=False)
    return dataclasses.replace(before, unit=unit)


def nearly_as_good(candidate: Candidate, best: Candidate) -> bool:
    """A unit scores at least the fitted share of the best one's score (a smaller share from the same passage)."""
    share = fitted.COMPOSE["same_passage" if candidate.passage.n == best.passage.n else "other_passage"]
    return candidate.score >= share * best.score


def overlaps(a: Candidate, b: Candidate) -> bool:
    return a.passage.n == b.passage.n and bool(unit_positions(a) & unit_positions(b))


def unit_positions(candidate: Candidate) -> set[int]:
    """The passage positions a candidate covers (a window covers its two units')."""
    return {part.position for part in candidate.unit.parts} or {candidate.unit.position}
