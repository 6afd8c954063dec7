"""Read-only numbers and lists the console pages show."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from django.db.models import Count, Q, Sum
from django.utils import timezone

from knowledge.models import Answer, Chunk, Document, QueryLog
from verification.review import review_queue
from webapp.roles import readable_collections, visible_questions


def dashboard_stats(user, since: datetime) -> dict:
    """Documents by status, chunks, questions and refusal rate since `since`, answers awaiting review."""
    collections = readable_collections(user)
    documents = Document.objects.filter(collection__in=collections)
    by_status = dict(documents.order_by().values_list("status").annotate(n=Count("pk")))
    counts = QueryLog.objects.between(since).aggregate(
        asked=Count("pk"), refused=Count("pk", filter=Q(outcome=QueryLog.Outcome.REFUSED)))
    asked = counts["asked"]
    return {
        "documents_total": sum(by_status.values()),
        "documents_by_status": [(status, label, by_status.get(status, 0)) for status, label in Document.Status.choices],
        "chunks": documents.aggregate(n=Sum("chunk_count"))["n"] or 0,
        "questions": asked,
        "refusal_rate": (counts["refused"] / asked) if asked else None,
        "awaiting_review": review_queue().count(),
        "verified_answers": Answer.objects.filter(status=Answer.Status.VERIFIED).count(),
    }


def recent_questions(user, limit: int = 10):
    """The latest questions this user may see (their own; everyone's for reviewers) with their outcome."""
    return visible_questions(user).select_related("answer", "user").order_by("-created_at")[:limit]


def ingestion_progress(documents) -> dict:
    """Counts by status and how far the queue is: (ready + failed) / total."""
    by_status = dict(documents.order_by().values_list("status").annotate(n=Count("pk")))
    total = sum(by_status.values())
    done = by_status.get(Document.Status.READY, 0) + by_status.get(Document.Status.FAILED, 0)
    active = by_status.get(Document.Status.QUEUED, 0) + by_status.get(Document.Status.PROCESSING, 0)
    return {"counts": {s: by_status.get(s, 0) for s in Document.Status.values}, "total": total, "done": done,
            "active": active, "percent": round(100 * done / total) if total else 100}


def document_chunks(document: Document):
    """A document's chunks in reading order."""
    return Chunk.objects.filter(document=document).order_by("order").only(
        "order", "text", "heading_path", "heading_text", "anchor", "sections", "page")


@dataclass(frozen=True)
class HistoryFilter:
    """What the query history is narrowed to; empty fields do not narrow it."""

    date_from: date | None = None
    date_to: date | None = None
    channel: str = ""
    outcome: str = ""
    collection_id: int | None = None
    text: str = ""


def question_history(user, chosen: HistoryFilter):
    """The question log rows this user may see, narrowed by the filter, newest first; dates are local days."""
    tz = timezone.get_current_timezone()
    start = datetime.combine(chosen.date_from, time.min, tzinfo=tz) if chosen.date_from else None
    end = datetime.combine(chosen.date_to + timedelta(days=1), time.min, tzinfo=tz) if chosen.date_to else None
    logs = visible_questions(user).between(start, end)
    if chosen.channel:
        logs = logs.filter(channel=chosen.channel)
    if chosen.outcome:
        logs = logs.with_outcome(chosen.outcome)
    if chosen.collection_id is not None:
        logs = logs.in_collection(chosen.collection_id)
    if chosen.text:
        logs = logs.mentioning(chosen.text)
    return logs.select_related("answer").order_by("-created_at", "-pk")
