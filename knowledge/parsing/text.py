"""Plain-text parsing: headings by underline, capitals or indentation; hard-wrapped lines unwrapped.

Text documents are usually wrapped at 70–80 columns, and man pages rendered to text indent their
sub-headings by three spaces and their option descriptions under the option. Lines of one
paragraph are joined (a sentence must never end at a line wrap), and an option followed by its
indented description becomes one "option: description" paragraph.
"""

from __future__ import annotations

import re

from textcore.sentences import code_block, is_code_block

from .base import BREAK_HYPHENS, Block, IngestionError, ParsedDocument, github_slug

__all__ = ["parse_plain_text", "unwrap"]

_UNDERLINE = re.compile(r"^\s*([=\-~^*#+])\1{2,}\s*$")
_UNDERLINE_LEVEL = {"=": 1, "#": 1, "*": 1, "-": 2, "~": 3, "^": 3, "+": 3}
_LIST_MARKER = re.compile(r"^(?:[-*+•]|\d{1,3}[.)]|\(\w\))\s+")
# A man page's running header and footer: "GREP(1)   User Commands   GREP(1)".
_MAN_RUNNING = re.compile(r"^\S+\(\w+\)\s{2,}.*\s{2,}\S+\(\w+\)$|^.{0,60}\s{2,}\S+\(\w+\)$")


def _stem(filename: str) -> str:
    return re.sub(r"\.[A-Za-z0-9]+$", "", filename.rsplit("/", 1)[-1]) or "Untitled document"


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _is_caps_heading(text: str) -> bool:
    # Cased letters only: Japanese or Chinese text has no case, so "upper() == text" says nothing about it.
    letters = [c for c in text if c.isalpha() and c.lower() != c.upper()]
    return (2 <= len(text) <= 60 and len(letters) >= 2 and text.upper() == text
            and len(text.split()) <= 8 and not text.endswith((".", ",", ";")))


def unwrap(lines: list[str]) -> str:
    """Join hard-wrapped lines into one line; a word broken by a hyphen at the wrap is joined back."""
    out = ""
    for line in (line.strip() for line in lines):
        if not line:
            continue
        if out.endswith(BREAK_HYPHENS) and line[:1].isalpha():
            out = out[:-1] + line  # "perfor‐" + "mance": groff's hyphenation break, not the word's hyphen
        elif out.endswith("-") and len(out) > 1 and out[-2].isalpha() and line[:1].isalpha():
            out += line  # "even-" + "horizontal": the hyphen was the word's own, or the wrap's
        else:
            out = f"{out} {line}" if out else line
    return " ".join(out.split())


class _Sections:
    """Heading stack plus paragraphs; GitHub-style slugs (deduplicated) as anchors."""

    def __init__(self) -> None:
        self.stack: list[tuple[int, str, str]] = []
        self.blocks: list[Block] = []
        self.paragraphs: list[str] = []
        self.slugs: dict[str, int] = {}

    def path(self) -> tuple[str, ...]:
        return tuple(text for _, text, _ in self.stack)

    def heading(self, level: int, text: str) -> None:
        self.flush()
        while self.stack and self.stack[-1][0] >= level:
            self.stack.pop()
        slug = github_slug(text)
        seen = self.slugs.get(slug, 0)
        self.slugs[slug] = seen + 1
        self.stack.append((level, text, f"{slug}-{seen}" if seen else slug))

    def flush(self) -> None:
        text = "\n\n".join(p for p in self.paragraphs if p.strip()).strip("\n")
        if text:
            self.blocks.append(Block("text", text, self.path(), anchor=self.stack[-1][2] if self.stack else ""))
        self.paragraphs.clear()


def _paragraph_items(lines: list[str]) -> list[str]:
    """Items of one blank-line-separated paragraph: list items and dedents start new ones."""
    items: list[list[str]] = []
    previous_indent = None
    for line in lines:
        indent = _indent(line)
        starts = _LIST_MARKER.match(line.strip()) or (previous_indent is not None and indent < previous_indent - 1)
        if not items or starts:
            items.append([line])
        else:
            items[-1].append(line)
        previous_indent = indent
    return [unwrap(item) for item in items]


# A shell prompt opening a line of an example ("$ find . -perm -664", "# mount -a").
_PROMPT = re.compile(r"^[$#%>] \S")
# Columns set apart by spaces ("Cancel command prompt    q    Escape"); spaces after a sentence's end are not.
_COLUMN_GAP = re.compile(r"[^\s.!?:;,]   +\S")
# A man page's tagged paragraph on one line: a short tag, spaces, its description.
_TAGGED = re.compile(r"^\S{1,16} {2,}\S")
_BOX_DRAWING = re.compile(r"^[\u2500-\u257f]")
# Four plain words in a row: a line of prose.
_PROSE = re.compile(r"(?:\b[A-Za-z][a-z]+,?\s+){3}[A-Za-z][a-z]+\b")


def _is_example(lines: list[str], indent_before: int | None) -> bool:
    """A table laid out with spaces or box-drawing characters, or a paragraph set deeper than the text before it
    that is no prose: an example or a listing (a man page's .EX/.nf block, a text file's indented code). Its
    lines are kept as they are; unwrapped, they would run into one sentence ("$ find . -perm /220 $ find …")."""
    bodies = [line.strip() for line in lines]
    if _BOX_DRAWING.match(bodies[0]) or (len(bodies) >= 3 and all(_COLUMN_GAP.search(b) for b in bodies)):
        return True  # a table laid out with spaces or box-drawing characters, at any depth
    if indent_before is None or min(_indent(line) for line in lines) < indent_before + 3:
        return False
    if _LIST_MARKER.match(lines[0].strip()) or (len(lines) == 1 and _TAGGED.match(lines[0].strip())):
        return False  # a list item, or a tagged entry ("123    if any invocation of the command …")
    return any(_PROMPT.match(b) for b in bodies) or not any(_PROSE.search(b) for b in bodies)


def _dedented(lines: list[str]) -> list[str]:
    """Lines without their common indentation."""
    margin = min(_indent(line) for line in lines)
    return [line[margin:] for line in lines]


def _definition(lines: list[str]) -> tuple[str, str] | None:
    """(term, body) when a short first line is followed by lines indented deeper (an option entry)."""
    if len(lines) < 2:
        return None
    head, second = lines[0], lines[1]
    term = head.strip()
    # A first line broken inside a word ("syscall vari‐") runs on into the next: it is no term.
    if (_indent(second) >= _indent(head) + 3 and len(term) <= 60
            and not term.endswith((".", ":", ",", *BREAK_HYPHENS))):
        return term, unwrap(lines[1:])
    return None


def parse_plain_text(text: str, filename: str) -> ParsedDocument:
    """Parse plain text: underlined, capitalised or (man pages) indented headings; paragraphs unwrapped."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").expandtabs(8).split("\n")
    content = [i for i, line in enumerate(lines) if line.strip()]
    for edge in (content[:1] + content[-1:]) if content else []:
        if _MAN_RUNNING.match(lines[edge].strip()):
            lines[edge] = ""
    sections = _Sections()
    first_heading = ""
    body_indent: int | None = None  # indentation of the open definition's body
    last_indent: int | None = None  # indentation of the last line of the paragraph before
    i = 0
    paragraph: list[str] = []

    def close_paragraph() -> None:
        nonlocal body_indent, last_indent
        if not paragraph:
            return
        example = _is_example(paragraph, last_indent)
        if not example:
            last_indent = _indent(paragraph[-1])
        definition = None if example else _definition(paragraph)
        if example:
            sections.paragraphs.append(code_block(_dedented(paragraph)))
        elif definition:
            sections.paragraphs.append(f"{definition[0]}: {definition[1]}")
            body_indent = _indent(paragraph[1])
        elif body_indent is not None and _indent(paragraph[0]) >= body_indent and sections.paragraphs \
                and not is_code_block(sections.paragraphs[-1]):
            # A further paragraph of the open definition stays with its term.
            sections.paragraphs[-1] += "\n" + "\n".join(_paragraph_items(paragraph))
        else:
            sections.paragraphs.append("\n".join(_paragraph_items(paragraph)))
            body_indent = None
        paragraph.clear()

    while i < len(lines):
        line = lines[i].rstrip()
        stripped = line.strip()
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        prev_blank = i == 0 or not lines[i - 1].strip()
        if not stripped:
            close_paragraph()
            i += 1
            continue
        underline = _UNDERLINE.match(nxt)
        if underline and not _UNDERLINE.match(line) and len(nxt.strip()) >= min(3, len(stripped)):
            close_paragraph()
            sections.heading(_UNDERLINE_LEVEL.get(underline.group(1), 2), stripped)
            first_heading = first_heading or stripped
            body_indent = last_indent = None
            i += 2
            continue
        at_margin = _indent(line) == 0
        if at_margin and not first_heading and not sections.paragraphs and not paragraph \
                and _is_caps_heading(stripped) and _indent(nxt) == 0:
            sections.heading(0, stripped)  # an ALL CAPS first line is the document's title
            first_heading = stripped
            i += 1
            continue
        if at_margin and _is_caps_heading(stripped) and (prev_blank or not paragraph) \
                and (not nxt.strip() or _indent(nxt) > 0):
            close_paragraph()
            sections.heading(1, stripped)
            first_heading = first_heading or stripped
            body_indent = last_indent = None
            i += 1
            continue
        # A man page sub-heading: three spaces in, short, no final stop, right after a blank or heading.
        if _indent(line) == 3 and len(stripped) <= 60 and not stripped.endswith((".", ",", ";", ":")) \
                and not paragraph and nxt.strip() and _indent(nxt) > 3 and sections.stack:
            close_paragraph()
            sections.heading(2, stripped)
            body_indent = last_indent = None
            i += 1
            continue
        paragraph.append(line)
        i += 1
    close_paragraph()
    sections.flush()
    if not sections.blocks:
        raise IngestionError(f"{filename} contains no text to index; it is empty or whitespace only.")
    return ParsedDocument(title=_title(first_heading, lines) or _stem(filename), blocks=sections.blocks,
                          metadata={})


def _title(first_heading: str, lines: list[str]) -> str:
    """A man page's NAME line ("grep - print lines that match patterns") makes the best title."""
    for index, line in enumerate(lines):
        if line.strip() == "NAME":
            following = next((x.strip() for x in lines[index + 1:index + 4] if x.strip()), "")
            if following:
                return following
    return first_heading
