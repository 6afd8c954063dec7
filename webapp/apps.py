from django.apps import AppConfig


class WebappConfig(AppConfig):
    """The web console, API and worker wiring."""

    name = "webapp"
    verbose_name = "Console"
    default_auto_field = "django.db.models.BigAutoField"
