"""Numbered passages for generation and citation, built from reranked hits."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from django.conf import settings

from knowledge.retrieval import Hit, chunk_texts_at
from textcore.markers import as_literal
from textcore.sentences import LIST_ITEM, is_code_block, paragraphs


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
        return section_url(self.first, self.first.anchor)

    @property
    def source_ref(self) -> str:
        return self.first.citation_source

    def section_of(self, sentence: str) -> tuple[Hit, str]:
        """The chunk and the anchor of the section that holds `sentence` (a sentence of the answer citing this
        passage): a chunk may hold short sections merged into it, each with its own anchor. The section whose
        words cover most of the sentence's; the passage's own when none holds any of them."""
        words = set(_WORD.findall(sentence.lower()))
        best, best_share = (self.first, self.first.anchor), 0.0
        if not words:
            return best
        for hit in self.hits:
            for text, anchor in hit.spans():
                share = len(words & set(_WORD.findall(text.lower()))) / len(words)
                if share > best_share:
                    best, best_share = (hit, anchor), share
        return best


_WORD = re.compile(r"\w+")


def section_url(hit: Hit, anchor: str) -> str:
    """Link to a section of a chunk's document in the web console."""
    # ?chunk= highlights the passage itself; the anchor still reaches the section without scripts.
    return f"{settings.SITE_URL}/documents/{hit.document_id}/?chunk={hit.chunk_id}" + (f"#{anchor}" if anchor else "")


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
        # Chunks end at paragraph boundaries. Bracketed numbers of the source stay text in the answer.
        passage.text = as_literal("\n\n".join(h.text for h in passage.hits))
    _finish_lead_ins(passages)
    return passages


# A lead-in this short between a lead-in and its code is a label (a file name), not a statement of its own.
SHORT_LEAD_WORDS = 6


def _last_paragraph(text: str) -> str:
    spans = paragraphs(text)
    return text[spans[-1][0]:spans[-1][1]].rstrip() if spans else ""


def _what_it_introduces(text: str) -> str:
    """The opening of a chunk up to its first code block or list, when only short lead-ins stand before it
    (a file name: "docs/source/usage.rst:"): what a lead-in just before the chunk introduces; "" otherwise."""
    spans = paragraphs(text)
    for start, end in spans[:3]:
        block = text[start:end]
        lines = [line for line in block.split("\n") if line.strip()]
        if is_code_block(block) or (lines and LIST_ITEM.match(lines[0])):
            return text[spans[0][0]:end].strip("\n")
        if not (block.strip().endswith(":") and len(block.split()) <= SHORT_LEAD_WORDS):
            return ""
    return ""


def _finish_lead_ins(passages: list[SourcePassage]) -> None:
    """A passage that ends on a colon gets the code block or list that opens the document's next chunk: a chunk
    boundary fell between a lead-in ("replace the directive with autoexception as follows:") and what it
    introduces, or inside a code block, after a line that opens a block of its own ("class MyStep(Step):")."""
    open_ended = {p.n: (p.hits[-1].document_id, p.hits[-1].order + 1) for p in passages
                  if _last_paragraph(p.text).endswith(":")}
    if not open_ended:
        return
    following = chunk_texts_at(list(open_ended.values()))
    for passage in passages:
        block = _what_it_introduces(following.get(open_ended.get(passage.n), "")) if passage.n in open_ended else ""
        if block:
            passage.text = f"{passage.text}\n\n{as_literal(block)}"
