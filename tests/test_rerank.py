"""The model-free reranker's document-level evidence: what a hit's document holds among the candidates."""

from __future__ import annotations

import math

from knowledge.lexicon import TermStats
from knowledge.rerank import LexicalReranker, all_features, pool_features
from knowledge.retrieval import Hit


def _hit(chunk_id: int, document_id: int, vector: str, dense: float, anchor: str = "") -> Hit:
    return Hit(chunk_id=chunk_id, document_id=document_id, collection_id=1, order=chunk_id, text="", heading_text="",
               anchor=anchor, page=None, search_vector=vector, source=f"doc{document_id}.html", title="",
               collection="c", updated_at=None, dense=dense, ranks={"dense": chunk_id})


STATS = TermStats(total=1000, avg_length=40.0, df={"worker": 20, "timeout": 10, "restart": 10, "queue": 30})


def test_a_document_holds_the_words_its_chunks_hold_together():
    hits = [
        _hit(1, 10, "'worker':1A 'timeout':3B", 0.50),
        _hit(2, 10, "'restart':4B 'queue':7B", 0.62),
        _hit(3, 20, "'worker':2B 'timeout':5B 'restart':8B", 0.55),
    ]
    lexemes = ["worker", "timeout", "restart", "queue"]
    pooled = pool_features(lexemes, hits, STATS)
    # Document 10's two chunks hold all four words between them; document 20's one chunk three of them.
    assert pooled[0]["doc_coverage"] == pooled[1]["doc_coverage"] == 1.0
    idf = {t: STATS.idf(t) for t in lexemes}
    assert math.isclose(pooled[2]["doc_coverage"], 1 - idf["queue"] / sum(idf.values()))
    # Two of three candidates against one; the best cosine of each document; its best chunk by cosine.
    assert pooled[0]["doc_count"] > pooled[2]["doc_count"]
    assert math.isclose(pooled[0]["doc_count"], math.log1p(2) / math.log1p(3))
    assert pooled[0]["doc_dense_max"] == pooled[1]["doc_dense_max"] > pooled[2]["doc_dense_max"]
    assert [p["doc_best_dense"] for p in pooled] == [0.0, 1.0, 1.0]


def test_all_features_keep_each_hits_own_evidence_beside_its_documents():
    hits = [_hit(1, 10, "'worker':1A", 0.4), _hit(2, 20, "'queue':1B", 0.3)]
    rows = all_features(["worker", "queue"], hits, STATS)
    assert rows[0]["heading"] > 0 and rows[1]["heading"] == 0  # "worker" is in the first chunk's heading
    assert rows[0]["doc_coverage"] > rows[1]["doc_coverage"]  # "worker" is rarer than "queue"
    ranked = LexicalReranker().rerank("worker queue", ["worker", "queue"], hits, STATS)
    assert all(0.0 < h.score < 1.0 for h in ranked)
    # The first hit is ahead on every piece of evidence: heading match, rarer word, cosine.
    assert [h.chunk_id for h in ranked] == [1, 2]
