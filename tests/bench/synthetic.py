"""Synthetic chunk and vector sets with realistic structure (real MiniLM embeddings plus small noise)."""

from __future__ import annotations

import hashlib
import json

import numpy as np
from django.db import connection

from knowledge.models import Chunk, Collection, Document


def noisy(base: np.ndarray, rng: np.random.Generator, sigma: float) -> np.ndarray:
    """Row-normalised base vectors plus Gaussian noise (cosine to the base stays around 0.9)."""
    out = base + rng.normal(0, sigma, size=base.shape).astype(np.float32)
    return (out / np.linalg.norm(out, axis=1, keepdims=True)).astype(np.float32)


def mixtures(bases: np.ndarray, count: int, rng: np.random.Generator, sigma: float = 0.02) -> np.ndarray:
    """`count` vectors, each a random blend of two real embeddings plus noise, normalised."""
    i = rng.integers(0, len(bases), size=count)
    j = rng.integers(0, len(bases), size=count)
    a = rng.uniform(0.6, 1.0, size=(count, 1)).astype(np.float32)
    out = a * bases[i] + (1 - a) * bases[j] + rng.normal(0, sigma, size=(count, bases.shape[1])).astype(np.float32)
    return (out / np.linalg.norm(out, axis=1, keepdims=True)).astype(np.float32)


def replicate_chunks(target_total: int, seed: int = 1) -> int:
    """Grow the index to `target_total` chunks with altered copies of the real ones (new text, noisy
    vectors), in a public 'Synthetic' collection; returns the number of chunks now indexed."""
    from pgvector.psycopg import register_vector

    rng = np.random.default_rng(seed)
    originals = list(Chunk.objects.select_related("document").order_by("pk"))
    have = Chunk.objects.count()
    need = target_total - have
    if need <= 0 or not originals:
        return have
    collection, _ = Collection.objects.get_or_create(name="Synthetic", defaults={"slug": "synthetic"})
    base = np.array([np.asarray(c.embedding, dtype=np.float32) for c in originals])
    copies = -(-need // len(originals))
    start = Document.objects.filter(collection=collection).count()
    documents = Document.objects.bulk_create([
        Document(collection=collection, source=f"synthetic/copy-{start + k:05d}.md", title=f"Archive copy {start + k}",
                 sha256=hashlib.sha256(f"{seed}-{start + k}".encode()).hexdigest(), status="ready",
                 indexed_sha256="x", mime_type="text/markdown")
        for k in range(copies)
    ])
    raw = connection.connection
    register_vector(raw)
    written = 0
    with raw.cursor() as cursor, cursor.copy(
        'COPY knowledge_chunk (document_id, collection_id, "order", text, heading_path, heading_text, page, '
        "anchor, sections, token_count, content_hash, embedding, identifiers) FROM STDIN"
    ) as copy:
        for k, document in enumerate(documents):
            vectors = noisy(base, rng, 0.02)
            for order, (chunk, vector) in enumerate(zip(originals, vectors)):
                if written >= need:
                    break
                text = f"{chunk.text}\n(Archived copy {start + k}, region {k % 97}.)"
                copy.write_row([document.pk, collection.pk, order, text, '["Archive"]', chunk.heading_text,
                                chunk.page, chunk.anchor, json.dumps(chunk.sections), chunk.token_count,
                                hashlib.sha256(text.encode()).hexdigest(), vector, chunk.identifiers])
                written += 1
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE knowledge_chunk")
    return Chunk.objects.count()
