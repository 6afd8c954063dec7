"""Logistic scoring over named features: the one way fitted weights are applied (and fitted)."""

from __future__ import annotations

import math

__all__ = ["logit", "probability", "fit_logistic", "fit_listwise"]


def logit(weights: dict[str, float], features: dict[str, float]) -> float:
    """bias + Σ weight × feature (features without a weight count for nothing)."""
    return weights.get("bias", 0.0) + sum(w * features.get(name, 0.0) for name, w in weights.items()
                                          if name != "bias")


def probability(weights: dict[str, float], features: dict[str, float]) -> float:
    """The logistic of the weighted sum, in 0..1."""
    z = max(-30.0, min(30.0, logit(weights, features)))
    return 1.0 / (1.0 + math.exp(-z))


def fit_logistic(rows: list[dict[str, float]], labels: list[float], names: list[str], *, l2: float = 0.01,
                 steps: int = 8000, lr: float = 0.5, sample_weights: list[float] | None = None,
                 signs: dict[str, int] | None = None) -> dict[str, float]:
    """L2-regularised logistic regression by gradient descent (numpy); returns {"bias", name: weight}.

    `signs` holds a feature's weight on one side of zero (-1: never raises the probability, +1: never
    lowers it), by projecting after every step: what the feature must mean, whatever a small sample says."""
    import numpy as np

    x = np.array([[row.get(name, 0.0) for name in names] for row in rows], dtype=float)
    y = np.array(labels, dtype=float)
    sw = np.array(sample_weights if sample_weights is not None else [1.0] * len(y), dtype=float)
    sw = sw / sw.mean()
    xb = np.hstack([np.ones((len(x), 1)), x])
    w = np.zeros(xb.shape[1])
    signs = signs or {}
    low = np.array([-np.inf] + [0.0 if signs.get(n, 0) > 0 else -np.inf for n in names])
    high = np.array([np.inf] + [0.0 if signs.get(n, 0) < 0 else np.inf for n in names])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(xb @ w, -30, 30)))
        grad = xb.T @ ((p - y) * sw) / len(y) + l2 * np.r_[0.0, w[1:]]
        w = np.clip(w - lr * grad, low, high)
    return {"bias": round(float(w[0]), 4), **{n: round(float(v), 4) for n, v in zip(names, w[1:])}}


def fit_listwise(groups: list[list[dict[str, float]]], labels: list[list[float]], names: list[str], *,
                 l2: float = 0.001, steps: int = 3000, lr: float = 0.5) -> dict[str, float]:
    """Weights that rank each group's positives first, then calibrated as probabilities.

    A group is one question's candidates. The direction is fitted with the listwise (softmax) loss: for each
    group holding a positive, minus the log of the share of the softmax mass on its positives. That optimises
    the order within a question, which a pointwise fit over pooled rows does not (a feature that separates
    questions, not candidates, takes weight from one that ranks). The scale and the bias are then fitted by a
    one-feature logistic regression of the labels on that score over every row, so `probability` stays a
    calibrated P(positive) that later models can read."""
    import numpy as np

    kept = [(g, ls) for g, ls in zip(groups, labels) if g and any(ls)]
    width = max(len(g) for g, _ in kept)
    x = np.zeros((len(kept), width, len(names)))
    y = np.zeros((len(kept), width))
    mask = np.zeros((len(kept), width), dtype=bool)
    for i, (g, ls) in enumerate(kept):
        x[i, :len(g)] = [[row.get(name, 0.0) for name in names] for row in g]
        y[i, :len(g)] = np.array(ls, dtype=float) / sum(ls)
        mask[i, :len(g)] = True
    w = np.zeros(len(names))
    for _ in range(steps):
        s = np.where(mask, x @ w, -np.inf)
        p = np.exp(s - s.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        grad = np.einsum("gc,gcf->f", p - y, x) / len(kept) + l2 * w
        w -= lr * grad
    raw = np.array([float(np.dot(w, [row.get(name, 0.0) for name in names])) for g in groups for row in g])
    # Standardised first: gradient descent on a score spread over tens of units would not settle.
    mean, spread = float(raw.mean()), float(raw.std()) or 1.0
    scale = fit_logistic([{"score": (v - mean) / spread} for v in raw], [y_ for ls in labels for y_ in ls],
                         ["score"], l2=0.0, steps=4000, lr=0.5)
    factor = scale["score"] / spread
    return {"bias": round(scale["bias"] - factor * mean, 4), **{n: round(float(v) * factor, 4) for n, v in zip(names, w)}}
