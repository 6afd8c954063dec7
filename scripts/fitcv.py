"""Cross-validation by document and the confidence fit, for scripts/fit_answering.py.

Questions on one document always share a fold, so cross-validated figures say how a fit does on
documents it has not seen (as on the test split). Only dev sets are loaded.
"""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path

from knowledge.evaluation import folded

CONFIDENCE_FEATURES = ["strength", "best_unit", "verification", "fact_missing", "focus_coverage", "top_score",
                       "answer_coverage"]
# An answer that lacks the kind of fact asked for (no number to "how many") never gains confidence by it.
CONFIDENCE_SIGNS = {"fact_missing": -1}



def load(spec: str) -> list[tuple[dict, str]]:
    path, _, collection = spec.partition(":")
    if "test" in Path(path).name:
        raise SystemExit(f"{path}: only dev sets may be used for fitting")
    items = [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
    return [(item, collection) for item in items]


def document_of(item: dict, collection: str) -> str:
    """The document a question is about: questions on one document always share a fold."""
    sources = item.get("expected_sources") or ([item["topic_source"]] if item.get("topic_source") else [])
    return f"{collection}:{sources[0].split('#', 1)[0]}" if sources else f"{collection}:{item.get('id')}"


def folds(keys: list[str], k: int = 5, seed: int = 7) -> list[list[int]]:
    """k folds over positions, grouped by key: all questions on one document are held out together, so
    the cross-validated figures say how the fit does on documents it has not seen (as on test)."""
    distinct = sorted(set(keys))
    random.Random(seed).shuffle(distinct)
    fold_of = {key: n % k for n, key in enumerate(distinct)}
    return [[i for i, key in enumerate(keys) if fold_of[key] == f] for f in range(k)]


def fit_groups(groups: list[list[dict]], labels: list[list[float]], names: list[str], *, listwise: bool = False,
               sample_weights: list[list[float]] | None = None, **fit_args) -> dict[str, float]:
    """Weights for candidates grouped by question: `fit_listwise` (each question's candidates ranked against
    each other), or a pointwise logistic regression over the pooled rows."""
    from knowledge.scoring import fit_listwise, fit_logistic

    if listwise:
        return fit_listwise(groups, labels, names, **fit_args)
    sw = None if sample_weights is None else [w for ws in sample_weights for w in ws]
    return fit_logistic([r for g in groups for r in g], [y for ls in labels for y in ls], names, sample_weights=sw,
                        **fit_args)


def cv_probabilities(groups: list[list[dict]], labels: list[list[float]], names: list[str], keys: list[str],
                     sample_weights: list[list[float]] | None = None, listwise: bool = False,
                     **fit_args) -> list[list[float]]:
    """Out-of-fold probabilities; every row of a question, and every question on one document, stays in
    one fold (`listwise`: see `fit_groups`)."""
    from knowledge.scoring import probability

    out: list[list[float]] = [[] for _ in groups]
    for held in folds(keys):
        held_set = set(held)
        kept = [i for i in range(len(groups)) if i not in held_set]
        weights = fit_groups([groups[i] for i in kept], [labels[i] for i in kept], names, listwise=listwise,
                             sample_weights=None if sample_weights is None else [sample_weights[i] for i in kept],
                             **fit_args)
        for i in held:
            out[i] = [probability(weights, r) for r in groups[i]]
    return out


def top_unit_l2(groups: list[list[dict]], labels: list[list[float]], names: list[str], keys: list[str],
                grid: tuple[float, ...] = (0.001, 0.003, 0.01, 0.03)) -> tuple[float, bool, list[list[float]]]:
    """The regularisation and the kind of fit (pointwise or listwise) under which the top-scored unit most
    often holds the hint, by cross-validation by document; returns them with their out-of-fold
    probabilities."""
    best = (-1, 0.001, False, [])
    for listwise in (False, True):
        for l2 in grid:
            oof = cv_probabilities(groups, labels, names, keys, l2=l2, listwise=listwise)
            top1 = sum(1 for probs, ls in zip(oof, labels)
                       if any(ls) and ls[max(range(len(probs)), key=probs.__getitem__)])
            print(f"  units {'listwise' if listwise else 'pointwise'} l2 {l2}: top unit holds the hint {top1} times "
                  "(5-fold CV by document)", file=sys.stderr)
            if top1 > best[0]:
                best = (top1, l2, listwise, oof)
    return best[1], best[2], best[3]


def fit_confidence(items, fitted, evidence_mod, AskOptions, answer_question, fit_logistic, ctx) -> None:
    """4. Confidence: the whole path (verification included) on the questions it answers. An unanswerable
    question that is answered all the same is in it too, as an answer that does not hold the asked fact:
    that is what a user is told the odds of."""
    conf_rows, conf_ys, conf_items = [], [], []
    for item, collection in items:
        options = AskOptions(channel="eval", use_cache=False, store=False,
                             channel_collection_ids=[ctx.collections[collection]])
        result = answer_question(item["question"], options)
        if result.refused:
            continue
        conf_rows.append(evidence_mod.confidence_features(result.evidence["features"], result.evidence["strength"],
                                                          (result.verification or {}).get("score")))
        conf_items.append((item, collection))
        holds = item.get("answerable") and folded(item.get("answer_hint", "")) in folded(result.answer)
        conf_ys.append(1.0 if holds else 0.0)
    conf_keys = [document_of(item, collection) for item, collection in conf_items]

    def ece_of(oof: list[float]) -> float:
        total = 0.0
        for low, high in zip([0, .2, .4, .6, .8], [.2, .4, .6, .8, 1.01]):
            rows_in = [(p, y) for p, y in zip(oof, conf_ys) if low <= p < high]
            if rows_in:
                total += len(rows_in) / len(oof) * abs(sum(y for _, y in rows_in) / len(rows_in)
                                                       - sum(p for p, _ in rows_in) / len(rows_in))
        return total

    def log_loss(oof: list[float]) -> float:
        eps = 1e-6
        return -sum(y * math.log(max(p, eps)) + (1 - y) * math.log(max(1 - p, eps))
                    for p, y in zip(oof, conf_ys)) / len(oof)

    # Regularisation by cross-validated log loss (a proper scoring rule: it rewards calibration).
    best_l2, best_loss = None, float("inf")
    for l2 in (0.003, 0.01, 0.03, 0.1, 0.3):
        trial = [p[0] for p in cv_probabilities([[r] for r in conf_rows], [[y] for y in conf_ys],
                                                CONFIDENCE_FEATURES, conf_keys, l2=l2, signs=CONFIDENCE_SIGNS)]
        if log_loss(trial) < best_loss:
            best_l2, best_loss, oof = l2, log_loss(trial), trial
    fitted.CONFIDENCE = fit_logistic(conf_rows, conf_ys, CONFIDENCE_FEATURES, l2=best_l2, signs=CONFIDENCE_SIGNS)
    ece = ece_of(oof)
    print(f"confidence: l2 {best_l2}", file=sys.stderr)
    high = [y for p, y in zip(oof, conf_ys) if p >= 0.8]
    print(f"confidence: ECE (5-fold CV) {ece:.3f} on {len(conf_ys)} answered questions "
          f"({sum(conf_ys) / len(conf_ys):.3f} hold the hint); confidence >= 0.8: {len(high)} answers, "
          f"{sum(high) / max(1, len(high)):.3f} hold the hint", file=sys.stderr)
