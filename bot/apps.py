from django.apps import AppConfig


class BotConfig(AppConfig):
    """The Slack bot: Bolt app factory, listeners and block formatting."""

    name = "bot"
    verbose_name = "Slack bot"
    default_auto_field = "django.db.models.BigAutoField"
