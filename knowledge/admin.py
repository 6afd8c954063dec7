"""Admin pages for collections, documents, chunks, the question log, feedback, gaps and the glossary."""

from django.contrib import admin, messages
from django.template.defaultfilters import filesizeformat, truncatechars
from django.utils.html import format_html

from knowledge.models import (Chunk, Collection, Document, DocumentVersion, Feedback, GlossaryTerm, KnowledgeGap,
                              QueryLog)


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
        from jobqueue import enqueue

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
    list_display = ("example_question", "times_asked", "resolved", "first_asked_at", "last_asked_at")
    list_filter = ("resolved",)
    search_fields = ("example_question", "normalized_question")
    readonly_fields = ("normalized_question", "example_question", "searched", "times_asked", "first_asked_at",
                       "last_asked_at")
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
