"""Local cross-encoder reranker loaded from a path on disk (never downloads)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .base import ProviderError

__all__ = ["CrossEncoderReranker"]

PROVIDER = "cross-encoder"


class CrossEncoderReranker:
    """Reranker over a sentence-transformers CrossEncoder on CPU; scores are sigmoid(logit) in 0-1."""

    name = PROVIDER

    def __init__(self, model_path: str, *, batch_size: int = 32, max_length: int = 512) -> None:
        path = Path(model_path).expanduser()
        if not str(model_path).strip() or not path.is_dir():
            raise ProviderError(
                f"Cross-encoder model directory not found: {str(path)!r}. Download the model once "
                "(e.g. cross-encoder/ms-marco-MiniLM-L-6-v2) to that folder, or point rerank_model at an "
                "existing local directory; models are never fetched at run time.",
                provider=PROVIDER,
                transient=False,
            )
        if not (path / "config.json").exists():
            raise ProviderError(
                f"{str(path)!r} does not look like a Hugging Face model folder (no config.json); "
                "point rerank_model at the folder that holds config.json and the weights.",
                provider=PROVIDER,
                transient=False,
            )
        import torch  # heavy imports only when a local reranker is actually configured
        from sentence_transformers import CrossEncoder

        self.batch_size = batch_size
        self.model: Any = CrossEncoder(
            str(path),
            device="cpu",
            max_length=max_length,
            local_files_only=True,
            activation_fn=torch.nn.Sigmoid(),
        )

    def rerank(self, query: str, documents: list[str], top_n: int) -> list[tuple[int, float]]:
        """Return (index into documents, relevance 0-1) pairs, best first, at most top_n."""
        if not documents or top_n <= 0:
            return []
        try:
            scores = self.model.predict([(query, d) for d in documents], batch_size=self.batch_size,
                                        show_progress_bar=False)
        except (RuntimeError, ValueError) as exc:
            raise ProviderError(f"Local cross-encoder failed to score documents: {exc}", provider=PROVIDER,
                                transient=False) from exc
        ranked = sorted(((i, float(s)) for i, s in enumerate(scores)), key=lambda p: p[1], reverse=True)
        return ranked[:top_n]
