"""Group a document's chunks back into readable sections, each headed by its citation anchor."""

from __future__ import annotations

from dataclasses import dataclass, field

from knowledge.chunking import section_pieces
from textcore.tables import has_table


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
    def has_table(self) -> bool:
        """A Markdown pipe table is shown as a table (an HTML <table> cannot sit inside a <p>)."""
        return has_table(self.text)


def build_sections(chunks, cited_chunk: int | None = None) -> list[Section]:
    """Sections in reading order; each anchor is used as an element id once only (ids must be unique).
    A short section merged into a chunk (`Chunk.sections`) is shown under its own heading and anchor.
    The paragraphs of `cited_chunk` are marked so the page can highlight them and scroll to the first."""
    sections: list[Section] = []
    seen: set[str] = set()
    opened: set[int] = set()  # chunks whose first paragraph is placed
    for chunk, text, anchor, path, page in _pieces(chunks):
        current = sections[-1] if sections else None
        if current is None or current.anchor != anchor or current.trail != path[:-1] or \
                current.heading != (path[-1] if path else ""):
            current = Section(anchor=anchor, heading=path[-1] if path else "", trail=path[:-1],
                              level=min(len(path) + 1, 4) if path else 2, page=page,
                              show_id=bool(anchor) and anchor not in seen)
            seen.add(anchor)
            sections.append(current)
        cited = chunk.pk == cited_chunk
        texts = [p.strip() for p in text.split("\n\n") if p.strip()]
        for t in texts:
            current.paragraphs.append(Paragraph(t, chunk.pk, cited, cited and chunk.pk not in opened))
            opened.add(chunk.pk)
    return sections


def _pieces(chunks):
    """(chunk, text, anchor, heading path, page) for each section a chunk holds text of, in order; a merged
    section's text loses the heading line the chunk carries for it (the page shows it as a heading)."""
    for chunk in chunks:
        own = [p for p in (chunk.heading_path or []) if p]
        pieces = section_pieces(chunk.text, chunk.sections or [])
        if not pieces:
            yield chunk, chunk.text, chunk.anchor, own, chunk.page
        for text, mark in pieces:
            path = [p for p in (mark.get("heading") or []) if p]
            text = text.strip("\n")
            head, _, rest = text.partition("\n")
            if rest and path and head.strip() in {" > ".join(path[i:]) for i in range(len(path))}:
                text = rest
            yield chunk, text, mark["anchor"], path, mark.get("page")
