"""The job seam lives in `jobqueue` (below knowledge and verification); this name stays importable because
stored django-q2 schedules call "webapp.jobs.run_job"."""

from jobqueue import EXPIRES_S, JOBS, enqueue, resolve, run_job

__all__ = ["EXPIRES_S", "JOBS", "enqueue", "resolve", "run_job"]
