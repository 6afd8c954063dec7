from django.apps import AppConfig


class WebappConfig(AppConfig):
    """The web console, API and worker wiring."""

    name = "webapp"
    verbose_name = "Console"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from webapp import composition  # models must be loaded before the providers' modules import them

        composition.install()
