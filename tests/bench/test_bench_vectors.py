"""Raw pgvector retrieval at 1M x 384 realistic vectors: HNSW build time, queries/s with concurrent
clients, and recall@10 against exact search at ef_search 40 and 100.

Run with `make bench` (or `VERITY_BENCH_VECTORS=200000 make bench` for a quicker pass). The
benchmark clients share the machine's two cores with the database.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import numpy as np
import psycopg
import pytest
from django.db import connection
from pgvector.psycopg import register_vector

from textcore.sentences import split_sentences
from knowledge.embedding import get_embedder
from tests.bench.synthetic import mixtures, noisy

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "corpus"
N = int(os.environ.get("VERITY_BENCH_VECTORS", "1000000"))
QUERIES = 2000
CLIENTS = int(os.environ.get("VERITY_BENCH_CLIENTS", "4"))


def _sentences(limit: int = 12000) -> list[str]:
    """Real English sentences: the corpus, plus docstrings of installed libraries (varied technical prose)."""
    import django
    import docutils
    import rest_framework

    sentences: set[str] = set()
    for path in sorted(CORPUS.rglob("*")):
        if path.suffix in {".md", ".txt", ".rst", ".html"}:
            text = re.sub(r"<[^>]+>", " ", path.read_text(encoding="utf-8", errors="ignore"))
            sentences.update(s.strip() for s in split_sentences(" ".join(text.split())) if len(s.split()) > 4)
    for package in (django, rest_framework, docutils):
        for path in sorted(Path(package.__file__).parent.rglob("*.py")):
            for doc in re.findall(r'"""(.*?)"""', path.read_text(encoding="utf-8", errors="ignore"), re.S):
                for sentence in split_sentences(" ".join(doc.split())):
                    if 6 <= len(sentence.split()) <= 40 and not re.search(r"[{}=<>]", sentence):
                        sentences.add(sentence.strip())
            if len(sentences) >= limit:
                break
    return sorted(sentences)[:limit]


def _bases() -> np.ndarray:
    """Real MiniLM embeddings of those sentences."""
    return get_embedder().embed(_sentences(), kind="document")


def _conninfo() -> str:
    db = connection.settings_dict
    return psycopg.conninfo.make_conninfo(dbname=db["NAME"], user=db["USER"], host=db["HOST"], port=db["PORT"] or None)


def _client(args: tuple) -> list[list[int]]:
    """One benchmark client (its own process and connection): top-10 ids for each query vector."""
    conninfo, ef, vectors = args
    with psycopg.connect(conninfo) as conn:
        register_vector(conn)
        conn.execute(f"SET hnsw.ef_search = {ef}")
        return [[row[0] for row in conn.execute(
            "SELECT id FROM bench_vectors ORDER BY embedding <=> %s LIMIT 10", (vector,), binary=True).fetchall()]
            for vector in vectors]


def _query_all(vectors: np.ndarray, ef: int, clients: int) -> tuple[list[list[int]], float]:
    """Queries spread over `clients` processes; returns results in order and queries/second."""
    import multiprocessing

    parts = np.array_split(vectors, clients)
    with multiprocessing.get_context("fork").Pool(clients) as pool:
        pool.map(_client, [(_conninfo(), ef, part[:5]) for part in parts])  # connect and warm up
        started = time.perf_counter()
        results = pool.map(_client, [(_conninfo(), ef, part) for part in parts])
        elapsed = time.perf_counter() - started
    return [ids for part in results for ids in part], len(vectors) / elapsed


@pytest.mark.django_db(transaction=True)
def test_bench_vectors(capsys):
    rng = np.random.default_rng(3)
    bases = _bases()
    data = mixtures(bases, N, rng)
    queries = noisy(mixtures(bases, QUERIES, rng), rng, 0.01)
    connection.close()  # forked clients must not inherit Django's connection
    with psycopg.connect(_conninfo(), autocommit=True) as conn:
        register_vector(conn)
        conn.execute("DROP TABLE IF EXISTS bench_vectors")
        conn.execute("CREATE TABLE bench_vectors (id bigint PRIMARY KEY, embedding vector(384))")
        started = time.perf_counter()
        with conn.cursor().copy("COPY bench_vectors (id, embedding) FROM STDIN WITH (FORMAT BINARY)") as copy:
            copy.set_types(["int8", "vector"])
            for i, vector in enumerate(data):
                copy.write_row((i, vector))
        load = time.perf_counter() - started
        conn.execute("SET maintenance_work_mem = '6GB'")
        conn.execute("SET max_parallel_maintenance_workers = 1")
        started = time.perf_counter()
        conn.execute("CREATE INDEX ON bench_vectors USING hnsw (embedding vector_cosine_ops) "
                      "WITH (m = 32, ef_construction = 64)")
        build = time.perf_counter() - started
    exact = []
    for chunk in np.array_split(queries, 40):
        scores = chunk @ data.T
        exact.extend(np.argsort(-scores, axis=1)[:, :10].tolist())
    with capsys.disabled():
        print(f"\n[vectors] {N} x 384 (blends of two of {len(bases)} real MiniLM sentence embeddings + noise); {QUERIES} queries; "
              f"load {load:.0f}s, HNSW build (m=32, ef_construction=64) {build:.0f}s")
        _query_all(queries, 40, CLIENTS)  # one pass to load the index into shared buffers
        for ef in (40, 100, 200, 400):
            found, qps = _query_all(queries, ef, CLIENTS)
            recall = np.mean([len(set(f) & set(e)) / 10 for f, e in zip(found, exact)])
            print(f"[vectors] ef_search={ef:<3} {CLIENTS} clients: {qps:6.0f} queries/s, recall@10 {recall:.3f}")
    with psycopg.connect(_conninfo(), autocommit=True) as conn:
        conn.execute("DROP TABLE bench_vectors")
    assert build > 0
