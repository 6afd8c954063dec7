"""Documents whose ingestion job died are read again (or failed with a reason); never stuck "processing"."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from datetime import timedelta

import pytest
from django.db.models import Count
from django.utils import timezone

from knowledge.ingestion import register_upload
from knowledge.ingestion_sweep import MAX_ATTEMPTS, sweep_stuck_documents
from knowledge.models import Chunk, Document
from tests.factories import make_collection
from tests.live import ROOT, db_env, wait_until
from webapp import jobs

POLICY = b"# Parking\n\n## Permits\n\nParking permits cost 40 USD a month and are renewed every January.\n"


def _stuck(document: Document, *, minutes: int = 30, attempts: int = 1, by: str = "") -> None:
    Document.objects.filter(pk=document.pk).update(status=Document.Status.PROCESSING, attempts=attempts,
                                                   processing_since=timezone.now() - timedelta(minutes=minutes),
                                                   processing_by=by)


@pytest.mark.django_db
def test_an_expired_lease_is_read_again_and_too_many_tries_fail_with_a_reason(settings,
                                                                            django_capture_on_commit_callbacks):
    settings.TASK_BACKEND, settings.CELERY_TASK_TIME_LIMIT = "sync", 900
    collection = make_collection()
    again, given_up = (register_upload(collection, f"{name}.md", POLICY.replace(b"40", str(i).encode()))[0]
                       for i, name in enumerate(["again", "given-up"]))
    fresh = register_upload(collection, "fresh.md", POLICY.replace(b"40", b"41"))[0]
    _stuck(again)
    _stuck(given_up, attempts=MAX_ATTEMPTS)
    _stuck(fresh, minutes=1)  # a slow job still within its limit is left alone
    with django_capture_on_commit_callbacks(execute=True):
        assert sweep_stuck_documents() == {"requeued": 1, "failed": 1}
    for document in (again, given_up, fresh):
        document.refresh_from_db()
    assert again.status == Document.Status.READY and again.chunks.exists()
    assert given_up.status == Document.Status.FAILED and "interrupted 3 times" in given_up.error
    assert fresh.status == Document.Status.PROCESSING


@pytest.mark.django_db
def test_a_lease_held_by_a_dead_process_on_this_host_is_over_at_once(settings, django_capture_on_commit_callbacks):
    import socket

    settings.TASK_BACKEND = "sync"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    document = register_upload(make_collection(), "parking.md", POLICY)[0]
    _stuck(document, minutes=0, by=f"{socket.gethostname()}:{dead.pid}")
    with django_capture_on_commit_callbacks(execute=True):
        assert sweep_stuck_documents()["requeued"] == 1
    document.refresh_from_db()
    assert document.status == Document.Status.READY


def _document(seed: int, kb: int) -> bytes:
    rng = random.Random(seed)
    words = "policy leave employee manager approval days request system access travel refund budget".split()
    text = ""
    while len(text) < kb * 1000:
        text += " ".join(rng.choice(words) for _ in range(rng.randint(6, 16))).capitalize() + ". "
    return f"# Handbook part {seed}\n\n{text}\n".encode()


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_ingestion_leaves_every_document_ready_or_failed_without_duplicates(tmp_path):
    collection = make_collection()
    documents = [register_upload(collection, f"part-{i}.md", _document(i, 60))[0] for i in range(5)]
    for document in documents:
        jobs.enqueue("ingest_document", document.pk, backend="django_q")
    env = db_env(VERITY_TASK_BACKEND="django_q", VERITY_TASK_TIME_LIMIT="60", VERITY_Q_RETRY_S="65")
    qcluster = [sys.executable, "manage.py", "qcluster"]
    with open(tmp_path / "first.log", "w") as log:
        first = subprocess.Popen(qcluster, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                 start_new_session=True)
    try:
        ids = [d.pk for d in documents]
        wait_until(lambda: Document.objects.filter(pk__in=ids, status=Document.Status.PROCESSING).exists(), 120,
                   "a document being read")
    finally:
        os.killpg(first.pid, signal.SIGKILL)  # the whole worker, at once, mid-job
        first.wait()
    with open(tmp_path / "second.log", "w") as log:
        second = subprocess.Popen([sys.executable, "scripts/process_group.py", "--grace", "5", "--", *qcluster],
                                  cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        done = [Document.Status.READY, Document.Status.FAILED]
        wait_until(lambda: Document.objects.filter(pk__in=ids, status__in=done).count() == len(ids), 240,
                   "every document to be ready or failed")
    finally:
        second.send_signal(signal.SIGTERM)
        second.wait(timeout=60)
    for document in Document.objects.filter(pk__in=ids):
        assert document.status == Document.Status.READY, document.error
        assert document.chunks.count() == document.chunk_count > 0
    duplicates = (Chunk.objects.filter(document_id__in=ids).values("document_id", "order")
                  .annotate(n=Count("pk")).filter(n__gt=1))
    assert not duplicates.exists()
