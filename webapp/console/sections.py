"""Group a document's chunks back into readable sections, each headed by its citation anchor."""

from __future__ import annotations

from dataclasses import dataclass, field

from knowledge.parsing.base import text_to_rows


@dataclass
class Section:
    """Consecutive chunks under one heading; `anchor` is the id citation links jump to."""

    anchor: str
    heading: str
    trail: list[str]
    level: int
    page: int | None
    paragraphs: list[Paragraph] = field(default_factory=list)
    show_id: bool = True


@dataclass
class Paragraph:
    """One paragraph of a chunk; `cited` when it belongs to the passage a citation link points at."""

    text: str
    chunk_id: int
    cited: bool = False
    first_cited: bool = False

    @property
    def rows(self) -> list[list[str]] | None:
        """The table this paragraph holds (header row first), when it is one."""
        return text_to_rows(self.text)


def build_sections(chunks, cited_chunk: int | None = None) -> list[Section]:
    """Sections in reading order; each anchor is used as an element id once only (ids must be unique).
    The paragraphs of `cited_chunk` are marked so the page can highlight them and scroll to the first."""
    sections: list[Section] = []
    seen: set[str] = set()
    for chunk in chunks:
        path = [p for p in (chunk.heading_path or []) if p]
        current = sections[-1] if sections else None
        if current is None or current.anchor != chunk.anchor or current.trail != path[:-1] or \
                current.heading != (path[-1] if path else ""):
            current = Section(anchor=chunk.anchor, heading=path[-1] if path else "", trail=path[:-1],
                              level=min(len(path) + 1, 4) if path else 2, page=chunk.page,
                              show_id=bool(chunk.anchor) and chunk.anchor not in seen)
            seen.add(chunk.anchor)
            sections.append(current)
        cited = chunk.pk == cited_chunk
        texts = [p.strip() for p in chunk.text.split("\n\n") if p.strip()]
        current.paragraphs.extend(Paragraph(text, chunk.pk, cited, cited and i == 0) for i, text in enumerate(texts))
    return sections
