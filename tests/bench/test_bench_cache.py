"""Answer-reuse lookup (L1 exact → L2 similar → L3 graph) with 100k stored questions: p50 and p99 latency.

Stored questions are real evaluation questions and variants of them (a case number appended, so each has
its own entities), with real MiniLM embeddings plus small noise, each with a verified answer. Queries are
the real questions: some asked word for word (exact hits), the rest reworded (similar-level work).

`VERITY_BENCH_QUESTIONS=20000 make bench` for a quicker pass. Reports medians; no assertions on time.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import numpy as np
import pytest
from django.db import connection
from django.utils import timezone

from knowledge.answering import cache
from knowledge.answering.graph import understand
from knowledge.embedding import get_embedder
from knowledge.grounding import entity_key, ground
from knowledge.models import Answer, Collection, Question, question_hash
from knowledge.query import analyze
from tests.bench.synthetic import noisy

ROOT = Path(__file__).resolve().parents[2]
N = int(os.environ.get("VERITY_BENCH_QUESTIONS", "100000"))
QUERIES = 400


def _questions() -> list[str]:
    texts = []
    for path in ("fixtures/eval/questions.jsonl", "fixtures/eval/real/dev.jsonl", "fixtures/eval/real/test.jsonl"):
        texts += [json.loads(line)["question"] for line in (ROOT / path).read_text().splitlines() if line.strip()]
    return sorted(set(texts))


@pytest.mark.django_db
def test_cache_lookup_latency_with_many_stored_questions():
    rng = np.random.default_rng(7)
    embedder = get_embedder()
    bases = _questions()
    base_vectors = embedder.embed([analyze(t).expanded for t in bases], kind="query")
    collection = Collection.objects.create(name="bench", slug="bench-cache")
    started = time.perf_counter()
    batch = 5000
    for offset in range(0, N, batch):
        count = min(batch, N - offset)
        idx = rng.integers(0, len(bases), size=count)
        vectors = noisy(base_vectors[idx], rng, 0.01)
        texts = [bases[i] if offset + k < len(bases) else f"{bases[i]} (case {offset + k})"
                 for k, i in enumerate(idx)]
        answers = Answer.objects.bulk_create([
            Answer(question_text=t, normalized_question=analyze(t).cache_key, text="…", confidence=0.9,
                   status=Answer.Status.VERIFIED, reviewed_at=timezone.now(), collection_ids=[collection.pk])
            for t in texts])
        rows = []
        for answer, text, vector in zip(answers, texts, vectors):
            g = ground(analyze(text).normalized)
            key = analyze(text).cache_key
            rows.append(Question(text=text, normalized=key, normalized_hash=question_hash(key), embedding=vector,
                                 grounding=g.to_dict(), entity_key=entity_key(g), answer=answer, is_origin=True))
        Question.objects.bulk_create(rows)
    load_s = time.perf_counter() - started
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE knowledge_question; ANALYZE knowledge_answer")

    queries = [bases[i] for i in rng.integers(0, len(bases), size=QUERIES)]
    reworded = [q if k % 2 == 0 else f"hey, quick question: {q.lower()}" for k, q in enumerate(queries)]
    vectors = embedder.embed([analyze(q).expanded for q in reworded], kind="query")
    understand_ms, lookup_ms, levels = [], [], {}
    for text, vector in zip(reworded, vectors):
        query = analyze(text)
        t0 = time.perf_counter()
        asked = understand(query.normalized, query.cache_key, vector)
        t1 = time.perf_counter()
        hit = cache.lookup(asked, [collection.pk])
        t2 = time.perf_counter()
        understand_ms.append((t1 - t0) * 1000)
        lookup_ms.append((t2 - t1) * 1000)
        level = hit.level if hit else "miss"
        levels[level] = levels.get(level, 0) + 1
    print(f"\ncache lookup, {N} stored questions (loaded in {load_s:.0f} s), {QUERIES} queries: "
          f"lookup p50 {np.percentile(lookup_ms, 50):.2f} ms, p99 {np.percentile(lookup_ms, 99):.2f} ms; "
          f"grounding+topics p50 {np.percentile(understand_ms, 50):.2f} ms, p99 {np.percentile(understand_ms, 99):.2f} ms; "
          f"levels {levels}")
