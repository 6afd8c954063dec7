"""Logistic scoring over named features: the one way fitted weights are applied (and fitted)."""

from __future__ import annotations

import math

__all__ = ["logit", "probability", "fit_logistic"]


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
