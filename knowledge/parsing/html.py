"""HTML parsing: drop site chrome, then walk headings, paragraphs, definition lists, code and tables.

Section anchors are the page's own: the id its table of contents or heading permalink points to
(a heading's id, an id inside it, its permalink's target, the id of the section element it opens,
or an empty named anchor right before it), so a citation link lands on the real section.
"""

from __future__ import annotations

import re
import warnings

from bs4 import BeautifulSoup, NavigableString, Tag

from textcore.sentences import code_block, is_code_block

from .base import Block, IngestionError, ParsedDocument, label_row, slugify_heading, table_block, with_term
from .html_chrome import content_root, is_permalink, strip_chrome
from .html_generators import headings_of_generators

__all__ = ["parse_html"]

_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6", "h"}
_BLOCK_TAGS = {
    "p", "div", "section", "article", "main", "blockquote", "figure", "header", "address", "details",
    "summary", "hr", "body", "center", "caption", "li", "table", "tbody", "thead", "tr", "td", "th", "dl",
}
_ADMONITIONS = {"note", "warning", "tip", "caution", "important", "hint", "attention", "danger", "error",
                "admonition", "seealso", "topic", "sidebar-like", "admonitionblock"}
_SECTION_NUMBER = re.compile(r"^(?:\d+\.(?:\d+\.?)*|\d+(?:\.\d+)+|[A-Z]\.(?:\d+\.?)*|\d+(?= [A-Z][a-z]))\s+(?=\S)")
_DROP_IN_CONTENT = ["figcaption"]
# reST inline literals that leaked into rendered text (``flask run``) are markup, not content.
_INLINE_LITERAL = re.compile(r"``(\S(?:.*?\S)?)``")
# <h> carries no level; SQLite's pages use it (hidden) to title each entry below their h2 sections.
_BARE_H_LEVEL = 3


def heading_text(tag: Tag) -> str:
    """A heading's visible text without permalink glyphs or leading section numbers."""
    text = " ".join(tag.get_text(" ", strip=True).split())
    text = text.strip(" ¶#§🔗")
    return _SECTION_NUMBER.sub("", text).strip()


def _enclosing_id(tag: Tag, root: Tag) -> str:
    """The id of the nearest ancestor that this heading opens (its first heading), if any."""
    node = tag.parent
    while isinstance(node, Tag) and node is not root.parent:
        first = node.find(_HEADINGS)
        if first is not tag:
            return ""
        if node.get("id"):
            return node["id"]
        node = node.parent
    return ""


def _preceding_anchor(tag: Tag) -> str:
    """An empty <a name>/<span id> right before the heading (Texinfo, SQLite)."""
    sibling = tag.previous_sibling
    for _ in range(3):
        while isinstance(sibling, NavigableString) and not sibling.strip():
            sibling = sibling.previous_sibling
        if not isinstance(sibling, Tag) or sibling.get_text(strip=True):
            return ""
        if sibling.name in ("a", "span") and (sibling.get("id") or sibling.get("name")):
            return sibling.get("id") or sibling.get("name")
        sibling = sibling.previous_sibling
    return ""


def _mark_anchors(root: Tag) -> None:
    """Record each heading's anchor before chrome (permalinks included) is stripped."""
    for tag in root.find_all(_HEADINGS):
        inner = tag.find(lambda t: t.name in ("a", "span") and (t.get("id") or t.get("name")))
        permalink = next((a for a in tag.find_all("a") if is_permalink(a)), None)
        anchor = (tag.get("id") or tag.get("_id")
                  or (inner.get("id") or inner.get("name") if inner is not None else "")
                  or ((permalink.get("href") or "")[1:] if permalink is not None else "")
                  or _enclosing_id(tag, root) or _preceding_anchor(tag))
        tag["data-verity-anchor"] = anchor or ""


def _is_admonition(tag: Tag) -> bool:
    classes = {c.lower() for c in tag.get("class") or []}
    return tag.name in ("div", "aside", "section") and bool(classes & _ADMONITIONS)


class _Walker:
    """Walks the content tree in document order and emits heading-scoped blocks."""

    def __init__(self) -> None:
        self.stack: list[tuple[int, str, str]] = []  # (level, text, anchor)
        self.blocks: list[Block] = []
        self.paragraphs: list[str] = []
        self.inline: list[str] = []
        self.lead = ""  # a definition term or admonition title that opens the next paragraph
        self.term = ""  # the term of the definition being walked
        self.flatten_tables = 0
        self.first_h1 = ""

    def path(self) -> tuple[str, ...]:
        return tuple(text for _, text, _ in self.stack)

    def anchor(self) -> str:
        return self.stack[-1][2] if self.stack else ""

    def end_line(self, joiner: str = "\n\n") -> None:
        text = _INLINE_LITERAL.sub(r"\1", " ".join("".join(self.inline).split()))
        self.inline.clear()
        if not text:
            return
        if self.lead:
            text = with_term(self.lead, text)
            self.lead = ""
            joiner = "\n\n"  # a definition or admonition starts its own paragraph
        # A list item's code block ends its paragraph: the items after it start a new one, or they would
        # read as lines of code (and the code lines as sentences). A definition's text after its code block
        # keeps the term ("SERVER_NAME: Default: None").
        if self.paragraphs and joiner == "\n" and not is_code_block(self.paragraphs[-1]):
            self.paragraphs[-1] += "\n" + text
        elif self.paragraphs and joiner == "\n" and self.term and not text.lower().startswith(self.term.lower()):
            self.paragraphs.append(with_term(self.term, text))
        else:
            self.paragraphs.append(text)

    def flush(self) -> None:
        self.end_line()
        if self.lead:
            self.paragraphs.append(self.lead)  # a term without a definition
            self.lead = ""
        text = "\n\n".join(p for p in self.paragraphs if p.strip()).strip("\n")
        if text:
            self.blocks.append(Block("text", text, self.path(), anchor=self.anchor()))
        self.paragraphs.clear()

    def heading(self, tag: Tag) -> None:
        self.flush()
        text = heading_text(tag)
        if not text:
            return
        level = _BARE_H_LEVEL if tag.name == "h" else int(tag.name[1])
        self.first_h1 = self.first_h1 or (text if level == 1 else "")
        while self.stack and self.stack[-1][0] >= level:
            self.stack.pop()
        self.stack.append((level, text, tag.get("data-verity-anchor") or slugify_heading(text)))

    def code(self, tag: Tag) -> None:
        self.end_line()
        lines = [line.rstrip() for line in tag.get_text().strip("\n").split("\n")]
        if any(line.strip() for line in lines):
            # Indented four spaces: the chunker and the answer writer treat the block as code.
            body = code_block(lines)
            if self.lead:
                self.paragraphs.append(self.lead + ":")
                self.lead = ""
            self.paragraphs.append(body)

    def definition_list(self, tag: Tag, depth: int) -> None:
        self.end_line()
        terms: list[str] = []
        for child in tag.find_all(["dt", "dd"], recursive=False):
            if child.name == "dt":
                term = " ".join(child.get_text("", strip=False).split()).strip(" ¶")
                if term:
                    terms.append(term)
                continue
            self.lead = ", ".join(terms)
            terms = []
            outer, self.term = self.term, self.lead
            # A definition's paragraphs stay together, so its later sentences keep their term.
            self.walk(child, depth, in_item=True)
            self.end_line(joiner="\n")
            self.term = outer
            if self.lead:  # an empty definition: keep the term
                self.paragraphs.append(self.lead)
                self.lead = ""
        for term in terms:
            self.paragraphs.append(term)

    def admonition(self, tag: Tag, depth: int) -> None:
        self.end_line()
        title = tag.find(class_=re.compile(r"^(admonition-title|title)$")) or tag.find("th")
        label = " ".join(title.get_text(" ", strip=True).split()) if title is not None else ""
        if title is not None:
            title.decompose()
        self.lead = label.rstrip(":") if label and len(label) < 40 else ""
        self.flatten_tables += 1
        self.walk(tag, depth)
        self.flatten_tables -= 1
        self.end_line()
        self.lead = ""

    def list_items(self, tag: Tag, depth: int) -> None:
        self.end_line()
        ordered = tag.name == "ol"
        for index, item in enumerate(tag.find_all("li", recursive=False), start=1):
            self.end_line()
            self.inline.append("  " * depth + (f"{index}. " if ordered else "- "))
            self.walk(item, depth + 1, in_item=True)
            self.end_line(joiner="\n")
        self.end_line()

    def walk(self, node: Tag, depth: int = 0, in_item: bool = False) -> None:
        for child in node.children:
            if isinstance(child, NavigableString):
                self.inline.append(str(child))
                continue
            if not isinstance(child, Tag):
                continue
            name = child.name
            if name in _HEADINGS:
                self.heading(child)
            elif name == "pre":
                self.code(child)
            elif "code-block-caption" in (child.get("class") or []) and not self.lead:
                # Sphinx's caption of a literal block (its file name, "docs/source/conf.py") introduces
                # the code: "docs/source/conf.py:" and the block, never a sentence of its own.
                self.end_line()
                self.lead = " ".join(child.get_text(" ", strip=True).split()).strip(" ¶")
            elif name == "dl":
                self.definition_list(child, depth)
            elif _is_admonition(child):
                self.admonition(child, depth)
            elif name == "table" and not self.flatten_tables and child.find("table") is None \
                    and _is_data_table(child):
                self.end_line()
                self.flush_paragraphs_as_text()
                rows, header = _table_rows(child)
                block = table_block(rows, self.path(), anchor=self.anchor(), header=header)
                if block:
                    self.blocks.append(block)
            elif name in ("ul", "ol"):
                self.list_items(child, depth)
            elif name == "br":
                self.end_line(joiner="\n")
            elif name in _BLOCK_TAGS:
                # Inside a list item, a nested paragraph continues the item's line.
                if not (in_item and name == "p" and not self.paragraphs_open_line()):
                    self.end_line(joiner="\n" if in_item else "\n\n")
                self.walk(child, depth, in_item)
                self.end_line(joiner="\n" if in_item else "\n\n")
            else:
                self.walk(child, depth, in_item)

    def paragraphs_open_line(self) -> bool:
        return bool(" ".join("".join(self.inline).split()).strip("-0123456789. "))

    def flush_paragraphs_as_text(self) -> None:
        """Text before a table becomes its own block so the table keeps its place in reading order."""
        text = "\n\n".join(p for p in self.paragraphs if p.strip()).strip("\n")
        if text:
            self.blocks.append(Block("text", text, self.path(), anchor=self.anchor()))
        self.paragraphs.clear()


def _cell_text(cell: Tag) -> str:
    return " ".join(cell.get_text(" ", strip=True).split())


def _is_data_table(table: Tag) -> bool:
    """Tables with at least two rows and two columns hold data; others are layout."""
    rows = [tr for tr in table.find_all("tr") if tr.find_parent("table") is table]
    widths = [len(tr.find_all(["td", "th"], recursive=False)) for tr in rows]
    return len(rows) >= 2 and max(widths, default=0) >= 2


# A column name written in plain cells: a few words of letters, capitalised ("Queue", "Card type").
def _bold(cells: list[Tag]) -> bool:
    """Every filled cell of the row is bold."""
    filled = [cell for cell in cells if _cell_text(cell)]
    return bool(filled) and all((b := cell.find(["b", "strong"])) is not None and b.get_text(strip=True)
                                for cell in filled)


def _names_columns(first: list[Tag], rest: list[list[Tag]]) -> bool:
    """A first row of plain cells names the columns when each of its cells is a short capitalised label
    ("Queue", "Card type"), or when it is bold and the rows under it are not (a bold first column is not a
    header)."""
    if label_row([_cell_text(cell) for cell in first]):
        return True
    return _bold(first) and not all(_bold(row) for row in rest)


def _table_rows(table: Tag) -> tuple[list[list[str]], bool]:
    """The table's rows, its header first, and whether it has one. The header is the rows in <thead> or of
    <th> cells only (joined into one); in a table of plain cells, its first row when that row names columns."""
    rows: list[list[str]] = []
    header_rows: list[list[str]] = []
    plain: list[list[Tag]] = []
    for tr in table.find_all("tr"):
        if tr.find_parent("table") is not table:
            continue  # rows of nested tables belong to those tables
        cells: list[str] = []
        tags = tr.find_all(["td", "th"], recursive=False)
        for cell in tags:
            try:
                span = max(1, min(int(cell.get("colspan", 1)), 20))
            except ValueError:
                span = 1
            cells.extend([_cell_text(cell)] * span)
        in_head = tr.find_parent("thead") is not None
        all_th = bool(tr.find_all("th", recursive=False)) and not tr.find_all("td", recursive=False)
        if (in_head or all_th) and not rows:
            header_rows.append(cells)
        else:
            rows.append(cells)
            plain.append(tags)
    if header_rows:
        # Multiple header rows are joined column-wise so the header stays a single row.
        width = max(len(r) for r in header_rows)
        merged = [" ".join(dict.fromkeys(r[i] for r in header_rows if i < len(r) and r[i])) for i in range(width)]
        rows.insert(0, merged)
        return rows, True
    filled = [tags for tags, cells in zip(plain, rows) if any(cells)]
    return rows, bool(filled) and _names_columns(filled[0], filled[1:])


def _metadata(soup: BeautifulSoup) -> dict:
    meta: dict = {}
    for tag in soup.find_all("meta"):
        key = (tag.get("name") or tag.get("property") or "").lower()
        value = (tag.get("content") or "").strip()
        if not value:
            continue
        if key in ("author", "article:author", "dc.creator") and "author" not in meta:
            meta["author"] = value
        elif key in ("date", "article:published_time", "dcterms.created", "dc.date") and "created" not in meta:
            meta["created"] = value[:10]
        elif key in ("last-modified", "article:modified_time", "dcterms.modified") and "modified" not in meta:
            meta["modified"] = value[:10]
    return meta


def parse_html(text: str, filename: str) -> ParsedDocument:
    """Parse an HTML page into blocks, preferring the main content and dropping navigation."""
    with warnings.catch_warnings():
        # XHTML pages (DocBook, AsciiDoc) start with an XML declaration; lxml's HTML parser reads
        # them correctly, and bs4's warning about it means nothing to the person uploading.
        warnings.simplefilter("ignore")
        soup = BeautifulSoup(text, "lxml")
    title_tag = soup.find("title")
    page_title = " ".join(title_tag.get_text(" ", strip=True).split()) if title_tag else ""
    meta = _metadata(soup)
    root = content_root(soup)
    headings_of_generators(soup, root)
    _mark_anchors(root)
    strip_chrome(soup, root)
    for tag in root.find_all(_DROP_IN_CONTENT):
        tag.decompose()
    for tag in root.select(".figure > .title, .figure-title, .mediaobject, .indexterm"):
        tag.decompose()
    walker = _Walker()
    outer_title = soup.find("h1") if root.find("h1") is None else None
    if outer_title is not None and heading_text(outer_title):
        # The page title sits outside the content element (AsciiDoc's #header): it still heads the page.
        walker.heading(outer_title)
    walker.walk(root)
    walker.flush()
    if not walker.blocks:
        raise IngestionError(f"{filename} has no readable text content; check that it is the right page.")
    stem = re.sub(r"\.html?$", "", filename.rsplit("/", 1)[-1], flags=re.I)
    return ParsedDocument(title=page_title or walker.first_h1 or stem, blocks=walker.blocks, metadata=meta)
