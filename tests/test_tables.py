"""Pipe tables: written once by the parsers, read back for the console, shown as escaped HTML tables."""

from __future__ import annotations

import pytest

from knowledge.ingestion import ingest_document, register_upload
from knowledge.models import Chunk
from tests.factories import make_collection, make_user
from textcore.tables import Table, has_table, split_row, split_tables, table_to_text
from webapp.templatetags.console_tags import chunk_html

RATES = (b"# Rates\n\n## Mileage\n\nMileage is paid per mile driven on company business.\n\n"
         b"| Vehicle | Rate &lt;script&gt;alert(1)&lt;/script&gt; | Notes |\n|---|---|---|\n"
         b"| Car | 0.67 USD | a \\| b |\n| Bike | 0.20 USD | |\n")


@pytest.mark.parametrize("rows", [
    [["Vehicle", "Rate"], ["Car", "0.67 USD"]],
    [["a|b", "c"], ["x \\ y", "|"]],
    [["Only a header"]],
])
def test_tables_read_back_as_written(rows):
    (table,) = split_tables(table_to_text(rows))
    assert [table.header, *table.rows] == rows


@pytest.mark.parametrize("text, kinds", [
    ("Intro line\n| A | B |\n| --- | :-: |\n| 1 | 2 |\nAfter", ["str", "Table", "str"]),
    ("A | B\n---|---\n1 | 2", ["Table"]),                       # outer pipes are optional
    ("Costs are 5 | 6 per day.\nNothing else.", ["str"]),       # a pipe in prose is not a table
    ("| A | B |\n| --- |\n| 1 | 2 |", ["str"]),                  # separator narrower than the header
    ("", []),
])
def test_split_tables_finds_only_real_tables(text, kinds):
    assert [type(part).__name__ for part in split_tables(text)] == kinds


def test_rows_are_padded_or_cut_to_the_header():
    (table,) = split_tables("| A | B |\n|---|---|\n| 1 |\n| 1 | 2 | 3 |")
    assert table.rows == [["1", ""], ["1", "2"]]
    assert split_row("| a \\| b | c |") == ["a | b", "c"]
    assert has_table("| A |\n| --- |") and not has_table("no table")


def test_chunk_html_renders_a_table_and_escapes_every_cell():
    html = chunk_html("Rates below.\n| Item | Note <b>x</b> |\n| --- | --- |\n| <script>alert(1)</script> | a & b |")
    assert "<table" in html and "<th>Item</th>" in html and "<th>Note &lt;b&gt;x&lt;/b&gt;</th>" in html
    assert "<td>&lt;script&gt;alert(1)&lt;/script&gt;</td>" in html and "<td>a &amp; b</td>" in html
    assert "<script>" not in html and "<b>" not in html
    assert html.index("Rates below.") < html.index("<table")


@pytest.mark.django_db
def test_document_page_shows_a_markdown_table_as_a_table_with_the_script_escaped(client):
    client.force_login(make_user(is_staff=True))
    document, _ = register_upload(make_collection(), "rates.md", RATES)
    ingest_document(document.pk)
    chunk = Chunk.objects.get(document=document, text__contains="| Vehicle")
    assert "<script>" in chunk.text  # the entity in the file is a literal tag in the passage's text
    page = client.get(f"/documents/{document.pk}/?chunk={chunk.pk}").content.decode()
    body = page[page.index('class="card doc-body"'):page.index("</article>")]
    assert '<table class="table chunk-table">' in body
    assert "<th>Rate &lt;script&gt;alert(1)&lt;/script&gt;</th>" in body and "<script>" not in body
    assert "<td>Car</td><td>0.67 USD</td><td>a | b</td>" in body
    # A citation link still lands on the passage: its text and its table are both highlighted.
    assert '<p class="cited" id="cited-passage" tabindex="-1">Mileage is paid per mile' in body
    assert '<div class="para cited">' in body


def test_a_quoted_passage_reads_its_table_rows_as_prose():
    from webapp.templatetags.console_tags import plain_quote

    text = "Limits below.\n\n| Card | Limit |\n| --- | --- |\n| Standard | $2,500 |\n| Head | $10,000 |\n\nAsk Finance."
    assert plain_quote(text) == "Limits below. Card: Standard; Limit: $2,500. Card: Head; Limit: $10,000. Ask Finance."
