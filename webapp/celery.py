"""The Celery app: Redis broker, queues ingest / answer / verify."""
import os

from celery import Celery
from kombu import Queue

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "webapp.settings")

app = Celery("verity")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.task_queues = [Queue("ingest"), Queue("answer"), Queue("verify")]
app.conf.task_default_queue = "answer"
app.autodiscover_tasks(["webapp"], related_name="celery_tasks")
