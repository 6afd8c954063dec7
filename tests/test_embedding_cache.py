"""The per-process vector cache gives the embedder's own vectors and embeds each text once."""

from __future__ import annotations

import numpy as np

from knowledge.embedding import VectorCache, cached_embed


class Counting:
    """The real embedder, counting the texts it is asked to embed."""

    def __init__(self, embedder) -> None:
        self.embedder, self.texts = embedder, []

    def embed(self, texts, *, kind):
        self.texts.extend(texts)
        return self.embedder.embed(texts, kind=kind)


def test_cached_vectors_equal_fresh_ones_and_each_text_is_embedded_once(embedder):
    counting = Counting(embedder)
    cache = VectorCache(counting.embed, maxsize=3)
    texts = ["Parking permits cost 40 USD.", "The VPN is required abroad.", "Parking permits cost 40 USD."]
    first = cache(texts, kind="document")
    again = cache(texts[:2], kind="document")
    assert np.allclose(first, embedder.embed(texts, kind="document"), atol=1e-5)
    assert np.allclose(again, first[:2])
    assert counting.texts == texts[:2]  # duplicates and repeats come from the cache
    cache(["a", "b", "c"], kind="document")  # over maxsize: the least recently used go
    cache(texts[:1], kind="document")
    assert counting.texts[-1] == texts[0]
    assert cached_embed(embedder) is cached_embed(embedder)
