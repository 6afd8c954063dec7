"""Numbered passages for generation and citation, built from reranked hits."""

from __future__ import annotations

from dataclasses import dataclass, field
from django.conf import settings

from knowledge.retrieval import Hit


@dataclass
class SourcePassage:
    """A cited passage: one chunk, or adjacent chunks of the same section merged."""

    n: int
    hits: list[Hit]
    score: float
    text: str = ""
    units: list[str] = field(default_factory=list)

    @property
    def first(self) -> Hit:
        return self.hits[0]

    @property
    def chunk_ids(self) -> list[int]:
        return [hit.chunk_id for hit in self.hits]

    @property
    def title(self) -> str:
        return self.first.title or self.first.source

    @property
    def url(self) -> str:
        """Link to the exact section in the web console."""
        # ?chunk= highlights the passage itself; the anchor still reaches the section without scripts.
        anchor = f"#{self.first.anchor}" if self.first.anchor else ""
        return f"{settings.SITE_URL}/documents/{self.first.document_id}/?chunk={self.first.chunk_id}{anchor}"

    @property
    def source_ref(self) -> str:
        return self.first.citation_source


def build_passages(hits: list[Hit], *, limit: int = 5) -> list[SourcePassage]:
    """Top hits as numbered passages; a hit adjacent to an already-chosen one in the same section merges into it."""
    passages: list[SourcePassage] = []
    for hit in hits:
        merged = False
        for passage in passages:
            same_section = passage.first.document_id == hit.document_id and passage.first.heading_text == hit.heading_text
            if same_section and any(abs(h.order - hit.order) == 1 for h in passage.hits) and len(passage.hits) < 3:
                passage.hits.append(hit)
                passage.hits.sort(key=lambda h: h.order)
                merged = True
                break
        if merged:
            continue
        if len(passages) >= limit:
            continue
        passages.append(SourcePassage(n=len(passages) + 1, hits=[hit], score=hit.score))
    for passage in passages:
        passage.text = "\n\n".join(h.text for h in passage.hits)  # chunks end at paragraph boundaries
    return passages

