"""Tests for knowledge.parsing: dispatch, rejected uploads, HTML, Markdown, RST and plain text (PDF and DOCX: test_parsing_binary.py)."""

from __future__ import annotations

import os

import pytest

from knowledge.parsing import (
    SUPPORTED_EXTENSIONS,
    IngestionError,
    mime_type_for,
    parse_file,
    slugify_heading,
)
from knowledge.parsing.base import Block
from tests.factories import all_text

# ---------------------------------------------------------------- small helpers


@pytest.mark.parametrize("heading, slug", [
    ("Leave & PTO", "leave-pto"),
    ("  Sick Leave (2024)  ", "sick-leave-2024"),
    ("Café — Über Rules", "cafe-uber-rules"),
    ("1.2 Scope", "1-2-scope"),
    ("!!!", ""),
])
def test_slugify_heading(heading: str, slug: str) -> None:
    assert slugify_heading(heading) == slug


def test_supported_extensions_and_mime_types() -> None:
    assert {".pdf", ".docx", ".html", ".htm", ".md", ".markdown", ".txt", ".text", ".rst"} == set(SUPPORTED_EXTENSIONS)
    assert mime_type_for("a/b/Report.PDF") == "application/pdf"
    assert mime_type_for("notes.md") == "text/markdown"
    assert mime_type_for("tool.exe") == "application/octet-stream"


def test_ingestion_error_is_permanent_by_default() -> None:
    error = IngestionError("Upload an unencrypted copy.")
    assert error.permanent and str(error) == "Upload an unencrypted copy."
    assert IngestionError("Try again later.", permanent=False).permanent is False


# ---------------------------------------------------------------- rejected uploads


@pytest.mark.parametrize("filename, data, reason", [
    ("empty.pdf", b"", "empty"),
    ("empty.md", b"", "empty"),
    ("blank.txt", b"  \n\n ", "empty"),
    ("setup.exe", b"MZ\x90\x00", "unsupported"),
    ("noext", b"hello", "unsupported"),
    ("junk.md", os.urandom(4096), "binary"),
    ("junk.txt", b"\x00\x01\x02\x03" * 500, "binary"),
    ("junk.pdf", os.urandom(4096), "not a valid pdf"),
    ("junk.docx", os.urandom(4096), "not a valid word document"),
    ("legacy.docx", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600, "legacy"),
    ("report.md", b"%PDF-1.7\n%binary", "actually a pdf"),
    ("page.html", b"\x89PNG\r\n\x1a\n" + os.urandom(200), "png image"),
])
def test_rejected_uploads_have_clear_reasons(filename: str, data: bytes, reason: str) -> None:
    with pytest.raises(IngestionError) as info:
        parse_file(data, filename)
    assert reason in str(info.value).lower()
    assert info.value.permanent


def test_file_over_max_bytes_is_rejected() -> None:
    with pytest.raises(IngestionError, match="over the .* limit"):
        parse_file(b"# Title\n\n" + b"word " * 5000, "big.md", max_bytes=10_000)
    assert parse_file(b"# Title\n\nsmall", "small.md", max_bytes=10_000).title == "Title"


# ---------------------------------------------------------------- HTML

CHROME_HTML = """<!doctype html>
<html><head><title>Travel Policy | Intranet</title><meta name="author" content="Finance Ops">
<style>.x { color: red }</style><script>var tracking = "SCRIPTTEXT";</script></head>
<body class="page has-sidebar">
<header class="site-header"><a href="/">BANNERTEXT Intranet home</a></header>
<nav><ul><li><a href="/hr">NAVTEXT HR</a></li><li><a href="/it">NAVTEXT IT</a></li></ul></nav>
<div class="breadcrumbs">CRUMBTEXT Home / Finance / Travel</div>
<div id="sidebar"><h3>SIDEBARTEXT Related</h3><p>SIDEBARTEXT links</p></div>
<main>
  <div class="toc"><p>TOCTEXT Contents</p><ol><li><a href="#booking">TOCTEXT Booking</a></li></ol></div>
  <h1>Business Travel Policy</h1>
  <p>All business travel must be approved in advance by your manager.</p>
  <h2 id="booking">Booking flights</h2>
  <p>Book flights through Navan. Economy class is required for flights under <b>six hours</b>.</p>
  <ul><li>Book at least 14 days ahead.</li><li>Use the corporate card.</li></ul>
  <h3>Hotel limits</h3>
  <table>
    <thead><tr><th>City</th><th>Nightly limit</th></tr></thead>
    <tbody><tr><td>New York</td><td>$350</td></tr><tr><td>Austin</td><td>$220</td></tr></tbody>
  </table>
  <h2>Per diem</h2>
  <p>Meals are covered up to $75 per day.</p>
  <div class="prev-next"><a href="/a">PREVTEXT Previous: Expenses</a></div>
  <a href="/c" rel="next">NEXTLINK Corporate cards</a>
  <form><input name="q"><button>FORMTEXT Search</button></form>
</main>
<aside>ASIDETEXT promo</aside>
<div role="contentinfo">ROLETEXT legal</div>
<footer>FOOTERTEXT Copyright</footer>
</body></html>"""


def test_html_drops_chrome_and_keeps_main_content() -> None:
    doc = parse_file(CHROME_HTML.encode(), "travel.html")
    text = all_text(doc) + " ".join(" ".join(b.heading_path) for b in doc.blocks)
    for marker in ("SCRIPTTEXT", "BANNERTEXT", "NAVTEXT", "CRUMBTEXT", "SIDEBARTEXT", "TOCTEXT",
                   "PREVTEXT", "NEXTLINK", "FORMTEXT", "ASIDETEXT", "ROLETEXT", "FOOTERTEXT"):
        assert marker not in text, marker
    assert "approved in advance" in text
    assert "Economy class is required for flights under six hours." in text
    assert doc.title == "Travel Policy | Intranet"
    assert doc.metadata["author"] == "Finance Ops"


def test_a_bar_of_bracketed_links_is_navigation_but_linked_types_and_formulas_stay() -> None:
    # texi2html's page bar and an index's letter bar: every word a link, the rest brackets and separators.
    html = """<html><body>
<table><tr><td>[<a href="p.html"> &lt;&lt; </a>]</td><td>[<a href="n.html"> &gt;&gt; </a>]</td>
<td>[<a href="index.html">Top</a>]</td><td>[<a href="toc.html">Contents</a>]</td></tr></table>
<p><a href="#A">A</a> | <a href="#B">B</a> | <a href="#C">C</a></p>
<h1 id="SEC55">Invoking msgmerge</h1>
<p>The result is written back to def.po when the <a href="#u">--update</a> option is given.</p>
<p>between(<em>marker</em>, <em>what</em>: <span><a href="#seq">Sequence</a>[<a href="#str">str</a>]</span>)</p>
<p>An expression: <span><a href="#a">a</a> * <a href="#f">f</a>(<a href="#a">a</a>)</span>.</p>
</body></html>"""
    text = all_text(parse_file(html.encode(), "gettext_7.html"))
    assert "Contents" not in text and "<<" not in text and "A | B" not in text
    assert "The result is written back to def.po when the --update option is given." in text
    assert "Sequence[str]" in text
    assert "a * f(a)" in text


def test_html_headings_lists_tables_and_anchors() -> None:
    doc = parse_file(CHROME_HTML.encode(), "travel.html")
    booking = next(b for b in doc.blocks if "Navan" in b.text)
    assert booking.heading_path == ("Business Travel Policy", "Booking flights")
    assert booking.anchor == "booking"  # the heading's own id wins over the slug
    assert "- Book at least 14 days ahead." in booking.text.splitlines()
    table = next(b for b in doc.blocks if b.kind == "table")
    assert table.rows == [["City", "Nightly limit"], ["New York", "$350"], ["Austin", "$220"]]
    assert table.heading_path == ("Business Travel Policy", "Booking flights", "Hotel limits")
    assert table.anchor == "hotel-limits"
    per_diem = next(b for b in doc.blocks if "$75" in b.text)
    assert per_diem.heading_path == ("Business Travel Policy", "Per diem")


def test_html_table_without_th_uses_first_row_and_title_falls_back_to_h1() -> None:
    html = "<html><body><h1>Queues</h1><table><tr><td>Queue</td><td>Team</td></tr><tr><td>IT-HELP</td><td>IT</td></tr></table></body></html>"
    doc = parse_file(html.encode(), "queues.htm")
    assert doc.title == "Queues"
    assert doc.blocks[0].rows == [["Queue", "Team"], ["IT-HELP", "IT"]]


# ---------------------------------------------------------------- Markdown

MARKDOWN = """---
title: Deploy Process
author: Release Engineering
date: 2024-05-01
updated: 2025-01-15
---

# Deploy Process

Production deploys are allowed Monday to Thursday.

## Stages

Setext Heading
--------------

| Stage | Traffic |
|-------|---------|
| Canary | 5% |
| Full | 100% |

- Watch the [dashboard](https://example.com) closely.
- Roll back **first**.

```bash
shipyard deploy --service checkout
```
"""


def test_markdown_front_matter_headings_tables_and_code() -> None:
    doc = parse_file(MARKDOWN.encode(), "deploy.md")
    assert doc.title == "Deploy Process"
    assert doc.metadata == {"author": "Release Engineering", "created": "2024-05-01", "modified": "2025-01-15"}
    text = all_text(doc)
    assert "title:" not in text and "Release Engineering" not in text  # front matter is not content
    first = doc.blocks[0]
    assert first.heading_path == ("Deploy Process",) and first.anchor == "deploy-process"
    table = next(b for b in doc.blocks if b.kind == "table")
    assert table.heading_path == ("Deploy Process", "Setext Heading")  # "---" underline is an h2
    assert table.rows == [["Stage", "Traffic"], ["Canary", "5%"], ["Full", "100%"]]
    after = doc.blocks[-1]
    assert "- Watch the dashboard closely." in after.text
    assert "- Roll back first." in after.text
    assert "shipyard deploy --service checkout" in after.text
    assert after.anchor == "setext-heading"


def test_markdown_without_front_matter_or_headings() -> None:
    doc = parse_file(b"Just a note.\n\n---\n\nAnother paragraph.", "note.markdown")
    assert doc.title == "note"
    assert "Just a note." in all_text(doc) and "Another paragraph." in all_text(doc)
    assert doc.blocks[0].heading_path == () and doc.blocks[0].anchor == ""


# ---------------------------------------------------------------- reStructuredText and plain text

RST = """===============
Logging Standard
===============

:Author: Platform Team
:Date: 2024-02-01

All services log in JSON.

Levels
======

Use INFO for business events.

Retention
---------

+--------+-----------+
| Level  | Retention |
+========+===========+
| DEBUG  | 3 days    |
+--------+-----------+
| INFO   | 30 days   |
+--------+-----------+

.. include:: /etc/passwd
"""


def test_rst_sections_tables_and_docinfo() -> None:
    doc = parse_file(RST.encode(), "logging.rst")
    assert doc.title == "Logging Standard"
    assert doc.metadata.get("author") == "Platform Team"
    assert doc.metadata.get("created") == "2024-02-01"
    levels = next(b for b in doc.blocks if "INFO for business" in b.text)
    assert levels.heading_path == ("Logging Standard", "Levels")
    assert levels.anchor == "levels"
    table = next(b for b in doc.blocks if b.kind == "table")
    assert table.heading_path == ("Logging Standard", "Levels", "Retention")
    assert table.rows == [["Level", "Retention"], ["DEBUG", "3 days"], ["INFO", "30 days"]]
    assert "root:" not in all_text(doc)  # file inclusion is disabled


def test_plain_text_headings_and_cp1252() -> None:
    text = ("OFFICE GUIDE\nOwner: Facilities\n\nBADGES\n\nYour badge costs \u20ac10 to replace \u2013 ask the "
            "caf\u00e9 desk.\n\nParking\n-------\nSpaces are booked in Robin.\n")
    doc = parse_file(text.encode("cp1252"), "guide.txt")
    assert doc.title == "OFFICE GUIDE"
    badge = next(b for b in doc.blocks if "badge" in b.text)
    assert "\u20ac10" in badge.text and "caf\u00e9" in badge.text and "\u2013" in badge.text
    assert badge.heading_path == ("OFFICE GUIDE", "BADGES")
    parking = next(b for b in doc.blocks if "Robin" in b.text)
    assert parking.heading_path == ("OFFICE GUIDE", "BADGES", "Parking")
    assert parking.anchor == "parking"


def test_text_decoding_handles_bom_and_latin1() -> None:
    assert parse_file("\ufeffHello caf\u00e9".encode("utf-8"), "a.text").blocks[0].text == "Hello caf\u00e9"
    assert parse_file("Hello caf\u00e9".encode("utf-16"), "b.txt").blocks[0].text == "Hello caf\u00e9"
    # 0x81 is undefined in cp1252, so this must fall through to latin-1 without crashing.
    latin = b"Hello caf\xe9, this line is ordinary text. " * 3 + b"\x81ok"
    assert "caf\u00e9" in parse_file(latin, "c.txt").blocks[0].text


def test_block_defaults() -> None:
    block = Block(kind="text", text="x", heading_path=())
    assert block.page is None and block.anchor == "" and block.rows is None


def test_a_rendered_man_page_has_no_word_broken_by_groffs_hyphen() -> None:
    # man(1) output hyphenates at the right margin with U+2010; xargs(1) and strace(1) are set so.
    page = (
        "NAME\n       xargs - build and execute command lines from standard input\n\n"
        "DESCRIPTION\n"
        "       The command line for command is built up until it reaches a system-de\u2010\n"
        "       fined limit. If you don't want to tolerate the perfor\u2010\n"
        "       mance difference, use separate output files.\n\n"
        "       %fstat       Trace fstat, fstatat, and statx syscall vari\u2010\n"
        "                    ants.\n"
    )
    text = "\n".join(block.text for block in parse_file(page.encode(), "xargs-1.txt").blocks)
    assert "\u2010" not in text
    assert "system-defined limit" in text and "performance difference" in text
    assert "statx syscall variants." in text and "vari:" not in text


# A FAQ as the DocBook XSL stylesheets lay out a qandaset: a list of links to the questions, then one table of
# division titles, questions (number, text) and answers.
DOCBOOK_FAQ = """<html><head><title>Tool FAQ</title></head><body>
<div class="article"><div class="titlepage"><h1 class="title"><a name="faq"></a>Tool FAQ</h1></div>
<div class="qandaset">
<dl><dt>1. <a href="faq.html#faq.setup">Setting up</a></dt>
<dd>1.1. <a href="faq.html#faq.cache">Where does the tool keep its cache?</a></dd></dl>
<table width="100%" summary="Q and A Div" border="0">
<tr class="qandadiv"><td colspan="2"><a name="faq.setup"></a><h3 class="title"><a name="faq.setup"></a>1. Setting up</h3></td></tr>
<tr class="toc"><td colspan="2">1.1. <a href="faq.html#faq.cache">Where does the tool keep its cache?</a><br></td></tr>
<tr><td colspan="2"> </td></tr>
<tr class="question"><td><a name="faq.cache"></a><b>1.1.</b></td><td><b>Where does the tool keep its cache?</b></td></tr>
<tr class="answer"><td></td><td><p>In the directory named by TOOL_CACHE_DIR, which defaults to
  ~/.cache/tool.</p><p>Deleting it is safe.</p></td></tr>
<tr class="question"><td><a name="faq.proxy"></a><b>1.2.</b></td><td><b>Can it work behind a proxy?</b></td></tr>
<tr class="answer"><td></td><td><p>Yes: set HTTPS_PROXY before you start it.</p></td></tr>
</table></div></div></body></html>"""


def test_a_docbook_faq_gives_each_question_a_section_of_its_own() -> None:
    doc = parse_file(DOCBOOK_FAQ.encode(), "faq.html")
    cache = next(b for b in doc.blocks if "TOOL_CACHE_DIR" in b.text)
    assert cache.heading_path == ("Tool FAQ", "Setting up", "Where does the tool keep its cache?")
    assert cache.anchor == "faq.cache"  # the question's own anchor: a citation lands on it
    assert cache.kind == "text" and "Deleting it is safe." in cache.text and "1.1." not in cache.text
    proxy = next(b for b in doc.blocks if "HTTPS_PROXY" in b.text)
    assert proxy.heading_path[-1] == "Can it work behind a proxy?" and proxy.anchor == "faq.proxy"
    # The list of links to the questions is the set's table of contents, not content.
    assert not any(b.text.startswith("1. Setting up") or "1.1. Where" in b.text for b in doc.blocks)


# A page as Doxygen writes it: the project's banner on top, the page's title in a <div class="title">, then its
# sections as <h1> with ids.
DOXYGEN_PAGE = """<html><head><title>Tool: Getting started</title></head><body>
<div id="top"><div id="titlearea"><table><tr id="projectrow"><td><div id="projectname">Tool</div></td></tr></table>
</div></div>
<div id="doc-content"><div class="header"><div class="headertitle"><div class="title">Getting started</div></div></div>
<div class="contents"><div class="textblock"><p>The tool reads its settings from tool.toml in the current
directory.</p>
<h1><a class="anchor" id="step1"></a>Step 1: Writing a settings file</h1>
<p>Run tool --init to write a settings file with every default.</p></div></div></div></body></html>"""


def test_a_doxygen_page_title_heads_its_first_text_and_the_banner_is_dropped() -> None:
    doc = parse_file(DOXYGEN_PAGE.encode(), "starting.html")
    intro = next(b for b in doc.blocks if "tool.toml" in b.text)
    assert intro.heading_path == ("Getting started",)
    assert not intro.text.startswith(("Tool", "Getting started"))  # neither the project banner nor the title
    assert all(b.heading_path for b in doc.blocks)  # the banner ("Tool") is no text before the title
    step = next(b for b in doc.blocks if "--init" in b.text)
    assert step.heading_path[-1] == "Step 1: Writing a settings file" and step.anchor == "step1"


# A class page as RDoc writes it: each method's name and arguments in a <div class="method-heading">, the method's
# anchor on the <div class="method-detail"> around it.
RDOC_PAGE = """<html><head><title>class Queue - tool</title></head><body><main>
<h1 id="class-Queue" class="class">class Queue</h1>
<section class="method-section"><header><h3>Public Instance Methods</h3></header>
<div id="method-i-push" class="method-detail"><div class="method-heading"><span class="method-name">push</span>
<span class="method-args">(job, priority: 0)</span><span class="method-click-advice">click to toggle source</span></div>
<div class="method-description"><p>Adds a job; a higher priority runs first.</p></div></div>
<div id="method-i-size" class="method-detail"><div class="method-heading"><span class="method-name">size</span>
<span class="method-args">()</span><span class="method-click-advice">click to toggle source</span></div>
<div class="method-description"><p>Returns how many jobs wait.</p></div></div>
</section></main></body></html>"""


def test_rdoc_methods_are_sections_of_their_own() -> None:
    doc = parse_file(RDOC_PAGE.encode(), "Queue.html")
    push = next(b for b in doc.blocks if "higher priority" in b.text)
    size = next(b for b in doc.blocks if "how many jobs" in b.text)
    assert push.heading_path == ("class Queue", "Public Instance Methods", "push (job, priority: 0)")
    assert size.heading_path == ("class Queue", "Public Instance Methods", "size ()")  # a sibling, not nested
    assert (push.anchor, size.anchor) == ("method-i-push", "method-i-size")
    assert "toggle source" not in " ".join(b.text for b in doc.blocks)
