"""What `answer_question` returns, and its JSON form shared by the CLI, API, console and bot."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Citation:
    """One numbered source of an answer."""

    n: int
    source: str
    title: str
    url: str
    chunk_id: int
    quote: str
    collection: str = ""
    updated_at: str = ""
    chunk_ids: list[int] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"n": self.n, "source": self.source, "title": self.title, "url": self.url,
                "chunk_id": self.chunk_id, "quote": self.quote, "collection": self.collection,
                "updated_at": self.updated_at}


@dataclass
class AnswerResult:
    """An answer (or a refusal) with citations, confidence, verification and per-stage timings."""

    question: str
    answer: str
    refused: bool
    confidence: float
    citations: list[Citation] = field(default_factory=list)
    cache: str = "miss"
    status: str = "auto"
    warning: str = ""
    verification: dict = field(default_factory=dict)
    evidence: dict = field(default_factory=dict)
    retrieved: list[dict] = field(default_factory=list)
    provider: str = "extractive"
    model: str = ""
    note: str = ""
    timings_ms: dict = field(default_factory=dict)
    answer_id: int | None = None
    log_id: int | None = None
    standalone_question: str = ""
    badge: str = ""
    flag_reason: str = ""
    closest: list[dict] = field(default_factory=list)  # a refusal's nearest documents: title, source, url

    @property
    def verified(self) -> bool:
        return self.status == "verified"

    def to_dict(self) -> dict:
        """The JSON shape of `manage.py ask --json` and `POST /api/ask`."""
        return {
            "answer": self.answer,
            "refused": self.refused,
            "confidence": self.confidence,
            "citations": [c.to_dict() for c in self.citations],
            "cache": self.cache,
            "verification": self.verification,
            "timings_ms": self.timings_ms,
            "status": self.status,
            "badge": self.badge,
            "warning": self.warning,
            "answer_id": self.answer_id,
            "provider": self.provider,
            "model": self.model,
            "note": self.note,
            "retrieved": self.retrieved,
            "evidence": self.evidence,
            "closest": self.closest,
        }
