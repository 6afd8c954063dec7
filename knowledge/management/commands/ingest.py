"""`manage.py ingest PATH... [--collection NAME] [--sync]`: files and folders into the knowledge base."""

from __future__ import annotations

import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from knowledge.ingestion import ingest_documents, is_supported, register_upload
from knowledge.management.progress import Progress
from knowledge.models import Collection, Document


def collect_files(paths: list[str]) -> list[tuple[Path, str]]:
    """(file, source) pairs; source is the path relative to the folder given, or the file name."""
    found: list[tuple[Path, str]] = []
    for raw in paths:
        root = Path(raw).expanduser()
        if root.is_file():
            found.append((root, root.name))
        elif root.is_dir():
            for file in sorted(p for p in root.rglob("*") if p.is_file()):
                relative = file.relative_to(root)
                if not any(part.startswith(".") for part in relative.parts):
                    found.append((file, relative.as_posix()))
        else:
            raise CommandError(f"{raw}: no such file or folder")
    return found


class Command(BaseCommand):
    help = "Ingest documents (PDF, DOCX, HTML, Markdown, text, reStructuredText) from files or folders."

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", help="files or folders (searched recursively)")
        parser.add_argument("--collection", default=None, help="collection name (created if missing)")
        parser.add_argument("--sync", action="store_true", help="ingest in this process instead of a worker")
        parser.add_argument("--no-wait", action="store_true", help="enqueue and return without waiting")
        parser.add_argument("--reindex", action="store_true",
                            help="re-parse and re-chunk unchanged documents too (after a chunking change)")
        parser.add_argument("--timeout", type=float, default=1800, help="seconds to wait for workers")

    def handle(self, *args, **options):
        started = time.perf_counter()
        collection = Collection.get_default(options["collection"])
        files = collect_files(options["paths"])
        skipped = [(source, "unsupported file type") for path, source in files if not is_supported(path.name)]
        files = [(path, source) for path, source in files if is_supported(path.name)]
        pending: list[int] = []
        unchanged = 0
        registering = Progress(len(files), "Registering", "files")
        for path, source in files:
            registering.update()
            document, needs_ingest = register_upload(collection, source, path.read_bytes())
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
            from webapp.jobs import enqueue

            for document_id in pending:
                enqueue("ingest_document", document_id)
            if options["no_wait"]:
                self.stdout.write(f"Queued {len(pending)} document(s) for the worker.")
                return
            self._wait(pending, options["timeout"])
        self._summary(collection, [p for p, _ in files], pending, unchanged, skipped, started)

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

    def _summary(self, collection, files, pending, unchanged, skipped, started) -> None:
        documents = Document.objects.filter(pk__in=pending)
        ok = [d for d in documents if d.status == Document.Status.READY]
        failed = [d for d in documents if d.status == Document.Status.FAILED]
        chunks = sum(d.chunk_count for d in ok)
        seconds = time.perf_counter() - started
        self.stdout.write(self.style.SUCCESS(
            f"Collection '{collection}': {len(ok)} ingested, {unchanged} unchanged, {len(failed)} failed, "
            f"{len(skipped)} skipped; {chunks} chunks in {seconds:.1f}s"))
        for document in failed:
            self.stdout.write(self.style.ERROR(f"  failed  {document.source}: {document.error}"))
        for source, reason in skipped:
            self.stdout.write(self.style.WARNING(f"  skipped {source}: {reason}"))
