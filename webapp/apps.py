import logging

from django.apps import AppConfig

log = logging.getLogger(__name__)


class WebappConfig(AppConfig):
    """The web console, API and worker wiring."""

    name = "webapp"
    verbose_name = "Console"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from webapp import composition  # models must be loaded before the providers' modules import them

        composition.install()
        from django_q.signals import post_spawn

        post_spawn.connect(sweep_on_worker_start, dispatch_uid="verity-sweep-ingestion")


def sweep_on_worker_start(sender, proc_name: str = "", **kwargs) -> None:
    """A django-q2 worker (re)starting is when a job may just have died with its predecessor."""
    from webapp.jobs import run_job

    try:
        run_job("sweep_ingestion")
    except Exception:  # noqa: BLE001 - a failed sweep must not stop the worker; the schedule retries it
        log.exception("ingestion sweep at worker start failed")
