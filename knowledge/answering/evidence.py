"""Does the evidence contain the answer? Refusal thresholds and the confidence score.

The decision is a small logistic model over evidence features (weights fitted on
`fixtures/eval/questions.jsonl` with cross-validation; see `scripts/fit_refusal.py`), not a single
similarity threshold: a near miss (topic covered, asked-for fact absent) shows up as rare question
terms missing from the best passages, an asked-for number or date that the passages lack, or an
identifier no document mentions.
"""

from __future__ import annotations

import math
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

# Logistic weights over the features below; fitted by scripts/fit_refusal.py (l2=0.001; 5-fold CV accuracy 0.74 on 160 questions).
WEIGHTS = {
    "bias": -5.847,
    "top_score": 4.261,
    "coverage": 0.782,
    "answer_coverage": 2.268,
    "missing_idf": -0.782,
    # Positive: words found nowhere in the corpus are mostly colloquial ("kicking", "twins"), not
    # the specific fact a near miss asks for.
    "missing_unseen": 1.165,
    "missing_identifier": 0.393,
    "fact_missing": -1.394,
    "dense_top": 2.000,
}
REFUSE_BELOW = 0.5
WARN_BELOW = 0.65


@dataclass
class Evidence:
    """Signals that the answer (not only the topic) is present in the passages."""

    features: dict[str, float]
    missing_terms: list[str]
    missing_identifiers: list[str]
    strength: float = 0.0
    decision: str = "answer"
    reasons: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {
            "features": {k: round(v, 4) for k, v in self.features.items()},
            "missing_terms": self.missing_terms,
            "missing_identifiers": self.missing_identifiers,
            "strength": round(self.strength, 4),
            "decision": self.decision,
            "reasons": self.reasons,
        }


def features_for(query: QueryAnalysis, lexemes: list[str], passages: list[SourcePassage], stats: TermStats,
                 answer_units: list[str], answer_coverage: float) -> tuple[dict[str, float], list[str], list[str]]:
    """Evidence features in 0..1 (or small counts), plus the missing terms and identifiers."""
    terms = list(dict.fromkeys(lexemes))
    idf = {t: stats.idf(t) for t in terms}
    total = sum(idf.values()) or 1.0
    present: set[str] = set()
    for passage in passages[:3]:
        for hit in passage.hits:
            present.update(parse_tsvector(hit.search_vector))
    missing = [t for t in terms if t not in present]
    found_ids = {i for p in passages for h in p.hits for i in h.identifier_matches}
    missing_ids = [i for i in query.identifiers if i not in found_ids]
    joined = " ".join(answer_units)
    fact = True
    if "number" in query.asks_for:
        fact = bool(_DIGIT.search(joined))
    elif "date" in query.asks_for:
        fact = bool(_DIGIT.search(joined) or _DATE.search(joined))
    features = {
        "top_score": passages[0].score if passages else 0.0,
        "coverage": sum(idf[t] for t in terms if t in present) / total,
        "answer_coverage": answer_coverage,
        "missing_idf": sum(idf[t] for t in missing) / total,
        "missing_unseen": float(sum(1 for t in missing if stats.df.get(t, 0) == 0)),
        "missing_identifier": 1.0 if missing_ids else 0.0,  # also a hard rule in assess()
        "fact_missing": 0.0 if fact else 1.0,
        "dense_top": max((h.dense for p in passages[:3] for h in p.hits), default=0.0),
    }
    return features, missing, missing_ids


def assess(query: QueryAnalysis, lexemes: list[str], passages: list[SourcePassage], stats: TermStats,
           answer_units: list[str], answer_coverage: float) -> Evidence:
    """Combine the features into a strength in 0..1 and a decision: answer, warn or refuse."""
    features, missing, missing_ids = features_for(query, lexemes, passages, stats, answer_units, answer_coverage)
    z = WEIGHTS["bias"] + sum(WEIGHTS[name] * value for name, value in features.items() if name in WEIGHTS)
    strength = 1 / (1 + math.exp(-z))
    reasons = []
    if missing:
        reasons.append(f"not found in the best passages: {', '.join(missing)}")
    if missing_ids:
        reasons.append(f"no document mentions {', '.join(missing_ids)}")
    if features["fact_missing"]:
        reasons.append(f"the question asks for a {query.asks_for[0]} and the passages give none")
    if not passages:
        decision = "refuse"
        strength = 0.0
        reasons.append("nothing in the knowledge base matched")
    elif missing_ids and not any(p.first.identifier_matches for p in passages[:3]):
        # The question names a code (error, form, setting) that no document contains.
        decision = "refuse"
    elif strength < REFUSE_BELOW:
        decision = "refuse"
    elif strength < max(WARN_BELOW, settings.VERITY_ANSWER_MIN_CONFIDENCE):
        decision = "warn"
    else:
        decision = "answer"
    return Evidence(features, missing, missing_ids, strength, decision, reasons)


def confidence(evidence: Evidence, citation_coverage: float, verification_score: float | None) -> float:
    """0–1 from evidence strength, citation coverage and (when run) verification, calibrated so that
    it reads as a probability of being right: on the evaluation set the raw blend overstated it
    (raw 0.7–0.9 answers were right about half the time), hence the stretch below."""
    raw = 0.7 * evidence.strength + 0.1 * citation_coverage
    raw += 0.2 * (verification_score if verification_score is not None else 0.5)
    return round(max(0.0, min(1.0, 2.0 * (raw - 0.5))), 3)
