"""Structure-aware chunking of parsed documents into embedding-sized drafts (pure Python)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from knowledge.parsing.base import Block, ParsedDocument, table_to_text
from knowledge.tokens import TokenCounter
from textcore.sentences import is_code_block, sentence_spans

__all__ = ["ChunkDraft", "chunk_document", "embed_text_for", "section_pieces"]


def section_pieces(text: str, marks: list[dict]) -> list[tuple[str, dict]]:
    """A chunk's text cut at its section marks (`ChunkDraft.sections`, `Chunk.sections`): (piece, mark) in order;
    [] when the chunk has no marks (all of it is its own section's)."""
    bounds = [mark["at"] for mark in marks[1:]] + [len(text)]
    return [(text[mark["at"]:end], mark) for mark, end in zip(marks, bounds)]


def embed_text_for(heading_path: tuple[str, ...], text: str) -> str:
    """The text that gets embedded: the heading path (joined with ' > ') on a line above the text."""
    prefix = " > ".join(h for h in heading_path if h)
    return f"{prefix}\n{text}" if prefix else text


@dataclass
class ChunkDraft:
    """One chunk ready for embedding and storage."""

    order: int
    text: str
    heading_path: tuple[str, ...]
    page: int | None
    anchor: str
    token_count: int
    content_hash: str
    # Where the text passes into another section than the one before (a tiny section merged into its
    # neighbour): {"at": character offset, "anchor", "heading": the section's heading path, "page"}, the first
    # at 0. Empty when the whole text is the chunk's own section, as it mostly is.
    sections: list[dict] = field(default_factory=list)

    @property
    def embed_text(self) -> str:
        """Heading path + newline + text, exactly what is embedded and hashed."""
        return embed_text_for(self.heading_path, self.text)


@dataclass
class _Unit:
    text: str
    sep: str  # whitespace placed before this unit when it follows another in a chunk
    tokens: int = 0
    rows: list[list[str]] | None = None  # set for whole tables so they can be split by rows
    origin: tuple | None = None  # (heading path, page, anchor) of the section the text comes from


@dataclass
class _Section:
    path: tuple[str, ...]
    page: int | None
    anchor: str
    units: list[_Unit] = field(default_factory=list)

    @property
    def tokens(self) -> int:
        return sum(u.tokens for u in self.units)


_MAX_CHARS_PER_TOKEN = 8  # English prose runs at 4-5 characters a token, code and identifiers fewer


class _Counter:
    """Wraps count_tokens: content-only estimates (special tokens removed) plus batching."""

    def __init__(self, count_tokens: TokenCounter) -> None:
        self.count = count_tokens
        self._batch = getattr(count_tokens, "batch", None)
        self.base = count_tokens("")

    def content(self, texts: list[str]) -> list[int]:
        if not texts:
            return []
        totals = self._batch(texts) if self._batch else [self.count(t) for t in texts]
        # WordPiece reads any word over 100 characters as one [UNK]: a 1 MB line without spaces would
        # count as one token and become one 1 MB chunk. Text never has fewer tokens than this floor.
        return [max(0, n - self.base, len(t) // _MAX_CHARS_PER_TOKEN) for n, t in zip(totals, texts)]


def _text_units(text: str, origin: tuple | None = None) -> list[_Unit]:
    """Sentences, list items and code blocks, each with the whitespace that separated it from the last."""
    units: list[_Unit] = []
    previous_end = None
    for a, b in sentence_spans(text):
        gap = text[previous_end:a] if previous_end is not None else "\n\n"
        sep = "\n\n" if "\n\n" in gap or previous_end is None else ("\n" if "\n" in gap else " ")
        if units and units[-1].text.rstrip().endswith(":") and is_code_block(text[a:b]):
            # A lead-in ("This is what the entire workflow looks like:") and the code it introduces
            # are never cut apart.
            units[-1] = _Unit(units[-1].text + sep + text[a:b], units[-1].sep, origin=origin)
        else:
            units.append(_Unit(text[a:b], sep, origin=origin))
        previous_end = b
    return units


def _block_units(block: Block, origin: tuple) -> list[_Unit]:
    if block.kind == "table" and block.rows:
        return [_Unit(block.text, "\n\n", rows=block.rows, origin=origin)]
    return _text_units(block.text, origin)


def _sections(blocks: list[Block], counter: _Counter) -> list[_Section]:
    sections: list[_Section] = []
    for block in blocks:
        key = (tuple(block.heading_path), block.page, block.anchor)
        if not sections or (sections[-1].path, sections[-1].page, sections[-1].anchor) != key:
            sections.append(_Section(key[0], block.page, block.anchor))
        sections[-1].units.extend(_block_units(block, key))
    all_units = [u for s in sections for u in s.units]
    for unit, n in zip(all_units, counter.content([u.text for u in all_units])):
        unit.tokens = n
    return [s for s in sections if s.units]


def _related(tiny: tuple[str, ...], other: tuple[str, ...]) -> bool:
    """True when `other` sits under the tiny section's parent heading (sibling, child or deeper)."""
    parent = tiny[:-1]
    return other[: len(parent)] == parent


def _absorb(first: _Section, second: _Section, counter: _Counter) -> None:
    """Append second's units to first, led by second's own heading line so context survives."""
    common = 0
    while common < min(len(first.path), len(second.path)) and first.path[common] == second.path[common]:
        common += 1
    label = " > ".join(second.path[common:]) or (second.path[-1] if second.path != first.path and second.path else "")
    units = [_Unit(u.text, u.sep, u.tokens, u.rows, u.origin) for u in second.units]
    if units[0].origin and units[0].origin[0] != second.path:
        # `second` is cited under a section it absorbed and opens on its own heading line already: no label.
        label = ""
    if label:
        units[0].sep = "\n"
        units.insert(0, _Unit(label, "\n\n", counter.content([label])[0], origin=units[0].origin))
    else:
        units[0].sep = "\n\n"
    first.units.extend(units)


def _merge_tiny(sections: list[_Section], counter: _Counter, min_tokens: int, target: int) -> list[_Section]:
    out: list[_Section] = []
    i = 0
    while i < len(sections):
        current = sections[i]
        i += 1
        own_tokens, largest = current.tokens, None
        while (current.tokens < min_tokens and i < len(sections) and _related(current.path, sections[i].path)
               and current.tokens + sections[i].tokens + 8 <= target):
            if largest is None or sections[i].tokens > largest.tokens:
                largest = sections[i]
            _absorb(current, sections[i], counter)
            i += 1
        if largest is not None and largest.tokens > own_tokens and largest.anchor:
            # A tiny intro merged into a real section: cite (and link) the section that holds the content.
            # The intro's own heading stays as its first line, as the absorbed sections' headings do,
            # so its sentences are still read under it ("--out-dir : directory to write the output in").
            own = current.path[-1] if current.path and current.path != largest.path else ""
            if own and own not in largest.path and not current.units[0].text.startswith(own):
                current.units[0].sep = "\n"
                current.units.insert(0, _Unit(own, "\n\n", counter.content([own])[0],
                                              origin=current.units[0].origin))
            current.path, current.anchor, current.page = largest.path, largest.anchor, largest.page
        if (current.tokens < min_tokens and out and _related(current.path, out[-1].path)
                and out[-1].tokens + current.tokens + 8 <= target):
            _absorb(out[-1], current, counter)
            continue
        out.append(current)
    return out


def _shorten_path(path: tuple[str, ...], counter: _Counter, limit: int) -> tuple[str, ...]:
    """Keep the heading prefix within `limit` tokens: drop outer headings, then trim words."""
    path = tuple(path)
    while path and counter.content([" > ".join(path)])[0] > limit:
        if len(path) > 1:
            path = path[1:]
        else:
            words = path[0].split()
            path = (" ".join(words[: max(1, len(words) // 2)]) + " …",) if len(words) > 1 else (path[0][: len(path[0]) // 2],)
            if len(path[0]) <= 2:
                return ()
    return path


def _packed(items: list[str], sizes: list[int], budget: int) -> list[list[str]]:
    """Items in order, grouped greedily so that each group's sizes add up to at most `budget` (an item alone may
    exceed it)."""
    groups: list[list[str]] = []
    used = 0
    for item, size in zip(items, sizes):
        if groups and groups[-1] and used + size <= budget:
            groups[-1].append(item)
            used += size
        else:
            groups.append([item])
            used = size
    return groups


def _split_words(text: str, budget: int, counter: _Counter) -> list[str]:
    """Last resort for an over-long sentence: break on word boundaries (or characters)."""
    words = text.split()
    sizes = counter.content(words)
    pieces: list[str] = []
    start = 0  # the first word since the last one too long to share a piece
    for i, (word, size) in enumerate(zip(words, sizes)):
        if size > budget:
            pieces += [" ".join(group) for group in _packed(words[start:i], sizes[start:i], budget)]
            step = max(1, len(word) * budget // max(size, 1))
            pieces.extend(word[k:k + step] for k in range(0, len(word), step))
            start = i + 1
    pieces += [" ".join(group) for group in _packed(words[start:], sizes[start:], budget)]
    return pieces


def _split_table(unit: _Unit, budget: int, counter: _Counter) -> list[_Unit]:
    header, body = unit.rows[0], unit.rows[1:]
    row_sizes = counter.content([table_to_text([r]).split("\n")[0] for r in body])
    header_size = counter.content([table_to_text([header])])[0]
    parts: list[_Unit] = []
    group: list[list[str]] = []
    used = header_size
    for row, size in zip(body, row_sizes):
        if group and used + size > budget:
            parts.append(_Unit(table_to_text([header] + group), "\n\n"))
            group, used = [], header_size
        if header_size + size > budget:
            # A single huge row: keep the header on every piece of the row's text.
            head = table_to_text([header])
            line = table_to_text([row]).split("\n")[0]
            for piece in _split_words(line, max(8, budget - header_size), counter):
                parts.append(_Unit(head + "\n" + piece, "\n\n"))
            continue
        group.append(row)
        used += size
    if group:
        parts.append(_Unit(table_to_text([header] + group), "\n\n"))
    for part, n in zip(parts, counter.content([p.text for p in parts])):
        part.tokens, part.origin = n, unit.origin
    return parts


def _fit_units(units: list[_Unit], target: int, hard: int, counter: _Counter) -> list[_Unit]:
    out: list[_Unit] = []
    for unit in units:
        if unit.tokens <= hard:
            out.append(unit)
        elif unit.rows and len(unit.rows) > 1:
            out.extend(_split_table(unit, target, counter))
        elif "\n\n" in unit.text.strip("\n"):
            # A lead-in with its code, or a code block with blank lines, too long for one chunk: apart at
            # its blank lines (each piece keeps its layout) rather than into a run of words.
            pieces = [piece for piece in unit.text.split("\n\n") if piece.strip()]
            parts = [_Unit(piece, unit.sep if k == 0 else "\n\n", n, origin=unit.origin)
                     for k, (piece, n) in enumerate(zip(pieces, counter.content(pieces)))]
            out.extend(_fit_units(parts, target, hard, counter))
        elif is_code_block(unit.text.strip("\n")) and "\n" in unit.text.strip("\n"):
            # A code block without blank lines, too long for one chunk: apart between its lines, each piece
            # still a code block with its indentation, never a run of words.
            pieces = _split_lines(unit.text.strip("\n"), target, counter)
            parts = [_Unit(piece, unit.sep if k == 0 else "\n\n", n, origin=unit.origin)
                     for k, (piece, n) in enumerate(zip(pieces, counter.content(pieces)))]
            out.extend(_fit_units(parts, target, hard, counter) if len(parts) > 1 else parts)
        else:
            pieces = _split_words(unit.text, target, counter)
            for k, (piece, n) in enumerate(zip(pieces, counter.content(pieces))):
                out.append(_Unit(piece, unit.sep if k == 0 else " ", n, origin=unit.origin))
    return out


def _split_lines(text: str, budget: int, counter: _Counter) -> list[str]:
    """A code block's lines packed into pieces of about `budget` tokens (a line alone may exceed it)."""
    lines = text.split("\n")
    return ["\n".join(group) for group in _packed(lines, counter.content(lines), budget)]


def _pack(units: list[_Unit], target: int, hard: int, min_tokens: int) -> list[list[_Unit]]:
    groups: list[list[_Unit]] = []
    current: list[_Unit] = []
    used = 0
    for index, unit in enumerate(units):
        if current and unit.sep == "\n\n" and used >= target // 2:
            # Prefer to end a half-full chunk at a paragraph boundary than to cut a paragraph.
            para = unit.tokens
            for nxt in units[index + 1:]:
                if nxt.sep == "\n\n" or used + para > target:
                    break
                para += nxt.tokens
            if used + para > target:
                groups.append(current)
                current, used = [], 0
        if current and used + unit.tokens > target:
            groups.append(current)
            current, used = [], 0
        current.append(unit)
        used += unit.tokens
    if current:
        groups.append(current)
    if len(groups) > 1 and used < min_tokens and sum(u.tokens for u in groups[-2]) + used <= hard:
        groups[-2].extend(groups.pop())  # fold a tiny tail into its predecessor
    return groups


def _join(units: list[_Unit]) -> tuple[str, list[int]]:
    """The units' text, joined by their separators, and where each unit starts in it."""
    text, starts = units[0].text, [0]
    for unit in units[1:]:
        text += unit.sep
        starts.append(len(text))
        text += unit.text
    lead = len(text) - len(text.lstrip("\n"))
    # Leading spaces may be a code block's indentation: only newlines go at the start.
    return text.strip("\n").rstrip(), [max(0, start - lead) for start in starts]


def _marks(units: list[_Unit], starts: list[int], own: tuple) -> list[dict]:
    """Where the joined text of `units` (each starting at `starts`) passes from one section to another ({"at",
    "anchor", "heading", "page"}, the first at 0); empty when all of it is the `own` section's."""
    if all(unit.origin in (None, own) for unit in units):
        return []
    marks: list[dict] = []
    for unit, start in zip(units, starts):
        path, page, anchor = unit.origin or own
        if not marks or (marks[-1]["anchor"], marks[-1]["heading"], marks[-1]["page"]) != (anchor, list(path), page):
            marks.append({"at": start if marks else 0, "anchor": anchor, "heading": list(path), "page": page})
    return marks if len(marks) > 1 or marks[0]["anchor"] != own[2] else []


def _enforce(path: tuple[str, ...], group: list[_Unit], max_tokens: int,
             counter: _Counter) -> list[tuple[str, int, list[_Unit], list[int]]]:
    """Measure the real embed text and split until every piece is within max_tokens: (text, tokens, its units,
    where each unit starts in the text)."""
    text, starts = _join(group)
    total = counter.count(embed_text_for(path, text))
    if total <= max_tokens:
        return [(text, total, group, starts)]
    if len(group) > 1:
        mid = len(group) // 2
        return _enforce(path, group[:mid], max_tokens, counter) + _enforce(path, group[mid:], max_tokens, counter)
    over = total - max_tokens
    budget = max(1, group[0].tokens - over - 1)
    pieces = _split_words(text, budget, counter)
    if len(pieces) == 1 and pieces[0] == text:
        pieces = [text[: len(text) // 2], text[len(text) // 2:]]
    units = [_Unit(p, " ", n, origin=group[0].origin) for p, n in zip(pieces, counter.content(pieces))]
    return [r for u in units for r in _enforce(path, [u], max_tokens, counter)]


def chunk_document(
    doc: ParsedDocument,
    count_tokens: TokenCounter,
    max_tokens: int = 256,
    target_tokens: int = 200,
    min_tokens: int = 40,
) -> list[ChunkDraft]:
    """Split a parsed document into chunks whose embed text never exceeds max_tokens."""
    counter = _Counter(count_tokens)
    target_tokens = min(target_tokens, max_tokens)
    sections = _merge_tiny(_sections(doc.blocks, counter), counter, min_tokens, target_tokens)
    drafts: list[ChunkDraft] = []
    for section in sections:
        path = _shorten_path(section.path, counter, max(8, max_tokens // 3))
        overhead = counter.count(embed_text_for(path, "x")) - counter.count("x") + counter.base
        hard = max(1, max_tokens - overhead)
        target = max(1, min(hard, target_tokens - overhead))
        units = _fit_units(section.units, target, hard, counter)
        for group in _pack(units, target, hard, min_tokens):
            for text, total, pieces, starts in _enforce(path, group, max_tokens, counter):
                embed = embed_text_for(path, text)
                drafts.append(ChunkDraft(
                    order=len(drafts), text=text, heading_path=path, page=section.page,
                    anchor=section.anchor, token_count=total,
                    content_hash=hashlib.sha256(embed.encode("utf-8")).hexdigest(),
                    sections=_marks(pieces, starts, (section.path, section.page, section.anchor)),
                ))
    return drafts
