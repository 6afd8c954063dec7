"""The reviewers' queue in Django admin: each answer beside its cited passages and per-claim verdicts.

Reviewers verify (optionally after editing the text: "Save and verify"), flag, or ask for a
re-check in 30 days. The HTML is built from stored JSON, so every field is read defensively.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from django.conf import settings
from django.contrib import admin, messages
from django.db.models import Count, Q
from django.http import HttpResponseRedirect
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from knowledge.models import Answer, Collection, Feedback, Topic
from verification import curation, review
from verification.models import ReviewItem

VERDICT_COLOURS = {"supported": "#1a7f37", "unsupported": "#9a6700", "contradicted": "#cf222e"}
STATUS_COLOURS = {"flagged": "#cf222e", "needs_review": "#9a6700", "verified": "#1a7f37", "auto": "#57606a"}
RECHECK_DAYS = 30


class QueueFilter(admin.SimpleListFilter):
    """Waiting answers by default; "All answers" shows everything in the same priority order."""

    title = "queue"
    parameter_name = "queue"

    def lookups(self, request, model_admin):
        return [("pending", "Waiting for review"), ("all", "All answers")]

    def value(self):
        return super().value() or "pending"

    def choices(self, changelist):
        for lookup, title in self.lookup_choices:
            yield {"selected": self.value() == lookup, "display": title,
                   "query_string": changelist.get_query_string({self.parameter_name: lookup})}

    def queryset(self, request, queryset):
        return queryset.filter(review.in_review_queue()) if self.value() == "pending" else queryset


class ConfidenceFilter(admin.SimpleListFilter):
    """Buckets around the warning threshold (VERITY_ANSWER_MIN_CONFIDENCE)."""

    title = "confidence"
    parameter_name = "confidence"

    def lookups(self, request, model_admin):
        low = settings.VERITY_ANSWER_MIN_CONFIDENCE
        return [("low", f"Low (< {low:.0%})"), ("medium", f"Medium ({low:.0%}–80%)"), ("high", "High (≥ 80%)")]

    def queryset(self, request, queryset):
        low = settings.VERITY_ANSWER_MIN_CONFIDENCE
        buckets = {"low": Q(confidence__lt=low), "medium": Q(confidence__gte=low, confidence__lt=0.8),
                   "high": Q(confidence__gte=0.8)}
        return queryset.filter(buckets[self.value()]) if self.value() in buckets else queryset


class FeedbackFilter(admin.SimpleListFilter):
    """Answers by what askers said about them."""

    title = "feedback"
    parameter_name = "feedback"

    def lookups(self, request, model_admin):
        return [("flag", "Flagged by a user"), ("unhelpful", "Not helpful"), ("helpful", "Helpful"), ("none", "None")]

    def queryset(self, request, queryset):
        value = self.value()
        if value in ("flag", "unhelpful", "helpful"):
            return queryset.filter(feedback__kind=value).distinct()
        if value == "none":
            return queryset.filter(feedback__isnull=True)
        return queryset


class TopicFilter(admin.SimpleListFilter):
    """Answers whose question belongs to a topic."""

    title = "topic"
    parameter_name = "topic"

    def lookups(self, request, model_admin):
        return [(str(t.pk), t.name) for t in Topic.objects.all()]

    def queryset(self, request, queryset):
        if self.value():
            return queryset.filter(questions__is_origin=True, questions__topics__pk=self.value()).distinct()
        return queryset


class CollectionFilter(admin.SimpleListFilter):
    """Answers drawn from a collection."""

    title = "collection"
    parameter_name = "collection"

    def lookups(self, request, model_admin):
        return [(str(c.pk), c.name) for c in Collection.objects.all()]

    def queryset(self, request, queryset):
        if self.value() and self.value().isdigit():
            return queryset.filter(collection_ids__contains=[int(self.value())])
        return queryset


@admin.register(ReviewItem)
class ReviewItemAdmin(admin.ModelAdmin):
    list_display = ("question", "status_badge", "confidence_pct", "claims_summary", "feedback_counts", "stale",
                    "reverify_at", "created_at")
    list_filter = (QueueFilter, "status", "stale", ConfidenceFilter, FeedbackFilter, TopicFilter, CollectionFilter)
    search_fields = ("question_text", "text")
    actions = ["verify_selected", "flag_selected", "recheck_in_30_days"]
    change_form_template = "admin/verification/reviewitem/change_form.html"
    list_per_page = 50
    fieldsets = (
        (None, {"fields": ("question_text", "status_badge", "confidence_pct", "feedback_counts", "stale", "flag_reason")}),
        ("What askers said", {"fields": ("feedback_reasons",)}),
        ("Answer (edit, then “Save and verify”)", {"fields": ("text", "review_note", "reverify_at")}),
        ("Cited passages", {"fields": ("cited_passages",)}),
        ("Automatic check", {"fields": ("claims_table", "rounds_table", "reverification")}),
        ("History", {"fields": ("provider", "model", "reviewed_by", "reviewed_at", "created_at", "audit_trail")}),
    )
    readonly_fields = ("question_text", "status_badge", "confidence_pct", "feedback_counts", "stale", "flag_reason",
                       "feedback_reasons", "audit_trail",
                       "cited_passages", "claims_table", "rounds_table", "reverification", "provider", "model",
                       "reviewed_by", "reviewed_at", "created_at")

    def get_queryset(self, request):
        # Not super(): it orders by get_ordering() before the `priority` annotation exists.
        return (self.model._default_manager.get_queryset().annotate(
            priority=review.review_priority(),
            helpful_n=Count("feedback", filter=Q(feedback__kind=Feedback.Kind.HELPFUL)),
            unhelpful_n=Count("feedback", filter=Q(feedback__kind=Feedback.Kind.UNHELPFUL)),
            flag_n=Count("feedback", filter=Q(feedback__kind=Feedback.Kind.FLAG)),
        ).select_related("reviewed_by").order_by(*review.QUEUE_ORDER))

    def get_ordering(self, request):
        return list(review.QUEUE_ORDER)

    def has_add_permission(self, request) -> bool:
        return False  # answers come from questions, not from the admin

    # One reviewer rule everywhere (webapp.roles.can_review), not the admin's per-model permissions.
    def has_module_permission(self, request) -> bool:
        return curation.can_review(request.user)

    def has_view_permission(self, request, obj=None) -> bool:
        return curation.can_review(request.user)

    def has_change_permission(self, request, obj=None) -> bool:
        return curation.can_review(request.user)

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    # --- list columns ---------------------------------------------------------------------------
    @admin.display(description="question", ordering="question_text")
    def question(self, obj) -> str:
        text = obj.question_text
        return text if len(text) <= 90 else text[:89] + "…"

    @admin.display(description="status", ordering="status")
    def status_badge(self, obj) -> str:
        return format_html('<strong style="color:{}">{}</strong>', STATUS_COLOURS.get(obj.status, "#000"),
                           obj.get_status_display())

    @admin.display(description="confidence", ordering="confidence")
    def confidence_pct(self, obj) -> str:
        return f"{obj.confidence:.0%}"

    @admin.display(description="claims")
    def claims_summary(self, obj) -> str:
        claims = _claims(obj.verification)
        if not claims:
            return "—"
        supported = sum(1 for c in claims if c["verdict"] == "supported")
        colour = VERDICT_COLOURS["supported" if supported == len(claims) else "contradicted"]
        return format_html('<span style="color:{}">{}/{} supported</span>', colour, supported, len(claims))

    @admin.display(description="feedback 👍 / 👎 / ⚑")
    def feedback_counts(self, obj) -> str:
        helpful = getattr(obj, "helpful_n", None)
        if helpful is None:  # not annotated (e.g. a fresh instance)
            counts = dict(obj.feedback.values_list("kind").annotate(n=Count("id")))
            helpful, unhelpful, flags = (counts.get(k, 0) for k in ("helpful", "unhelpful", "flag"))
        else:
            unhelpful, flags = obj.unhelpful_n, obj.flag_n
        return f"{helpful} / {unhelpful} / {flags}"

    # --- change form panels -------------------------------------------------------------------------
    @admin.display(description="feedback")
    def feedback_reasons(self, obj) -> str:
        rows = list(obj.feedback.select_related("user").order_by("-created_at")[:50])
        if not rows:
            return "No feedback."
        body = format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", (
            (f"{f.created_at:%Y-%m-%d %H:%M}", f.get_kind_display(),
             (f.user.get_username() if f.user else f.external_user) or "—", f.reason or "—") for f in rows))
        return _table(("when", "kind", "who", "reason"), body)

    @admin.display(description="audit trail")
    def audit_trail(self, obj) -> str:
        events = list(obj.review_events.select_related("actor")[:100])
        if not events:
            return "No review history yet."
        body = format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td><td>{} → {}</td><td>{}</td><td>{}</td></tr>", (
            (f"{e.created_at:%Y-%m-%d %H:%M}", e.who, e.get_action_display(), e.status_before or "—",
             e.status_after or "—", e.note or "—",
             format_html('<details><summary>text changed</summary><pre style="white-space:pre-wrap">{}</pre>'
                         '<pre style="white-space:pre-wrap">{}</pre></details>', e.text_before, e.text_after)
             if e.text_before else "—") for e in events))
        return _table(("when", "who", "action", "status", "note", "text before / after"), body)

    @admin.display(description="cited passages")
    def cited_passages(self, obj) -> str:
        rows = [c for c in (obj.citations or []) if isinstance(c, dict)]
        if not rows:
            return "No citations."
        return format_html_join(
            "", '<div style="margin-bottom:1em"><strong>[{}]</strong> <a href="{}" target="_blank" rel="noopener">'
                '{}</a> <code>{}</code><blockquote style="margin:.3em 0 0 1.5em;white-space:pre-wrap">{}</blockquote>'
                '</div>',
            ((c.get("n", "?"), c.get("url") or "#", c.get("title") or c.get("source") or "source",
              c.get("source", ""), c.get("quote", "")) for c in rows))

    @admin.display(description="claim verdicts")
    def claims_table(self, obj) -> str:
        claims = _claims(obj.verification)
        if not claims:
            return "No automatic check was recorded for this answer."
        removed = set(_removed(obj.verification))
        body = format_html_join("", '<tr><td>{}</td><td><strong style="color:{}">{}</strong>{}</td><td>{}</td>'
                                    '<td>{}</td><td>{}</td></tr>',
                                ((c["text"], VERDICT_COLOURS.get(c["verdict"], "#000"), c["verdict"],
                                  " (removed)" if c["raw"] in removed or c["text"] in removed else "",
                                  c["reason"], f"[{c['source_n']}]" if c["source_n"] else "", c["evidence"])
                                 for c in claims))
        score = _dict(obj.verification).get("score")
        head = format_html("<p>Verification score: {}</p>", f"{score:.0%}" if isinstance(score, (int, float)) else "—")
        return head + _table(("claim", "verdict", "reason", "source", "evidence"), body)

    @admin.display(description="correction rounds")
    def rounds_table(self, obj) -> str:
        rounds = [r for r in _dict(obj.verification).get("rounds") or [] if isinstance(r, dict)]
        if not rounds:
            return "—"

        def failing(r: dict) -> str:
            items = [f"{f.get('verdict', '?')}: {f.get('text', '')}" for f in r.get("failing") or []
                     if isinstance(f, dict)]
            return "; ".join(items) or "none"

        def judge(r: dict) -> str:
            j = r.get("judge")
            return f"{j.get('calls', 0)} calls, {j.get('failures', 0)} failed" if isinstance(j, dict) else "—"

        body = format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                                ((r.get("round", i), "yes" if r.get("faithful") else "no", r.get("score", "—"),
                                  failing(r), judge(r), r.get("ms", "—")) for i, r in enumerate(rounds)))
        return _table(("round", "faithful", "score", "failing claims", "judge", "ms"), body)

    @admin.display(description="last automatic re-check")
    def reverification(self, obj) -> str:
        data = _dict(obj.verification).get("reverification")
        if not isinstance(data, dict):
            return "—"
        return format_html("{} — {}", data.get("at", "?"), "still supported" if data.get("faithful") else
                           "no longer supported")

    # --- saving and actions ------------------------------------------------------------------------
    def response_change(self, request, obj):
        if "_verify" in request.POST or "_flag" in request.POST:
            done = "verified" if "_verify" in request.POST else "flagged"
            self.message_user(request, f"Answer {done}.", messages.SUCCESS)
            return HttpResponseRedirect(request.path)
        return super().response_change(request, obj)

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if "_verify" in request.POST:
            curation.verify(obj, request.user, edited_text=obj.text, note=obj.review_note, reverify_at=obj.reverify_at,
                            previous_text=form.initial.get("text") if "text" in form.changed_data else obj.text)
            findings = review.edit_findings(obj)
            if findings:
                self.message_user(request, f"The edit has {len(findings)} claim(s) the cited sources do not "
                                           f"support: {'; '.join(findings[:3])}.", messages.WARNING)
        elif "_flag" in request.POST:
            curation.flag(obj, request.user, note=obj.review_note)

    @admin.action(description="Verify selected answers (reused for similar questions)")
    def verify_selected(self, request, queryset):
        count = sum(1 for answer in queryset if curation.verify(answer, request.user))
        self.message_user(request, f"Verified {count} answer(s).", messages.SUCCESS)

    @admin.action(description="Flag selected answers (never reused)")
    def flag_selected(self, request, queryset):
        count = sum(1 for answer in queryset if curation.flag(answer, request.user))
        self.message_user(request, f"Flagged {count} answer(s).", messages.WARNING)

    @admin.action(description=f"Set re-verification date (+{RECHECK_DAYS} days)")
    def recheck_in_30_days(self, request, queryset):
        when = date.today() + timedelta(days=RECHECK_DAYS)
        count = sum(1 for answer in queryset if curation.schedule(answer, request.user, when))
        self.message_user(request, f"{count} answer(s) will be re-checked on {when:%Y-%m-%d}.", messages.SUCCESS)


@admin.register(Answer)
class AnswerAdmin(ReviewItemAdmin):
    """Every answer at /admin/knowledge/answer/<id>/ (where Slack's links point), with the review panels."""


def _dict(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def _claims(verification: Any) -> list[dict[str, Any]]:
    """Claim rows from a stored report, whatever shape (or damage) it has."""
    rows = []
    for item in _dict(verification).get("claims") or []:
        if not isinstance(item, dict):
            continue
        claim = _dict(item.get("claim"))
        text = claim.get("text") or item.get("text") or ""
        rows.append({"text": str(text), "raw": str(claim.get("raw") or "").strip(),
                     "verdict": str(item.get("verdict") or "?"), "reason": str(item.get("reason") or ""),
                     "source_n": item.get("source_n"), "evidence": str(item.get("evidence") or "")})
    return rows


def _removed(verification: Any) -> list[str]:
    return [str(s).strip() for s in _dict(verification).get("removed_sentences") or []]


def _table(headers: tuple[str, ...], body: str) -> str:
    head = format_html_join("", "<th>{}</th>", ((h,) for h in headers))
    return format_html('<table style="width:100%"><thead><tr>{}</tr></thead><tbody>{}</tbody></table>', head,
                       mark_safe(body))  # body was built with format_html_join, so it is already escaped
