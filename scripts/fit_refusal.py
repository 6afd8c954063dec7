"""Fit the refusal model's weights on an evaluation set (prints them with cross-validated accuracy).

Usage: .venv/bin/python scripts/fit_refusal.py fixtures/eval/questions.jsonl
Features come from the real question path (retrieval, rerank, extractive draft) on the current
knowledge base; labels are the set's `answerable` field.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "webapp.settings")


def collect(path: str) -> tuple[list[str], np.ndarray, np.ndarray, list[dict]]:
    import django

    django.setup()
    from knowledge.answering.providers import default_providers
    from knowledge.answering.service import AskOptions, Timer, allowed_collections, gather, glossary
    from knowledge.query import analyze

    providers = default_providers()
    terms = glossary()
    collections = allowed_collections(AskOptions())
    names: list[str] = []
    rows, labels, items = [], [], []
    for line in Path(path).read_text().splitlines():
        if not line.strip():
            continue
        item = json.loads(line)
        query = analyze(item["question"], terms)
        vector = providers.embedder.embed([query.expanded], kind="query")[0]
        found = gather(query, vector, collections, providers, Timer())
        features = found.evidence.features
        names = sorted(features)
        rows.append([features[n] for n in names])
        labels.append(1.0 if item.get("answerable", True) else 0.0)
        items.append({"question": item["question"], "answerable": item.get("answerable", True),
                      "missing": found.evidence.missing_terms, **features})
    return names, np.array(rows), np.array(labels), items


def fit(x: np.ndarray, y: np.ndarray, l2: float = 0.001, steps: int = 20000, lr: float = 1.0) -> np.ndarray:
    """Logistic regression by gradient descent; returns [bias, weights...]."""
    xb = np.hstack([np.ones((len(x), 1)), x])
    w = np.zeros(xb.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-xb @ w))
        grad = xb.T @ (p - y) / len(y) + l2 * np.r_[0, w[1:]]
        w -= lr * grad
    return w


def accuracy(w: np.ndarray, x: np.ndarray, y: np.ndarray, threshold: float = 0.5) -> float:
    p = 1 / (1 + np.exp(-(np.hstack([np.ones((len(x), 1)), x]) @ w)))
    return float(((p >= threshold) == (y == 1)).mean())


def main() -> None:
    names, x, y, items = collect(sys.argv[1] if len(sys.argv) > 1 else "fixtures/eval/questions.jsonl")
    rng = np.random.default_rng(0)
    order = rng.permutation(len(y))
    folds = np.array_split(order, 5)
    scores = []
    for k in range(5):
        test = folds[k]
        train = np.concatenate([folds[j] for j in range(5) if j != k])
        scores.append(accuracy(fit(x[train], y[train]), x[test], y[test]))
    w = fit(x, y)
    print(f"5-fold CV accuracy: {np.mean(scores):.3f} (folds {', '.join(f'{s:.2f}' for s in scores)})")
    print(f"training accuracy:  {accuracy(w, x, y):.3f}")
    print("WEIGHTS = {")
    print(f'    "bias": {w[0]:.3f},')
    for name, value in zip(names, w[1:]):
        print(f'    "{name}": {value:.3f},')
    print("}")
    if "--dump" in sys.argv:
        Path("/tmp/refusal_features.json").write_text(json.dumps(items, indent=1))


if __name__ == "__main__":
    main()
