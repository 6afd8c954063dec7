from django.apps import AppConfig


class KnowledgeConfig(AppConfig):
    """Documents, chunks, retrieval, answering and the question graph."""

    name = "knowledge"
    verbose_name = "Knowledge"
    default_auto_field = "django.db.models.BigAutoField"
