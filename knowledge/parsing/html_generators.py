"""Layouts particular generators give their headings, read as plain headings before a page is walked.

DocBook's question-and-answer sets (a FAQ's `qandaset`), as the DocBook XSL stylesheets lay them out: one
table whose rows are a division title (`tr.qandadiv`), a list of links to its questions (`tr.toc`), then each
question (`tr.question`: its number, then its text) and its answer (`tr.answer`). Read as a table, every
question and answer would become a cell of one "row" sentence, and no question would be a section of its own. So
the table is unfolded: each question becomes a heading, under its division's title, with the question's own
anchor (so a citation lands on it), and its answer the text under that heading.

Doxygen writes a page's title in a `<div class="title">` of its header; RDoc writes each method's name and
arguments in a `<div class="method-heading">` (with a "click to toggle source" hint), its anchor on the method's
`<div class="method-detail">`. Both become headings.
"""

from __future__ import annotations

import re

from bs4 import BeautifulSoup, Tag

_HEADING = re.compile(r"^h([1-6])$")


def _rows(table: Tag) -> list[Tag]:
    return [tr for tr in table.find_all("tr") if tr.find_parent("table") is table]


def _classes(tag: Tag) -> set[str]:
    return {c.lower() for c in tag.get("class") or []}


def _level_before(tag: Tag) -> int:
    """The level of the heading the tag stands under (1 when none)."""
    previous = tag.find_previous(_HEADING)
    return int(previous.name[1]) if previous is not None else 1


def _anchor(row: Tag) -> str:
    """The first named or identified anchor in the row (DocBook puts the question's id on an empty <a>)."""
    tag = row.find(lambda t: t.name in ("a", "span") and (t.get("id") or t.get("name")))
    return (tag.get("id") or tag.get("name")) if tag is not None else ""


def _question_text(row: Tag) -> str:
    """The question's words: its last cell (the first holds the number, "1.2.")."""
    cells = row.find_all("td", recursive=False) or row.find_all("th", recursive=False)
    cell = cells[-1] if cells else row
    return " ".join(cell.get_text(" ", strip=True).split())


def _drop_question_list(table: Tag) -> None:
    """The list of links to the set's questions that DocBook puts before the table (its table of contents)."""
    targets = {t.get("id") or t.get("name") for t in table.find_all(["a", "span"]) if t.get("id") or t.get("name")}
    container = table.parent
    if container is None:
        return
    for listing in container.find_all(["dl", "ul", "ol"], recursive=False):
        links = [a.get("href", "").rsplit("#", 1)[-1] for a in listing.find_all("a", href=True)]
        if links and all(link in targets for link in links):
            listing.decompose()


def unfold_qanda(soup: BeautifulSoup, root: Tag) -> None:
    """Replace each question-and-answer table under root with headings and the answers' content, in place."""
    for table in root.find_all("table"):
        if table.parent is None:
            continue  # inside a table already unfolded
        rows = _rows(table)
        if not any("question" in _classes(tr) for tr in rows) or not any("answer" in _classes(tr) for tr in rows):
            continue
        _drop_question_list(table)
        level = _level_before(table)
        question_level = min(6, level + 1)
        out: list[Tag] = []
        for tr in rows:
            kind = _classes(tr)
            if "qandadiv" in kind:
                heading = tr.find(_HEADING)
                if heading is not None:
                    question_level = min(6, int(heading.name[1]) + 1)
                    out.append(heading.extract())
            elif "question" in kind:
                text = _question_text(tr)
                if text:
                    heading = soup.new_tag(f"h{question_level}")
                    heading.string = text
                    if anchor := _anchor(tr):
                        heading["id"] = anchor
                    out.append(heading)
            elif "answer" in kind:
                cells = tr.find_all("td", recursive=False)
                body = soup.new_tag("div")
                for child in list((cells[-1] if cells else tr).children):
                    body.append(child.extract())
                out.append(body)
        for tag in out:
            table.insert_before(tag)
        table.decompose()


def headings_of_generators(soup: BeautifulSoup, root: Tag) -> None:
    """Doxygen's page titles and RDoc's method headings as headings, DocBook's FAQs unfolded (in place)."""
    for title in root.select("div.headertitle > div.title"):
        title.name = "h1"
    methods = root.select("div.method-detail > div.method-heading")
    levels = [min(6, _level_before(heading) + 1) for heading in methods]  # under the section, before any is renamed
    for heading, level in zip(methods, levels):
        for hint in heading.select(".method-click-advice"):
            hint.decompose()
        heading.name = f"h{level}"
        if heading.parent.get("id"):
            heading["id"] = heading.parent["id"]
    unfold_qanda(soup, root)
