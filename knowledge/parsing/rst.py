"""reStructuredText parsing with docutils: sections, paragraphs, lists, definitions, tables and code as blocks.

The Sphinx roles and directives docutils lacks are rendered by knowledge/parsing/sphinx_directives.py; a .txt
file is read here when it is written in reST (`looks_like_rst`).
"""

from __future__ import annotations

import io
import logging
import re

from docutils import nodes
from docutils.core import publish_doctree

from textcore.sentences import code_block, is_code_block

from .base import Block, IngestionError, ParsedDocument, label_row, table_block, with_term
from .sphinx_directives import install_fallbacks

__all__ = ["looks_like_rst", "parse_rst"]

log = logging.getLogger(__name__)

def _text(node) -> str:
    return " ".join(node.astext().split())


def _bold_row(row) -> bool:
    """Every filled entry of the row is bold text and nothing else ("| **Example** | **Meaning** |")."""
    filled = [entry for entry in row.children if isinstance(entry, nodes.entry) and _text(entry)]
    return bool(filled) and all(_text(entry) == " ".join(_text(s) for s in entry.findall(nodes.strong))
                                for entry in filled)


def _has_header(table, rows: list) -> bool:
    """A header row marked as such (a "===" rule in a grid table), or, in a table without that rule, a first
    row of column names ("Variable | Template | Result") or of bold text over rows that are not."""
    if any(True for _ in table.findall(nodes.thead)):
        return True
    if rows and label_row([_text(e) for e in rows[0].children if isinstance(e, nodes.entry)]):
        return True
    return bool(rows) and _bold_row(rows[0]) and not all(_bold_row(row) for row in rows[1:])


class _Sections:
    """Heading stack plus paragraphs, emitting one block per section."""

    def __init__(self) -> None:
        self.stack: list[tuple[int, str, str]] = []
        self.blocks: list[Block] = []
        self.paragraphs: list[str] = []

    def path(self) -> tuple[str, ...]:
        return tuple(text for _, text, _ in self.stack)

    def heading(self, level: int, text: str, anchor: str) -> None:
        self.flush()
        while self.stack and self.stack[-1][0] >= level:
            self.stack.pop()
        self.stack.append((level, text, anchor))

    def flush(self) -> None:
        text = "\n\n".join(p for p in self.paragraphs if p.strip()).strip("\n")
        if text:
            self.blocks.append(Block("text", text, self.path(), anchor=self.stack[-1][2] if self.stack else ""))
        self.paragraphs.clear()

    def table(self, rows: list[list[str]], header: bool = True) -> None:
        self.flush()
        block = table_block(rows, self.path(), anchor=self.stack[-1][2] if self.stack else "", header=header)
        if block:
            self.blocks.append(block)


def _code(node) -> str:
    return code_block(node.astext().strip("\n").split("\n"))


def _paragraphs(parts: list[str]) -> list[str]:
    """Lines of text joined into paragraphs, each code block (indented four spaces) a paragraph of its own:
    joined to the text around it, its lines would read as sentences and the text after it as code."""
    out: list[str] = []
    text: list[str] = []
    for part in parts:
        if is_code_block(part):
            if text:
                out.append("\n".join(text))
                text = []
            out.append(part)
        else:
            text.append(part)
    if text:
        out.append("\n".join(text))
    return out


def _definition(term: str, body) -> list[str]:
    """'term: first paragraph' with the rest of the definition on following lines of one paragraph (a code
    block in it a paragraph of its own). Definitions nested in it (a class's methods and attributes) follow
    as paragraphs of their own, each with its own term."""
    parts: list[str] = []
    nested: list[str] = []
    for child in _unwrapped(body.children):
        if isinstance(child, (nodes.literal_block, nodes.doctest_block)):
            parts.append(_code(child))
        elif isinstance(child, (nodes.bullet_list, nodes.enumerated_list)):
            parts.extend(_list_lines(child))
        elif isinstance(child, nodes.definition_list):
            for item in child.children:
                nested.extend(_definition_item(item))
        elif isinstance(child, nodes.Admonition) and not isinstance(child, nodes.admonition) and _text(child):
            parts.append(f"{child.tagname.capitalize()}: {_text(child)}")
        elif isinstance(child, nodes.Element) and _text(child):
            parts.append(_text(child))
    if not parts:
        return [term] + nested
    if is_code_block(parts[0]):
        out = _paragraphs([term if term.endswith(":") else f"{term}:"] + parts)
    else:
        out = _paragraphs([with_term(term, parts[0].lstrip())] + parts[1:])
    # Text after a code block keeps the term, as the definition's later sentences do ("term: Then more.").
    return [out[0]] + [p if is_code_block(p) or p.lower().startswith(term.lower()) else with_term(term, p)
                       for p in out[1:]] + nested


def _unwrapped(children):
    """Children with the plain containers a directive leaves (".. only::", a version note's wrapper) opened up,
    so that a definition list inside one is still read as definitions."""
    for child in children:
        if isinstance(child, nodes.container) and child.next_node(nodes.definition_list) is not None:
            yield from _unwrapped(child.children)
        else:
            yield child


def _definition_item(item) -> list[str]:
    """The paragraphs of one definition list item: its terms (joined) and its definition."""
    terms = [_text(t) for t in item.children if isinstance(t, nodes.term)]
    body = next((d for d in item.children if isinstance(d, nodes.definition)), None)
    return _definition(", ".join(terms), body) if body is not None else [", ".join(terms)]


def _list_lines(node, depth: int = 0) -> list[str]:
    """One line per item (a nested list's items indented under it, as the HTML parser writes them), and each
    code block of an item a part of its own, after the item's text."""
    ordered = isinstance(node, nodes.enumerated_list)
    out: list[str] = []
    for n, item in enumerate(node.children, start=1):
        marker = "  " * depth + (f"{n}." if ordered else "-")
        text: list[str] = []
        after: list[str] = []
        for child in item.children:
            if isinstance(child, (nodes.literal_block, nodes.doctest_block)):
                after.append(_code(child))
            elif isinstance(child, (nodes.bullet_list, nodes.enumerated_list)):
                after.extend(_list_lines(child, depth + 1))  # a nested list: its items on lines of their own
            elif isinstance(child, nodes.Element) and _text(child):
                (after if after else text).append(_text(child))
        out.append(f"{marker} {' '.join(text)}".rstrip())
        out.extend(after)  # what follows an item's code block (its text reads as a paragraph of its own)
    return out


def _walk(node, sections: _Sections, level: int) -> None:
    for child in node.children:
        if isinstance(child, nodes.section):
            title = child.next_node(nodes.title)
            text = _text(title) if title is not None else ""
            sections.heading(level, text, nodes.make_id(text) if text else "")
            _walk(child, sections, level + 1)
            sections.flush()
            while sections.stack and sections.stack[-1][0] >= level:
                sections.stack.pop()  # leaving a section: its heading no longer applies
        elif isinstance(child, nodes.subtitle) and isinstance(child.parent, nodes.document):
            # docutils makes the title of a document's only section its subtitle and hoists that section's
            # text to the document: the text after it is still that section's.
            text = _text(child)
            sections.heading(level, text, nodes.make_id(text) if text else "")
        elif isinstance(child, (nodes.title, nodes.system_message, nodes.comment,
                                nodes.substitution_definition, nodes.target, nodes.docinfo, nodes.raw,
                                nodes.problematic)):
            continue
        elif isinstance(child, nodes.topic) and "contents" in child.get("classes", []):
            continue  # a generated table of contents
        elif isinstance(child, nodes.table):
            rows = list(child.findall(nodes.row))
            sections.table([[_text(entry) for entry in row.children if isinstance(entry, nodes.entry)]
                            for row in rows], header=_has_header(child, rows))
        elif isinstance(child, (nodes.bullet_list, nodes.enumerated_list)):
            sections.paragraphs.extend(_paragraphs(_list_lines(child)))
        elif isinstance(child, (nodes.literal_block, nodes.doctest_block)):
            sections.paragraphs.append(_code(child))
        elif isinstance(child, nodes.definition_list):
            for item in child.children:
                sections.paragraphs.extend(_definition_item(item))
        elif isinstance(child, nodes.field_list):
            for field in child.children:
                sections.paragraphs.extend(_definition(_text(field[0]), field[1]))
        elif isinstance(child, nodes.option_list):
            for item in child.children:
                sections.paragraphs.extend(_definition(_text(item[0]), item[1]))
        elif isinstance(child, nodes.Admonition):
            # A note says "Note: …"; a titled admonition (".. admonition:: Why drain?") leads with its title.
            title = child.next_node(nodes.title) if isinstance(child, nodes.admonition) else None
            label = _text(title).rstrip(":") if title is not None else child.tagname.capitalize()
            first = child.next_node(nodes.paragraph)
            if first is not None and label:
                first.insert(0, nodes.Text(f"{label} " if label.endswith(("?", "!", ".")) else f"{label}: "))
            _walk(child, sections, level)
        elif isinstance(child, (nodes.paragraph, nodes.line_block)):
            sections.paragraphs.append(_text(child))
        elif isinstance(child, nodes.Element) and child.children and not isinstance(child, nodes.TextElement):
            _walk(child, sections, level)  # containers: admonitions, block quotes, generic directives
        elif isinstance(child, nodes.Element) and _text(child):
            sections.paragraphs.append(_text(child))


_DIRECTIVE_LINE = re.compile(r"^\.\. [A-Za-z][\w:-]*::", re.M)
_ROLE = re.compile(r"(?<![\w`]):[a-z][\w:+.-]*:`[^`\n]+`")
_UNDERLINED = re.compile(r"^(\S[^\n]*)\n([=\-~^\"'`#*+])\2{2,}[ \t]*$", re.M)
# A .txt file is read as reStructuredText when it has this much of its markup: directives and roles together,
# or one of them under an underlined heading. Plain text with underlined headings alone stays plain text.
_RST_MARKS = 3


def looks_like_rst(text: str) -> bool:
    """A text file written in reStructuredText (Sphinx projects keep their sources as .txt too): directives
    (".. code-block::") and roles (":setting:`DEBUG`") that plain-text reading would leave in the answers."""
    marks = len(_DIRECTIVE_LINE.findall(text)) + len(_ROLE.findall(text))
    if marks >= _RST_MARKS:
        return True
    headed = any(len(m.group(0).split("\n")[1].strip()) >= len(m.group(1).strip()) for m in _UNDERLINED.finditer(text))
    return marks >= 1 and headed


def parse_rst(text: str, filename: str) -> ParsedDocument | None:
    """Parse reStructuredText with docutils; None when docutils cannot read it (caller falls back)."""
    install_fallbacks()
    try:
        doctree = publish_doctree(text, settings_overrides={
            "report_level": 5, "halt_level": 5, "warning_stream": io.StringIO(),
            # Uploaded files must not be able to read server files or inject raw HTML.
            "file_insertion_enabled": False, "raw_enabled": False, "_disable_config": True,
        })
    except Exception:  # noqa: BLE001 - docutils raises a variety of errors on malformed input
        log.info("docutils failed on %s; using plain-text parsing", filename, exc_info=True)
        return None
    for node in list(doctree.findall(nodes.problematic)):
        # A substitution Sphinx fills from the project's configuration ("|version|", "|release|") is undefined
        # here: it reads as its name rather than as markup.
        text = node.astext()
        if re.fullmatch(r"\|[^|\s][^|]*\|_{0,2}", text):
            node.parent.replace(node, nodes.Text(text.strip("_").strip("|")))
    sections = _Sections()
    title = " ".join(doctree["title"].split()) if doctree.get("title") else ""
    level = 1
    if title:
        sections.stack.append((1, title, nodes.make_id(title)))
        level = 2
    _walk(doctree, sections, level)
    sections.flush()
    if not sections.blocks:
        raise IngestionError(f"{filename} has no text of its own to index (only a title, includes or "
                             "directives); upload the document it includes instead.")
    return ParsedDocument(title=title, blocks=sections.blocks, metadata=_docinfo(doctree))


def _docinfo(doctree) -> dict:
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
    return meta
