"""HTML parsing: strip site chrome, then walk headings, paragraphs, lists and tables."""

from __future__ import annotations

import re

from bs4 import BeautifulSoup, NavigableString, Tag
from bs4.element import Comment, Doctype, ProcessingInstruction

from .base import Block, IngestionError, ParsedDocument, slugify_heading, table_block

__all__ = ["parse_html"]

_ALWAYS_DROP = ["script", "style", "noscript", "template", "nav", "aside", "form", "iframe",
                "svg", "button", "select", "input", "textarea", "footer"]
_CHROME_ROLES = {"navigation", "banner", "contentinfo", "complementary", "search"}
_CHROME_TOKENS = {
    "sidebar", "side-bar", "toc", "table-of-contents", "breadcrumb", "breadcrumbs", "menu",
    "nav", "navbar", "navigation", "footer", "pagination", "pager", "prev", "next", "previous",
    "prev-next", "skip-link", "cookie-banner", "site-header", "site-footer", "edit-link",
}
_CHROME_PARTS = re.compile(
    r"(?:^|[-_ ])(sidebar|toc|breadcrumbs?|menu|nav|navbar|navigation|footer|pagination|pager|prev|next)(?:$|[-_ ])"
)
_PREV_NEXT_TEXT = re.compile(r"^\W*(?:prev(?:ious)?|next|back to top)\b", re.I)
_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
_BLOCK_TAGS = {
    "p", "div", "section", "article", "main", "blockquote", "pre", "dl", "dt", "dd", "figure",
    "figcaption", "header", "address", "details", "summary", "hr", "body", "center", "caption",
}


def _is_chrome(tag: Tag) -> bool:
    if (tag.get("role") or "").lower() in _CHROME_ROLES:
        return True
    rel = " ".join(tag.get("rel") or []).lower()
    if tag.name == "a" and ("prev" in rel or "next" in rel):
        return True
    names = [tag.get("id") or ""] + list(tag.get("class") or [])
    for name in names:
        lowered = name.lower()
        if lowered in _CHROME_TOKENS or _CHROME_PARTS.search(lowered):
            return True
    if tag.name == "a" and _PREV_NEXT_TEXT.match(tag.get_text(" ", strip=True)) and len(tag.get_text()) < 80:
        return True
    return False


def _protects_content(tag: Tag, total_chars: int) -> bool:
    """Never drop an element that wraps the main content (e.g. <body class="has-sidebar">)."""
    if tag.name in ("html", "body", "main", "article"):
        return True
    if tag.find(["main", "article"]) is not None or tag.find(attrs={"role": "main"}) is not None:
        return True
    return total_chars > 0 and len(tag.get_text(" ", strip=True)) > 0.6 * total_chars


def _content_root(soup: BeautifulSoup) -> Tag:
    for candidate in (soup.find("main"), soup.find(attrs={"role": "main"}), soup.find("article")):
        if isinstance(candidate, Tag) and candidate.get_text(strip=True):
            return candidate
    return soup.body or soup


def _strip_chrome(soup: BeautifulSoup, root: Tag) -> None:
    for node in soup.find_all(string=lambda s: isinstance(s, (Comment, Doctype, ProcessingInstruction))):
        node.extract()
    for tag in root.find_all(_ALWAYS_DROP):
        tag.decompose()
    # A page-level <header> is the site banner; an article's own <header> holds its title.
    for tag in root.find_all("header"):
        if tag.find_parent(["article", "main"]) is None and root.name not in ("article", "main"):
            tag.decompose()
    total = len(root.get_text(" ", strip=True))
    for tag in root.find_all(True):
        if tag.decomposed:
            continue
        if _is_chrome(tag) and not _protects_content(tag, total):
            tag.decompose()


def _cell_text(cell: Tag) -> str:
    return " ".join(cell.get_text(" ", strip=True).split())


def _table_rows(table: Tag) -> list[list[str]]:
    rows: list[list[str]] = []
    header_rows: list[list[str]] = []
    for tr in table.find_all("tr"):
        if tr.find_parent("table") is not table:
            continue  # rows of nested tables belong to those tables
        cells: list[str] = []
        for cell in tr.find_all(["td", "th"], recursive=False):
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
    if header_rows:
        # Multiple header rows are joined column-wise so the header stays a single row.
        width = max(len(r) for r in header_rows)
        merged = [" ".join(dict.fromkeys(r[i] for r in header_rows if i < len(r) and r[i])) for i in range(width)]
        rows.insert(0, merged)
    return rows


class _Walker:
    """Walks the content tree in document order and emits heading-scoped blocks."""

    def __init__(self) -> None:
        self.stack: list[tuple[int, str, str]] = []  # (level, text, anchor)
        self.blocks: list[Block] = []
        self.lines: list[str] = []
        self.inline: list[str] = []
        self.first_h1 = ""

    def path(self) -> tuple[str, ...]:
        return tuple(text for _, text, _ in self.stack)

    def anchor(self) -> str:
        return self.stack[-1][2] if self.stack else ""

    def end_line(self) -> None:
        text = " ".join("".join(self.inline).split())
        if text:
            self.lines.append(text)
        self.inline.clear()

    def flush(self) -> None:
        self.end_line()
        text = "\n".join(self.lines).strip()
        if text:
            self.blocks.append(Block("text", text, self.path(), anchor=self.anchor()))
        self.lines.clear()

    def heading(self, tag: Tag) -> None:
        self.flush()
        text = " ".join(tag.get_text(" ", strip=True).split())
        if not text:
            return
        level = int(tag.name[1])
        self.first_h1 = self.first_h1 or (text if level == 1 else "")
        while self.stack and self.stack[-1][0] >= level:
            self.stack.pop()
        self.stack.append((level, text, tag.get("id") or slugify_heading(text)))

    def walk(self, node: Tag, list_depth: int = 0) -> None:
        for child in node.children:
            if isinstance(child, NavigableString):
                self.inline.append(str(child))
                continue
            if not isinstance(child, Tag):
                continue
            name = child.name
            if name in _HEADINGS:
                self.heading(child)
            elif name == "table" and child.find("table") is None:
                self.flush()
                block = table_block(_table_rows(child), self.path(), anchor=self.anchor())
                if block:
                    self.blocks.append(block)
            elif name in ("ul", "ol"):
                self.end_line()
                for index, item in enumerate(child.find_all("li", recursive=False), start=1):
                    self.end_line()
                    marker = f"{index}." if name == "ol" else "-"
                    self.inline.append("  " * list_depth + marker + " ")
                    self.walk(item, list_depth + 1)
                    self.end_line()
            elif name == "pre":
                self.end_line()
                code = child.get_text().strip("\n")
                if code.strip():
                    self.lines.append(code)
            elif name == "br":
                self.end_line()
            elif name in _BLOCK_TAGS or name == "li" or name == "table":
                self.end_line()
                self.walk(child, list_depth)
                self.end_line()
            else:
                self.walk(child, list_depth)


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
    soup = BeautifulSoup(text, "lxml")
    title_tag = soup.find("title")
    page_title = " ".join(title_tag.get_text(" ", strip=True).split()) if title_tag else ""
    meta = _metadata(soup)
    root = _content_root(soup)
    _strip_chrome(soup, root)
    walker = _Walker()
    walker.walk(root)
    walker.flush()
    if not walker.blocks:
        raise IngestionError(f"{filename} has no readable text content; check that it is the right page.")
    stem = re.sub(r"\.html?$", "", filename.rsplit("/", 1)[-1], flags=re.I)
    return ParsedDocument(title=page_title or walker.first_h1 or stem, blocks=walker.blocks, metadata=meta)
