"""The Celery app: Redis broker, queues ingest / answer / verify."""
import os

from celery import Celery
from celery.schedules import crontab
from kombu import Queue

from webapp.env import exit_on_bad_setting

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "webapp.settings")


def _read_settings():
    from django.conf import settings

    return settings.INSTALLED_APPS  # reading one forces `.env` and every variable to be checked now


exit_on_bad_setting(_read_settings)

app = Celery("verity")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.task_queues = [Queue("ingest"), Queue("answer"), Queue("verify")]
app.conf.task_default_queue = "answer"
app.autodiscover_tasks(["webapp"], related_name="celery_tasks")
# Periodic jobs (the `beat` service: `celery -A webapp.celery beat`); django-q2 deployments get the same from a Schedule row.
app.conf.beat_schedule = {
    "reverify-answers-daily": {
        "task": "verity.run_job",
        "schedule": crontab(hour=3, minute=30),
        "args": ("reverify_answers", []),
        "options": {"queue": "verify", "expires": 6 * 3600},
    },
    "sweep-ingestion": {
        "task": "verity.run_job",
        "schedule": 60.0,
        "args": ("sweep_ingestion", []),
        "options": {"queue": "ingest", "expires": 55},
    },
    "expire-verified-answers-daily": {
        "task": "verity.run_job",
        "schedule": crontab(hour=3, minute=15),
        "args": ("expire_verified_answers", []),
        "options": {"queue": "verify", "expires": 6 * 3600},
    },
    "sweep-slack-questions": {
        "task": "verity.run_job",
        "schedule": 60.0,
        "args": ("sweep_slack_questions", []),
        "options": {"queue": "answer", "expires": 55},
    },
}
