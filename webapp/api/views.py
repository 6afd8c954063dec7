"""API views: parse with a serializer, call one domain function, return JSON."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from knowledge.answering import AskOptions
from knowledge.conversations import ConversationNotFound, ask_in_conversation, find_conversation, turns_of
from knowledge.models import Answer, Collection
from verification import curation
from webapp.api.errors import bad_request, error_response
from webapp.api.permissions import CanUploadOrReadOnly
from webapp.api.serializers import (AskResultSerializer, AskSerializer, ConversationSerializer,
                                    DocumentDetailSerializer, DocumentSerializer, ErrorSerializer,
                                    FeedbackResultSerializer, FeedbackSerializer, UploadResultSerializer,
                                    UploadSerializer)
from webapp.roles import can_manage, can_see_answer, readable_collections, readable_documents
from webapp.uploads import accept_uploads

# Error responses every authenticated endpoint can give.
ERRORS = {code: ErrorSerializer for code in (400, 401, 403, 404, 405, 429)}


class AskView(APIView):
    """POST a question, optionally as a follow-up in one of your conversations; the response is the JSON of
    `manage.py ask --json` plus `conversation` (send it back to ask a follow-up) and `standalone_question`."""

    parser_classes = [JSONParser, FormParser]

    @extend_schema(request=AskSerializer, responses={200: AskResultSerializer, **ERRORS}, tags=["answers"],
                   summary="Ask a question (alone or as a follow-up in a conversation)")
    def post(self, request):
        readable = set(readable_collections(request.user).values_list("pk", flat=True))
        serializer = AskSerializer(data=request.data, readable_ids=readable)
        if not serializer.is_valid():
            return bad_request(serializer.errors)
        data = serializer.validated_data
        options = AskOptions(user=request.user, channel="api", collection_ids=data.get("collections"))
        try:
            conversation, result = ask_in_conversation(data["question"], options, data.get("conversation"))
        except ConversationNotFound as exc:
            return error_response(str(exc), status.HTTP_404_NOT_FOUND, hint=exc.hint)
        return Response({**result.to_dict(), "conversation": conversation.pk,
                         "standalone_question": result.standalone_question})


class ConversationView(APIView):
    """GET one of your conversations with its turns; anyone else's id is a 404, like a missing one."""

    @extend_schema(responses={200: ConversationSerializer, **ERRORS}, tags=["answers"],
                   summary="One of your conversations with its turns")
    def get(self, request, pk: int):
        try:
            conversation = find_conversation(request.user, pk)
        except ConversationNotFound as exc:
            return error_response(str(exc), status.HTTP_404_NOT_FOUND, hint=exc.hint)
        return Response({"conversation": conversation.pk, "created_at": conversation.created_at,
                         "updated_at": conversation.updated_at,
                         "turns": [turn.to_dict() for turn in turns_of(conversation)]})


class DocumentPages(PageNumberPagination):
    """{"count", "next", "previous", "results"}: 100 documents a page (?page=N, ?page_size= up to 500)."""

    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 500


class DocumentListView(generics.ListAPIView):
    """GET documents in readable collections (?collection=<id>&status=<status>), a page at a time; POST
    multipart to upload."""

    serializer_class = DocumentSerializer
    pagination_class = DocumentPages
    permission_classes = [CanUploadOrReadOnly]
    parser_classes = [MultiPartParser, FormParser]

    def get_queryset(self):
        documents = readable_documents(self.request.user).select_related("collection").order_by(
            "collection__name", "source", "pk")
        collection = self.request.query_params.get("collection", "")
        if collection.isdigit():
            documents = documents.filter(collection_id=int(collection))
        if self.request.query_params.get("status"):
            documents = documents.filter(status=self.request.query_params["status"])
        return documents

    @extend_schema(tags=["documents"], summary="List documents", parameters=[
        OpenApiParameter("collection", int, description="only this collection"),
        OpenApiParameter("status", str, description="queued, processing, ready or failed")],
        responses={200: DocumentSerializer(many=True), **ERRORS})
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    @extend_schema(request={"multipart/form-data": UploadSerializer}, tags=["documents"],
                   summary="Upload documents", responses={201: UploadResultSerializer, **ERRORS})
    def post(self, request):
        serializer = UploadSerializer(data=request.data)
        if not serializer.is_valid():
            return bad_request(serializer.errors)
        collection = Collection.objects.filter(pk=serializer.validated_data["collection"]).first()
        if collection is None or not can_manage(request.user, collection):
            return error_response("You do not own this collection (or it does not exist); only its owners "
                                  "and staff may upload to it.", status.HTTP_403_FORBIDDEN)
        outcomes = accept_uploads(collection, serializer.validated_data["file"], owner=request.user)
        accepted = [o for o in outcomes if o.accepted]
        body = {"results": [o.to_dict() for o in outcomes],
                "documents": DocumentSerializer([o.document for o in accepted], many=True,
                                                context={"request": request}).data}
        if not accepted:
            body["error"] = outcomes[0].message if len(outcomes) == 1 else "None of the files could be accepted."
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
        return Response(body, status=status.HTTP_201_CREATED)


class DocumentDetailView(generics.RetrieveAPIView):
    """GET one document with its versions (404 when its collection is not readable)."""

    serializer_class = DocumentDetailSerializer

    @extend_schema(tags=["documents"], summary="One document with its versions",
                   responses={200: DocumentDetailSerializer, **ERRORS})
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        return readable_documents(self.request.user).select_related("collection").prefetch_related("versions__uploaded_by")


class FeedbackView(APIView):
    """POST `{"kind", "reason"}` on an answer: helpful, unhelpful (goes to review) or flag (never reused)."""

    parser_classes = [JSONParser, FormParser]

    @extend_schema(request=FeedbackSerializer, responses={201: FeedbackResultSerializer, **ERRORS},
                   tags=["answers"], summary="Give feedback on an answer")
    def post(self, request, pk: int):
        answer = Answer.objects.filter(pk=pk).first()
        if answer is None or not can_see_answer(request.user, answer):
            return error_response("No such answer.", status.HTTP_404_NOT_FOUND)
        serializer = FeedbackSerializer(data=request.data)
        if not serializer.is_valid():
            return bad_request(serializer.errors)
        feedback = curation.give_feedback(answer, serializer.validated_data["kind"], user=request.user,
                                          reason=serializer.validated_data["reason"])
        answer.refresh_from_db(fields=["status", "helpful_count", "unhelpful_count", "flag_pending"])
        return Response({"id": feedback.pk if feedback else None, "kind": serializer.validated_data["kind"],
                         "answer_id": answer.pk, "answer_status": answer.status}, status=status.HTTP_201_CREATED)


class AnswerView(APIView):
    """GET one answer as askers see it (text, citations, status, badge, warning); 404 when not visible."""

    def get(self, request, pk: int):
        answer = Answer.objects.filter(pk=pk).first()
        if answer is None or not can_see_answer(request.user, answer):
            return error_response("No such answer.", status.HTTP_404_NOT_FOUND)
        return Response(curation.served_answer(answer).to_dict())
