"""`manage.py ingest PATH... [--collection NAME [--public] [--owner USER]] [--sync]`: files and folders into the knowledge base."""

from __future__ import annotations

import time
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db.models import Q

from knowledge.ingestion import (ingest_documents, is_supported, max_upload_bytes, register_upload, too_large,
                                 unsupported_reason)
from knowledge.management.progress import Progress
from knowledge.models import Collection, Document
from knowledge.management.commands._schema import schema_up_to_date


def collect_files(paths: list[str], collection: Collection) -> list[tuple[Path, str]]:
    """(file, source) pairs; source is the path relative to the folder given, or, for a file given by itself, the
    document of that file name the collection already holds (see `single_file_source`)."""
    found: list[tuple[Path, str]] = []
    for raw in paths:
        root = Path(raw).expanduser()
        if root.is_file():
            found.append((root, single_file_source(collection, root.name)))
        elif root.is_dir():
            for file in sorted(p for p in root.rglob("*") if p.is_file()):
                relative = file.relative_to(root)
                if not any(part.startswith(".") for part in relative.parts):
                    found.append((file, relative.as_posix()))
        else:
            raise CommandError(f"{raw}: no such file or folder")
    return found


def single_file_source(collection: Collection, name: str) -> str:
    """The source a file given by itself updates. A file ingested before with its folder is named by its path in
    that folder ("bash/bashref.html"): given alone later, it updates that document instead of adding a second copy
    of it. Two or more documents of that name leave no way to tell which one is meant: an error says so."""
    held = sorted(Document.objects.filter(collection=collection)
                  .filter(Q(source=name) | Q(source__endswith="/" + name)).values_list("source", flat=True))
    if name in held or not held:
        return name
    if len(held) == 1:
        return held[0]
    raise CommandError(f"{name}: the collection holds {len(held)} documents of that name ({', '.join(held[:3])}"
                       f"{', …' if len(held) > 3 else ''}); ingest the folder that holds this one, so that its path "
                       "inside the folder says which document it updates")


class Command(BaseCommand):
    help = "Ingest documents (PDF, DOCX, HTML, Markdown, text, reStructuredText) from files or folders."

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", help="files or folders (searched recursively)")
        parser.add_argument("--collection", default=None,
                            help="collection name; a new one is private (readable by its owners and staff)")
        parser.add_argument("--public", action="store_true",
                            help="create a new collection readable by everyone (an existing one keeps its audience)")
        parser.add_argument("--owner", default=None,
                            help="username who owns (and may read) a new collection")
        parser.add_argument("--sync", action="store_true", help="ingest in this process instead of a worker")
        parser.add_argument("--no-wait", action="store_true", help="enqueue and return without waiting")
        parser.add_argument("--reindex", action="store_true",
                            help="re-parse and re-chunk unchanged documents too (after a chunking change)")
        parser.add_argument("--timeout", type=float, default=1800, help="seconds to wait for workers")

    def handle(self, *args, **options):
        with schema_up_to_date():
            return self._handle(**options)

    def _handle(self, **options):
        started = time.perf_counter()
        collection, created = self._collection(options)
        files = collect_files(options["paths"], collection)
        skipped = [(source, unsupported_reason(path.name)) for path, source in files if not is_supported(path.name)]
        files = [(path, source) for path, source in files if is_supported(path.name)]
        # Checked before reading: a file over the limit is never loaded into memory.
        refused = [(source, too_large(path.stat().st_size)) for path, source in files
                   if path.stat().st_size > max_upload_bytes()]
        files = [(path, source) for path, source in files if path.stat().st_size <= max_upload_bytes()]
        pending: list[int] = []
        unchanged = 0
        registering = Progress(len(files), "Registering", "files")
        for path, source in files:
            registering.update()
            document, needs_ingest = register_upload(collection, source, path.read_bytes())
            if not needs_ingest and document.status == Document.Status.FAILED:
                refused.append((source, document.error or "the file could not be stored"))
                continue
            if not needs_ingest and options["reindex"] and document.content:
                Document.objects.filter(pk=document.pk).update(status=Document.Status.QUEUED, indexed_sha256="")
                needs_ingest = True
            if needs_ingest:
                pending.append(document.pk)
            elif document.status != Document.Status.FAILED:
                unchanged += 1
        registering.close()
        if options["sync"]:
            with Progress(len(pending), "Ingesting", "documents") as bar:
                for start in range(0, len(pending), 16):
                    batch = pending[start:start + 16]
                    ingest_documents(batch)
                    bar.update(len(batch))
        elif pending:
            from jobqueue import enqueue

            for document_id in pending:
                enqueue("ingest_document", document_id)
            if options["no_wait"]:
                self.stdout.write(f"Queued {len(pending)} document(s) for the worker.")
                return
            self._wait(pending, options["timeout"])
        self._summary(collection, [p for p, _ in files], pending, unchanged, skipped, started, refused)
        self._audience(collection, created)

    def _collection(self, options) -> tuple[Collection, bool]:
        owner = None
        if options["owner"]:
            owner = get_user_model().objects.filter(username=options["owner"]).first()
            if owner is None:
                raise CommandError(f"--owner {options['owner']}: no such user")
        return Collection.get_or_create_for_ingest(options["collection"], public=options["public"], owner=owner)

    def _audience(self, collection: Collection, created: bool) -> None:
        owners = ", ".join(u.username for u in collection.owners.all()) or "none yet (staff only)"
        if collection.is_public:
            audience = "public: everyone may read it"
        else:
            audience = f"private: readable by its owners ({owners}), its readers and staff"
        verb = "Created" if created else "Collection"
        self.stdout.write(f"{verb} '{collection}' is {audience}."
                          + (" Share it in the admin, or re-create it with --public." if created and
                             not collection.is_public else ""))

    def _wait(self, ids: list[int], timeout: float) -> None:
        deadline = time.monotonic() + timeout
        terminal = [Document.Status.READY, Document.Status.FAILED]
        with Progress(len(ids), "Ingesting (worker)", "documents") as bar:
            while True:
                done = Document.objects.filter(pk__in=ids, status__in=terminal).count()
                bar.update(done - bar.n)
                if done >= len(ids):
                    return
                if time.monotonic() > deadline:
                    raise CommandError(
                        f"{len(ids) - done} document(s) still queued after {timeout:.0f}s. Is a worker running? "
                        "Start one with `make worker`, or re-run with --sync.")
                time.sleep(0.5)

    def _summary(self, collection, files, pending, unchanged, skipped, started, refused=()) -> None:
        documents = Document.objects.filter(pk__in=pending)
        ok = [d for d in documents if d.status == Document.Status.READY]
        failed = [d for d in documents if d.status == Document.Status.FAILED]
        chunks = sum(d.chunk_count for d in ok)
        seconds = time.perf_counter() - started
        self.stdout.write(self.style.SUCCESS(
            f"Collection '{collection}': {len(ok)} ingested, {unchanged} unchanged, {len(failed) + len(refused)} failed, "
            f"{len(skipped)} skipped; {chunks} chunks in {seconds:.1f}s"))
        for source, reason in [*((d.source, d.error) for d in failed), *refused]:
            self.stdout.write(self.style.ERROR(f"  failed  {source}: {reason}"))
        for source, reason in skipped:
            self.stdout.write(self.style.WARNING(f"  skipped {source}: {reason}"))
