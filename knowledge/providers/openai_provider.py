"""OpenAI (and OpenAI-compatible) generator, completer and embedder over the official SDK."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator, Literal

import numpy as np
import openai

from .base import (
    INSUFFICIENT_CONTEXT,
    Generation,
    Passage,
    ProviderError,
    timeout_error,
    unreachable_error,
    Usage,
    clean_markers,
    error_for_status,
    grounding_messages,
    embed_in_batches,
    embedding_width,
)
from .pricing import with_cost
from .routing import route

__all__ = ["make_openai_client", "openai_errors", "OpenAIGenerator", "OpenAICompleter", "OpenAIEmbedder"]

PROVIDER = "openai"
LABEL = "OpenAI"
EMBED_BATCH = 128
KNOWN_EMBED_DIMS = {"text-embedding-3-small": 1536, "text-embedding-3-large": 3072, "text-embedding-ada-002": 1536}


def make_openai_client(
    api_key: str, base_url: str | None = None, timeout_s: float = 20, max_retries: int = 2
) -> openai.OpenAI:
    """The one place an OpenAI SDK client is built."""
    if not api_key:
        raise ValueError("OpenAI provider needs an api_key; set it in the provider settings.")
    return openai.OpenAI(api_key=api_key, base_url=base_url or None, timeout=timeout_s, max_retries=max_retries)


def _detail(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict):
        err = body.get("error", body)
        msg = err.get("message") if isinstance(err, dict) else None
        if msg:
            return str(msg)[:200]
    return ""


@contextmanager
def openai_errors(client: openai.OpenAI) -> Iterator[None]:
    """Translate OpenAI SDK exceptions raised inside the block into ProviderError."""
    try:
        yield
    except openai.APITimeoutError as exc:
        raise timeout_error(LABEL, PROVIDER, client.timeout) from exc
    except openai.APIConnectionError as exc:
        raise unreachable_error(LABEL, PROVIDER, client.base_url) from exc
    except openai.APIStatusError as exc:
        raise error_for_status(LABEL, PROVIDER, exc.status_code, _detail(exc)) from exc
    except openai.OpenAIError as exc:
        raise ProviderError(
            f"{LABEL} returned an unexpected response ({type(exc).__name__}: {exc}).",
            provider=PROVIDER,
            transient=False,
        ) from exc


class OpenAICompleter:
    """Completer over OpenAI chat completions."""

    name = PROVIDER

    def __init__(
        self,
        api_key: str = "",
        base_url: str | None = None,
        model: str = "gpt-4o-mini",
        timeout_s: float = 20,
        max_retries: int = 2,
        *,
        client: openai.OpenAI | None = None,
    ) -> None:
        self.model = model
        self.client = client or make_openai_client(api_key, base_url, timeout_s, max_retries)

    def chat(
        self, messages: list[dict[str, str]], *, model: str, max_tokens: int, temperature: float
    ) -> tuple[str, Usage]:
        """Send chat messages; return (assistant text, usage with cost)."""
        with openai_errors(self.client):
            resp = self.client.chat.completions.create(
                model=model, messages=messages, max_tokens=max_tokens, temperature=temperature  # type: ignore[arg-type]
            )
        if not resp.choices:
            raise ProviderError(f"{LABEL} returned no choices for model {model}.", provider=PROVIDER, transient=True)
        text = resp.choices[0].message.content or ""
        u = resp.usage
        usage = with_cost(resp.model or model, u.prompt_tokens if u else 0, u.completion_tokens if u else 0)
        return text.strip(), usage

    def complete(
        self,
        system: str,
        user: str,
        *,
        model: str | None = None,
        max_tokens: int = 512,
        temperature: float = 0,
    ) -> tuple[str, Usage]:
        """Return the completion text and its usage."""
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        return self.chat(messages, model=model or self.model, max_tokens=max_tokens, temperature=temperature)


class OpenAIGenerator:
    """Grounded answer generator over OpenAI chat completions with cheap/strong routing."""

    name = PROVIDER

    def __init__(
        self,
        api_key: str = "",
        base_url: str | None = None,
        cheap_model: str = "gpt-4o-mini",
        strong_model: str = "gpt-4o",
        timeout_s: float = 20,
        max_retries: int = 2,
        *,
        max_tokens: int = 700,
        client: openai.OpenAI | None = None,
    ) -> None:
        self.cheap_model = cheap_model
        self.strong_model = strong_model
        self.max_tokens = max_tokens
        self.client = client or make_openai_client(api_key, base_url, timeout_s, max_retries)
        self._completer = OpenAICompleter(model=cheap_model, client=self.client)

    def completer(self) -> OpenAICompleter:
        """A Completer sharing this generator's client."""
        return self._completer

    def generate(self, question: str, passages: list[Passage], *, model: str | None = None) -> Generation:
        """Answer `question` from `passages`, citing them as [n]."""
        notes: list[str] = []
        if model is None:
            model, reasons = route(question, self.cheap_model, self.strong_model)
            if reasons:
                notes.append(f"routed to {model} ({', '.join(reasons)})")
        if not passages:
            return Generation(
                f"{INSUFFICIENT_CONTEXT}: no passages were found for this question.",
                PROVIDER, model, Usage(), note="no passages; model not called",
            )
        messages = grounding_messages(question, passages)
        text, usage = self._completer.chat(messages, model=model, max_tokens=self.max_tokens, temperature=0)
        text, dropped = clean_markers(text, {p.n for p in passages})
        if dropped:
            notes.append(f"removed citations to unknown passages {sorted(set(dropped))}")
        if text.startswith(INSUFFICIENT_CONTEXT):
            notes.append("model reported insufficient context")
        return Generation(text, PROVIDER, model, usage, note="; ".join(notes) or None)


class OpenAIEmbedder:
    """Embedder over an OpenAI(-compatible) /embeddings endpoint; `kind` is not used by this API."""

    name = PROVIDER

    def __init__(
        self,
        api_key: str = "",
        base_url: str | None = None,
        model: str = "text-embedding-3-small",
        timeout_s: float = 20,
        max_retries: int = 2,
        *,
        dim: int | None = None,
        client: openai.OpenAI | None = None,
    ) -> None:
        self.model = model
        self._send_dimensions = dim is not None and model.startswith("text-embedding-3")
        self.dim = embedding_width(model, dim, KNOWN_EMBED_DIMS)
        self.client = client or make_openai_client(api_key, base_url, timeout_s, max_retries)

    def embed(self, texts: list[str], *, kind: Literal["document", "query"]) -> np.ndarray:
        """Return a (len(texts), dim) float32 array of unit-length rows."""
        extra = {"dimensions": self.dim} if self._send_dimensions else {}

        def fetch(batch: list[str]) -> list[list[float]]:
            with openai_errors(self.client):
                resp = self.client.embeddings.create(model=self.model, input=batch, encoding_format="float", **extra)
            return [item.embedding for item in sorted(resp.data, key=lambda d: d.index)]

        return embed_in_batches(texts, self.dim, EMBED_BATCH, fetch, label=LABEL, provider=PROVIDER)
