from django.apps import AppConfig


class VerificationConfig(AppConfig):
    """Automatic answer checks, claim verdicts and the reviewers' queue."""

    name = "verification"
    verbose_name = "Verification"
    default_auto_field = "django.db.models.BigAutoField"
