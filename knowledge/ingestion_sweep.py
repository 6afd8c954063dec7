"""Documents left "processing" by a job that died (killed worker, time limit, lost host) are read again.

A job's lease is the document's `processing_since` and `processing_by` (host:pid). A lease is over
when it is older than the job time limit, or when its worker process on this host is gone. The
document is then queued again, up to MAX_ATTEMPTS jobs per version, and after that marked failed
with a reason its owners can act on. Re-reading is safe: ingestion swaps chunks atomically.
"""

from __future__ import annotations

import logging
import os
import socket
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from knowledge.models import Document
from webapp.jobs import enqueue

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 3


def _pid_gone(processing_by: str) -> bool:
    """True when the lease holder ran on this host and that process no longer exists."""
    host, _, pid = processing_by.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def sweep_stuck_documents(limit_s: float | None = None) -> dict[str, int]:
    """Re-queue (or fail) documents whose ingestion job died; returns {"requeued": n, "failed": m}."""
    limit = timedelta(seconds=limit_s if limit_s is not None else settings.CELERY_TASK_TIME_LIMIT)
    processing = Document.objects.filter(status=Document.Status.PROCESSING)
    expired = processing.filter(Q(processing_since__lt=timezone.now() - limit) | Q(processing_since__isnull=True))
    candidates = set(expired.values_list("pk", flat=True))
    candidates |= {pk for pk, by in processing.exclude(pk__in=candidates).values_list("pk", "processing_by")
                   if by and _pid_gone(by)}
    counts = {"requeued": 0, "failed": 0}
    for pk in sorted(candidates):
        with transaction.atomic():
            document = Document.objects.select_for_update(skip_locked=True).filter(
                pk=pk, status=Document.Status.PROCESSING).first()
            if document is None:
                continue  # finished, or another sweep has it
            if document.attempts >= MAX_ATTEMPTS:
                document.status = Document.Status.FAILED
                document.error = (f"Reading this document was interrupted {document.attempts} times (the worker "
                                  f"stopped, or the job ran over its {int(limit.total_seconds())} s limit). It may "
                                  "be too large or malformed: split it or re-save it, then upload it again.")
                counts["failed"] += 1
            else:
                document.status = Document.Status.QUEUED
                enqueue("ingest_document", document.pk)
                counts["requeued"] += 1
            document.save(update_fields=["status", "error", "updated_at"])
    if any(counts.values()):
        log.warning("ingestion sweep: %(requeued)d document(s) queued again, %(failed)d failed", counts)
    return counts
