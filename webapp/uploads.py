"""Accepting uploaded files for ingestion, one outcome per file (shared by the console and the API)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath

from django.conf import settings
from django.db import transaction

from knowledge.ingestion import is_supported, max_upload_bytes, register_upload
from knowledge.models import Collection, Document
from knowledge.parsing import SUPPORTED_EXTENSIONS
from jobqueue import enqueue


@dataclass
class UploadOutcome:
    """What happened to one uploaded file."""

    name: str
    accepted: bool
    message: str
    document: Document | None = None

    def to_dict(self) -> dict:
        return {"name": self.name, "accepted": self.accepted, "message": self.message,
                "document_id": self.document.pk if self.document else None,
                "status": self.document.status if self.document else None}


def clean_name(name: str) -> str:
    """The file's own name: browsers may send paths, which must not become folders here."""
    return PurePosixPath(name.replace("\\", "/")).name.strip() or "unnamed"


def accept_uploads(collection: Collection, files, *, owner=None) -> list[UploadOutcome]:
    """Register each readable file as a new document version and queue its ingestion.

    `files` are Django UploadedFile objects (anything with `.name`, `.size` and `.read()`).
    A bad file is reported in plain words and the others go on.
    """
    return [accept_upload(collection, upload, owner=owner) for upload in files]


def accept_upload(collection: Collection, upload, *, owner=None, source: str | None = None) -> UploadOutcome:
    """One file: check type and size, store it as a version, queue ingestion when the content is new."""
    name = clean_name(upload.name)
    source = source or name
    if not is_supported(source):
        kinds = ", ".join(sorted(ext.lstrip(".") for ext in SUPPORTED_EXTENSIONS))
        return UploadOutcome(name, False, f"Verity cannot read this kind of file. Supported types: {kinds}.")
    if upload.size > max_upload_bytes():
        return UploadOutcome(name, False, f"The file is {upload.size / 1048576:.1f} MB, over the "
                                          f"{settings.VERITY_MAX_UPLOAD_MB} MB limit; split it into smaller files.")
    if upload.size == 0:
        return UploadOutcome(name, False, "The file is empty.")
    with transaction.atomic():
        document, needs_ingest = register_upload(collection, source, upload.read(), owner=owner)
        if needs_ingest:
            enqueue("ingest_document", document.pk)
    if not needs_ingest and document.status == Document.Status.FAILED:
        return UploadOutcome(name, False, document.error or "The file could not be stored.", document)
    if not needs_ingest:
        return UploadOutcome(name, True, "Unchanged: this exact content is already in the collection.", document)
    # Said so that it stays true once the file has been read: the status beside it tells how reading went.
    added = "Added as a new document" if document.version == 1 else f"Added as version {document.version}"
    return UploadOutcome(name, True, f"{added}.", document)
