"""Superseded documents: explicit statements and dated series, and how the console shows them."""

from __future__ import annotations

import re
from datetime import date

import pytest

from knowledge.models import Document
from knowledge.supersession import DocumentFacts, detect, effective_date, parse_date, resolve, statements


def facts(id, title, source, lead="", **fields) -> DocumentFacts:
    return DocumentFacts(id=id, title=title, source=source, collection_id=fields.pop("collection_id", 1),
                         lead=lead, **fields)


@pytest.mark.parametrize("text, expected", [
    ("Effective date: 1 February 2023", date(2023, 2, 1)),
    ("updated March 3, 2024 by HR", date(2024, 3, 3)),
    ("from 2025-03-01 on", date(2025, 3, 1)),
    ("Sept 2022", date(2022, 9, 1)),
    ("31 February 2023", None),
    ("no date here", None),
])
def test_parse_date(text, expected):
    assert parse_date(text) == expected


def test_statements_in_the_opening_and_the_front_matter():
    newer = facts(2, "Remote Work Policy (2025)", "hr/remote-2025.md",
                  "Effective date: 1 March 2025 Version: 2.0 Supersedes: Remote Work Policy (2023), version 1.4\n\n"
                  "This version replaces the 2023 Remote Work Policy in full. Where the two differ, this applies.")
    older = facts(1, "Remote Work Policy (2023)", "hr/remote-2023.md",
                  "Version: 1.4 Status: Superseded (see the 2025 Remote Work Policy)")
    assert statements(newer) == (["Remote Work Policy (2023), version 1.4", "2023 Remote Work Policy in full"], [])
    assert statements(older) == ([], ["2025 Remote Work Policy"])
    assert effective_date(newer) == date(2025, 3, 1)
    front = facts(3, "Travel", "travel.md", metadata={"superseded_by": "travel-2026.md", "effective": "2024-01-01"})
    assert statements(front) == ([], ["travel-2026.md"]) and effective_date(front) == date(2024, 1, 1)


def test_a_reference_names_one_document_or_none():
    docs = [facts(1, "Travel Policy 2023", "finance/travel-2023.md"), facts(2, "Travel Policy 2024", "finance/travel-2024.md"),
            facts(3, "Expense Guide", "finance/expenses.md")]
    assert resolve("the Travel Policy 2023 (v1)", docs, own_id=2).id == 1
    assert resolve("finance/travel-2024.md", docs, own_id=1).id == 2
    assert resolve("the travel policy", docs, own_id=3) is None     # names two equally: no guess
    assert resolve("Travel Policy 2023", docs, own_id=1) is None    # never itself


@pytest.mark.parametrize("documents, newer", [
    # explicit, from either side
    ([facts(1, "Leave Rules", "hr/leave.md"), facts(2, "Parental Leave", "hr/parental.md", "Replaces: Leave Rules.")],
     {1: 2}),
    ([facts(1, "Leave Rules", "hr/leave.md", "Superseded by the Parental Leave policy."),
      facts(2, "Parental Leave", "hr/parental.md")], {1: 2}),
    # a series: same title but the year, ordered by effective date, then by the year in the title
    ([facts(1, "Holiday Calendar 2024", "hr/cal-2024.md"), facts(2, "Holiday Calendar 2025", "hr/cal-2025.md"),
      facts(3, "Holiday Calendar 2023", "hr/cal-2023.md")], {3: 1, 1: 2}),
    ([facts(1, "Security Policy", "sec/a.md", "Effective date: 1 May 2024"),
      facts(2, "Security Policy", "sec/b.md", "Effective date: 1 May 2023")], {2: 1}),
    # not a series: another folder, another collection, or a member whose date is unknown
    ([facts(1, "Install Guide", "pkg-a/install.md", updated=date(2023, 1, 1)),
      facts(2, "Install Guide", "pkg-b/install.md", updated=date(2024, 1, 1))], {}),
    ([facts(1, "FAQ 2024", "faq-2024.md"), facts(2, "FAQ 2025", "faq-2025.md", collection_id=2)], {}),
    ([facts(1, "Guide", "g/a.md"), facts(2, "Guide", "g/b.md", updated=date(2024, 1, 1))], {}),
    # a change log that "replaced" something is not a statement about a document
    ([facts(1, "Office Days", "hr/office.md"), facts(2, "Office Days Update", "hr/update.md",
                                                     "Anchor days replaced team-chosen office days.")], {}),
    # two documents each claiming to replace the other: no guess
    ([facts(1, "Alpha Plan", "a.md", "Replaces the Beta Plan."), facts(2, "Beta Plan", "b.md", "Replaces the Alpha Plan.")],
     {}),
])
def test_detect(documents, newer):
    assert detect(documents).newer == newer


@pytest.mark.django_db
def test_superseded_document_says_so_and_links_the_newer_one(client, corpus_db):
    from tests.factories import make_user

    client.force_login(make_user())
    old = Document.objects.get(source="hr/remote-work-policy-2023.md")
    new = Document.objects.get(source="hr/remote-work-policy-2025.md")
    page = client.get(f"/documents/{old.pk}/").content.decode()
    assert re.search(rf'Superseded by <a href="/documents/{new.pk}/">Remote Work Policy \(2025\)</a>', page)
    page = client.get(f"/documents/{new.pk}/").content.decode()
    assert re.search(rf'Replaces <a href="/documents/{old.pk}/">Remote Work Policy \(2023\)</a>', page)
    assert "Superseded by" not in page
    listing = client.get("/documents/").content.decode()
    rows = {pk: row for pk, row in re.findall(r'<tr data-doc-id="(\d+)">(.*?)</tr>', listing, re.S)}
    assert 'title="Superseded by Remote Work Policy (2025)">Superseded</span>' in rows[str(old.pk)]
    assert sum("Superseded</span>" in row for row in rows.values()) == 1, "only the 2023 policy is superseded"


@pytest.mark.django_db
def test_answers_quote_the_current_version_not_the_superseded_one(corpus_db):
    from knowledge.answering import AskOptions, answer_question

    result = answer_question("What is the home office stipend?", AskOptions(use_cache=False, store=False))
    assert not result.refused
    sources = {c.source.split("#")[0] for c in result.citations}
    assert sources == {"hr/remote-work-policy-2025.md"}, sources
    assert "$750" in result.answer


@pytest.mark.django_db
def test_superseded_hits_move_behind_their_successors_only_when_it_is_there(corpus_db):
    from knowledge.answering.currency import demote_superseded, successors

    old = Document.objects.get(source="hr/remote-work-policy-2023.md")
    new = Document.objects.get(source="hr/remote-work-policy-2025.md")
    other = Document.objects.exclude(pk__in=[old.pk, new.pk]).first()
    assert successors([old.collection_id])[old.pk] == new.pk

    class Hit:
        def __init__(self, document_id):
            self.document_id = document_id

    both = [Hit(old.pk), Hit(other.pk), Hit(new.pk)]
    assert [h.document_id for h in demote_superseded(both, successors([old.collection_id]))] == [other.pk, new.pk, old.pk]
    alone = [Hit(old.pk), Hit(other.pk)]
    assert [h.document_id for h in demote_superseded(alone, successors([old.collection_id]))] == [old.pk, other.pk]
