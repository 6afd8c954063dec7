"""Evaluation of the question path: retrieval recall@k and MRR, refusals, hint containment, latency.

Pure functions over plain dicts so any scorer can recompute the metrics from `evaluate --json`.
"""

from __future__ import annotations

import statistics


def _matches(expected: str, retrieved: str) -> bool:
    """'a.md' matches any section of a.md; 'a.md#frag' matches that section only."""
    if "#" in expected:
        return retrieved == expected
    return retrieved.split("#", 1)[0] == expected


def _dedupe(ranked: list[str]) -> list[str]:
    return list(dict.fromkeys(ranked))


def recall_at_k(expected: list[str], ranked: list[str], k: int) -> float:
    """Fraction of the expected sources found in the top k."""
    top = _dedupe(ranked)[:k]
    return sum(any(_matches(e, r) for r in top) for e in expected) / len(expected)


def reciprocal_rank(expected: list[str], ranked: list[str]) -> float:
    """1 / rank of the first relevant source (0 when none)."""
    for rank, item in enumerate(_dedupe(ranked), start=1):
        if any(_matches(e, item) for e in expected):
            return 1.0 / rank
    return 0.0


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def score(items: list[dict], outcomes: list[dict], k: int = 5) -> dict:
    """Metrics from the input lines and, per line, {refused, answer, citations, retrieved, latency_ms}."""
    answerable = [(i, o) for i, o in zip(items, outcomes) if i.get("answerable")]
    unanswerable = [(i, o) for i, o in zip(items, outcomes) if not i.get("answerable")]
    with_sources = [(i, o) for i, o in answerable if i.get("expected_sources")]
    refused = [(i, o) for i, o in zip(items, outcomes) if o["refused"]]
    hinted = [(i, o) for i, o in answerable if i.get("answer_hint")]
    answered = [o for o in outcomes if not o["refused"]]
    valid_citations = sum(
        1 for o in answered
        if o["citations"] and all(c.get("chunk_id") and c.get("source") for c in o["citations"])
    )
    latencies = [o["latency_ms"] for o in outcomes]
    correct_refusals = sum(1 for i, _ in refused if not i.get("answerable"))
    correct_answers = sum(1 for _, o in answerable if not o["refused"])
    return {
        "question_count": len(items),
        "answerable": len(answerable),
        "unanswerable": len(unanswerable),
        f"recall@{k}": round(statistics.fmean(recall_at_k(i["expected_sources"], o["retrieved"], k)
                                              for i, o in with_sources), 4) if with_sources else 0.0,
        "mrr": round(statistics.fmean(reciprocal_rank(i["expected_sources"], o["retrieved"])
                                      for i, o in with_sources), 4) if with_sources else 0.0,
        "refusal_precision": round(correct_refusals / len(refused), 4) if refused else 1.0,
        "refusal_recall": round(correct_refusals / len(unanswerable), 4) if unanswerable else 1.0,
        "answer_rate_answerable": round(correct_answers / len(answerable), 4) if answerable else 0.0,
        "refusal_accuracy": round((correct_refusals + correct_answers) / len(items), 4) if items else 0.0,
        "hint_containment": round(sum(1 for i, o in hinted if not o["refused"] and i["answer_hint"].lower()
                                      in o["answer"].lower()) / len(hinted), 4) if hinted else 0.0,
        "citation_validity": round(valid_citations / len(answered), 4) if answered else 1.0,
        "latency_p50_ms": round(_percentile(latencies, 0.5), 1),
        "latency_p95_ms": round(_percentile(latencies, 0.95), 1),
    }
