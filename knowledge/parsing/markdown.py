"""Markdown parsing with markdown-it-py: front matter, headings, lists, code and pipe tables (MyST pages read
through knowledge/parsing/myst.py first)."""

from __future__ import annotations

import re

from markdown_it import MarkdownIt

from textcore.sentences import code_block

from .base import Block, IngestionError, ParsedDocument, github_slug, table_block
from .myst import myst_to_markdown

__all__ = ["parse_markdown", "split_front_matter"]

_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?)\n(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.S)
_KEY_VALUE = re.compile(r"^([A-Za-z_][\w-]*)\s*:\s*(.*)$")


def split_front_matter(text: str) -> tuple[dict[str, str], str]:
    """Split a leading YAML-ish `---` block off the text; return (simple key/values, body)."""
    match = _FRONT_MATTER.match(text)
    if not match:
        return {}, text
    fields: dict[str, str] = {}
    for line in match.group(1).splitlines():
        kv = _KEY_VALUE.match(line)
        if kv:
            fields[kv.group(1).lower()] = kv.group(2).strip().strip("\"'")
    # Only treat it as front matter if it looks like key/value data, not a thematic break.
    if not fields:
        return {}, text
    return fields, text[match.end():]


def _inline_text(token) -> str:
    """Plain text of an inline token: link text kept, markup dropped, line breaks kept as newlines."""
    parts: list[str] = []
    for child in token.children or []:
        if child.type in ("text", "code_inline", "html_inline"):
            parts.append(child.content if child.type != "html_inline" else "")
        elif child.type == "softbreak":
            parts.append(" ")  # a wrapped source line, not a break
        elif child.type == "hardbreak":
            parts.append("\n")
        elif child.type == "image":
            parts.append(child.content or "")
    return "".join(parts).strip()


class _Builder:
    """Accumulates paragraphs under the current heading path and emits Blocks."""

    def __init__(self) -> None:
        self.stack: list[tuple[int, str, str]] = []
        self.blocks: list[Block] = []
        self.lines: list[str] = []  # paragraphs; list items of one list share a paragraph
        self.first_h1 = ""
        self.slugs: dict[str, int] = {}

    def path(self) -> tuple[str, ...]:
        return tuple(text for _, text, _ in self.stack)

    def anchor(self) -> str:
        return self.stack[-1][2] if self.stack else ""

    def flush(self) -> None:
        text = "\n\n".join(p for p in self.lines if p.strip()).strip("\n")
        if text:
            self.blocks.append(Block("text", text, self.path(), anchor=self.anchor()))
        self.lines.clear()

    def heading(self, level: int, text: str) -> None:
        self.flush()
        if not text:
            return
        if level == 1 and not self.first_h1:
            self.first_h1 = text
        while self.stack and self.stack[-1][0] >= level:
            self.stack.pop()
        slug = github_slug(text)
        seen = self.slugs.get(slug, 0)
        self.slugs[slug] = seen + 1
        self.stack.append((level, text, f"{slug}-{seen}" if seen else slug))

    def table(self, rows: list[list[str]]) -> None:
        self.flush()
        block = table_block(rows, self.path(), anchor=self.anchor())
        if block:
            self.blocks.append(block)


def parse_markdown(text: str, filename: str) -> ParsedDocument:
    """Parse Markdown text into heading-scoped blocks; front matter goes to metadata."""
    fields, body = split_front_matter(text)
    tokens = MarkdownIt("commonmark").enable("table").parse(myst_to_markdown(body))
    builder = _Builder()
    list_stack: list[list] = []  # [kind, counter] per open list
    item_fresh: list[bool] = []  # whether the current list item has not printed its marker yet
    row: list[str] | None = None
    rows: list[list[str]] = []
    in_list_paragraph = False
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        kind = tok.type
        if kind == "heading_open":
            builder.heading(int(tok.tag[1]), " ".join(_inline_text(tokens[i + 1]).split()))
            i += 3
            continue
        if kind in ("bullet_list_open", "ordered_list_open"):
            if not list_stack:
                in_list_paragraph = False
            start = int(tok.attrGet("start") or 1) if kind == "ordered_list_open" else 0
            list_stack.append(["ol" if kind == "ordered_list_open" else "ul", start])
        elif kind in ("bullet_list_close", "ordered_list_close"):
            list_stack.pop()
        elif kind == "list_item_open":
            item_fresh.append(True)
        elif kind == "list_item_close":
            item_fresh.pop()
        elif kind == "inline" and row is not None:
            row.append(" ".join(_inline_text(tok).split()))
        elif kind == "inline":
            content = _inline_text(tok)
            if list_stack and item_fresh:
                indent = "  " * (len(list_stack) - 1)
                if item_fresh[-1]:
                    ordered = list_stack[-1]
                    marker = f"{ordered[1]}." if ordered[0] == "ol" else "-"
                    if ordered[0] == "ol":
                        ordered[1] += 1
                    content = f"{indent}{marker} {content}"
                    item_fresh[-1] = False
                else:
                    content = f"{indent}  {content}"
                if content and builder.lines and in_list_paragraph:
                    builder.lines[-1] += "\n" + content  # items of one list share a paragraph
                elif content:
                    builder.lines.append(content)
                    in_list_paragraph = True
            elif content:
                builder.lines.append(content)
        elif kind in ("fence", "code_block"):
            code = tok.content.rstrip("\n")
            if code.strip():
                builder.lines.append(code_block(code.split("\n")))
                in_list_paragraph = False
        elif kind == "html_block":
            stripped = re.sub(r"<[^>]+>", " ", tok.content)
            if stripped.strip() and not tok.content.lstrip().startswith("<!--"):
                builder.lines.append(" ".join(stripped.split()))
        elif kind == "table_open":
            rows = []
        elif kind == "tr_open":
            row = []
        elif kind == "tr_close":
            rows.append(row or [])
            row = None
        elif kind == "table_close":
            builder.table(rows)
        i += 1
    builder.flush()

    if not builder.blocks:
        raise IngestionError(f"{filename} contains no text to index (only front matter or blank lines).")
    meta: dict = {}
    if fields.get("author"):
        meta["author"] = fields["author"]
    if fields.get("date"):
        meta["created"] = fields["date"]
    if fields.get("updated") or fields.get("modified") or fields.get("last_updated"):
        meta["modified"] = fields.get("updated") or fields.get("modified") or fields.get("last_updated")
    for key in ("owner", "tags", "version", "status", "effective", "effective_date", "supersedes", "superseded_by"):
        if fields.get(key):
            meta[key] = fields[key]
    stem = re.sub(r"\.(md|markdown)$", "", filename.rsplit("/", 1)[-1], flags=re.I)
    title = fields.get("title") or builder.first_h1 or stem
    return ParsedDocument(title=title, blocks=builder.blocks, metadata=meta)
