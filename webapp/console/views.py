"""Console pages: each view parses its input, calls one domain function, and renders."""

from __future__ import annotations

from pathlib import PurePosixPath

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from knowledge import activity, supersession
from knowledge.answering import AskOptions
from knowledge.conversations import ConversationNotFound, ask_in_conversation, find_conversation, turns_of
from knowledge.gaps import list_gaps, set_gap_resolved
from knowledge.ingestion import delete_document
from knowledge.models import Answer, Document
from verification import curation
from verification import review as reviews
from webapp.console import presenters, queries, trend_charts
from webapp.console.forms import AskForm, DocumentFilterForm, FeedbackForm, ReviewForm, UploadForm
from webapp.console.sections import build_sections
from webapp.roles import (can_manage, can_see_question, is_knowledge_owner, is_reviewer, managed_collections,
                          readable_collections, readable_documents, visible_gaps, visible_questions)
from webapp.uploads import UploadOutcome, accept_upload, accept_uploads


def _require(allowed: bool) -> None:
    if not allowed:
        raise PermissionDenied("You do not have access to this page.")


@login_required
def dashboard(request):
    """Counts for the chosen period (24 hours, 7 or 30 days); for reviewers, its trends drawn as charts."""
    period = request.GET.get("period", activity.DEFAULT_PERIOD)
    if period not in activity.PERIODS:
        messages.warning(request, f"There is no period “{period}”: showing the last 24 hours. "
                                  f"Choose one of {', '.join(activity.PERIODS)}.")
        period = activity.DEFAULT_PERIOD
    window = activity.window(period)
    charts = None
    if is_reviewer(request.user):
        charts = trend_charts.build(activity.trends(visible_questions(request.user), window))
    return render(request, "console/dashboard.html", {
        "stats": queries.dashboard_stats(request.user, window.start), "period": window.period,
        "periods": activity.PERIODS.values(), "charts": charts,
        "recent": queries.recent_questions(request.user, 10), "nav": "dashboard",
    })


def _filtered_documents(request):
    form = DocumentFilterForm(request.GET or None, collections=readable_collections(request.user))
    documents = readable_documents(request.user).select_related("collection")
    if form.is_valid():
        if form.cleaned_data["collection"]:
            documents = documents.filter(collection=form.cleaned_data["collection"])
        if form.cleaned_data["status"]:
            documents = documents.filter(status=form.cleaned_data["status"])
        if form.cleaned_data["q"]:
            documents = documents.search(form.cleaned_data["q"])
    return form, documents


@login_required
def document_list(request):
    form, documents = _filtered_documents(request)
    shown = list(documents.order_by("collection__name", "source")[:500])
    return render(request, "console/document_list.html", {
        "form": form, "documents": _with_supersession(shown),
        "progress": queries.ingestion_progress(documents), "can_upload": is_knowledge_owner(request.user),
        "nav": "documents",
    })


@login_required
def document_status(request):
    """JSON polled by the document list and the upload page while ingestion runs (`?ids=1,2` narrows it)."""
    _, documents = _filtered_documents(request)
    ids = [int(i) for i in request.GET.get("ids", "").split(",") if i.strip().isdigit()][:500]
    if ids:
        documents = documents.filter(pk__in=ids)
    rows = documents.values("pk", "status", "error", "chunk_count")[:500]
    return JsonResponse({**queries.ingestion_progress(documents), "documents": [
        {"id": r["pk"], "status": r["status"], "label": Document.Status(r["status"]).label, "error": r["error"],
         "advice": FAILED_ADVICE if r["status"] == Document.Status.FAILED else "",
         "chunks": r["chunk_count"]} for r in rows]})


# What a person can do about any failed file; the error itself says what went wrong with this one.
FAILED_ADVICE = ("Fix the file (or export it again as PDF, Word, HTML, Markdown or text) and upload it under the "
                 "same name to replace it, or delete it from the document list.")


@login_required
def document_upload(request):
    collections = managed_collections(request.user)
    _require(collections.exists())
    form = UploadForm(request.POST or None, collections=collections)
    if request.method == "POST" and form.is_valid():
        files = request.FILES.getlist("files")
        if not files:
            form.add_error(None, "Choose or drop at least one file.")
        else:
            outcomes = accept_uploads(form.cleaned_data["collection"], files, owner=request.user)
            # Post/redirect/get: the results page can be reloaded (showing live statuses) without re-sending.
            request.session[UPLOAD_RESULTS_KEY] = [o.to_dict() for o in outcomes]
            return redirect("console:document_upload")
    outcomes = _last_upload_outcomes(request) if request.method == "GET" else None
    return render(request, "console/document_upload.html", {
        "form": form, "outcomes": outcomes, "nav": "upload",
        "accepted": sum(1 for o in outcomes or [] if o.accepted),
        "watch_ids": ",".join(str(o.document.pk) for o in outcomes or [] if o.document),
        "active": any(o.document and o.document.status in ACTIVE_STATUSES for o in outcomes or []),
        "failed_advice": FAILED_ADVICE,
    })


ACTIVE_STATUSES = (Document.Status.QUEUED, Document.Status.PROCESSING)


UPLOAD_RESULTS_KEY = "verity-upload-results"


def _last_upload_outcomes(request) -> list[UploadOutcome] | None:
    """The results of this session's last upload, once, with each document as it is now."""
    saved = request.session.pop(UPLOAD_RESULTS_KEY, None)
    if not saved:
        return None
    documents = Document.objects.in_bulk([r["document_id"] for r in saved if r.get("document_id")])
    return [UploadOutcome(r["name"], r["accepted"], r["message"], documents.get(r.get("document_id")))
            for r in saved]


def _readable_document(request, pk: int) -> Document:
    document = readable_documents(request.user).select_related("collection", "owner").filter(pk=pk).first()
    if document is None:
        raise Http404("No such document, or you cannot read its collection.")
    return document


def _with_supersession(documents: list[Document]) -> list[Document]:
    """The documents, each with `superseded_by`: the newer document of its collection that replaces it, or None."""
    found = supersession.in_collections({d.collection_id for d in documents})
    newer = Document.objects.in_bulk({found.newer[d.pk] for d in documents if d.pk in found.newer})
    for document in documents:
        document.superseded_by = newer.get(found.newer.get(document.pk))
    return documents


@login_required
def document_detail(request, pk: int):
    document = _readable_document(request, pk)
    cited = request.GET.get("chunk", "")
    found = supersession.in_collections([document.collection_id])
    return render(request, "console/document_detail.html", {
        "document": document,
        "superseded_by": Document.objects.filter(pk=found.newer.get(document.pk)).first(),
        "replaces": Document.objects.filter(pk__in=found.older.get(document.pk, [])).order_by("-document_date", "title"),
        "sections": build_sections(queries.document_chunks(document), int(cited) if cited.isdigit() else None),
        "versions": document.versions.select_related("uploaded_by"),
        "can_manage": can_manage(request.user, document.collection),
        "nav": "documents",
    })


@login_required
@require_POST
def document_replace(request, pk: int):
    document = _readable_document(request, pk)
    _require(can_manage(request.user, document.collection))
    upload = request.FILES.get("file")
    expected = PurePosixPath(document.source).suffix.lower()
    if upload is None:
        messages.error(request, "Choose the file with the new version.")
    elif PurePosixPath(upload.name).suffix.lower() != expected:
        messages.error(request, f"Replace it with a file of the same type ({expected or 'no extension'}); "
                                "to add a different file, use Upload.")
    else:
        outcome = accept_upload(document.collection, upload, owner=request.user, source=document.source)
        (messages.success if outcome.accepted else messages.error)(request, outcome.message)
    return redirect("console:document_detail", pk=document.pk)


@login_required
def document_delete(request, pk: int):
    document = _readable_document(request, pk)
    _require(can_manage(request.user, document.collection))
    if request.method == "POST":
        delete_document(document.pk)
        messages.success(request, f"Deleted “{document}” and its {document.chunk_count} passages.")
        return redirect("console:document_list")
    return render(request, "console/document_delete.html", {"document": document, "nav": "documents"})


@login_required
def gap_list(request):
    _require(is_knowledge_owner(request.user) or is_reviewer(request.user))
    show = request.GET.get("show", "open")
    show = show if show in ("open", "resolved", "all") else "open"
    gaps = visible_gaps(request.user)
    return render(request, "console/gaps.html", {"gaps": list_gaps(show, gaps)[:200], "show": show, "nav": "gaps",
                                                  "open_count": list_gaps("open", gaps).count()})


@login_required
@require_POST
def gap_resolve(request, pk: int):
    _require(is_knowledge_owner(request.user) or is_reviewer(request.user))
    resolved = request.POST.get("resolved", "1") == "1"
    if not set_gap_resolved(pk, resolved, visible_gaps(request.user)):
        raise Http404("No such gap among your collections' questions.")
    messages.success(request, "Marked resolved." if resolved else "Re-opened.")
    show = request.POST.get("show", "open")
    return redirect(f"{reverse('console:gap_list')}?show={show if show in ('open', 'resolved', 'all') else 'open'}")


# The conversation the Ask page continues; the form also carries it, so two tabs can hold two conversations.
CONVERSATION_KEY = "verity-ask-conversation"


def _conversation(request, conversation_id: int | None):
    """The asker's own conversation with this id (None for none); another person's is a 404."""
    if conversation_id is None:
        return None
    try:
        return find_conversation(request.user, conversation_id)
    except ConversationNotFound as exc:
        raise Http404(str(exc)) from exc


def _remembered_conversation(request):
    """The conversation this session was last asking in, while it is still the asker's."""
    try:
        return _conversation(request, request.session.get(CONVERSATION_KEY))
    except Http404:
        request.session.pop(CONVERSATION_KEY, None)
        return None


@login_required
def ask(request):
    """Ask, or follow up in the current conversation; the earlier turns are shown above the answer."""
    collections = readable_collections(request.user)
    form = AskForm(request.POST or None, collections=collections)
    card, conversation, turns = None, None, []
    if request.method == "POST":
        if form.is_valid():
            chosen = form.cleaned_data["collections"]
            conversation, result = _ask(request, form.cleaned_data["question"], form.cleaned_data["conversation"],
                                        [c.pk for c in chosen] or None)
            card = presenters.answer_card(result.to_dict(), result.question,
                                          standalone_question=result.standalone_question)
            turns = turns_of(conversation)[:-1]
            # The answer is shown; the box is empty for the follow-up, in the same conversation and collections.
            form = AskForm(initial={"conversation": conversation.pk, "collections": chosen}, collections=collections)
        else:
            conversation = _conversation(request, form.cleaned_data.get("conversation"))
            turns = turns_of(conversation) if conversation else []
    else:
        answer = None
        if request.GET.get("answer", "").isdigit():
            answer = get_object_or_404(Answer, pk=int(request.GET["answer"]))
            if not can_see_question(request.user, answer):
                raise Http404("No such answer.")
        conversation, turns, card = _resume(request, answer)
        form = AskForm(initial={"question": answer.question_text if answer and not conversation else "",
                                "conversation": conversation.pk if conversation else None}, collections=collections)
    return render(request, "console/ask.html", {
        "form": form, "card": card, "nav": "ask", "conversation_id": conversation.pk if conversation else None,
        "earlier_turns": presenters.turn_cards(turns)})


def _resume(request, answer: Answer | None):
    """(conversation, earlier turns, card) for showing the page again: the remembered conversation ending in
    its last answer; an answer from elsewhere (a dashboard link) is shown alone, and asking then starts afresh."""
    conversation = _remembered_conversation(request)
    turns = turns_of(conversation) if conversation else []
    last = turns[-1] if turns else None
    if answer is None and last is not None and last.answer_id:
        answer = Answer.objects.filter(pk=last.answer_id).first()
    if answer is None:
        return conversation, turns, None
    if last is not None and last.answer_id == answer.pk:
        return conversation, turns[:-1], presenters.stored_answer_card(
            answer, question=last.question, standalone_question=last.standalone_question)
    return None, [], presenters.stored_answer_card(answer)


def _ask(request, question: str, conversation_id: int | None, collection_ids: list[int] | None):
    """Answer as the next turn of the asker's conversation (a new one when none is given), and remember it."""
    options = AskOptions(user=request.user, channel="console", collection_ids=collection_ids)
    try:
        conversation, result = ask_in_conversation(question, options, conversation_id)
    except ConversationNotFound as exc:
        raise Http404(str(exc)) from exc
    request.session[CONVERSATION_KEY] = conversation.pk
    return conversation, result


@login_required
@require_POST
def ask_new(request):
    """Forget the current conversation: the next question stands on its own."""
    request.session.pop(CONVERSATION_KEY, None)
    return redirect("console:ask")


@login_required
@require_POST
def answer_feedback(request, pk: int):
    answer = get_object_or_404(Answer, pk=pk)
    if not can_see_question(request.user, answer):
        raise Http404("No such answer.")
    form = FeedbackForm(request.POST)
    if form.is_valid():
        kind = form.cleaned_data["kind"]
        curation.give_feedback(answer, kind, user=request.user, reason=form.cleaned_data["reason"])
        messages.success(request, {
            "helpful": "Thanks — marked as helpful.",
            "unhelpful": "Thanks — a reviewer will look at this answer.",
            "flag": ("Flagged: this answer will not be reused." if curation.can_review(request.user) else
                     "Flagged: a reviewer will check this answer."),
        }[kind])
    else:
        messages.error(request, "That feedback could not be recorded.")
    return redirect(f"{reverse('console:ask')}?answer={answer.pk}")


REVIEW_PAGE_SIZE = 25


@login_required
def review_queue(request):
    _require(is_reviewer(request.user))
    page = Paginator(reviews.review_queue(), REVIEW_PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "console/review.html", {"items": presenters.review_items(list(page.object_list)),
                                                   "nav": "review", "page": page, "total": page.paginator.count})


@login_required
@require_POST
def review_action(request, pk: int):
    _require(is_reviewer(request.user))
    answer = get_object_or_404(Answer, pk=pk)
    form = ReviewForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
        return redirect("console:review")
    data = form.cleaned_data
    if data["action"] == "verify":
        curation.verify(answer, request.user, edited_text=data["text"] or None, note=data["note"],
                        reverify_at=data["reverify_at"])
        messages.success(request, "Verified: this answer will be reused for similar questions.")
        findings = reviews.edit_findings(answer)
        if findings:
            messages.warning(request, f"Your edit has {len(findings)} claim(s) the cited sources do not support: "
                                      + "; ".join(findings[:3]) + ". Check them, or flag the answer instead.")
    elif data["action"] == "flag":
        curation.flag(answer, request.user, note=data["note"])
        messages.success(request, "Flagged: this answer will never be reused.")
    else:
        curation.schedule(answer, request.user, data["reverify_at"])
        messages.success(request, f"Will be checked again on {data['reverify_at']:%d %b %Y}.")
    return redirect("console:review")
