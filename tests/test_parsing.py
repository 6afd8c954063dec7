"""Tests for knowledge.parsing: every format, plus the ways uploads go wrong."""

from __future__ import annotations

import datetime as dt
import io
import os
import zipfile

import pytest

from knowledge.parsing import (
    SUPPORTED_EXTENSIONS,
    IngestionError,
    ParsedDocument,
    mime_type_for,
    parse_file,
    slugify_heading,
)
from knowledge.parsing.base import Block

# ---------------------------------------------------------------- helpers / fixtures


def _all_text(doc: ParsedDocument) -> str:
    return "\n".join(block.text for block in doc.blocks)


def _make_pdf(pages: list[list[str]], *, table: list[tuple[str, ...]] | None = None,
              title: str | None = "Expense Policy") -> bytes:
    """A PDF with one list of lines per page; an optional table after page one's first two lines."""
    from fpdf import FPDF

    pdf = FPDF()
    if title:
        pdf.set_title(title)
    pdf.set_author("Finance Team")
    pdf.set_creation_date(dt.datetime(2024, 3, 5, tzinfo=dt.timezone.utc))
    pdf.set_font("Helvetica", size=11)
    for number, lines in enumerate(pages):
        pdf.add_page()
        for index, line in enumerate(lines):
            if line.startswith("# "):  # headings are set larger and bold, as real documents do
                pdf.set_font("Helvetica", style="B", size=15)
                pdf.multi_cell(0, 9, line[2:], new_x="LMARGIN", new_y="NEXT")
                pdf.set_font("Helvetica", size=11)
            else:
                pdf.multi_cell(0, 7, line, new_x="LMARGIN", new_y="NEXT")
            if number == 0 and index == 1 and table:
                with pdf.table() as t:
                    for row in table:
                        cells = t.row()
                        for cell in row:
                            cells.cell(cell)
    return bytes(pdf.output())


MEAL_TABLE = [("City", "Breakfast", "Dinner"), ("London", "25 GBP", "60 GBP"), ("Paris", "22 EUR", "55 EUR")]


@pytest.fixture(scope="module")
def table_pdf() -> bytes:
    return _make_pdf(
        [[
            "# Meal Allowances",
            "Employees travelling on business may claim meals. The daily limits are in the table below.",
            "Receipts are required for every claim above the limit.",
        ]],
        table=MEAL_TABLE,
    )


@pytest.fixture(scope="module")
def multipage_pdf() -> bytes:
    return _make_pdf([
        ["# Approval Rules", "Your manager approves claims within five business days."],
        ["# Reimbursement Timing", "Approved claims are paid with the next payroll run."],
        ["# Policy Exceptions", "The CFO may approve exceptions in writing."],
    ])


def _make_docx(path) -> bytes:
    import docx

    document = docx.Document()
    document.core_properties.author = "People Ops"
    document.core_properties.title = "Leave Handbook"
    document.core_properties.created = dt.datetime(2023, 1, 2, 9, 0)
    document.add_heading("Leave Handbook", level=1)
    document.add_paragraph("This handbook explains the types of leave.")
    document.add_heading("Sick Leave", level=2)
    document.add_paragraph("You get ten sick days per year.")
    document.add_paragraph("Tell your manager before 10:00.", style="List Bullet")
    table = document.add_table(rows=3, cols=2)
    for r, row in enumerate([("Tenure", "Days"), ("0-2 years", "10"), ("3+ years", "12")]):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    document.add_paragraph("Unused sick days do not carry over.")
    document.add_heading("Parental Leave", level=2)
    document.add_paragraph("Parents receive sixteen weeks of paid leave.")
    document.save(path)
    return path.read_bytes()


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


# ---------------------------------------------------------------- PDF


def test_pdf_table_is_kept_as_table_and_not_duplicated(table_pdf: bytes) -> None:
    doc = parse_file(table_pdf, "expense.pdf")
    assert doc.title == "Expense Policy"
    assert doc.metadata["author"] == "Finance Team"
    assert doc.metadata["created"] == "2024-03-05"
    tables = [b for b in doc.blocks if b.kind == "table"]
    assert len(tables) == 1
    table = tables[0]
    assert table.rows == [list(r) for r in MEAL_TABLE]
    assert table.text.splitlines()[0] == "| City | Breakfast | Dinner |"
    assert table.page == 1 and table.anchor == "page-1"
    text_blocks = [b for b in doc.blocks if b.kind == "text"]
    body = "\n".join(b.text for b in text_blocks)
    assert "Receipts are required" in body and "daily limits" in body
    assert "London" not in body and "Breakfast" not in body  # table text is not repeated
    # Reading order: intro text, table, closing text.
    kinds = [b.kind for b in doc.blocks]
    assert kinds.index("table") not in (0, len(kinds) - 1)
    assert table.heading_path == ("Expense Policy", "Meal Allowances")


def test_pdf_pages_get_page_anchors_and_headings(multipage_pdf: bytes) -> None:
    doc = parse_file(multipage_pdf, "claims.pdf")
    pages = {b.page for b in doc.blocks}
    assert pages == {1, 2, 3}
    for block in doc.blocks:
        assert block.anchor == f"page-{block.page}"
    by_page = {b.page: b for b in doc.blocks}
    assert "five business days" in by_page[1].text
    assert by_page[3].heading_path == ("Expense Policy", "Policy Exceptions")


def test_pdf_without_title_metadata_uses_filename() -> None:
    data = _make_pdf([["this line is plain lower case text that is not a heading."]], title=None)
    doc = parse_file(data, "travel_rules-2024.pdf")
    assert doc.title == "travel rules 2024"


def test_encrypted_pdf_is_rejected(multipage_pdf: bytes) -> None:
    import pypdf

    reader = pypdf.PdfReader(io.BytesIO(multipage_pdf))
    writer = pypdf.PdfWriter()
    for page in reader.pages:
        writer.add_page(page)
    writer.encrypt("secret")
    out = io.BytesIO()
    writer.write(out)
    with pytest.raises(IngestionError, match="password-protected"):
        parse_file(out.getvalue(), "secret.pdf")


def test_pdf_encrypted_with_owner_password_only_still_opens(multipage_pdf: bytes) -> None:
    import pypdf

    reader = pypdf.PdfReader(io.BytesIO(multipage_pdf))
    writer = pypdf.PdfWriter()
    for page in reader.pages:
        writer.add_page(page)
    writer.encrypt(user_password="", owner_password="owner-secret")
    out = io.BytesIO()
    writer.write(out)
    doc = parse_file(out.getvalue(), "restricted.pdf")
    assert "five business days" in _all_text(doc)


def test_corrupt_pdf_is_rejected(multipage_pdf: bytes) -> None:
    with pytest.raises(IngestionError, match="damaged or not a valid PDF"):
        parse_file(multipage_pdf[:400], "truncated.pdf")


def test_pdf_without_text_is_rejected_as_scanned() -> None:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.rect(20, 20, 100, 60, style="F")  # a drawing, like a scanned page image, but no text
    with pytest.raises(IngestionError, match="no extractable text"):
        parse_file(bytes(pdf.output()), "scan.pdf")


@pytest.mark.parametrize("line, expected", [
    ("Meal Allowances", True),
    ("3.2 Approval limits", True),
    ("EXPENSE RULES", True),
    ("This sentence ends with a period.", False),
    ("Owner: Finance Operations", False),
    ("- A bullet item", False),
    ("Lowercase words only here", False),
])
def test_pdf_heading_heuristic_without_font_info(line: str, expected: bool) -> None:
    from knowledge.parsing.pdf import _looks_like_heading

    assert _looks_like_heading(line, True) is expected


def test_pdf_running_headers_are_dropped() -> None:
    topics = ["Travel", "Meals", "Lodging"]
    pages = [["Acme Handbook - Confidential", f"# {topic} Rules", f"Body text about {topic.lower()}.", f"Page {n} of 3"]
             for n, topic in enumerate(topics, start=1)]
    doc = parse_file(_make_pdf(pages), "handbook.pdf")
    text = _all_text(doc)
    assert "Confidential" not in text and "Page 2 of 3" not in text
    assert "Body text about meals." in text
    assert [b.heading_path[-1] for b in doc.blocks] == ["Travel Rules", "Meals Rules", "Lodging Rules"]


def test_pdf_lost_spaces_detector() -> None:
    from knowledge.parsing.pdf import _lost_spaces

    assert _lost_spaces("Employeesmustsubmittheirexpenseclaims withinthirtydaysofthetripending " * 3)
    assert not _lost_spaces("Employees must submit their expense claims within thirty days. " * 3)


# ---------------------------------------------------------------- DOCX


def test_docx_headings_tables_and_lists_in_order(tmp_path) -> None:
    doc = parse_file(_make_docx(tmp_path / "leave.docx"), "leave.docx")
    assert doc.title == "Leave Handbook"
    assert doc.metadata["author"] == "People Ops"
    assert doc.metadata["created"] == "2023-01-02"
    paths = [(b.kind, b.heading_path) for b in doc.blocks]
    assert paths == [
        ("text", ("Leave Handbook",)),
        ("text", ("Leave Handbook", "Sick Leave")),
        ("table", ("Leave Handbook", "Sick Leave")),
        ("text", ("Leave Handbook", "Sick Leave")),
        ("text", ("Leave Handbook", "Parental Leave")),
    ]
    sick = doc.blocks[1]
    assert "- Tell your manager before 10:00." in sick.text.splitlines()
    assert sick.anchor == "sick-leave"
    table = doc.blocks[2]
    assert table.rows == [["Tenure", "Days"], ["0-2 years", "10"], ["3+ years", "12"]]
    assert table.text.startswith("| Tenure | Days |")


def _zip_with_zeros(megabytes: int) -> bytes:
    """A tiny zip whose word/document.xml inflates to `megabytes` MB, written in streamed pieces."""
    buffer = io.BytesIO()
    piece = b"\x00" * (1024 * 1024)
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        with archive.open("word/document.xml", "w", force_zip64=True) as handle:
            for _ in range(megabytes):
                handle.write(piece)
    return buffer.getvalue()


@pytest.mark.parametrize("megabytes", [300, 30])
def test_docx_zip_bomb_is_rejected(megabytes: int) -> None:
    data = _zip_with_zeros(megabytes)
    assert len(data) < 3 * 1024 * 1024
    with pytest.raises(IngestionError, match="zip bomb"):
        parse_file(data, "bomb.docx")


def test_docx_with_too_many_entries_is_rejected() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("word/document.xml", "<w:document/>")
        for index in range(6000):
            archive.writestr(f"word/media/{index}.bin", b"")
    with pytest.raises(IngestionError, match="zip bomb"):
        parse_file(buffer.getvalue(), "many.docx")


def test_zip_without_word_document_is_rejected() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("xl/workbook.xml", "<workbook/>")
    with pytest.raises(IngestionError, match="word/document.xml is missing"):
        parse_file(buffer.getvalue(), "sheet.docx")


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
    text = _all_text(doc) + " ".join(" ".join(b.heading_path) for b in doc.blocks)
    for marker in ("SCRIPTTEXT", "BANNERTEXT", "NAVTEXT", "CRUMBTEXT", "SIDEBARTEXT", "TOCTEXT",
                   "PREVTEXT", "NEXTLINK", "FORMTEXT", "ASIDETEXT", "ROLETEXT", "FOOTERTEXT"):
        assert marker not in text, marker
    assert "approved in advance" in text
    assert "Economy class is required for flights under six hours." in text
    assert doc.title == "Travel Policy | Intranet"
    assert doc.metadata["author"] == "Finance Ops"


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
    text = _all_text(doc)
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
    assert "Just a note." in _all_text(doc) and "Another paragraph." in _all_text(doc)
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
    assert "root:" not in _all_text(doc)  # file inclusion is disabled


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
