"""Parsing PDF and DOCX files: tables, headings, anchors, metadata and every kind of bad input."""

from __future__ import annotations

import datetime as dt
import io
import zipfile

import pytest

from knowledge.parsing import IngestionError, parse_file
from tests.factories import all_text

# ---------------------------------------------------------------- builders

def _make_pdf(pages: list[list[str]], *, table: list[tuple[str, ...]] | None = None,
              title: str | None = "Expense Policy", table_at: tuple[int, int] = (0, 1)) -> bytes:
    """A PDF with one list of lines per page; an optional table after line table_at[1] of page table_at[0]
    (by default after page one's first two lines)."""
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
            elif line.startswith("## "):  # a sub-heading set bold at the body's size
                pdf.set_font("Helvetica", style="B", size=11)
                pdf.multi_cell(0, 7, line[3:], new_x="LMARGIN", new_y="NEXT")
                pdf.set_font("Helvetica", size=11)
            elif line.startswith("`"):  # code is set in a monospaced font
                pdf.set_font("Courier", size=10)
                pdf.multi_cell(0, 6, line[1:], new_x="LMARGIN", new_y="NEXT")
                pdf.set_font("Helvetica", size=11)
            else:
                pdf.multi_cell(0, 7, line, new_x="LMARGIN", new_y="NEXT")
            if (number, index) == table_at and table:
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


def test_pdf_lines_in_a_monospaced_font_are_a_code_block() -> None:
    pdf = _make_pdf([["# Getting the source", "To retrieve the development tree, use the following command:",
                      "`$ git clone https://example.org/nut.git", "`$ cd nut", "The configure script is not stored",
                      "in the repository. Run the following script in the directory you checked out:",
                      "`$ ./autogen.sh", "Then read the manual."]], title="Developer Guide")
    texts = [block.text for block in parse_file(pdf, "guide.pdf").blocks]
    assert texts == ["To retrieve the development tree, use the following command:",
                     "    $ git clone https://example.org/nut.git\n    $ cd nut",
                     "The configure script is not stored in the repository. Run the following script in the "
                     "directory you checked out:",  # prose is still unwrapped
                     "    $ ./autogen.sh", "Then read the manual."]


def test_pdf_control_characters_a_font_maps_a_glyph_to_are_dropped() -> None:
    # A symbol font's epsilon comes out of the page as "\x0f": nothing a reader can see, so nothing an answer quotes.
    pdf = _make_pdf([["# Solver", "The solver stops when the energy falls below some \x0f. The default (.1) is low "
                      "enough for most graphs."]], title="Layout Guide")
    texts = [block.text for block in parse_file(pdf, "layout.pdf").blocks]
    assert texts == ["The solver stops when the energy falls below some . The default (.1) is low enough for most graphs."]


def test_pdf_bold_body_size_line_is_a_sub_heading_by_its_font_name() -> None:
    # Core fonts carry no weight pdfium can report (0): "Helvetica-Bold" says it.
    pdf = _make_pdf([["# 3 Adjusting Layouts", "Layouts can be adjusted in three ways.",
                      "## 3.1 Initial Configuration", "Random initial placement can yield different layouts.",
                      "## 3.2 Termination Threshold", "The solver stops when the energy falls below epsilon."]],
                    title="Neato Guide")
    blocks = parse_file(pdf, "neato.pdf").blocks
    by_path = {block.heading_path[-1]: block.text for block in blocks}
    assert by_path["3.1 Initial Configuration"] == "Random initial placement can yield different layouts."
    assert by_path["3.2 Termination Threshold"] == "The solver stops when the energy falls below epsilon."
    assert blocks[0].heading_path[-1] == "3 Adjusting Layouts"


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
    assert "five business days" in all_text(doc)


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
    text = all_text(doc)
    assert "Confidential" not in text and "Page 2 of 3" not in text
    assert "Body text about meals." in text
    assert [b.heading_path[-1] for b in doc.blocks] == ["Travel Rules", "Meals Rules", "Lodging Rules"]


def test_a_sentence_broken_by_a_page_and_a_table_page_is_whole_in_one_block() -> None:
    pages = [
        ["# Meal Allowances", "Receipts are required for every claim.",
         "The daily limits below apply to every trip and are reviewed by the finance team each"],
        ["Limits by city", "Table 1: Daily meal limits"],
        ["year in January.", "Claims above the limit need a director's approval."],
    ]
    doc = parse_file(_make_pdf(pages, table=MEAL_TABLE, table_at=(1, 0)), "meals.pdf")
    texts = [b.text for b in doc.blocks if b.kind == "text"]
    assert any("reviewed by the finance team each year in January." in t for t in texts), texts
    assert not any(t.startswith("year in January") for t in texts)
    # The rest of the page stays on its own page; the table and its caption are kept.
    assert any(b.page == 3 and "director's approval" in b.text for b in doc.blocks)
    assert any(b.kind == "table" and "London" in b.text for b in doc.blocks)
    assert any(t.startswith("Table 1: Daily meal limits") for t in texts)


def test_a_new_section_is_not_read_as_the_end_of_the_sentence_before_it() -> None:
    pages = [["# Approval Rules", "Your manager approves claims within five business days, or the"],
             ["# Reimbursement Timing", "approved claims are paid with the next payroll run."]]
    doc = parse_file(_make_pdf(pages), "rules.pdf")
    by_heading = {b.heading_path[-1]: b.text for b in doc.blocks}
    assert by_heading["Reimbursement Timing"].startswith("approved claims are paid")
    assert by_heading["Approval Rules"].endswith("or the")


def test_pdf_words_run_together_detector() -> None:
    from knowledge.parsing.pdf_extract import _glued

    # A tightly set LaTeX table cell read with pdfplumber's default 3-pt word gap.
    assert _glued("shape ellipse heightandwidthininches label nodename anystring pointsizeoflabelinpoints "
                  "fontname Times-Roman fontfamilynameoftheface typefacecolor graphicsoptions nodeshapecolor")
    # One long real word in ordinary text is not enough.
    assert not _glued("Drawing graphs for telecommunications networks is what the layout engines do well. " * 2)


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


WORDS = ["Booking", "Fares", "Upgrades", "Visas", "Insurance", "Lounges", "Lunch", "Hotel", "Taxi", "Tips", "Wine",
         "Snacks", "Dinner", "Coffee"]


def test_a_chapters_running_header_on_every_other_page_is_dropped() -> None:
    # A book layout: the chapter's title over its even pages, which changes from chapter to chapter (so it is on
    # no more than a quarter of the pages); a sentence the text says several times stays, even where it ends a page.
    pages = []
    for index in range(12):
        topic = "Travel" if index < 6 else "Meals"
        lines = [f"{topic}: the rules in full"] if index % 2 else []
        if index in (0, 6):
            lines.append(f"# {topic}")
        lines += [f"{WORDS[index]} is what page {WORDS[index + 1].lower()} tells of {topic.lower()}.",
                  f"{WORDS[index + 2]} more of it."]
        if index in (0, 10):
            lines += ["Receipts are required.", "Then the claim is paid.", "It takes a week."]
        if index in (2, 4, 8):
            lines.append("Receipts are required.")
        pages.append(lines)
    doc = parse_file(_make_pdf(pages), "book.pdf")
    text = all_text(doc)
    assert "the rules in full" not in text
    assert text.count("Receipts are required.") == 5
    assert [b.heading_path[-1] for b in doc.blocks][0] == "Travel" and "Meals" in {b.heading_path[-1] for b in doc.blocks}
    assert "Hotel is what page taxi tells of meals." in text
