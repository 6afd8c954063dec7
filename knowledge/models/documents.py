"""Collections, documents (with their version history) and searchable chunks."""

from __future__ import annotations

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchQuery, SearchVector, SearchVectorField
from django.db import models
from django.db.models import Exists, OuterRef, Q
from django.utils.text import slugify
from pgvector.django import HnswIndex, VectorField

EMBEDDING_DIM = 384


class CollectionQuerySet(models.QuerySet):
    def readable_by(self, user) -> "CollectionQuerySet":
        """Collections this user may read: public ones, ones shared with them or their groups."""
        if user is None:
            return self.filter(is_public=True)
        if user.is_superuser:
            return self.all()
        return self.filter(
            Q(is_public=True) | Q(readers=user) | Q(reader_groups__in=user.groups.all()) | Q(owners=user)
        ).distinct()


class Collection(models.Model):
    """A named set of documents with owners and a read audience."""

    name = models.CharField(max_length=120, unique=True)
    slug = models.SlugField(max_length=120, unique=True)
    description = models.TextField(blank=True)
    owners = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="owned_collections")
    is_public = models.BooleanField(default=True, help_text="Everyone in the company may read it.")
    readers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="readable_collections")
    reader_groups = models.ManyToManyField("auth.Group", blank=True, related_name="readable_collections")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = CollectionQuerySet.as_manager()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        if not self.slug:
            self.slug = slugify(self.name)[:120] or "collection"
        super().save(*args, **kwargs)

    @classmethod
    def get_default(cls, name: str | None = None) -> "Collection":
        """The named collection (the configured default when no name is given), created if missing."""
        name = name or settings.VERITY_DEFAULT_COLLECTION
        collection, _ = cls.objects.get_or_create(name=name, defaults={"slug": slugify(name)[:120]})
        return collection

    @classmethod
    def get_or_create_for_ingest(cls, name: str | None, *, public: bool = False,
                                 owner=None) -> tuple["Collection", bool]:
        """The named collection (the default when no name is given); a new one is private unless `public`."""
        name = name or settings.VERITY_DEFAULT_COLLECTION
        collection, created = cls.objects.get_or_create(
            name=name, defaults={"slug": slugify(name)[:120], "is_public": public})
        if created and owner is not None:
            collection.owners.add(owner)
        return collection, created


class DocumentQuerySet(models.QuerySet):
    def search(self, text: str) -> "DocumentQuerySet":
        """Documents whose title or source contains `text`, or whose chunks match it as a web search
        (the same English full-text configuration as retrieval: "leave -parental", "\"per diem\"")."""
        text = text.strip()
        if not text:
            return self
        query = SearchQuery(text, search_type="websearch", config="english")
        in_text = Chunk.objects.filter(document=OuterRef("pk"), search_vector=query)
        return self.filter(Q(title__icontains=text) | Q(source__icontains=text) | Exists(in_text))


class Document(models.Model):
    """One source document in a collection; its current version's chunks are searchable."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        PROCESSING = "processing", "Processing"
        READY = "ready", "Ready"
        FAILED = "failed", "Failed"

    collection = models.ForeignKey(Collection, on_delete=models.CASCADE, related_name="documents")
    source = models.CharField(max_length=500, help_text="Path relative to the folder it was ingested from.")
    title = models.CharField(max_length=300, blank=True)
    mime_type = models.CharField(max_length=120, blank=True)
    content = models.BinaryField(editable=False, help_text="Bytes of the current version.")
    sha256 = models.CharField(max_length=64, db_index=True)
    size_bytes = models.PositiveBigIntegerField(default=0)
    version = models.PositiveIntegerField(default=1)
    indexed_sha256 = models.CharField(max_length=64, blank=True, help_text="Content whose chunks are live.")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.QUEUED, db_index=True)
    error = models.TextField(blank=True, help_text="Why ingestion failed, in plain words.")
    warnings = models.JSONField(default=list, blank=True,
                                help_text="What the owners should check, e.g. text that gives orders to an AI assistant.")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    author = models.CharField(max_length=200, blank=True)
    document_date = models.DateField(null=True, blank=True)
    metadata = models.JSONField(default=dict, blank=True)
    chunk_count = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    indexed_at = models.DateTimeField(null=True, blank=True)
    # The lease of the job reading it: when it started, where, and how many times it was tried.
    processing_since = models.DateTimeField(null=True, blank=True)
    processing_by = models.CharField(max_length=120, blank=True, help_text="host:pid of the worker reading it")
    attempts = models.PositiveSmallIntegerField(default=0, help_text="Ingestion jobs started for this version")

    objects = DocumentQuerySet.as_manager()

    class Meta:
        ordering = ["collection__name", "source"]
        constraints = [models.UniqueConstraint(fields=["collection", "source"], name="document_unique_source")]

    def __str__(self) -> str:
        return self.title or self.source

    @property
    def filename(self) -> str:
        return self.source.rsplit("/", 1)[-1]


class DocumentVersion(models.Model):
    """A past or present version of a document's content, kept for audit and rollback."""

    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="versions")
    version = models.PositiveIntegerField()
    sha256 = models.CharField(max_length=64)
    size_bytes = models.PositiveBigIntegerField(default=0)
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["document", "-version"]
        constraints = [models.UniqueConstraint(fields=["document", "version"], name="version_unique")]

    def __str__(self) -> str:
        return f"{self.document} v{self.version}"


class Chunk(models.Model):
    """A piece of a document that fits the embedding window, with its vector and full-text index."""

    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="chunks")
    collection = models.ForeignKey(Collection, on_delete=models.CASCADE, related_name="chunks")
    order = models.PositiveIntegerField()
    text = models.TextField()
    heading_path = models.JSONField(default=list, blank=True)
    heading_text = models.TextField(blank=True, help_text="Heading path joined with ' > '.")
    page = models.PositiveIntegerField(null=True, blank=True)
    anchor = models.CharField(max_length=200, blank=True)
    sections = models.JSONField(
        default=list, blank=True,
        help_text="Where the text passes into another section (a short section merged into this chunk): "
                  "[{at, anchor, heading, page}], the first at 0; empty when all of it is the chunk's own section.")
    token_count = models.PositiveIntegerField(default=0)
    content_hash = models.CharField(max_length=64, db_index=True)
    embedding = VectorField(dimensions=EMBEDDING_DIM, null=True)
    identifiers = ArrayField(models.CharField(max_length=80), default=list, blank=True,
                             help_text="Code-like tokens (setting names, error codes, form ids), lower-cased.")
    search_vector = models.GeneratedField(
        expression=SearchVector("heading_text", weight="A", config="english")
        + SearchVector("text", weight="B", config="english"),
        output_field=SearchVectorField(),
        db_persist=True,
    )

    class Meta:
        ordering = ["document", "order"]
        indexes = [
            HnswIndex(name="chunk_embedding_hnsw", fields=["embedding"], m=16, ef_construction=64,
                      opclasses=["vector_cosine_ops"]),
            GinIndex(name="chunk_search_gin", fields=["search_vector"]),
            GinIndex(name="chunk_identifiers_gin", fields=["identifiers"]),
        ]
        constraints = [models.UniqueConstraint(fields=["document", "order"], name="chunk_unique_order")]

    def __str__(self) -> str:
        return f"{self.document_id}#{self.order}"

    @property
    def citation_source(self) -> str:
        """`source#anchor`, the form evaluation sets and citations use."""
        return f"{self.document.source}#{self.anchor}" if self.anchor else self.document.source
