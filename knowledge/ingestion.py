"""Documents in, searchable chunks out: registering uploads and the ingest job."""

from __future__ import annotations

import hashlib
import logging
import os
import socket
import time
from dataclasses import dataclass, field
from datetime import date
from pathlib import PurePosixPath

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from jobqueue import enqueue
from knowledge.chunking import ChunkDraft, chunk_document
from knowledge.tokens import minilm_token_counter
from knowledge.embedding import get_embedder
from textcore.identifiers import code_terms
from textcore.injection import assistant_addressing_lines
from knowledge.models import Answer, Chunk, Collection, Document, DocumentVersion, KnowledgeGap
from knowledge.parsing import SUPPORTED_EXTENSIONS, mime_type_for, parse_file
from knowledge.parsing.base import IngestionError

log = logging.getLogger(__name__)


@dataclass
class IngestResult:
    """What one run of the ingest job did to one document."""

    document_id: int
    status: str
    chunks: int = 0
    embedded: int = 0
    reused: int = 0
    error: str = ""
    skipped: bool = False
    timings_ms: dict = field(default_factory=dict)


def max_upload_bytes() -> int:
    """The configured size limit for one document."""
    return settings.VERITY_MAX_UPLOAD_MB * 1024 * 1024


def too_large(size_bytes: int) -> str:
    """The reason a file of this size is refused."""
    return (f"The file is {size_bytes / 1048576:.1f} MB, over the {settings.VERITY_MAX_UPLOAD_MB} MB limit; "
            "split it or raise VERITY_MAX_UPLOAD_MB.")


def register_upload(collection: Collection, source: str, data: bytes, *, owner=None,
                    title: str = "") -> tuple[Document, bool]:
    """Store a document's bytes as its new version; returns (document, needs_ingest).

    Identical content is a no-op; new content bumps the version. Oversized files are recorded
    as failed without keeping their bytes.
    """
    digest = hashlib.sha256(data).hexdigest()
    too_big = len(data) > max_upload_bytes()
    with transaction.atomic():
        document = (Document.objects.select_for_update()
                    .filter(collection=collection, source=source).first())
        if document is not None and document.sha256 == digest and document.status != Document.Status.FAILED:
            return document, False
        if document is None:
            document = Document(collection=collection, source=source, version=1)
        else:
            document.version += 1
        document.title = title or document.title
        document.mime_type = mime_type_for(source)
        document.sha256 = digest
        document.size_bytes = len(data)
        document.owner = owner or document.owner
        document.content = b"" if too_big else data
        document.status = Document.Status.FAILED if too_big else Document.Status.QUEUED
        document.attempts = 0
        document.error = too_large(len(data)) if too_big else ""
        document.save()
        DocumentVersion.objects.update_or_create(
            document=document, version=document.version,
            defaults={"sha256": digest, "size_bytes": len(data), "uploaded_by": owner},
        )
    return document, not too_big


@dataclass
class _Prepared:
    """A document parsed and chunked, waiting for its vectors."""

    document: Document
    drafts: list
    parsed: object
    timings: dict
    vectors: list = field(default_factory=list)
    reused: int = 0


def ingest_document(document_id: int) -> IngestResult:
    """Parse, chunk, embed and swap in a document's chunks. Safe to run twice or after a crash."""
    return ingest_documents([document_id])[0]


def ingest_documents(document_ids: list[int], *, embed_batch: int = 256) -> list[IngestResult]:
    """Ingest several documents, embedding their chunks together in large batches (much faster on a
    CPU than one small batch per document). Each document is swapped in on its own transaction."""
    results: dict[int, IngestResult] = {}
    pending: list[_Prepared] = []
    for document_id in document_ids:
        prepared = _prepare(document_id)
        if isinstance(prepared, IngestResult):
            results[document_id] = prepared
        else:
            pending.append(prepared)
    for group in _groups(pending, embed_batch):
        try:
            _embed_group(group)
        except Exception as exc:  # the embedder failing must fail these documents, not the batch
            log.exception("embedding failed")
            for item in group:
                results[item.document.pk] = _fail(item.document, f"Embedding failed ({type(exc).__name__}: {exc}). "
                                                  "Retry the ingestion; if it fails again, check the embedder "
                                                  "settings.", item.timings)
            continue
        for item in group:
            results[item.document.pk] = _store(item)
    return [results[document_id] for document_id in document_ids]


def worker_identity() -> str:
    """host:pid of this process, so a sweep can tell a dead reader from a slow one."""
    return f"{socket.gethostname()}:{os.getpid()}"[:120]


def _prepare(document_id: int) -> "_Prepared | IngestResult":
    document = Document.objects.filter(pk=document_id).first()
    if document is None:
        return IngestResult(document_id, "missing", skipped=True)
    if document.status == Document.Status.READY and document.indexed_sha256 == document.sha256:
        return IngestResult(document_id, document.status, chunks=document.chunk_count, skipped=True)
    if document.status == Document.Status.FAILED and not document.content:
        return IngestResult(document_id, document.status, error=document.error, skipped=True)
    Document.objects.filter(pk=document_id).update(status=Document.Status.PROCESSING, error="",
                                                   processing_since=timezone.now(), processing_by=worker_identity(),
                                                   attempts=F("attempts") + 1)
    timings: dict[str, float] = {}
    try:
        drafts, parsed = _parse_and_chunk(document, timings)
    except IngestionError as exc:
        return _fail(document, str(exc), timings)
    except Exception as exc:  # a bug or a library crash must not stop the batch
        log.exception("ingesting document %s failed", document_id)
        return _fail(document, f"Unexpected error while reading the file ({type(exc).__name__}: {exc}). "
                               "Re-upload it; if it fails again, report it with this message.", timings)
    return _Prepared(document, drafts, parsed, timings)


def _groups(items: list[_Prepared], size: int) -> list[list[_Prepared]]:
    groups: list[list[_Prepared]] = []
    current: list[_Prepared] = []
    count = 0
    for item in items:
        current.append(item)
        count += len(item.drafts)
        if count >= size:
            groups.append(current)
            current, count = [], 0
    if current:
        groups.append(current)
    return groups


def _embed_group(group: list[_Prepared]) -> None:
    """Vectors for every draft of the group, reusing those already stored for the same content."""
    started = time.perf_counter()
    hashes = {draft.content_hash for item in group for draft in item.drafts}
    known = dict(
        Chunk.objects.filter(content_hash__in=hashes, embedding__isnull=False)
        .order_by().values_list("content_hash", "embedding").distinct("content_hash")
    )
    missing: dict[str, str] = {}
    for item in group:
        for draft in item.drafts:
            if draft.content_hash not in known:
                missing.setdefault(draft.content_hash, draft.embed_text)
    if missing:
        fresh = get_embedder().embed(list(missing.values()), kind="document")
        known.update(zip(missing.keys(), fresh))
    elapsed = (time.perf_counter() - started) * 1000
    for item in group:
        item.vectors = [known[draft.content_hash] for draft in item.drafts]
        item.reused = sum(1 for draft in item.drafts if draft.content_hash not in missing)
        item.timings["embed"] = elapsed


def _store(item: _Prepared) -> IngestResult:
    """Swap the document's chunks in atomically: readers see the old set or the new, never both or neither."""
    document, drafts = item.document, item.drafts
    started = time.perf_counter()
    with transaction.atomic():
        current = Document.objects.select_for_update().filter(pk=document.pk).first()
        if current is None or current.sha256 != document.sha256:
            # Deleted or replaced while we worked: the newer upload's own job takes over.
            return IngestResult(document.pk, "superseded", skipped=True)
        old_chunks = Chunk.objects.filter(document_id=document.pk)
        if old_chunks.exists():  # a new version: answers citing the old one stop being served now
            _recheck(Answer.objects.mark_stale_citing([document.pk]))
        old_chunks.delete()
        Chunk.objects.bulk_create(
            [_chunk_row(current, draft, vector) for draft, vector in zip(drafts, item.vectors)], batch_size=500
        )
        _apply_metadata(current, item.parsed)
        current.status = Document.Status.READY
        current.error = ""
        current.warnings = content_warnings(drafts)
        current.indexed_sha256 = current.sha256
        current.chunk_count = len(drafts)
        current.indexed_at = timezone.now()
        current.save()
        if KnowledgeGap.objects.filter(resolved=False).exists():
            enqueue("resolve_gaps", current.pk)
    item.timings["store"] = (time.perf_counter() - started) * 1000
    return IngestResult(document.pk, Document.Status.READY, chunks=len(drafts),
                        embedded=len(drafts) - item.reused, reused=item.reused, timings_ms=item.timings)


def content_warnings(drafts: list[ChunkDraft]) -> list[str]:
    """Warnings for the document's owners; text addressing an AI assistant is never used in answers."""
    lines = [line for draft in drafts for line in assistant_addressing_lines(draft.text)]
    if not lines:
        return []
    shown = "; ".join(f"“{line}”" for line in dict.fromkeys(lines[:3]))
    return [f"{len(lines)} passage(s) give instructions to an AI assistant ({shown}). Verity never quotes them "
            "in answers; check whether they belong in this document."]


def _parse_and_chunk(document: Document, timings: dict) -> tuple[list[ChunkDraft], object]:
    started = time.perf_counter()
    parsed = parse_file(bytes(document.content), document.source, max_bytes=max_upload_bytes())
    timings["parse"] = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    drafts = chunk_document(parsed, minilm_token_counter(), max_tokens=settings.VERITY_CHUNK_MAX_TOKENS,
                            target_tokens=settings.VERITY_CHUNK_TARGET_TOKENS)
    timings["chunk"] = (time.perf_counter() - started) * 1000
    if not drafts:
        raise IngestionError("The document has no readable text. If it is a scan, upload a version with a text layer.")
    return drafts, parsed


def _chunk_row(document: Document, draft: ChunkDraft, vector) -> Chunk:
    heading_path = list(draft.heading_path)
    return Chunk(
        document=document, collection_id=document.collection_id, order=draft.order, text=draft.text,
        heading_path=heading_path, heading_text=" > ".join(heading_path), page=draft.page,
        anchor=draft.anchor[:200], sections=[{**mark, "anchor": mark["anchor"][:200]} for mark in draft.sections],
        token_count=draft.token_count, content_hash=draft.content_hash,
        embedding=vector, identifiers=code_terms(draft.embed_text)[:200],
    )


def _apply_metadata(document: Document, parsed) -> None:
    metadata = dict(parsed.metadata or {})
    document.title = document.title or (parsed.title or "")[:300] or document.filename
    document.author = (metadata.get("author") or document.author or "")[:200]
    for key in ("modified", "updated", "date", "created"):
        value = metadata.get(key)
        if value:
            try:
                document.document_date = date.fromisoformat(str(value)[:10])
                break
            except ValueError:
                continue
    document.metadata = {k: str(v) for k, v in metadata.items()}


def _fail(document: Document, reason: str, timings: dict) -> IngestResult:
    # Live chunks of an older good version stay searchable: a bad upload must not erase knowledge.
    Document.objects.filter(pk=document.pk, sha256=document.sha256).update(
        status=Document.Status.FAILED, error=reason[:2000])
    return IngestResult(document.pk, Document.Status.FAILED, error=reason, timings_ms=timings)


def delete_document(document_id: int) -> None:
    """Remove a document, its versions and its chunks; answers citing it stop being served."""
    with transaction.atomic():
        _recheck(Answer.objects.mark_stale_citing([document_id]))
        Document.objects.filter(pk=document_id).delete()


def _recheck(answer_ids: list[int]) -> None:
    """Each answer marked stale is re-checked against the documents as they are now (after commit)."""
    for answer_id in answer_ids:
        enqueue("reverify_answer", answer_id)


def is_supported(filename: str) -> bool:
    """True when the file has a name and an extension Verity can read (".md" alone is a hidden file, not Markdown)."""
    return unsupported_reason(filename) is None


def unsupported_reason(filename: str) -> str | None:
    """Why Verity cannot read a file of this name, in plain words; None when it can."""
    name = PurePosixPath(filename).name
    suffix = PurePosixPath(name).suffix.lower()
    if not suffix:
        if name.startswith(".") and "." + name.lstrip(".").lower() in SUPPORTED_EXTENSIONS:
            return "the file has an extension but no name (a hidden file); rename it, e.g. notes" + name
        return "no file extension: Verity reads files by their type"
    if suffix not in SUPPORTED_EXTENSIONS:
        return f"unsupported file type ({suffix})"
    return None
