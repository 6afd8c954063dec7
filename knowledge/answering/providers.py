"""The outside services the question path uses, bundled: embedder, reranker, generator, completer, and the
answer checker (`verifier`, `judge`) handed in by the composition root (`webapp.composition`), so the
question path never imports `verification`.

Hosted generation degrades to the extractive draft with a note when the provider fails, never to
silence.
"""

from __future__ import annotations

import functools
import logging
import time
from dataclasses import dataclass, field
from typing import Callable

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from knowledge.answering import codeblocks
from knowledge.answering.passages import SourcePassage
from textcore.titles import passage_context
from knowledge.embedding import Embedder, get_embedder
from knowledge.providers.base import Passage, ProviderError
from knowledge.query import QueryAnalysis
from knowledge.rerank import LexicalReranker, ProviderReranker, Reranker

log = logging.getLogger(__name__)

LLM_COOL_DOWN_S = 60.0
HYDE_PROMPT = ("Write a short passage (2-3 sentences) from a company policy or runbook that would answer the "
               "question. Plain text, no preamble.")
MULTI_QUERY_PROMPT = ("Rewrite the question in two different ways an employee might phrase it, using other words "
                      "for the same thing. One per line, no numbering, no commentary.")
REWRITE_PROMPT = ("Rewrite the user's last message as one standalone question, using the earlier messages of "
                  "the thread for context. Reply with the question only.")


@dataclass
class AnsweringProviders:
    """One seam per outside service; tests replace one of them, or point a real SDK at a local server."""

    embedder: Embedder
    reranker: Reranker
    generator: object | None = None
    completer: object | None = None
    hyde: bool = False
    multi_query: bool = False
    allowed_domains: tuple[str, ...] = ()
    verify_rounds: int = 2
    judge: object | None = None
    # verify_and_correct(answer, sources, *, question, embed, allowed_domains, corrector, judge, rounds)
    # -> (final text, report); None leaves answers unchecked (retrieval-only uses such as gap checks).
    verifier: Callable[..., tuple[str, dict]] | None = None
    sentence_embeddings: bool = False
    notes: list[str] = field(default_factory=list)
    # After a failed generation call the judge and corrector (same provider) are skipped for a while,
    # so an outage costs one timeout per answer, not three.
    llm_down_until: float = field(default=0.0, repr=False)

    def generate(self, question: str, passages: list[SourcePassage], draft: str, timer) -> tuple[str, tuple, dict, str]:
        """(text, (provider, model), usage, note): hosted when configured, else the extractive draft."""
        started = time.perf_counter()
        if self.generator is None:
            timer.stage("generate", started)
            return draft, ("extractive", ""), {}, ""
        try:
            generation = self.generator.generate(question, [_passage(p) for p in passages])
        except ProviderError as exc:
            log.warning("generation failed, falling back to extractive: %s", exc)
            self.llm_down_until = time.monotonic() + LLM_COOL_DOWN_S
            timer.stage("generate", started)
            return draft, ("extractive", ""), {}, f"{exc.message} Showing the best matching passages instead."
        timer.stage("generate", started)
        usage = {"input_tokens": generation.usage.input_tokens, "output_tokens": generation.usage.output_tokens,
                 "cost_usd": generation.usage.cost_usd}
        text = generation.text
        if "INSUFFICIENT_CONTEXT" in text:
            text = ""
        return text, (generation.provider, generation.model), usage, generation.note or ""

    def verify(self, text: str, passages: list[SourcePassage], question: str, timer) -> tuple[str, dict]:
        """Check the answer claim by claim; failing sentences are removed (after correction rounds when hosted)."""
        started = time.perf_counter()
        if self.verifier is None:
            timer.stage("verify", started)
            return text, {}
        sources = [(p.n, p.text, p.url, passage_context(p.title, p.first.heading_text)) for p in passages]
        llm_up = time.monotonic() >= self.llm_down_until
        hosted = self.generator is not None and llm_up
        prose, blocks = codeblocks.take_out(text)
        final, report = self.verifier(
            prose, sources, question=question, embed=self.embedder.embed, allowed_domains=self.allowed_domains,
            corrector=self.completer if hosted else None, judge=self.judge if llm_up else None,
            rounds=self.verify_rounds if hosted else 0,
        )
        final = codeblocks.put_back(final, blocks, {p.n: p.text for p in passages})
        timer.stage("verify", started)
        return final, report

    def expand_query(self, query: QueryAnalysis, timer) -> str | None:
        """HyDE: a hypothetical answer to embed instead of the question (only with a completer)."""
        if not (self.hyde and self.completer is not None):
            return None
        started = time.perf_counter()
        try:
            text, _usage = self.completer.complete(HYDE_PROMPT, query.expanded, max_tokens=160)
        except ProviderError as exc:
            log.warning("HyDE skipped: %s", exc)
            return None
        finally:
            timer.stage("hyde_generate", started)
        return f"{query.expanded}\n{text.strip()}"

    def query_variants(self, query: QueryAnalysis, timer) -> list[str]:
        """Multi-query expansion: up to two paraphrases of the question (only with a completer)."""
        if not (self.multi_query and self.completer is not None):
            return []
        started = time.perf_counter()
        try:
            text, _usage = self.completer.complete(MULTI_QUERY_PROMPT, query.expanded, max_tokens=120)
        except ProviderError as exc:
            log.warning("multi-query skipped: %s", exc)
            return []
        finally:
            timer.stage("multi_query_generate", started)
        lines = [line.strip(" -*0123456789.").strip() for line in text.splitlines()]
        return [line for line in lines if len(line.split()) >= 3][:2]

    def rewrite_follow_up(self, question: str, previous: list[str]) -> str | None:
        """A standalone form of a follow-up, written by the completer; None on failure."""
        history = "\n".join(f"- {turn}" for turn in previous)
        try:
            text, _usage = self.completer.complete(REWRITE_PROMPT, f"Thread:\n{history}\n\nLast message: {question}",
                                                   max_tokens=120)
        except ProviderError as exc:
            log.warning("follow-up rewrite skipped: %s", exc)
            return None
        return text.strip().splitlines()[0] if text.strip() else None


def _passage(passage: SourcePassage) -> Passage:
    return Passage(n=passage.n, text=passage.text, title=passage.title, source=passage.source_ref,
                   chunk_id=passage.first.chunk_id)


@functools.lru_cache(maxsize=8)
def _service(kind: str, provider: str, config: tuple) -> object:
    """An SDK-backed client (or a loaded local model), built once per process and configuration."""
    from knowledge.providers import build_completer, build_hosted_generator, build_reranker

    builders = {"generator": build_hosted_generator, "completer": build_completer, "reranker": build_reranker}
    return builders[kind](provider, dict(config))


def service(kind: str, provider: str, config: dict) -> object:
    """The cached client of this kind for this provider and settings."""
    return _service(kind, provider, tuple(sorted(config.items())))


def base_providers() -> AnsweringProviders:
    """Embedder, reranker, generator and completer as the settings configure them; no answer checker."""
    reranker: Reranker = LexicalReranker()
    if settings.VERITY_RERANKER == "cohere":
        reranker = ProviderReranker(service("reranker", "cohere", settings.PROVIDERS["cohere"]), "cohere")
    elif settings.VERITY_RERANKER == "cross-encoder":
        config = {"rerank_model": settings.VERITY_CROSS_ENCODER_PATH}
        reranker = ProviderReranker(service("reranker", "cross-encoder", config), "cross-encoder")
    generator = completer = None
    if settings.VERITY_GENERATOR in ("cohere", "openai"):
        config = settings.PROVIDERS[settings.VERITY_GENERATOR]
        generator = service("generator", settings.VERITY_GENERATOR, config)
        completer = service("completer", settings.VERITY_GENERATOR, config)
    return AnsweringProviders(
        embedder=get_embedder(), reranker=reranker, generator=generator, completer=completer,
        hyde=settings.VERITY_HYDE, multi_query=settings.VERITY_MULTI_QUERY,
        allowed_domains=tuple(settings.VERITY_ALLOWED_LINK_DOMAINS), verify_rounds=settings.VERITY_VERIFY_ROUNDS,
    )


_factory: Callable[[], AnsweringProviders] | None = None


def install(factory: Callable[[], AnsweringProviders]) -> None:
    """Called once by the composition root (webapp.composition, from the app's ready())."""
    global _factory
    _factory = factory


def default_providers() -> AnsweringProviders:
    """The providers the composition root builds: base providers plus the answer checker and claim judge."""
    if _factory is None:
        raise ImproperlyConfigured("No answering providers installed: add 'webapp' to INSTALLED_APPS "
                                   "(webapp.composition installs them when the app is ready).")
    return _factory()
