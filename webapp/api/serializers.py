"""Request and response shapes of the REST API."""

from __future__ import annotations

from rest_framework import serializers

from knowledge.models import Document, DocumentVersion, Feedback


class AskSerializer(serializers.Serializer):
    """`{"question": "...", "conversation": id, "collections": [ids]}`; collections narrow the search to those
    readable ones."""

    question = serializers.CharField(max_length=2000, trim_whitespace=True)
    conversation = serializers.IntegerField(min_value=1, required=False, help_text=(
        "Continue this conversation of yours: the question is read as a follow-up of its earlier turns "
        "(as in a Slack thread). Leave it out to start a new conversation."))
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


# --- Response shapes, for the OpenAPI schema (/api/schema/) ------------------------------------------

class ErrorSerializer(serializers.Serializer):
    """Every error response: a one-line message, per-field messages for bad input, what to do next."""

    error = serializers.CharField()
    hint = serializers.CharField(required=False)


# `fields` is the name of a Serializer property, so the field of that name is declared after the class.
ErrorSerializer._declared_fields["fields"] = serializers.DictField(
    required=False, help_text="Per-field messages (400 only).")


class CitationSerializer(serializers.Serializer):
    """One numbered source of an answer; `url` opens the document at the cited passage."""

    n = serializers.IntegerField()
    source = serializers.CharField()
    title = serializers.CharField()
    url = serializers.CharField()
    chunk_id = serializers.IntegerField()
    quote = serializers.CharField()
    collection = serializers.CharField()
    updated_at = serializers.CharField(allow_null=True)


class AskResultSerializer(serializers.Serializer):
    """The JSON of `manage.py ask --json` (the answer or refusal, citations, confidence and timings); the API
    adds the conversation."""

    answer = serializers.CharField()
    refused = serializers.BooleanField()
    confidence = serializers.FloatField(help_text="0..1: the probability that the answer holds the asked fact.")
    citations = CitationSerializer(many=True)
    cache = serializers.CharField(help_text="miss, or the cache layer that served a stored answer.")
    verification = serializers.DictField()
    timings_ms = serializers.DictField(child=serializers.FloatField())
    status = serializers.CharField()
    warning = serializers.CharField()
    answer_id = serializers.IntegerField(allow_null=True)
    provider = serializers.CharField()
    model = serializers.CharField()
    note = serializers.CharField()
    retrieved = serializers.ListField(child=serializers.DictField())
    evidence = serializers.DictField()
    closest = serializers.ListField(child=serializers.DictField(), help_text=(
        "For a refusal: the nearest documents (title, source, url), which cover the topic but not the answer."))
    conversation = serializers.IntegerField(help_text=(
        "API only: the conversation this question is now the last turn of. Send it back as `conversation` to "
        "ask a follow-up; a new id when none was sent."))
    standalone_question = serializers.CharField(help_text=(
        "API only: the question as it was searched, completed from the conversation's earlier turns; empty "
        "when it stood on its own."))


class TurnSerializer(serializers.Serializer):
    """One question of a conversation and the answer it got."""

    question = serializers.CharField()
    standalone_question = serializers.CharField()
    answer = serializers.CharField()
    answer_id = serializers.IntegerField(allow_null=True)
    refused = serializers.BooleanField()
    citations = CitationSerializer(many=True)
    asked_at = serializers.DateTimeField()


class ConversationSerializer(serializers.Serializer):
    """A conversation of yours with its turns, oldest first."""

    conversation = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    turns = TurnSerializer(many=True)


class UploadResultSerializer(serializers.Serializer):
    """What happened to each uploaded file, and the documents that were accepted."""

    results = serializers.ListField(child=serializers.DictField())
    documents = DocumentSerializer(many=True)
    error = serializers.CharField(required=False)


class FeedbackResultSerializer(serializers.Serializer):
    id = serializers.IntegerField(allow_null=True)
    kind = serializers.CharField()
    answer_id = serializers.IntegerField()
    answer_status = serializers.CharField()
