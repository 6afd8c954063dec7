"""The query history: every stored question, filtered and paged, and the same rows as a CSV download.

For reviewers only. It shows what the console already shows of a question (the stored, redacted text, its
outcome and timing), never the asker or anything the log does not keep redacted.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone

from knowledge.models import Answer, Collection
from knowledge.models.aggregates import JsonNumber
from webapp.console.csvexport import csv_lines
from webapp.console.forms import HistoryFilterForm
from webapp.console.queries import HistoryFilter, question_history
from webapp.roles import can_review

PAGE_SIZE = 50
CSV_HEADER = ["asked_at", "source", "outcome", "flagged", "cache", "confidence", "latency_ms", "collections",
              "question", "answer_id", "answer_url"]
# Rows fetched from the database at a time while the CSV streams: memory stays flat however many rows match.
CSV_BATCH = 500


def _reviewers_only(request) -> None:
    if not can_review(request.user):
        raise PermissionDenied("The query history is for reviewers and administrators.")


def _filters(request) -> tuple[HistoryFilterForm, HistoryFilter | None]:
    """The bound form and what it asks for; None when the input is invalid (the form carries the errors)."""
    form = HistoryFilterForm(request.GET or None, collections=Collection.objects.order_by("name"))
    if not form.is_bound:
        return form, HistoryFilter()
    if not form.is_valid():
        return form, None
    data = form.cleaned_data
    return form, HistoryFilter(date_from=data["date_from"], date_to=data["date_to"], channel=data["channel"],
                               outcome=data["outcome"], text=data["q"].strip(),
                               collection_id=data["collection"].pk if data["collection"] else None)


def _is_flagged(answer_status: str | None, flag_pending: bool | None) -> bool:
    return answer_status == Answer.Status.FLAGGED or bool(flag_pending)


@login_required
def history(request):
    """The filtered question log, newest first, a page at a time; each row opens its stored answer."""
    _reviewers_only(request)
    form, chosen = _filters(request)
    logs = question_history(request.user, chosen or HistoryFilter())
    if chosen is None:
        logs = logs.none()
    page = Paginator(logs, PAGE_SIZE).get_page(request.GET.get("page"))
    names = dict(Collection.objects.values_list("pk", "name"))
    rows = [{"log": log, "latency_ms": _total_ms(log.timings_ms),
             "flagged": log.answer is not None and _is_flagged(log.answer.status, log.answer.flag_pending),
             "collections": [names[c] for c in (log.answer.collection_ids if log.answer else []) if c in names]}
            for log in page.object_list]
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "console/history.html", {
        "form": form, "rows": rows, "page": page, "total": page.paginator.count, "filters": query.urlencode(),
        "nav": "history"})


@login_required
def history_export(request):
    """The filtered rows as CSV, streamed; the same filters as the page, every page at once."""
    _reviewers_only(request)
    form, chosen = _filters(request)
    if chosen is None:
        problems = "; ".join(f"{name}: {' '.join(errors)}" for name, errors in form.errors.items())
        return HttpResponse(f"These filters cannot be used: {problems}\n", status=400,
                            content_type="text/plain; charset=utf-8")
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
    response = StreamingHttpResponse(csv_lines(CSV_HEADER, _csv_rows(question_history(request.user, chosen))),
                                     content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="verity-questions-{stamp}.csv"'
    return response


def _csv_rows(logs):
    names = dict(Collection.objects.values_list("pk", "name"))
    link = settings.SITE_URL + reverse("console:ask") + "?answer="
    rows = logs.annotate(latency=JsonNumber("timings_ms", "total")).values_list(
        "created_at", "channel", "outcome", "answer__status", "answer__flag_pending", "cache", "confidence",
        "latency", "answer__collection_ids", "question", "answer_id")
    for asked, channel, outcome, status, pending, cache, confidence, latency, collection_ids, question, answer_id \
            in rows.iterator(chunk_size=CSV_BATCH):
        collections = "; ".join(names[c] for c in collection_ids or [] if c in names)
        yield [timezone.localtime(asked).isoformat(timespec="seconds"), channel, outcome,
               "yes" if _is_flagged(status, pending) else "no", cache or "miss", round(confidence, 3),
               "" if latency is None else round(latency), collections, question, answer_id or "",
               f"{link}{answer_id}" if answer_id else ""]


def _total_ms(timings) -> float | None:
    total = timings.get("total") if isinstance(timings, dict) else None
    return float(total) if isinstance(total, (int, float)) else None
