"""Does the evidence contain the answer? Refusal thresholds and the confidence score."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.conf import settings

from knowledge.answering.passages import SourcePassage
from knowledge.lexicon import TermStats, parse_tsvector
from knowledge.query import QueryAnalysis

_DIGIT = re.compile(r"\d")
_DATE = re.compile(r"\b(\d{4}-\d{2}-\d{2}|\d{1,2} (jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*|"
                   r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w* \d{1,2}|monday|tuesday|wednesday|"
                   r"thursday|friday|saturday|sunday|q[1-4]|\d{1,2}(st|nd|rd|th)|before|after|within|by)\b", re.I)

# Thresholds, tuned on fixtures/eval/questions.jsonl (see `manage.py evaluate`).
REFUSE_BELOW = 0.42
WARN_BELOW = 0.55


@dataclass
class Evidence:
    """Signals that the answer (not only the topic) is present in the passages."""

    top_score: float
    coverage: float
    answer_coverage: float
    missing_terms: list[str]
    missing_identifiers: list[str]
    fact_present: bool
    strength: float = 0.0
    decision: str = "answer"
    reasons: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {k: (round(v, 3) if isinstance(v, float) else v) for k, v in self.__dict__.items()}


def assess(query: QueryAnalysis, lexemes: list[str], passages: list[SourcePassage], stats: TermStats,
           answer_units: list[str], answer_coverage: float) -> Evidence:
    """Combine retrieval strength, term coverage, identifiers and the asked-for fact into a decision."""
    terms = list(dict.fromkeys(lexemes))
    idf = {t: stats.idf(t) for t in terms}
    total = sum(idf.values()) or 1.0
    present: set[str] = set()
    for passage in passages[:3]:
        for hit in passage.hits:
            present.update(parse_tsvector(hit.search_vector))
    coverage = sum(idf[t] for t in terms if t in present) / total
    # A rare term of the question that no top passage contains is the mark of a near miss.
    rare_cut = max(idf.values(), default=0) * 0.6
    missing = [t for t in terms if t not in present and idf[t] >= rare_cut and idf[t] > 2.0]
    found_ids = {i for p in passages for h in p.hits for i in h.identifier_matches}
    missing_ids = [i for i in query.identifiers if i not in found_ids]
    joined = " ".join(answer_units)
    fact = True
    if "number" in query.asks_for:
        fact = bool(_DIGIT.search(joined))
    elif "date" in query.asks_for:
        fact = bool(_DIGIT.search(joined) or _DATE.search(joined))
    top = passages[0].score if passages else 0.0
    strength = 0.35 * top + 0.25 * coverage + 0.40 * answer_coverage
    reasons = []
    if missing:
        strength -= 0.12 * min(2, len(missing))
        reasons.append(f"not found in the best passages: {', '.join(missing)}")
    if missing_ids:
        strength -= 0.4
        reasons.append(f"no document mentions {', '.join(missing_ids)}")
    if not fact:
        strength -= 0.12
        reasons.append(f"the question asks for a {query.asks_for[0]} and the passages give none")
    strength = max(0.0, min(1.0, strength))
    if not passages:
        decision = "refuse"
        reasons.append("nothing in the knowledge base matched")
    elif strength < REFUSE_BELOW:
        decision = "refuse"
    elif strength < max(WARN_BELOW, settings.VERITY_ANSWER_MIN_CONFIDENCE):
        decision = "warn"
    else:
        decision = "answer"
    return Evidence(top, coverage, answer_coverage, missing, missing_ids, fact, strength, decision, reasons)


def confidence(evidence: Evidence, citation_coverage: float, verification_score: float | None) -> float:
    """0–1 from retrieval strength, citation coverage and (when run) verification."""
    value = 0.7 * evidence.strength + 0.1 * citation_coverage
    value += 0.2 * (verification_score if verification_score is not None else 0.5)
    return round(max(0.0, min(1.0, value)), 3)
