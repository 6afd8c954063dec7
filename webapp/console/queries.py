"""Read-only numbers and lists the console pages show."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Count, Sum
from django.utils import timezone

from knowledge.models import Answer, Chunk, Document, QueryLog
from verification.review import review_queue
from webapp.roles import readable_collections, visible_questions


def dashboard_stats(user) -> dict:
    """Documents by status, chunks, today's questions and refusal rate, answers awaiting review."""
    collections = readable_collections(user)
    documents = Document.objects.filter(collection__in=collections)
    by_status = dict(documents.order_by().values_list("status").annotate(n=Count("pk")))
    since = timezone.now() - timedelta(hours=24)
    today = QueryLog.objects.filter(created_at__gte=since)
    asked = today.count()
    refused = today.filter(outcome=QueryLog.Outcome.REFUSED).count()
    return {
        "documents_total": sum(by_status.values()),
        "documents_by_status": [(status, label, by_status.get(status, 0)) for status, label in Document.Status.choices],
        "chunks": documents.aggregate(n=Sum("chunk_count"))["n"] or 0,
        "questions_today": asked,
        "refusal_rate": (refused / asked) if asked else None,
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
        "order", "text", "heading_path", "heading_text", "anchor", "page")
