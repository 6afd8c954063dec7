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


def test_the_listwise_fit_ranks_each_groups_positive_first_and_stays_a_probability() -> None:
    from knowledge.scoring import fit_listwise

    rng = random.Random(5)
    groups, labels = [], []
    for _ in range(120):
        # "level" differs between groups, not within one: it cannot tell a group's candidates apart.
        level = rng.random()
        rows = [{"ranks": rng.random(), "level": level} for _ in range(8)]
        best = max(range(8), key=lambda i: rows[i]["ranks"] + 0.1 * rng.random())
        groups.append(rows)
        labels.append([1.0 if i == best else 0.0 for i in range(8)])
    weights = fit_listwise(groups, labels, ["ranks", "level"], l2=0.001, steps=1500)
    top1 = sum(ls[max(range(8), key=lambda i: probability(weights, g[i]))] for g, ls in zip(groups, labels))
    assert top1 / len(groups) > 0.8
    assert weights["ranks"] > 5 * abs(weights["level"])
    # Calibrated by a logistic fit on the listwise score: the mean probability is near the share of positives.
    mean = sum(probability(weights, row) for g in groups for row in g) / (8 * len(groups))
    assert abs(mean - 1 / 8) < 0.05
