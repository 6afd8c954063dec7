"""Template helpers for the console: citation markers as links, status badges."""

from __future__ import annotations

import re

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

from webapp.console.trend_charts import duration

register = template.Library()

_MARKER = re.compile(r"\[(\d{1,2})\]")


@register.filter(needs_autoescape=True)
def cite_links(text: str, autoescape: bool = True) -> str:
    """Escape the answer, turn [n] into links to its source entry, and keep paragraph breaks."""
    escape = conditional_escape if autoescape else (lambda s: s)
    escaped = str(escape(text or ""))
    linked = _MARKER.sub(r'<a class="cite" href="#source-\1" title="Source \1">[\1]</a>', escaped)
    paragraphs = [p.replace("\n", "<br>") for p in re.split(r"\n\s*\n", linked) if p.strip()]
    return mark_safe("".join(f"<p>{p}</p>" for p in paragraphs))


@register.filter
def status_badge(status: str) -> str:
    """The badge colour class for a document or answer status."""
    return {"ready": "ok", "verified": "ok", "answered": "ok", "failed": "bad", "flagged": "bad", "error": "bad",
            "refused": "muted", "processing": "info", "queued": "warn", "needs_review": "warn",
            "cached": "info", "auto": "muted"}.get(str(status), "muted")


@register.filter
def percent(value) -> str:
    """0.834 -> '83%'; None -> '—'."""
    return "—" if value is None else f"{float(value):.0%}"


@register.filter
def duration_ms(value) -> str:
    """Milliseconds as the charts write them: '840 ms', '1.23 s'."""
    return "—" if value is None else duration(float(value))


@register.simple_tag
def nav_roles(user) -> dict:
    """What the top navigation offers this user."""
    from webapp.roles import is_knowledge_owner, is_reviewer

    if not getattr(user, "is_authenticated", False):
        return {}
    return {"owner": is_knowledge_owner(user), "reviewer": is_reviewer(user), "staff": user.is_staff}
