"""Evaluation of the question path: retrieval, refusals, whether answers hold the asked fact,
citations, confidence calibration, markup residue and latency.

Pure functions over plain dicts so any scorer can recompute the metrics from `evaluate --json`.
"""

from __future__ import annotations

import re
import statistics

CONFIDENCE_BINS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0001)

# Markup that must never reach an answer: reST roles and literals, permalink glyphs, Markdown
# emphasis/links/headings/table rules, HTML tags, directives.
_RESIDUE = [
    ("pilcrow", re.compile(r"¶")),
    ("rst_role", re.compile(r":[a-z]+(?::[a-z]+)?:`")),
    ("rst_literal", re.compile(r"(?<!`)``(?!`)\S")),
    ("rst_directive", re.compile(r"(?:^|\s)\.\. [a-z][\w-]*::")),
    ("md_emphasis", re.compile(r"\*\*\S[^*]*\*\*")),
    ("md_link", re.compile(r"\]\((?:https?://|/|\.{0,2}/)?[\w./#-]*\)")),
    ("md_heading", re.compile(r"(?:^|\n)#{1,6} ")),
    ("table_rule", re.compile(r"\|\s*:?-{3,}")),
    ("html_tag", re.compile(r"</?(?:a|p|div|span|code|em|strong|br|li|ul|ol|h[1-6]|table|td|tr|pre)\b[^>]*>")),
    # a generator's link label left in the text ("CoverageBuilder[source]", "[edit on GitHub]")
    ("link_label", re.compile(r"\[(?:source|docs|edit(?: on github)?|permalink|view source)\]", re.I)),
    # a control character a PDF font mapped a glyph to: invisible, the glyph lost
    ("control_char", re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")),
]


_FENCED = re.compile(r"```[^\n]*\n.*?\n```", re.S)
_INLINE_CODE = re.compile(r"`[^`\n]+`")


def markup_residue(text: str) -> list[str]:
    """Names of the markup kinds found in an answer's prose (fenced code blocks and `inline code` are
    quoted code, not residue; empty when clean)."""
    prose = _INLINE_CODE.sub(" ", _FENCED.sub(" ", text or ""))
    return [name for name, pattern in _RESIDUE if pattern.search(prose)]


def _base(source: str) -> str:
    return source.split("#", 1)[0]


def _matches(expected: str, retrieved: str, *, section: bool = True) -> bool:
    """'a.md' matches any section of a.md; 'a.md#frag' matches that section only (or, when section
    is False, any section of a.md). 'a.md#' (a section without an anchor of its own) is the document's
    whole text, as 'a.md' is."""
    if expected.partition("#")[2] and section:
        return retrieved == expected
    return _base(retrieved) == _base(expected)


def _dedupe(ranked: list[str | list[str]], *, section: bool = True) -> list[list[str]]:
    """Retrieved chunks as lists of the sources each holds (a chunk may hold short sections merged into it, its
    own source first), one per distinct own source (or file), in rank order."""
    out: dict[str, list[str]] = {}
    for item in ranked:
        sources = [item] if isinstance(item, str) else list(item)
        key = sources[0] if section else _base(sources[0])
        out.setdefault(key, []).extend(sources if section else [key])
    return list(out.values())


def recall_at_k(expected: list[str], ranked: list[str | list[str]], k: int, *, section: bool = True) -> float:
    """Fraction of the expected sources found in the top k (distinct sources, or files). An entry is a chunk's
    source, or the list of the sources of the sections it holds."""
    top = _dedupe(ranked, section=section)[:k]
    return sum(any(_matches(e, r, section=section) for sources in top for r in sources)
               for e in expected) / len(expected)


def reciprocal_rank(expected: list[str], ranked: list[str | list[str]]) -> float:
    """1 / rank of the first relevant source (0 when none)."""
    for rank, sources in enumerate(_dedupe(ranked), start=1):
        if any(_matches(e, item) for e in expected for item in sources):
            return 1.0 / rank
    return 0.0


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def folded(text: str | None) -> str:
    """Case and spacing folded, as hints are compared."""
    return " ".join((text or "").lower().split())


def fact_lost(items: list[dict], outcomes: list[dict]) -> dict[str, int]:
    """Answered answerable questions with a hint, by where the hint stands: in the answer; not in the
    answer but in a chunk it cites (another sentence of it was chosen); in one of the five best retrieved
    chunks it does not cite; nowhere there. Outcomes without the places (`fact_places`) are left out."""
    out = {"in_answer": 0, "cited_chunk_other_sentences": 0, "top5_chunk_not_cited": 0, "not_in_top5": 0}
    for item, outcome in zip(items, outcomes):
        if "fact_in_cited" not in outcome:
            continue
        if holds_fact(item, outcome):
            out["in_answer"] += 1
        elif outcome["fact_in_cited"]:
            out["cited_chunk_other_sentences"] += 1
        elif outcome["fact_in_top5"]:
            out["top5_chunk_not_cited"] += 1
        else:
            out["not_in_top5"] += 1
    return out


def holds_fact(item: dict, outcome: dict) -> bool:
    """An answerable question answered with its hint in the text (case and spacing folded)."""
    hint, answer = folded(item.get("answer_hint")), folded(outcome.get("answer"))
    return bool(item.get("answerable") and not outcome["refused"] and hint and hint in answer)


def reliability(items: list[dict], outcomes: list[dict]) -> tuple[list[dict], float]:
    """Confidence bins of answered questions with the share that held the asked fact, and the ECE."""
    answered = [(i, o) for i, o in zip(items, outcomes) if not o["refused"] and o.get("confidence") is not None]
    table, ece = [], 0.0
    for low, high in zip(CONFIDENCE_BINS, CONFIDENCE_BINS[1:]):
        rows = [(i, o) for i, o in answered if low <= o["confidence"] < high]
        if not rows:
            table.append({"bin": f"{low:.1f}-{min(high, 1.0):.1f}", "n": 0, "correct": None, "mean_confidence": None})
            continue
        correct = statistics.fmean(1.0 if holds_fact(i, o) else 0.0 for i, o in rows)
        mean_conf = statistics.fmean(o["confidence"] for _, o in rows)
        ece += len(rows) / len(answered) * abs(correct - mean_conf)
        table.append({"bin": f"{low:.1f}-{min(high, 1.0):.1f}", "n": len(rows), "correct": round(correct, 3),
                      "mean_confidence": round(mean_conf, 3)})
    return table, round(ece, 4)


def _share(part: int, whole: int, empty: float = 0.0) -> float:
    return round(part / whole, 4) if whole else empty


def score(items: list[dict], outcomes: list[dict], k: int = 5) -> dict:
    """Metrics from the input lines and, per line, {refused, answer, confidence, citations, retrieved,
    latency_ms}."""
    pairs = list(zip(items, outcomes))
    answerable = [(i, o) for i, o in pairs if i.get("answerable")]
    unanswerable = [(i, o) for i, o in pairs if not i.get("answerable")]
    near = [(i, o) for i, o in unanswerable if "near_miss" in (i.get("tags") or [])]
    with_sources = [(i, o) for i, o in answerable if i.get("expected_sources")]
    refused = [(i, o) for i, o in pairs if o["refused"]]
    hinted = [(i, o) for i, o in answerable if i.get("answer_hint")]
    answered_answerable = [(i, o) for i, o in with_sources if not o["refused"]]
    latencies = [o["latency_ms"] for o in outcomes]
    correct_refusals = sum(1 for i, _ in refused if not i.get("answerable"))
    correct_answers = sum(1 for _, o in answerable if not o["refused"])
    cited_expected = sum(
        1 for i, o in answered_answerable
        if o["citations"] and any(_matches(e, c.get("source", ""), section=False)
                                  for c in o["citations"] for e in i["expected_sources"]))
    high = [(i, o) for i, o in pairs if not o["refused"] and (o.get("confidence") or 0) >= 0.8]
    table, ece = reliability(items, outcomes)
    answered = [o for o in outcomes if not o["refused"]]
    return {
        "question_count": len(items),
        "answerable": len(answerable),
        "unanswerable": len(unanswerable),
        "near_misses": len(near),
        f"recall@{k}": round(statistics.fmean(recall_at_k(i["expected_sources"], o["retrieved"], k)
                                              for i, o in with_sources), 4) if with_sources else 0.0,
        f"file_recall@{k}": round(statistics.fmean(recall_at_k(i["expected_sources"], o["retrieved"], k,
                                                               section=False) for i, o in with_sources), 4)
        if with_sources else 0.0,
        "mrr": round(statistics.fmean(reciprocal_rank(i["expected_sources"], o["retrieved"])
                                      for i, o in with_sources), 4) if with_sources else 0.0,
        "answer_rate_answerable": _share(correct_answers, len(answerable)),
        "refusal_rate_unanswerable": _share(correct_refusals, len(unanswerable), 1.0),
        "refusal_rate_near_miss": _share(sum(1 for _, o in near if o["refused"]), len(near), 1.0),
        "refusal_precision": _share(correct_refusals, len(refused), 1.0),
        "refusal_recall": _share(correct_refusals, len(unanswerable), 1.0),
        "refusal_accuracy": _share(correct_refusals + correct_answers, len(items)),
        "hint_containment": _share(sum(1 for i, o in hinted if holds_fact(i, o)), len(hinted)),
        "citation_validity": _share(cited_expected, len(answered_answerable), 1.0),
        "high_confidence_correct": _share(sum(1 for i, o in high if holds_fact(i, o)), len(high), 1.0),
        "high_confidence_answers": len(high),
        "ece": ece,
        "markup_residue_answers": sum(1 for o in answered if markup_residue(o.get("answer", ""))),
        # Answers whose own first check failed a claim (the offline writer copies its sources: a false flag).
        "self_check_flagged_answers": sum(1 for o in answered if o.get("self_check_flags")),
        "fact_lost": fact_lost(items, outcomes),
        "reliability": table,
        "latency_p50_ms": round(_percentile(latencies, 0.5), 1),
        "latency_p95_ms": round(_percentile(latencies, 0.95), 1),
    }
