"""What in an HTML page is site chrome (navigation, sidebars, permalinks, banners) rather than content.

Documentation generators differ in markup but agree on the signals: ARIA roles, class and id words
(sidebar, navheader, breadcrumbs, nosearch…), permalink glyphs inside headings, and short blocks made
almost entirely of links ("Next: … Previous: … Up: …"). Tested on Sphinx, MkDocs, mdBook, DocBook XSL,
AsciiDoc, Texinfo and hand-made pages.
"""

from __future__ import annotations

import re

from bs4 import BeautifulSoup, NavigableString, Tag
from bs4.element import Comment, Doctype, ProcessingInstruction

__all__ = ["content_root", "strip_chrome", "is_permalink", "PERMALINK_GLYPHS"]

_ALWAYS_DROP = ["script", "style", "noscript", "template", "nav", "aside", "form", "iframe", "svg", "button",
                "select", "input", "textarea", "footer", "img", "object", "canvas", "map", "area", "link", "meta"]
_CHROME_ROLES = {"navigation", "banner", "contentinfo", "complementary", "search"}
# Class or id words that mark chrome in the generators we know (compared whole, lower-case).
_CHROME_TOKENS = {
    "sidebar", "side-bar", "sphinxsidebar", "sphinxsidebarwrapper", "toc", "table-of-contents", "toctree-wrapper",
    "breadcrumb", "breadcrumbs", "menu", "mainmenu", "submenu", "searchmenu", "nav", "navbar", "navigation",
    "navheader", "navfooter", "nav-panel", "nav-wrapper", "nav-chapters", "mobile-nav-chapters", "menu-bar",
    "footer", "pagination", "pager", "prev", "next", "previous", "prev-next", "related", "relbar", "skip-link",
    "cookie-banner", "site-header", "site-footer", "edit-link", "edit-this-page", "version-switcher",
    "versionswitch", "rst-versions", "nosearch", "tagline", "searchbar", "search", "headerlink", "mini-toc",
    "fancy_toc", "toc-title", "contents", "localtoc", "globaltoc", "md-sidebar", "md-header", "md-footer",
    "md-tabs", "wy-nav-side", "wy-nav-top", "bs-sidebar", "navhead", "navfoot", "sidebar-scrollbox",
    # Sphinx viewcode's "[source]" link after an API signature, and its "[docs]" link back.
    "viewcode-link", "viewcode-back",
    # Doxygen's banner of the project's name and logo above every page.
    "titlearea",
}
_CHROME_PARTS = re.compile(
    r"(?:^|[-_ ])(sidebar|toc|breadcrumbs?|menu|nav|navbar|navigation|footer|pagination|pager)(?:$|[-_ ])")
PERMALINK_GLYPHS = {"¶", "#", "§", "🔗", "⚓", "link", "permalink", "#️⃣", "∞", "¶¶"}
_NAV_TEXT = re.compile(r"^\W*(?:prev(?:ious)?|next|up|back to top|home|contents|index)\b\W*(?::|$)", re.I)
_NAV_LINE = re.compile(r"\b(?:next|previous|prev|up)\s*:", re.I)


def is_permalink(tag: Tag) -> bool:
    """An in-page link whose only text is a glyph like ¶ or #: a heading's permalink, not content."""
    if tag.name != "a":
        return False
    classes = {c.lower() for c in tag.get("class") or []}
    if classes & {"headerlink", "anchor", "permalink", "hash-link", "anchorjs-link", "header-anchor",
                  "anchor-link", "md-anchor"}:
        return True
    text = tag.get_text("", strip=True)
    href = tag.get("href") or ""
    return href.startswith("#") and (text in PERMALINK_GLYPHS or (not text and not tag.find(True)))


def _is_hidden(tag: Tag) -> bool:
    style = (tag.get("style") or "").replace(" ", "").lower()
    return "display:none" in style or tag.has_attr("hidden") or (tag.get("aria-hidden") or "").lower() == "true"


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
    return False


_NON_WORD = re.compile(r"\W")


def _link_dense(tag: Tag) -> bool:
    """A short block made almost entirely of links (prev/next bars, page lists, tables of contents)."""
    if tag.name not in ("div", "p", "ul", "ol", "table", "td", "tr", "dl", "span", "center", "header"):
        return False
    text = " ".join(tag.get_text(" ", strip=True).split())
    if not text:
        return False
    links = [a for a in tag.find_all("a") if a.get("href")]
    if len(links) < 2:
        return False
    linked = sum(len(" ".join(a.get_text(" ", strip=True).split())) for a in links)
    if len(text) <= 600 and _NAV_LINE.search(text) and linked >= 0.3 * len(text):
        return True
    # A short bar whose every word is a link, the rest brackets and separators ("[ << ] [ >> ] [Top]
    # [Contents] [Index]" of texi2html, "Home | Docs | Blog"): counted in letters and digits, not characters.
    # Block-level only, three links or more: an inline type or formula ("Sequence[str]", "a * f(a)") is
    # links too.
    if tag.name not in ("span", "dl") and len(links) >= 3 and len(text) <= 200:
        letters = len(_NON_WORD.sub("", text))
        if sum(len(_NON_WORD.sub("", a.get_text(" ", strip=True))) for a in links) >= letters:
            return True
    # Nothing but links, however long, is a table of contents or an index of pages.
    return linked >= (0.8 if len(text) <= 600 else 0.95) * len(text)


def _protects_content(tag: Tag, total_chars: int) -> bool:
    """Never drop an element that wraps the main content (e.g. <body class="has-sidebar">)."""
    if tag.name in ("html", "body", "main", "article"):
        return True
    if tag.find(["main", "article"]) is not None or tag.find(attrs={"role": "main"}) is not None:
        return True
    return total_chars > 0 and len(tag.get_text(" ", strip=True)) > 0.5 * total_chars


_ROOT_SELECTORS = ("main", "[role=main]", "article", "div.body", "div.document", "div#content",
                   "div.content", "div#main", "div.main")


def content_root(soup: BeautifulSoup) -> Tag:
    """The element holding the page's content: <main>, role=main, <article> or a known content div."""
    body = soup.body or soup
    total = len(body.get_text(" ", strip=True))
    for selector in _ROOT_SELECTORS:
        candidate = soup.select_one(selector)
        # A content div that holds only a sliver of the page is a widget, not the content.
        if isinstance(candidate, Tag) and len(candidate.get_text(" ", strip=True)) > 0.3 * total:
            return _with_manpage_header(candidate)
    return body


def _with_manpage_header(root: Tag) -> Tag:
    """AsciiDoc writes a manual page's title and its NAME section ("git-commit - Record changes to the
    repository") in <div id="header"> before <div id="content">: the two together are the content."""
    header = root.find_previous_sibling("div", id="header") if root.get("id") == "content" else None
    if header is not None and header.find("h2") is not None and isinstance(root.parent, Tag):
        return root.parent
    return root


def strip_chrome(soup: BeautifulSoup, root: Tag) -> None:
    """Remove comments, scripts, navigation, sidebars, permalinks and link-dense bars under root."""
    for node in root.find_all(string=lambda s: isinstance(s, (Comment, Doctype, ProcessingInstruction))):
        node.extract()
    for tag in root.find_all(_ALWAYS_DROP):
        tag.decompose()
    # A page-level <header> is the site banner; an article's own <header> holds its title.
    for tag in root.find_all("header"):
        if tag.find_parent(["article", "main"]) is None and root.name not in ("article", "main") \
                and not tag.find(["h1", "h2"]):
            tag.decompose()
    for tag in root.find_all("a"):
        if not tag.decomposed and is_permalink(tag):
            tag.decompose()
    total = len(root.get_text(" ", strip=True))
    for tag in root.find_all(True):
        if tag.decomposed or tag.name in _HEADING_NAMES:
            continue
        if _is_hidden(tag) and tag.name != "h":
            tag.decompose()
        elif (_is_chrome(tag) or _link_dense(tag)) and not _protects_content(tag, total):
            tag.decompose()
        elif tag.name in ("p", "div") and _NAV_TEXT.match(tag.get_text(" ", strip=True) or "") \
                and len(tag.get_text(" ", strip=True)) < 120 and tag.find("a"):
            tag.decompose()
    for text in root.find_all(string=True):
        if isinstance(text, NavigableString) and "¶" in text:
            text.replace_with(text.replace("¶", ""))


_HEADING_NAMES = {"h1", "h2", "h3", "h4", "h5", "h6", "h"}
