"""Celery's side of the job seam: one generic task that runs a named domain job."""

from celery import shared_task

import jobqueue as jobs


@shared_task(name="verity.run_job", acks_late=True, time_limit=900, soft_time_limit=880)
def run_job(name: str, args: list):
    """Run a registered job by name; the job itself is idempotent."""
    result = jobs.run_job(name, *args)
    return getattr(result, "__dict__", result)
