"""Ingestion against the real database: versions, idempotence, bad input, embedding reuse."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from knowledge.ingestion import delete_document, ingest_document, register_upload
from knowledge.models import Chunk, Collection, Document, DocumentVersion
from tests.factories import make_collection

pytestmark = pytest.mark.django_db

POLICY_V1 = b"""# Travel policy

## Per diem

The daily meal allowance for domestic travel is 55 USD. Receipts are required above 25 USD.

## Booking

Book flights through the travel desk at least 14 days ahead. Use form TRV-310 for exceptions.
"""

POLICY_V2 = POLICY_V1.replace(b"55 USD", b"70 USD").replace(b"14 days", b"21 days")


def ingest(collection, source: str, data: bytes) -> Document:
    document, needs = register_upload(collection, source, data)
    if needs:
        ingest_document(document.pk)
    document.refresh_from_db()
    return document


def test_markdown_becomes_embedded_searchable_chunks():
    document = ingest(make_collection(), "finance/travel.md", POLICY_V1)
    assert document.status == Document.Status.READY, document.error
    chunks = list(document.chunks.all())
    assert chunks and document.chunk_count == len(chunks)
    assert all(chunk.embedding is not None and len(chunk.embedding) == 384 for chunk in chunks)
    assert {"per-diem", "booking"} & {chunk.anchor for chunk in chunks}
    assert any("trv-310" in chunk.identifiers for chunk in chunks)
    hit = Chunk.objects.extra(where=["search_vector @@ websearch_to_tsquery('english', %s)"], params=["meal allowance"])
    assert hit.filter(document=document).exists()
    assert document.title == "Travel policy"


def test_identical_content_is_a_no_op():
    collection = make_collection()
    first = ingest(collection, "travel.md", POLICY_V1)
    ids = set(first.chunks.values_list("pk", flat=True))
    again, needs = register_upload(collection, "travel.md", POLICY_V1)
    assert needs is False and again.version == 1
    assert set(again.chunks.values_list("pk", flat=True)) == ids


def test_running_the_job_twice_never_duplicates_chunks():
    collection = make_collection()
    document, _ = register_upload(collection, "travel.md", POLICY_V1)
    ingest_document(document.pk)
    count = Chunk.objects.filter(document=document).count()
    Document.objects.filter(pk=document.pk).update(status=Document.Status.QUEUED, indexed_sha256="")
    result = ingest_document(document.pk)
    assert result.status == "ready" and result.reused == count
    assert Chunk.objects.filter(document=document).count() == count


def test_new_version_swaps_chunks_without_ghosts():
    collection = make_collection()
    ingest(collection, "travel.md", POLICY_V1)
    document = ingest(collection, "travel.md", POLICY_V2)
    assert document.version == 2 and document.status == Document.Status.READY
    texts = " ".join(document.chunks.values_list("text", flat=True))
    assert "70 USD" in texts and "55 USD" not in texts
    assert not Chunk.objects.filter(text__contains="55 USD", collection=collection).exists()
    assert list(DocumentVersion.objects.filter(document=document).values_list("version", flat=True)) == [2, 1]


def test_a_failed_new_version_keeps_the_old_chunks_searchable():
    collection = make_collection()
    good = ingest(collection, "guide.pdf", _tiny_pdf("Laptops are replaced every 36 months."))
    assert good.status == Document.Status.READY, good.error
    broken = ingest(collection, "guide.pdf", b"%PDF-1.7\n garbage without objects")
    assert broken.status == Document.Status.FAILED and broken.error
    assert Chunk.objects.filter(document=broken, text__contains="36 months").exists()


def test_oversized_file_fails_with_the_limit_named(settings):
    settings.VERITY_MAX_UPLOAD_MB = 1
    document, needs = register_upload(make_collection(), "big.txt", b"word " * 300_000)
    assert needs is False and document.status == Document.Status.FAILED
    assert "over the 1 MB limit" in document.error and document.content in (b"", memoryview(b""))


def test_identical_text_elsewhere_reuses_embeddings():
    collection = make_collection()
    ingest(collection, "a/travel.md", POLICY_V1)
    document, _ = register_upload(collection, "b/travel-copy.md", POLICY_V1)
    result = ingest_document(document.pk)
    assert result.chunks > 0 and result.reused == result.chunks and result.embedded == 0


def test_a_crash_while_embedding_leaves_no_partial_chunks(monkeypatch):
    class BrokenEmbedder:
        dim, name = 384, "broken"

        def embed(self, texts, *, kind="document"):
            raise RuntimeError("embedding service fell over")

    collection = make_collection()
    document, _ = register_upload(collection, "travel.md", POLICY_V1)
    monkeypatch.setattr("knowledge.ingestion.get_embedder", lambda: BrokenEmbedder())
    result = ingest_document(document.pk)
    assert result.status == "failed" and "embedding service fell over" in result.error
    assert not Chunk.objects.filter(document=document).exists()
    monkeypatch.undo()
    assert ingest_document(document.pk).status == "ready"


def test_deleting_a_document_removes_its_chunks():
    document = ingest(make_collection(), "travel.md", POLICY_V1)
    delete_document(document.pk)
    assert not Chunk.objects.filter(document_id=document.pk).exists()


def test_ingest_command_reports_bad_files_and_goes_on(tmp_path):
    (tmp_path / "policies").mkdir()
    (tmp_path / "policies" / "travel.md").write_bytes(POLICY_V1)
    (tmp_path / "policies" / "broken.pdf").write_bytes(b"%PDF-1.4 this is not really a pdf")
    (tmp_path / "junk.docx").write_bytes(bytes(range(256)) * 40)
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "tool.exe").write_bytes(b"MZ\x90\x00")
    out = io.StringIO()
    call_command("ingest", str(tmp_path), "--sync", "--collection", "Batch", stdout=out)
    report = out.getvalue()
    assert "1 ingested" in report and "3 failed" in report and "1 skipped" in report, report
    ready = Document.objects.get(source="policies/travel.md")
    assert ready.status == Document.Status.READY and ready.collection.name == "Batch"
    for source in ("policies/broken.pdf", "junk.docx", "empty.txt"):
        failed = Document.objects.get(source=source)
        assert failed.status == Document.Status.FAILED and len(failed.error) > 15, source
        assert not failed.chunks.exists()


def _tiny_pdf(text: str) -> bytes:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=12)
    pdf.multi_cell(0, 8, text)
    return bytes(pdf.output())


def test_ingest_creates_a_private_collection_unless_told_public(tmp_path):
    from tests.factories import make_user

    (tmp_path / "travel.md").write_bytes(POLICY_V1)
    owner = make_user()
    out = io.StringIO()
    call_command("ingest", str(tmp_path), "--sync", "--collection", "Board", "--owner", owner.username, stdout=out)
    board = Collection.objects.get(name="Board")
    assert not board.is_public and list(board.owners.all()) == [owner]
    assert "private" in out.getvalue() and owner.username in out.getvalue()
    assert board not in Collection.objects.readable_by(make_user())

    out = io.StringIO()
    call_command("ingest", str(tmp_path), "--sync", "--collection", "Handbook", "--public", stdout=out)
    assert Collection.objects.get(name="Handbook").is_public and "public" in out.getvalue()


def test_an_oversized_file_is_refused_unread_with_its_reason(tmp_path, settings):
    settings.VERITY_MAX_UPLOAD_MB = 1
    big = tmp_path / "huge.md"
    with big.open("wb") as handle:  # sparse: 3 MB on paper, nothing to read
        handle.truncate(3 * 1024 * 1024)
    out = io.StringIO()
    call_command("ingest", str(big), "--sync", "--collection", "Big", stdout=out)
    report = out.getvalue()
    assert "0 ingested" in report and "1 failed" in report, report
    assert "huge.md: The file is 3.0 MB, over the 1 MB limit" in report
    assert not Document.objects.filter(source="huge.md").exists()


def test_shift_jis_text_is_read_and_a_nameless_md_is_skipped_with_a_reason(tmp_path):
    rule = "在宅勤務は週３日まで認められます。申請には上長の承認が必要です。"
    (tmp_path / "remote.txt").write_bytes(f"在宅勤務規定\n\n{rule}\n".encode("shift_jis"))
    (tmp_path / "nameless").mkdir()
    nameless = tmp_path / "nameless" / ".md"
    nameless.write_bytes(b"# Title\n\nSome text.\n")
    out = io.StringIO()
    call_command("ingest", str(tmp_path / "remote.txt"), str(nameless), "--sync", "--collection", "JP", stdout=out)
    report = out.getvalue()
    document = Document.objects.get(source="remote.txt")
    assert document.status == Document.Status.READY, document.error
    assert document.chunks.filter(text__contains="上長の承認").exists()
    assert "1 ingested" in report and "1 skipped" in report and "0 failed" in report, report
    assert "skipped .md: the file has an extension but no name" in report
    assert not Document.objects.filter(source=".md").exists()


@pytest.mark.parametrize("question, message", [("", "at least 3 characters"), ("   ", "at least 3 characters"),
                                               ("why " * 25_000, "keep it under 2,000")])
def test_ask_refuses_an_empty_or_enormous_question(question, message):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match=message):
        call_command("ask", question)


def test_a_line_without_spaces_becomes_bounded_chunks(settings):
    import random
    import string

    rng = random.Random(7)
    blob = "".join(rng.choice(string.ascii_letters) for _ in range(300_000)).encode()
    document, _ = register_upload(make_collection(), "blob.md", b"# Dump\n\n" + blob + b"\n")
    ingest_document(document.pk)
    document.refresh_from_db()
    assert document.status == Document.Status.READY, document.error
    longest = max(len(text) for text in document.chunks.values_list("text", flat=True))
    assert document.chunk_count > 50 and longest <= 8 * settings.VERITY_CHUNK_MAX_TOKENS


def test_a_file_given_alone_updates_the_document_its_folder_ingest_made(tmp_path):
    from django.core.management.base import CommandError

    (tmp_path / "policies").mkdir()
    (tmp_path / "policies" / "travel.md").write_bytes(POLICY_V1)
    call_command("ingest", str(tmp_path), "--sync", "--collection", "Updates", stdout=io.StringIO())
    first = Document.objects.get(source="policies/travel.md")
    chunks = first.chunks.count()

    (tmp_path / "policies" / "travel.md").write_bytes(POLICY_V2)
    call_command("ingest", str(tmp_path / "policies" / "travel.md"), "--sync", "--collection", "Updates",
                 stdout=io.StringIO())
    assert list(Document.objects.filter(collection__name="Updates").values_list("source", flat=True)) == [
        "policies/travel.md"]
    first.refresh_from_db()
    assert first.chunks.count() == chunks and first.chunks.filter(text__contains="70 USD").exists()
    assert not first.chunks.filter(text__contains="55 USD").exists()

    # Two documents of that name: which one the file updates cannot be told, and nothing is written.
    (tmp_path / "archive").mkdir()
    (tmp_path / "archive" / "travel.md").write_bytes(POLICY_V1)
    call_command("ingest", str(tmp_path), "--sync", "--collection", "Updates", stdout=io.StringIO())
    with pytest.raises(CommandError, match="2 documents of that name"):
        call_command("ingest", str(tmp_path / "archive" / "travel.md"), "--sync", "--collection", "Updates",
                     stdout=io.StringIO())
    assert Document.objects.filter(collection__name="Updates").count() == 2
