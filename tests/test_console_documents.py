"""The web console's documents: the list and its search, document pages with citation anchors, who may see and delete."""

from __future__ import annotations

import re

import pytest

from knowledge.models import Document
from tests.factories import make_collection, make_user

pytestmark = pytest.mark.django_db


def test_document_list_filters_and_explains_failures(client, staff):
    collection = make_collection()
    Document.objects.create(collection=collection, source="scan.pdf", status=Document.Status.FAILED,
                            error="The document has no readable text.")
    Document.objects.create(collection=collection, source="ok.md", status=Document.Status.READY)
    response = client.get("/documents/", {"collection": collection.pk, "status": "failed"})
    assert [d.source for d in response.context["documents"]] == ["scan.pdf"]
    assert b"The document has no readable text." in response.content
    assert b"badge-bad" in response.content


def test_document_page_has_an_id_for_every_cited_anchor(client, staff, corpus_db):
    document = Document.objects.get(source="hr/parental-leave.md")
    anchors = set(document.chunks.exclude(anchor="").values_list("anchor", flat=True))
    assert "leave-entitlement" in anchors
    html = client.get(f"/documents/{document.pk}/").content.decode()
    ids = re.findall(r'id="([^"]+)"', html)
    assert anchors <= set(ids)
    assert len([i for i in ids if i in anchors]) == len(anchors), "each anchor is used as an id once"
    assert "16 weeks of fully paid parental leave" in html


@pytest.mark.parametrize("query, expected", [
    ("parental", "hr/parental-leave.md"),          # a title
    ("vpn-setup", "it/vpn-setup.html"),             # a source path
    ("twins", "hr/parental-leave.md"),              # only in the text
])
def test_document_search_finds_titles_and_text(client, staff, corpus_db, query, expected):
    response = client.get("/documents/", {"q": query})
    sources = {d.source for d in response.context["documents"]}
    assert expected in sources
    assert len(sources) < Document.objects.count(), "the search narrows the list"
    assert 'name="q"' in response.content.decode()


def test_document_search_with_no_match_says_so(client, staff, corpus_db):
    response = client.get("/documents/", {"q": "xylophone quokka"})
    assert list(response.context["documents"]) == [] and b"No documents match" in response.content


def test_passages_show_their_tables_as_tables_and_escape_text():
    from webapp.templatetags.console_tags import chunk_html

    html = chunk_html("Rates <b>below</b>.\n\n| Tier | Rate |\n| --- | --- |\n| 1 | <i>$95</i> |")
    assert "Rates &lt;b&gt;below&lt;/b&gt;." in html and "<b>" not in html
    assert "<th>Tier</th><th>Rate</th>" in html and "<td>&lt;i&gt;$95&lt;/i&gt;</td>" in html
    assert "| --- |" not in html


def test_plain_users_cannot_manage_documents(client):
    collection = make_collection()
    document = Document.objects.create(collection=collection, source="a.md", status=Document.Status.READY)
    client.force_login(make_user())
    assert client.get(f"/documents/{document.pk}/").status_code == 200
    assert client.post(f"/documents/{document.pk}/delete/").status_code == 403
    assert client.get("/documents/upload/").status_code == 403
    assert client.get("/gaps/").status_code == 403
    assert Document.objects.filter(pk=document.pk).exists()


def test_collection_owner_can_delete_after_confirming(client):
    owner = make_user()
    collection = make_collection()
    collection.owners.add(owner)
    document = Document.objects.create(collection=collection, source="a.md", status=Document.Status.READY)
    client.force_login(owner)
    confirm = client.get(f"/documents/{document.pk}/delete/")
    assert b"Delete permanently" in confirm.content
    assert Document.objects.filter(pk=document.pk).exists()
    response = client.post(f"/documents/{document.pk}/delete/")
    assert response.status_code == 302 and not Document.objects.filter(pk=document.pk).exists()


def test_private_collection_documents_are_hidden(client):
    document = Document.objects.create(collection=make_collection(is_public=False), source="secret.md")
    client.force_login(make_user())
    assert client.get(f"/documents/{document.pk}/").status_code == 404
    assert document not in client.get("/documents/").context["documents"]
