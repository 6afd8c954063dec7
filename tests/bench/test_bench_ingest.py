"""Ingestion throughput against the raw embedder, peak memory, and re-ingesting an unchanged corpus.

Run with `make bench`. Prints the figures; asserts only that the work happened.
"""

from __future__ import annotations

import resource
import time

import pytest
from django.core.management import call_command

from knowledge.chunking import chunk_document
from knowledge.tokens import minilm_token_counter
from knowledge.embedding import get_embedder
from knowledge.models import Chunk, Document
from knowledge.parsing import parse_file
from tests.bench.corpus import build_mixed_corpus

pytestmark = pytest.mark.django_db(transaction=True)


def _raw_embedder_rate(texts: list[str], batch: int) -> float:
    embedder = get_embedder()
    started = time.perf_counter()
    for i in range(0, len(texts), batch):
        embedder.embed(texts[i:i + batch], kind="document")
    return len(texts) / (time.perf_counter() - started)


def test_bench_ingest(tmp_path, capsys):
    count = build_mixed_corpus(tmp_path, documents=220)
    get_embedder().embed(["warm up"], kind="document")
    minilm_token_counter()("warm up")

    started = time.perf_counter()
    call_command("ingest", str(tmp_path), "--sync", "--collection", "Bench", "--public", verbosity=0)
    first = time.perf_counter() - started
    chunks = Chunk.objects.filter(collection__name="Bench").count()
    ready = Document.objects.filter(collection__name="Bench", status="ready").count()
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    # The same chunk texts through the bare embedder, in the ingestion's batch size, same process.
    texts = []
    counter = minilm_token_counter()
    for path in sorted(p for p in tmp_path.rglob("*") if p.is_file()):
        try:
            parsed = parse_file(path.read_bytes(), path.name)
        except Exception:
            continue
        texts.extend(d.embed_text for d in chunk_document(parsed, counter))
    raw = _raw_embedder_rate(texts, 64)

    started = time.perf_counter()
    call_command("ingest", str(tmp_path), "--sync", "--collection", "Bench", "--public", verbosity=0)
    again = time.perf_counter() - started

    e2e = chunks / first
    with capsys.disabled():
        print(f"\n[ingest] {count} files, {ready} ready, {chunks} chunks; first run {first:.1f}s")
        print(f"[ingest] end-to-end {e2e:.1f} chunks/s vs raw embedder {raw:.1f} chunks/s "
              f"-> ratio {e2e / raw:.3f} (target >= 0.85)")
        print(f"[ingest] peak RSS {peak_mb:.0f} MB")
        print(f"[ingest] re-ingest unchanged: {again:.2f}s = {100 * again / first:.1f}% of first run (target <= 5%)")
    assert ready >= 200 and chunks > 0
