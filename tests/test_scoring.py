"""The logistic fitter behind every learned weight of the answer path (knowledge/scoring.py)."""

from __future__ import annotations

import random

from knowledge.scoring import fit_logistic, probability


def _rows(seed: int = 3) -> tuple[list[dict[str, float]], list[float]]:
    rng = random.Random(seed)
    rows, labels = [], []
    for _ in range(400):
        good, noise = rng.random(), rng.random()
        rows.append({"good": good, "noise": noise})
        labels.append(1.0 if good + 0.3 * rng.random() > 0.65 else 0.0)
    return rows, labels


def test_the_fit_learns_which_feature_predicts() -> None:
    rows, labels = _rows()
    weights = fit_logistic(rows, labels, ["good", "noise"], l2=0.001)
    assert weights["good"] > 3 * abs(weights["noise"])
    assert probability(weights, {"good": 0.95, "noise": 0.5}) > 0.8 > 0.2 > probability(weights, {"good": 0.05, "noise": 0.5})


def test_a_sign_constraint_holds_a_weight_on_its_side() -> None:
    rows, labels = _rows()
    free = fit_logistic(rows, labels, ["good", "noise"], l2=0.001)
    held = fit_logistic(rows, labels, ["good", "noise"], l2=0.001, signs={"good": -1})
    assert free["good"] > 0
    assert held["good"] == 0.0
