"""Admin pages for collections, documents, chunks, the question log, feedback, gaps and the glossary."""

from django.contrib import admin, messages
from django.template.defaultfilters import filesizeformat, truncatechars
from django.utils.html import format_html

from jobqueue import enqueue
from knowledge.models import (AnswerCitation, Chunk, Collection, Document, DocumentVersion, Entity, EntityPattern,
                              Feedback, GlossaryTerm, KnowledgeGap, QueryLog, Question, Topic)


@admin.register(Collection)
class CollectionAdmin(admin.ModelAdmin):
    list_display = ("name", "is_public", "document_count", "created_at")
    search_fields = ("name", "description")
    filter_horizontal = ("owners", "readers", "reader_groups")
    prepopulated_fields = {"slug": ("name",)}

    @admin.display(description="documents")
    def document_count(self, obj: Collection) -> int:
        return obj.documents.count()


class VersionInline(admin.TabularInline):
    model = DocumentVersion
    extra = 0
    can_delete = False
    readonly_fields = ("version", "sha256", "size_bytes", "uploaded_by", "created_at")


class ChunkInline(admin.TabularInline):
    model = Chunk
    extra = 0
    can_delete = False
    fields = ("order", "heading_text", "anchor", "page", "token_count", "preview")
    readonly_fields = fields
    show_change_link = True

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description="text")
    def preview(self, obj: Chunk) -> str:
        return truncatechars(obj.text, 160)


@admin.register(Document)
class DocumentAdmin(admin.ModelAdmin):
    list_display = ("source", "title", "collection", "status_badge", "version", "chunk_count", "size", "updated_at")
    list_filter = ("status", "collection", "mime_type")
    search_fields = ("source", "title", "error")
    readonly_fields = ("sha256", "indexed_sha256", "size_bytes", "version", "chunk_count", "status", "error",
                       "created_at", "updated_at", "indexed_at", "metadata")
    exclude = ("content",)
    inlines = [VersionInline, ChunkInline]
    actions = ["reingest"]

    @admin.display(description="status", ordering="status")
    def status_badge(self, obj: Document) -> str:
        colours = {"ready": "#1a7f37", "failed": "#cf222e", "processing": "#9a6700", "queued": "#57606a"}
        title = obj.error or obj.get_status_display()
        return format_html('<span style="color:{};font-weight:600" title="{}">{}</span>',
                           colours.get(obj.status, "#000"), title, obj.get_status_display())

    @admin.display(description="size", ordering="size_bytes")
    def size(self, obj: Document) -> str:
        return filesizeformat(obj.size_bytes)

    @admin.action(description="Re-ingest selected documents")
    def reingest(self, request, queryset):
        count = 0
        for document in queryset.exclude(content=b""):
            Document.objects.filter(pk=document.pk).update(status=Document.Status.QUEUED, indexed_sha256="")
            enqueue("ingest_document", document.pk)
            count += 1
        self.message_user(request, f"Queued {count} document(s) for ingestion.", messages.SUCCESS)


@admin.register(Chunk)
class ChunkAdmin(admin.ModelAdmin):
    list_display = ("__str__", "document", "heading_text", "anchor", "page", "token_count")
    list_filter = ("collection",)
    search_fields = ("text", "heading_text", "document__source")
    readonly_fields = ("document", "collection", "order", "text", "heading_path", "heading_text", "page", "anchor",
                       "token_count", "content_hash", "identifiers")
    exclude = ("embedding",)
    list_select_related = ("document",)


@admin.register(GlossaryTerm)
class GlossaryTermAdmin(admin.ModelAdmin):
    list_display = ("term", "expansion", "created_at")
    search_fields = ("term", "expansion")


@admin.register(KnowledgeGap)
class KnowledgeGapAdmin(admin.ModelAdmin):
    list_display = ("example_question", "topic", "times_asked", "resolved", "resolved_by", "first_asked_at",
                    "last_asked_at")
    list_filter = ("resolved", "topic")
    search_fields = ("example_question", "normalized_question")
    readonly_fields = ("normalized_question", "example_question", "searched", "times_asked", "first_asked_at",
                       "last_asked_at", "resolved_by", "resolved_at", "resolution", "collection_ids")
    exclude = ("embedding",)
    actions = ["mark_resolved"]

    @admin.action(description="Mark selected gaps resolved")
    def mark_resolved(self, request, queryset):
        count = queryset.update(resolved=True)
        self.message_user(request, f"Marked {count} gap(s) resolved.", messages.SUCCESS)


@admin.register(Feedback)
class FeedbackAdmin(admin.ModelAdmin):
    list_display = ("kind", "answer", "reason_preview", "user", "external_user", "created_at")
    list_filter = ("kind",)
    search_fields = ("reason", "answer__question_text", "external_user")
    list_select_related = ("answer", "user")
    readonly_fields = ("answer", "kind", "reason", "user", "external_user", "created_at")

    @admin.display(description="reason")
    def reason_preview(self, obj: Feedback) -> str:
        return truncatechars(obj.reason, 100)


@admin.register(QueryLog)
class QueryLogAdmin(admin.ModelAdmin):
    """The structured question log, read-only: one row per asked question."""

    list_display = ("created_at", "question_preview", "channel", "outcome", "cache", "confidence_pct", "provider",
                    "total_ms", "cost_usd")
    list_filter = ("outcome", "channel", "cache", "provider")
    search_fields = ("question", "standalone_question", "external_user")
    date_hierarchy = "created_at"
    list_select_related = ("answer", "user")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description="question")
    def question_preview(self, obj: QueryLog) -> str:
        return truncatechars(obj.question, 90)

    @admin.display(description="confidence", ordering="confidence")
    def confidence_pct(self, obj: QueryLog) -> str:
        return f"{obj.confidence:.0%}"

    @admin.display(description="total ms")
    def total_ms(self, obj: QueryLog) -> str:
        timings = obj.timings_ms if isinstance(obj.timings_ms, dict) else {}
        total = timings.get("total")
        return f"{total:.0f}" if isinstance(total, (int, float)) else "—"


@admin.register(Topic)
class TopicAdmin(admin.ModelAdmin):
    """Topics and their keywords: a question belongs to the topics whose keywords it uses."""

    list_display = ("name", "slug", "keywords")
    search_fields = ("name", "keywords")
    prepopulated_fields = {"slug": ("name",)}


@admin.register(EntityPattern)
class EntityPatternAdmin(admin.ModelAdmin):
    """Regular expressions that find entities in questions (answers are reused only when entities match)."""

    list_display = ("kind", "pattern", "description", "enabled")
    list_filter = ("kind", "enabled")
    list_editable = ("enabled",)


@admin.register(Entity)
class EntityAdmin(admin.ModelAdmin):
    list_display = ("kind", "value", "question_count")
    list_filter = ("kind",)
    search_fields = ("value",)

    @admin.display(description="questions")
    def question_count(self, obj: Entity) -> int:
        return obj.questions.count()


class CitationInline(admin.TabularInline):
    model = AnswerCitation
    extra = 0
    can_delete = False
    readonly_fields = ("n", "chunk", "document", "version", "source")

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Question)
class QuestionAdmin(admin.ModelAdmin):
    """Asked questions (redacted) with their topics, entities, the answer they got and the cache level."""

    list_display = ("text", "channel", "cache", "is_origin", "answer", "created_at")
    list_filter = ("channel", "cache", "is_origin", "topics")
    search_fields = ("text",)
    readonly_fields = ("text", "normalized", "normalized_hash", "grounding", "entity_key", "asker", "external_user",
                       "channel", "thread", "answer", "is_origin", "cache", "created_at", "topic_list", "entity_list")
    exclude = ("embedding", "topics", "entities")
    list_select_related = ("answer",)

    def has_add_permission(self, request) -> bool:
        return False

    @admin.display(description="topics")
    def topic_list(self, obj: Question) -> str:
        return ", ".join(t.name for t in obj.topics.all()) or "—"

    @admin.display(description="entities")
    def entity_list(self, obj: Question) -> str:
        return ", ".join(str(e) for e in obj.entities.all()) or "—"
