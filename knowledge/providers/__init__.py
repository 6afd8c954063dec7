"""Hosted (Cohere, OpenAI) and local model providers behind small Protocol seams; no Django here."""

from __future__ import annotations

from typing import Any, Literal

from .base import (
    Completer,
    Embedder,
    Generation,
    Generator,
    Passage,
    ProviderError,
    Reranker,
    Usage,
)
from .pricing import cost
from .routing import classify_complexity, complexity_indicators, route

__all__ = [
    "Passage",
    "Usage",
    "Generation",
    "ProviderError",
    "Generator",
    "Completer",
    "Reranker",
    "Embedder",
    "cost",
    "classify_complexity",
    "complexity_indicators",
    "route",
    "build_hosted_generator",
    "build_completer",
    "build_reranker",
    "build_embedder",
]

# Settings keys: api_key, base_url, cheap_model, strong_model, rerank_model, embed_model,
# embed_dim (optional), timeout_s, max_retries.


def _common(provider: str, config: dict[str, Any]) -> dict[str, Any]:
    """api_key/base_url/timeout_s/max_retries from a settings dict, checked."""
    api_key = config.get("api_key") or ""
    if not api_key:
        raise ValueError(f"The {provider} provider needs an api_key in its settings.")
    return {
        "api_key": api_key,
        "base_url": config.get("base_url") or None,
        "timeout_s": float(config.get("timeout_s") or 20),
        "max_retries": int(config["max_retries"]) if config.get("max_retries") is not None else 2,
    }


def _models(config: dict[str, Any], cheap: str, strong: str) -> dict[str, str]:
    return {"cheap_model": config.get("cheap_model") or cheap, "strong_model": config.get("strong_model") or strong}


def _unknown(kind: str, provider: str, options: tuple[str, ...]) -> ValueError:
    return ValueError(f"Unknown {kind} provider {provider!r}; choose one of: {', '.join(options)}.")


def build_hosted_generator(provider: Literal["cohere", "openai"], config: dict[str, Any]) -> Generator:
    """A hosted Generator from plain settings (the extractive generator lives elsewhere)."""
    if provider == "openai":
        from .openai_provider import OpenAIGenerator

        return OpenAIGenerator(**_common(provider, config), **_models(config, "gpt-4o-mini", "gpt-4o"))
    if provider == "cohere":
        from .cohere_provider import CohereGenerator

        return CohereGenerator(
            **_common(provider, config), **_models(config, "command-r-08-2024", "command-a-03-2025")
        )
    raise _unknown("generator", provider, ("cohere", "openai"))


def build_completer(provider: Literal["cohere", "openai"], config: dict[str, Any]) -> Completer:
    """A Completer (defaults to the cheap model) from plain settings."""
    if provider == "openai":
        from .openai_provider import OpenAICompleter

        return OpenAICompleter(**_common(provider, config), model=config.get("cheap_model") or "gpt-4o-mini")
    if provider == "cohere":
        from .cohere_provider import CohereCompleter

        return CohereCompleter(**_common(provider, config), model=config.get("cheap_model") or "command-r-08-2024")
    raise _unknown("completer", provider, ("cohere", "openai"))


def build_reranker(provider: Literal["cohere", "cross-encoder"], config: dict[str, Any]) -> Reranker:
    """A Reranker; for "cross-encoder", rerank_model (or model_path) is a local model directory."""
    if provider == "cohere":
        from .cohere_provider import CohereReranker

        return CohereReranker(**_common(provider, config), model=config.get("rerank_model") or "rerank-v3.5")
    if provider == "cross-encoder":
        from .local_rerank import CrossEncoderReranker

        return CrossEncoderReranker(str(config.get("model_path") or config.get("rerank_model") or ""))
    raise _unknown("reranker", provider, ("cohere", "cross-encoder"))


def build_embedder(provider: Literal["cohere", "openai"], config: dict[str, Any]) -> Embedder:
    """A hosted Embedder from plain settings (embed_dim needed only for models not in the known table)."""
    dim = int(config["embed_dim"]) if config.get("embed_dim") else None
    if provider == "cohere":
        from .cohere_provider import CohereEmbedder

        return CohereEmbedder(
            **_common(provider, config), model=config.get("embed_model") or "embed-english-light-v3.0", dim=dim
        )
    if provider == "openai":
        from .openai_provider import OpenAIEmbedder

        return OpenAIEmbedder(
            **_common(provider, config), model=config.get("embed_model") or "text-embedding-3-small", dim=dim
        )
    raise _unknown("embedder", provider, ("cohere", "openai"))
