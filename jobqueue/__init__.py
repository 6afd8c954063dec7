"""The one seam that sends work to a worker: django-q2 (default), Celery, or inline.

Job bodies are plain domain functions named here; they take ids and are safe to run twice. The package
sits below `knowledge` and `verification` (it imports neither), so both may enqueue.
"""

from __future__ import annotations

import importlib
import logging
from typing import Callable

from django.conf import settings
from django.db import transaction

log = logging.getLogger(__name__)

# job name -> (dotted path of the domain function, queue)
JOBS: dict[str, tuple[str, str]] = {
    "ingest_document": ("knowledge.ingestion.ingest_document", "ingest"),
    "answer_slack_question": ("bot.jobs.answer_slack_question", "answer"),
    # Every minute (and when a django-q2 worker starts): documents whose ingestion job died.
    "sweep_ingestion": ("knowledge.ingestion_sweep.sweep_stuck_documents", "ingest"),
    # Every minute: Celery beat or the django-q2 schedule from migration bot/0004.
    "sweep_slack_questions": ("bot.jobs.sweep_slack_questions", "answer"),
    # Daily: Celery beat (webapp/celery.py) or the django-q2 schedule from migration verification/0002.
    "reverify_answers": ("verification.reverify.reverify_stale_answers", "verify"),
    # Enqueued when a cited document gets a new version or is deleted (one job per answer).
    "reverify_answer": ("verification.reverify.reverify_answer_by_id", "verify"),
    # Daily with reverify_answers: verified answers past VERITY_VERIFIED_TTL_DAYS go back to the queue.
    "expire_verified_answers": ("verification.curation.expire_verified_answers", "verify"),
    # After a document is ingested: knowledge gaps its text now answers close themselves.
    "resolve_gaps": ("knowledge.gaps.resolve_gaps_for_document", "ingest"),
}

# Jobs that sit in a queue longer than this are dropped rather than run late (seconds).
EXPIRES_S = {"ingest": 24 * 3600, "answer": 300, "verify": 600}


def resolve(name: str) -> Callable:
    """The domain function behind a job name."""
    path, _ = JOBS[name]
    module, attr = path.rsplit(".", 1)
    return getattr(importlib.import_module(module), attr)


def run_job(name: str, *args):
    """Run a job in this process (what every backend's worker ends up calling)."""
    return resolve(name)(*args)


def enqueue(name: str, *args, backend: str | None = None) -> None:
    """Send a job to the configured backend once the current transaction commits."""
    if name not in JOBS:
        raise KeyError(f"unknown job {name!r}; known: {', '.join(sorted(JOBS))}")
    backend = backend or settings.TASK_BACKEND
    transaction.on_commit(lambda: _send(name, args, backend))


# backend name -> send(job name, args, queue, expires_s); the Celery sender is registered by the
# composition root (webapp.composition), which knows the Celery app.
_SENDERS: dict[str, Callable[[str, list, str, int], None]] = {}


def register_sender(backend: str, send: Callable[[str, list, str, int], None]) -> None:
    """Make `backend` available to `enqueue` (called once at start-up)."""
    _SENDERS[backend] = send


def _send(name: str, args: tuple, backend: str) -> None:
    path, queue = JOBS[name]
    if backend == "sync":
        run_job(name, *args)
    elif backend in _SENDERS:
        _SENDERS[backend](name, list(args), queue, EXPIRES_S[queue])
    elif backend == "django_q":
        from django_q.tasks import async_task  # the library registers its models only once Django is set up

        async_task("jobqueue.run_job", name, *args, group=queue, q_options={"task_name": f"{name}{list(args)}"})
    else:
        raise ValueError(f"no sender registered for task backend {backend!r}")
