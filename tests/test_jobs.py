"""The job seam on its real backends: django-q2's ORM broker and Celery on the real Redis."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

from knowledge.ingestion import register_upload
from knowledge.models import Document
from tests.factories import make_collection
from webapp import jobs

ROOT = Path(__file__).resolve().parent.parent
DOC = b"# Parking\n\nVisitor parking permits are issued by reception using form FAC-12. They last one day.\n"


def wait_for_status(pk: int, timeout: float = 120) -> Document:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        document = Document.objects.get(pk=pk)
        if document.status in (Document.Status.READY, Document.Status.FAILED):
            return document
        time.sleep(0.3)
    raise AssertionError(f"document {pk} still {Document.objects.get(pk=pk).status} after {timeout}s")


def redis_available() -> bool:
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=1).close()
        return True
    except OSError:
        return False


def test_unknown_job_is_refused():
    with pytest.raises(KeyError, match="unknown job"):
        jobs.enqueue("no_such_job", 1)


@pytest.mark.django_db
def test_sync_backend_runs_the_job_on_commit(django_capture_on_commit_callbacks):
    document, _ = register_upload(make_collection(), "parking.md", DOC)
    with django_capture_on_commit_callbacks(execute=True):
        jobs.enqueue("ingest_document", document.pk, backend="sync")
    document.refresh_from_db()
    assert document.status == Document.Status.READY


@pytest.mark.django_db(transaction=True)
def test_django_q_worker_ingests_through_the_orm_broker():
    document, _ = register_upload(make_collection(), "parking.md", DOC)
    jobs.enqueue("ingest_document", document.pk, backend="django_q")  # autocommit: sent at once
    from django_q.models import OrmQ

    assert OrmQ.objects.count() == 1
    db = connection.settings_dict
    env = dict(os.environ, DATABASE_URL=f"postgresql://{db['USER']}@/{db['NAME']}?host={db['HOST']}",
               VERITY_TASK_BACKEND="django_q")
    worker = subprocess.Popen([sys.executable, "manage.py", "qcluster"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        document = wait_for_status(document.pk)
    finally:
        worker.terminate()
        worker.wait(timeout=30)
    assert document.status == Document.Status.READY, document.error
    assert document.chunks.exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not redis_available(), reason="no Redis answers on 127.0.0.1:6379")
def test_celery_worker_ingests_through_redis(settings):
    from celery.contrib.testing.worker import start_worker

    from webapp.celery import app

    settings.CELERY_BROKER_URL = "redis://127.0.0.1:6379/15"
    app.conf.broker_url = "redis://127.0.0.1:6379/15"
    app.conf.result_backend = None
    document, _ = register_upload(make_collection(), "parking.md", DOC)
    with start_worker(app, queues=["ingest"], perform_ping_check=False, pool="solo", shutdown_timeout=30):
        jobs.enqueue("ingest_document", document.pk, backend="celery")
        document = wait_for_status(document.pk)
    assert document.status == Document.Status.READY, document.error
