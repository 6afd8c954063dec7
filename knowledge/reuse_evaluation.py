"""Scoring answer reuse on a pair set: near-opposites must miss, paraphrases should hit.

A pair set is JSONL, one pair a line: `{"id", "kind", "stored", "asked", "reuse"}`. Every distinct `stored`
question gets a verified answer through the graph, then each `asked` question goes through the real cache
lookup (all levels). A near-opposite (`reuse: false`) served any answer is a false hit; a paraphrase
(`reuse: true`) counts as reused when it is served its own stored question's answer.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import numpy as np
from django.utils import timezone

from knowledge.answering import cache
from knowledge.answering.graph import record_question, understand
from knowledge.models import Answer, Collection
from knowledge.query import analyze


def load_pairs(path: str | Path) -> list[dict]:
    """The pairs of one split."""
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


def evaluate_pairs(pairs: list[dict], embedder, collection: Collection) -> dict:
    """Stores the pairs' questions as verified answers in `collection` (call inside a transaction you roll back)."""
    texts = sorted({p["stored"] for p in pairs} | {p["asked"] for p in pairs})
    queries = {t: analyze(t) for t in texts}
    vectors = dict(zip(texts, embedder.embed([queries[t].expanded for t in texts], kind="query")))
    asked = {t: understand(queries[t].normalized, queries[t].cache_key, vectors[t]) for t in texts}
    answers = {}
    for text in sorted({p["stored"] for p in pairs}):
        q = asked[text]
        answers[text] = Answer.objects.create(
            question_text=text, normalized_question=q.normalized, question_embedding=q.vector, text=f"About: {text}",
            confidence=0.9, status=Answer.Status.VERIFIED, reviewed_at=timezone.now(), collection_ids=[collection.pk])
        record_question(q, answers[text], origin=True, cache="miss")
    by_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    false_hits, reused, rows = 0, 0, []
    for pair in pairs:
        hit = cache.lookup(asked[pair["asked"]], [collection.pk])
        cosine = float(np.dot(vectors[pair["stored"]], vectors[pair["asked"]]) /
                       (np.linalg.norm(vectors[pair["stored"]]) * np.linalg.norm(vectors[pair["asked"]])))
        if pair["reuse"]:
            good = hit is not None and hit.answer == answers[pair["stored"]]
            reused += good
        else:
            good = hit is None
            false_hits += not good
        by_kind[pair["kind"]][0] += good
        by_kind[pair["kind"]][1] += 1
        rows.append({"id": pair["id"], "kind": pair["kind"], "reuse": pair["reuse"], "ok": good,
                     "level": hit.level if hit else "miss", "cosine": round(cosine, 3),
                     "served_for": hit.question.text if hit else ""})
    adversarial = sum(1 for p in pairs if not p["reuse"])
    paraphrases = len(pairs) - adversarial
    # The old rule for comparison: one cosine cut-off between questions, no grounding.
    cosine_false = sum(1 for r in rows if not r["reuse"] and r["cosine"] >= 0.93)
    cosine_reused = sum(1 for r in rows if r["reuse"] and r["cosine"] >= 0.93)
    return {
        "adversarial": adversarial, "false_hits": false_hits, "paraphrases": paraphrases, "reused": reused,
        "reuse_rate": round(reused / paraphrases, 4) if paraphrases else 0.0,
        "levels": dict(sorted(_count(r["level"] for r in rows if r["reuse"]).items())),
        "by_kind": {k: f"{v[0]}/{v[1]} correct" for k, v in sorted(by_kind.items())},
        "cosine_0.93_only": {"false_hits": cosine_false, "reused": cosine_reused},
        "pairs": rows,
    }


def _count(items) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for item in items:
        counts[item] += 1
    return counts
