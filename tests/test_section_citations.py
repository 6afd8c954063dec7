"""A short section merged into its neighbour's chunk keeps its own anchor: the answer cites it, retrieval
reports it, and the document page has an id for it."""

from __future__ import annotations

import re

import pytest

from knowledge.answering import AskOptions, answer_question
from knowledge.evaluation import recall_at_k, reciprocal_rank
from knowledge.ingestion import ingest_document, register_upload
from knowledge.models import Chunk
from tests.factories import make_collection

pytestmark = pytest.mark.django_db

HANDBOOK = b"""# Office handbook

## Parking

The car park behind the main building has 120 spaces for staff and visitors. Spaces are given out
each morning in the order people arrive, and the gate opens at seven. Electric cars may use the eight
charging bays on the north side for up to four hours a day. Bicycles go in the covered racks next to
the loading dock, which are locked at night.

## Lost badge

Report a lost badge to the security desk at extension 4455 within one working day.

## Visitors

Visitors sign in at reception and wear a paper pass for the whole visit.
"""


@pytest.fixture
def handbook():
    collection = make_collection("Handbook", is_public=True)
    document, _ = register_upload(collection, "office/handbook.md", HANDBOOK)
    ingest_document(document.pk)
    return collection, document


def test_a_merged_section_is_marked_in_its_chunk(handbook):
    _, document = handbook
    chunk = Chunk.objects.get(document=document, sections__contains=[{"anchor": "lost-badge"}])
    assert chunk.anchor == "parking"
    marks = {mark["anchor"]: mark for mark in chunk.sections}
    assert set(marks) == {"parking", "lost-badge", "visitors"}
    assert chunk.text[marks["lost-badge"]["at"]:].startswith("Lost badge\nReport a lost badge")
    assert marks["lost-badge"]["heading"] == ["Office handbook", "Lost badge"]


def test_the_answer_cites_the_section_that_holds_its_sentence(handbook):
    collection, document = handbook
    result = answer_question("Where do I report a lost badge?",
                             AskOptions(use_cache=False, collection_ids=[collection.pk]))
    assert not result.refused and "4455" in result.answer, result.answer
    citation = result.citations[0]
    assert citation.source == "office/handbook.md#lost-badge"
    assert citation.url.endswith(f"/documents/{document.pk}/?chunk={citation.chunk_id}#lost-badge")
    chunk = next(r for r in result.retrieved if r["chunk_id"] == citation.chunk_id)
    assert chunk["source"] == "office/handbook.md#parking"
    assert "office/handbook.md#lost-badge" in chunk["sections"]


def test_the_document_page_shows_a_merged_section_under_its_own_heading(client, staff, handbook):
    _, document = handbook
    html = client.get(f"/documents/{document.pk}/").content.decode()
    assert {"parking", "lost-badge", "visitors"} <= set(re.findall(r'id="([^"]+)"', html))
    heading = re.search(r'<h(\d) class="section-heading" id="lost-badge">Lost badge', html)
    assert heading, "the merged section has a heading of its own"
    after = html[heading.end():]
    assert after.index("Report a lost badge") < after.index('id="visitors"')
    assert "Lost badge<br>" not in html, "the heading line is not repeated in the text"


@pytest.mark.parametrize("expected, ranked, recall, rr, file_recall", [
    # a chunk found for its own section and for the short sections merged into it
    (["a.md#x"], [["a.md#p", "a.md#x"], "b.md#q"], 1.0, 1.0, 1.0),
    (["b.md#q"], [["a.md#p", "a.md#x"], "b.md#q"], 1.0, 0.5, 1.0),
    # two chunks of one section count once; a merged section's source does not make a rank of its own
    (["c.md#z"], ["a.md#p", ["a.md#p", "a.md#x"], "b.md#q", "c.md#z"], 1.0, 1 / 3, 1.0),
    (["a.md#y"], [["a.md#p", "a.md#x"]], 0.0, 0.0, 1.0),
    (["d.md"], [["a.md#p", "a.md#x"]], 0.0, 0.0, 0.0),
])
def test_recall_reads_every_section_a_retrieved_chunk_holds(expected, ranked, recall, rr, file_recall):
    assert recall_at_k(expected, ranked, 5) == pytest.approx(recall)
    assert reciprocal_rank(expected, ranked) == pytest.approx(rr)
    assert recall_at_k(expected, ranked, 5, section=False) == pytest.approx(file_recall)
