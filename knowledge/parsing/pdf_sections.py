"""PDF sections: turns the ordered lines and tables of a document's pages into heading-scoped
Blocks, finding headings from the outline when there is one and from font size and weight when not."""

from __future__ import annotations

import re
from collections import Counter

from textcore.sentences import code_block

from .base import Block, table_block
from .pdf_extract import _Line
from .pdf_furniture import (_DOT_LEADER, _PAGE_NUMBER, _is_contents_page, _is_running_title, _normal, _running_lines,
                            chapter_running_lines)
from .pdf_headings import _NUMBERED_HEADING, _key, _looks_like_heading
from .pdf_text import _BULLET, _clean_line, _join_lines


# A figure's or a table's caption ("Table 1: Drawing attributes") stands beside the text, not in it: a sentence
# interrupted by the figure goes on after it.
_CAPTION = re.compile(r"^(?:Table|Figure|Fig\.|Listing|Example)\s+[\dIVX]+[.:]?\s", re.I)
_LABEL_CHARS = 60


class _PageBuilder:
    """Turns the ordered lines and tables of pages into heading-scoped Blocks."""

    def __init__(self, title: str, pages: list[list[tuple[float, object]]],
                 outline: list[tuple[int, str, int]] | None = None) -> None:
        self.title = title
        self.stack: list[tuple[int, str]] = []
        self.blocks: list[Block] = []
        # With an outline (bookmarks), sections come from it and font sizes are not guessed at.
        self.outline: dict[int, list[tuple[int, str]]] = {}
        for level, text, index in outline or []:
            self.outline.setdefault(index + 1, []).append((level, text))
        lines = [it for items in pages for _, it in items if isinstance(it, _Line) and it.text.strip()]
        weights: Counter[float] = Counter()
        for line in lines:
            if line.size:
                weights[line.size] += len(line.text)
        self.body = weights.most_common(1)[0][0] if weights else None
        sizes = sorted({ln.size for ln in lines if ln.size and self._big(ln)}, reverse=True)
        self.levels = {size: rank for rank, size in enumerate(sizes)}
        self.running = _running_lines(pages)
        self.chapter_running = chapter_running_lines(pages)
        # A document whose big-font headings are numbered ("2.1 Node Shapes") numbers all of them:
        # an unnumbered big line there is a figure label, not a heading.
        big = [ln.text.strip() for ln in lines if self._big(ln)]
        self.numbered = sum(1 for t in big if _NUMBERED_HEADING.match(t)) >= 3
        # The last text block when it stopped mid-sentence at the foot of a page: the next page's first
        # paragraph finishes that sentence, whatever tables or figures stand between them.
        self.open_block: int | None = None

    def _big(self, line: _Line) -> bool:
        return bool(self.body and line.size and line.size >= self.body * 1.12)

    def heading_level(self, line: _Line, text: str, prev_ended: bool) -> int | None:
        """Level of a heading line (0 = largest), or None for body text."""
        if self.outline:
            return None
        if self.numbered and not _NUMBERED_HEADING.match(text):
            return None
        if self.body is None or line.size is None:
            return len(self.levels) if _looks_like_heading(text, prev_ended) else None
        if not any(ch.isalpha() for ch in text) or text.endswith((".", ",", ";")) or len(text) > 120:
            return None
        if self._big(line):
            return self.levels.get(line.size, 0)
        if line.bold and line.size >= self.body * 0.95 and prev_ended and len(text) <= 80:
            return len(self.levels)  # a bold body-size line is the smallest heading level
        return None

    @property
    def path(self) -> tuple[str, ...]:
        return (self.title,) + tuple(text for _, text in self.stack if text != self.title)

    def running_title(self, line: str) -> bool:
        """The document title with a page number before or after it: a running header."""
        return _is_running_title(line, self.title)

    def _finish_sentence(self, text: str) -> str:
        """Move the head of `text` that finishes the open block's last sentence onto that block; return
        the rest. Only a continuation qualifies: text that opens in lower case, and only up to the first line
        that ends a sentence (the rest stays on its own page). The two join as wrapped lines do."""
        block = self.blocks[self.open_block]
        first, sep, rest = text.partition("\n")
        if not first[:1].islower():
            return text
        joined = _join_lines([block.text, first])
        self.blocks[self.open_block] = Block("text", joined, block.heading_path, block.page, block.anchor)
        return rest.strip() if sep else ""

    def enter(self, level: int, text: str) -> None:
        """Open a section at this level (closing deeper and equal ones)."""
        while self.stack and self.stack[-1][0] >= level:
            self.stack.pop()
        self.stack.append((level, text))

    def add_page(self, page_no: int, items: list[tuple[float, object]]) -> None:
        """items: (top, _Line | rows) in reading order."""
        if _is_contents_page([_clean_line(it.text) for _, it in items if isinstance(it, _Line)]):
            return
        pending: list[str] = []
        prev_ended = True
        entries = list(self.outline.get(page_no, []))
        line_keys = {_key(_clean_line(it.text)) for _, it in items if isinstance(it, _Line)}
        # Bookmarks whose title is not a line of the page start where the page starts.
        while entries and _key(entries[0][1]) not in line_keys:
            self.enter(*entries.pop(0))

        def flush() -> None:
            text = _join_lines(pending)
            pending.clear()
            if not text:
                return  # a table or a heading next, with no text before it: a sentence may still be open
            # A caption or a short label line ("Limits by city" over a table) stands beside the text: it
            # neither finishes nor opens a sentence.
            caption = "\n" not in text and (bool(_CAPTION.match(text)) or len(text) < _LABEL_CHARS)
            if self.open_block is not None and not caption:
                text = self._finish_sentence(text)
                self.open_block = None
            if text:
                self.blocks.append(Block("text", text, self.path, page=page_no, anchor=f"page-{page_no}"))
                if not prev_ended and not caption:
                    self.open_block = len(self.blocks) - 1

        code: list[str] = []

        def flush_code() -> None:
            # Lines set in a monospaced font are code: a block of their own, each line kept.
            if code:
                self.blocks.append(Block("text", code_block(code), self.path, page=page_no,
                                         anchor=f"page-{page_no}"))
                code.clear()

        for position, (_, item) in enumerate(items):
            if code and not (isinstance(item, _Line) and item.mono and _clean_line(item.text)):
                flush_code()
            if not isinstance(item, _Line):
                flush()
                block = table_block(item, self.path, page=page_no, anchor=f"page-{page_no}")  # type: ignore[arg-type]
                if block:
                    self.blocks.append(block)
                prev_ended = True
                continue
            line = _clean_line(item.text)
            if not line:
                pending.append("")
                prev_ended = True
                continue
            if self.running_title(line) or _PAGE_NUMBER.match(line) or _normal(line) in self.running \
                    or _DOT_LEADER.search(line):
                continue  # running headers, footers, page numbers and contents lines add nothing
            if entries and _key(line) == _key(entries[0][1]):
                flush()
                self.open_block = None
                self.enter(*entries.pop(0))
                while entries and _key(entries[0][1]) not in line_keys:
                    self.enter(*entries.pop(0))
                prev_ended = True
                continue
            if id(item) in self.chapter_running:
                continue  # a chapter's running header (the chapter's own heading line entered its section above)
            if (self.body and item.size and item.size < self.body * 0.9 and len(line) < 100
                    and (position <= 1 or position >= len(items) - 2)):
                continue  # small print at the very top or bottom of a page is a header/footer
            level = self.heading_level(item, line, prev_ended)
            if level is not None:
                flush()
                self.open_block = None  # a new section: the sentence before it ended there
                low, title = line.lower(), self.title.lower()
                if page_no == 1 and not self.blocks and not self.stack and (title in low or low in title):
                    self.stack.append((-1, self.title))  # the cover heading is the title itself
                    continue
                while self.stack and self.stack[-1][0] >= level:
                    self.stack.pop()
                self.stack.append((level, line))
                prev_ended = True
                continue
            # A lone monospaced word inside a sentence that wraps around it ("edit\nupsd.conf\nand …") is text.
            if item.mono and (code or prev_ended or " " in line):
                flush()
                self.open_block = None  # a sentence does not go on across code
                code.append(line)
                prev_ended = True
                continue
            pending.append(line)
            prev_ended = line[-1] in ".!?:;" or bool(_BULLET.match(line))
        flush()
        flush_code()
