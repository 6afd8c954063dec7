"""Request and response shapes of the REST API."""

from __future__ import annotations

from rest_framework import serializers

from knowledge.models import Document, DocumentVersion, Feedback


class AskSerializer(serializers.Serializer):
    """`{"question": "...", "collections": [ids]}`; collections narrow the search to those readable ones."""

    question = serializers.CharField(max_length=2000, trim_whitespace=True)
    collections = serializers.ListField(child=serializers.IntegerField(min_value=1), required=False,
                                        allow_empty=False, max_length=100)

    def __init__(self, *args, readable_ids: set[int] = frozenset(), **kwargs):
        super().__init__(*args, **kwargs)
        self.readable_ids = readable_ids

    def validate_question(self, value: str) -> str:
        if len(value) < 3:
            raise serializers.ValidationError("Ask a full question (at least 3 characters).")
        return value

    def validate_collections(self, value: list[int]) -> list[int]:
        unknown = sorted(set(value) - set(self.readable_ids))
        if unknown:
            raise serializers.ValidationError(f"Unknown collection ids, or ones you cannot read: {unknown}.")
        return value


class VersionSerializer(serializers.ModelSerializer):
    uploaded_by = serializers.StringRelatedField()

    class Meta:
        model = DocumentVersion
        fields = ["version", "sha256", "size_bytes", "uploaded_by", "created_at"]


class DocumentSerializer(serializers.ModelSerializer):
    """A document's metadata and ingestion status (never its bytes)."""

    collection = serializers.StringRelatedField()
    collection_id = serializers.IntegerField(read_only=True)
    url = serializers.SerializerMethodField()

    class Meta:
        model = Document
        fields = ["id", "collection_id", "collection", "source", "title", "mime_type", "size_bytes", "version",
                  "status", "error", "warnings", "chunk_count", "created_at", "updated_at", "indexed_at", "url"]

    def get_url(self, document: Document) -> str:
        request = self.context.get("request")
        path = f"/documents/{document.pk}/"
        return request.build_absolute_uri(path) if request else path


class DocumentDetailSerializer(DocumentSerializer):
    versions = VersionSerializer(many=True, read_only=True)

    class Meta(DocumentSerializer.Meta):
        fields = [*DocumentSerializer.Meta.fields, "author", "document_date", "metadata", "versions"]


class UploadSerializer(serializers.Serializer):
    """Multipart: one or more `file` parts and the target `collection` id."""

    collection = serializers.IntegerField(min_value=1)
    file = serializers.ListField(child=serializers.FileField(allow_empty_file=True), allow_empty=False)


class FeedbackSerializer(serializers.Serializer):
    """`{"kind": "helpful" | "unhelpful" | "flag", "reason": "..."}`."""

    kind = serializers.ChoiceField(choices=Feedback.Kind.values)
    reason = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")
