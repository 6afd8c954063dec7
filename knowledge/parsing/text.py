"""Plain-text and reStructuredText parsing."""

from __future__ import annotations

import io
import logging
import re

from .base import Block, IngestionError, ParsedDocument, slugify_heading, table_block

__all__ = ["parse_plain_text", "parse_rst"]

log = logging.getLogger(__name__)

_UNDERLINE = re.compile(r"^\s*([=\-~^*#+])\1{2,}\s*$")
_UNDERLINE_LEVEL = {"=": 1, "#": 1, "*": 1, "-": 2, "~": 3, "^": 3, "+": 3}


def _stem(filename: str) -> str:
    return re.sub(r"\.[A-Za-z0-9]+$", "", filename.rsplit("/", 1)[-1]) or "Untitled document"


def _is_caps_heading(line: str) -> bool:
    text = line.strip()
    letters = [c for c in text if c.isalpha()]
    return (3 <= len(text) <= 60 and len(letters) >= 3 and text.upper() == text
            and len(text.split()) <= 8 and not text.endswith((".", ",", ";")))


class _Sections:
    """Heading stack plus blocks, shared by the text and RST parsers."""

    def __init__(self) -> None:
        self.stack: list[tuple[int, str]] = []
        self.blocks: list[Block] = []
        self.lines: list[str] = []

    def path(self) -> tuple[str, ...]:
        return tuple(text for _, text in self.stack)

    def anchor(self) -> str:
        return slugify_heading(self.stack[-1][1]) if self.stack else ""

    def heading(self, level: int, text: str) -> None:
        self.flush()
        while self.stack and self.stack[-1][0] >= level:
            self.stack.pop()
        self.stack.append((level, text))

    def flush(self) -> None:
        text = re.sub(r"\n{3,}", "\n\n", "\n".join(self.lines)).strip()
        if text:
            self.blocks.append(Block("text", text, self.path(), anchor=self.anchor()))
        self.lines.clear()

    def table(self, rows: list[list[str]]) -> None:
        self.flush()
        block = table_block(rows, self.path(), anchor=self.anchor())
        if block:
            self.blocks.append(block)


def parse_plain_text(text: str, filename: str) -> ParsedDocument:
    """Parse plain text: blank-line paragraphs, underlined or ALL CAPS lines as headings."""
    sections = _Sections()
    lines = text.split("\n")
    first_heading = ""
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        prev_blank = i == 0 or not lines[i - 1].strip()
        underline = _UNDERLINE.match(nxt)
        if line.strip() and underline and len(nxt.strip()) >= min(3, len(line.strip())) and not _UNDERLINE.match(line):
            sections.heading(_UNDERLINE_LEVEL.get(underline.group(1), 2), line.strip())
            first_heading = first_heading or line.strip()
            i += 2
            continue
        next_blank = not nxt.strip()
        if not first_heading and not any(x.strip() for x in lines[:i]) and _is_caps_heading(line):
            sections.heading(0, line.strip())  # an ALL CAPS first line is the document title
            first_heading = line.strip()
            i += 1
            continue
        if prev_blank and next_blank and _is_caps_heading(line):
            sections.heading(1, line.strip())
            first_heading = first_heading or line.strip()
            i += 1
            continue
        sections.lines.append(line.strip())
        i += 1
    sections.flush()
    if not sections.blocks:
        raise IngestionError(f"{filename} contains no text to index; it is empty or whitespace only.")
    return ParsedDocument(title=first_heading or _stem(filename), blocks=sections.blocks, metadata={})


def _rst_table_rows(table) -> list[list[str]]:
    from docutils import nodes

    rows: list[list[str]] = []
    for row in table.findall(nodes.row):
        rows.append([" ".join(entry.astext().split()) for entry in row.children if isinstance(entry, nodes.entry)])
    return rows


def _walk_rst(node, sections: _Sections, level: int) -> None:
    from docutils import nodes

    for child in node.children:
        if isinstance(child, nodes.section):
            title = child.next_node(nodes.title)
            sections.heading(level, " ".join(title.astext().split()) if title is not None else "")
            _walk_rst(child, sections, level + 1)
            sections.flush()
            # Leaving a section: its heading no longer applies to what follows.
            while sections.stack and sections.stack[-1][0] >= level:
                sections.stack.pop()
        elif isinstance(child, (nodes.title, nodes.subtitle, nodes.system_message, nodes.comment,
                                nodes.substitution_definition, nodes.target, nodes.docinfo, nodes.raw)):
            continue
        elif isinstance(child, nodes.table):
            sections.table(_rst_table_rows(child))
        elif isinstance(child, (nodes.bullet_list, nodes.enumerated_list)):
            for number, item in enumerate(child.children, start=1):
                marker = f"{number}." if isinstance(child, nodes.enumerated_list) else "-"
                sections.lines.append(f"{marker} {' '.join(item.astext().split())}")
            sections.lines.append("")
        elif isinstance(child, (nodes.literal_block, nodes.doctest_block)):
            sections.lines.extend([child.astext(), ""])
        elif isinstance(child, nodes.term):
            sections.lines.append(" ".join(child.astext().split()))  # keep a term next to its definition
        elif isinstance(child, (nodes.paragraph, nodes.line_block)):
            sections.lines.extend([" ".join(child.astext().split()), ""])
        elif isinstance(child, nodes.Element) and child.children and not isinstance(child, nodes.TextElement):
            _walk_rst(child, sections, level)  # containers: admonitions, block quotes, definition lists
        elif isinstance(child, nodes.Element):
            text = " ".join(child.astext().split())
            if text:
                sections.lines.extend([text, ""])


def parse_rst(text: str, filename: str) -> ParsedDocument:
    """Parse reStructuredText with docutils; fall back to plain-text rules if docutils fails."""
    try:
        from docutils import nodes
        from docutils.core import publish_doctree

        doctree = publish_doctree(text, settings_overrides={
            "report_level": 5, "halt_level": 5, "warning_stream": io.StringIO(),
            # Uploaded files must not be able to read server files or inject raw HTML.
            "file_insertion_enabled": False, "raw_enabled": False, "_disable_config": True,
        })
    except Exception:  # noqa: BLE001 - docutils raises a variety of errors on malformed input
        log.info("docutils failed on %s; using plain-text parsing", filename, exc_info=True)
        return parse_plain_text(text, filename)

    sections = _Sections()
    title = " ".join(doctree["title"].split()) if doctree.get("title") else ""
    level = 1
    if title:
        sections.stack.append((1, title))
        level = 2
    meta: dict = {}
    for info in doctree.findall(nodes.docinfo):
        for field in info.children:
            name = field.tagname.lower()
            if name == "field" and len(field.children) == 2:
                name, value = field.children[0].astext().lower(), field.children[1].astext()
            else:
                value = field.astext()
            if name in ("author", "authors") and value:
                meta["author"] = value.strip()
            elif name == "date" and value:
                meta["created"] = value.strip()
            elif name in ("updated", "modified", "revision date", "last updated") and value:
                meta["modified"] = value.strip()
    _walk_rst(doctree, sections, level)
    sections.flush()
    if not sections.blocks:
        return parse_plain_text(text, filename)
    return ParsedDocument(title=title or _stem(filename), blocks=sections.blocks, metadata=meta)
