"""The question graph: questions with their topics and entities, and answers linked to cited documents."""

from __future__ import annotations

import hashlib
import re

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from pgvector.django import HnswIndex, VectorField

from knowledge.models.documents import EMBEDDING_DIM, Chunk, Document


def question_hash(normalized: str) -> str:
    """The L1 key: sha1 of the normalised question text."""
    return hashlib.sha1(normalized.encode()).hexdigest()


class TopicQuerySet(models.QuerySet):
    def matching(self, text: str) -> list["Topic"]:
        """Topics one of whose keywords occurs in the text (whole words, case folded)."""
        lowered = f" {' '.join(re.findall(r'[a-z0-9_.-]+', text.lower()))} "
        return [topic for topic in self if any(f" {k} " in lowered for k in topic.keyword_list())]


class Topic(models.Model):
    """A subject employees ask about (admin-editable); a question belongs to the topics whose keywords it uses."""

    slug = models.SlugField(max_length=80, unique=True)
    name = models.CharField(max_length=120)
    keywords = models.TextField(blank=True, help_text="Comma-separated words or phrases, matched case-insensitively.")

    objects = TopicQuerySet.as_manager()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def keyword_list(self) -> list[str]:
        return [" ".join(re.findall(r"[a-z0-9_.-]+", k.lower())) for k in self.keywords.split(",") if k.strip()]


class EntityPattern(models.Model):
    """A regular expression that finds one kind of entity in questions (admin-editable; seeded generically)."""

    class Kind(models.TextChoices):
        ERROR_CODE = "error_code", "Error code"
        VERSION = "version", "Version"
        FORM_ID = "form_id", "Form or ticket id"
        SETTING = "setting", "Setting or environment variable"
        OPTION = "option", "Command-line option"
        FUNCTION = "function", "Function name"
        QUANTITY = "quantity", "Number with unit"
        OTHER = "other", "Other"

    kind = models.CharField(max_length=20, choices=Kind.choices)
    pattern = models.CharField(max_length=300, help_text="Python regular expression; the whole match is the entity.")
    description = models.CharField(max_length=200, blank=True)
    enabled = models.BooleanField(default=True)

    class Meta:
        ordering = ["kind", "pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.pattern}"

    def clean(self) -> None:
        try:
            re.compile(self.pattern)
        except re.error as exc:
            raise ValidationError({"pattern": f"Not a valid regular expression: {exc}"}) from exc

    @classmethod
    def compiled(cls) -> list[tuple[str, re.Pattern]]:
        """The enabled patterns, compiled (invalid ones skipped: the admin form refuses them anyway)."""
        out = []
        for kind, pattern in cls.objects.filter(enabled=True).values_list("kind", "pattern"):
            try:
                out.append((kind, re.compile(pattern)))
            except re.error:
                continue
        return out


class Entity(models.Model):
    """One named thing a question is about: an error code, a version, a setting, an option …"""

    kind = models.CharField(max_length=20)
    value = models.CharField(max_length=200)

    class Meta:
        ordering = ["kind", "value"]
        verbose_name_plural = "entities"
        constraints = [models.UniqueConstraint(fields=["kind", "value"], name="entity_unique")]

    def __str__(self) -> str:
        return f"{self.kind}: {self.value}"


class QuestionQuerySet(models.QuerySet):
    def origins(self) -> "QuestionQuerySet":
        """Questions an answer was written for (the ones reuse is grounded on)."""
        return self.filter(is_origin=True)


class Question(models.Model):
    """One asked question (redacted), with its grounding, topics, entities and the answer it got."""

    text = models.TextField(help_text="The redacted question.")
    normalized = models.CharField(max_length=500)
    normalized_hash = models.CharField(max_length=40, db_index=True)
    embedding = VectorField(dimensions=EMBEDDING_DIM, null=True)
    grounding = models.JSONField(default=dict, blank=True)
    entity_key = models.CharField(max_length=500, blank=True, db_index=True)
    asker = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    external_user = models.CharField(max_length=64, blank=True)
    channel = models.CharField(max_length=20, default="cli")
    thread = models.CharField(max_length=64, blank=True, help_text="e.g. the Slack channel:thread_ts")
    answer = models.ForeignKey("knowledge.Answer", null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="questions")
    is_origin = models.BooleanField(default=False, help_text="The answer was written for this question.")
    cache = models.CharField(max_length=20, blank=True, help_text="Cache level that served it, or 'miss'.")
    topics = models.ManyToManyField(Topic, through="QuestionTopic", blank=True, related_name="questions")
    entities = models.ManyToManyField(Entity, through="QuestionEntity", blank=True, related_name="questions")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = QuestionQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            HnswIndex(name="question_embedding_hnsw", fields=["embedding"], m=16, ef_construction=64,
                      opclasses=["vector_cosine_ops"]),
            models.Index(fields=["is_origin", "normalized_hash"], name="question_origin_hash"),
        ]

    def __str__(self) -> str:
        return self.text[:80]


class QuestionTopic(models.Model):
    """Edge: question — topic."""

    question = models.ForeignKey(Question, on_delete=models.CASCADE)
    topic = models.ForeignKey(Topic, on_delete=models.CASCADE)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["question", "topic"], name="question_topic_unique")]


class QuestionEntity(models.Model):
    """Edge: question — entity."""

    question = models.ForeignKey(Question, on_delete=models.CASCADE)
    entity = models.ForeignKey(Entity, on_delete=models.CASCADE)

    class Meta:
        verbose_name_plural = "question entities"
        constraints = [models.UniqueConstraint(fields=["question", "entity"], name="question_entity_unique")]


class AnswerCitation(models.Model):
    """Edge: answer — cited chunk and document version (what stale marking follows)."""

    answer = models.ForeignKey("knowledge.Answer", on_delete=models.CASCADE, related_name="citation_rows")
    n = models.PositiveIntegerField()
    chunk = models.ForeignKey(Chunk, null=True, blank=True, on_delete=models.SET_NULL, related_name="citations")
    document = models.ForeignKey(Document, null=True, blank=True, on_delete=models.SET_NULL, related_name="citations")
    version = models.PositiveIntegerField(default=1)
    source = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["answer", "n"]
        indexes = [models.Index(fields=["document", "version"], name="citation_document_version")]

    def __str__(self) -> str:
        return f"[{self.n}] {self.source}"
