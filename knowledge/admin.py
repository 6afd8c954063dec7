"""Admin pages for collections, documents and chunks: filters, errors in plain sight, previews."""

from django.contrib import admin, messages
from django.template.defaultfilters import filesizeformat, truncatechars
from django.utils.html import format_html

from knowledge.models import Chunk, Collection, Document, DocumentVersion


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
        from webapp.jobs import enqueue

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
