"""Template helpers for the console: citation markers as links, status badges, passages with their tables."""

from __future__ import annotations

import re

from django import template
from django.utils.html import conditional_escape, format_html, format_html_join, linebreaks
from django.utils.safestring import mark_safe

from knowledge.parsing.base import text_to_rows

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


@register.simple_tag
def nav_roles(user) -> dict:
    """What the top navigation offers this user."""
    from webapp.roles import is_knowledge_owner, is_reviewer

    if not getattr(user, "is_authenticated", False):
        return {}
    return {"owner": is_knowledge_owner(user), "reviewer": is_reviewer(user), "staff": user.is_staff}


@register.filter
def table_html(rows: list[list[str]]) -> str:
    """A passage's table (header row first) as an HTML table."""
    head = format_html_join("", "<th>{}</th>", ((cell,) for cell in rows[0]))
    body = format_html_join("", "<tr>{}</tr>", (
        (format_html_join("", "<td>{}</td>", ((cell,) for cell in row)),) for row in rows[1:]))
    return format_html('<table class="table table-compact passage-table"><thead><tr>{}</tr></thead>'
                       "<tbody>{}</tbody></table>", head, body)


@register.filter
def passage_html(text: str) -> str:
    """A chunk's text as paragraphs, its tables (stored as pipe rows) as tables."""
    blocks = [b for b in re.split(r"\n\s*\n", text or "") if b.strip()]
    return mark_safe("".join(table_html(rows) if (rows := text_to_rows(block)) else linebreaks(block, autoescape=True)
                             for block in blocks))
