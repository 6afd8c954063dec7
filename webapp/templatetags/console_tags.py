"""Template helpers for the console: citation markers as links, pipe tables as tables, status badges."""

from __future__ import annotations

import re

from django import template
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from textcore.tables import Table, row_text, split_tables

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


@register.filter(is_safe=True)
def chunk_html(text: str) -> SafeString:
    """A passage's text with its Markdown pipe tables as HTML tables; every piece of text is escaped."""
    html = []
    for part in split_tables(text or ""):
        if isinstance(part, Table):
            html.append(_table_html(part))
        elif part.strip():
            lines = part.strip("\n").split("\n")
            html.append(format_html('<div class="para-text">{}</div>',
                                    mark_safe("<br>".join(str(conditional_escape(line)) for line in lines))))
    return mark_safe("".join(html))


def _table_html(table: Table) -> SafeString:
    body = format_html_join("", "<tr>{}</tr>", (
        (format_html_join("", "<td>{}</td>", ((cell,) for cell in row)),) for row in table.rows))
    if not any(table.header):  # the source names no columns: no empty header row
        return format_html('<div class="table-scroll"><table class="table chunk-table"><tbody>{}</tbody></table>'
                           "</div>", body)
    head = format_html_join("", "<th>{}</th>", ((cell,) for cell in table.header))
    return format_html('<div class="table-scroll"><table class="table chunk-table"><thead><tr>{}</tr></thead>'
                       "<tbody>{}</tbody></table></div>", head, body)


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


@register.filter
def plain_quote(text: str) -> str:
    """A passage as one line of prose for a short quote: table rows read "Header: cell; Header: cell"."""
    parts = []
    for part in split_tables(text or ""):
        if isinstance(part, Table):
            parts.extend(row_text(part.header, row) for row in part.rows)
        elif part.strip():
            parts.append(" ".join(part.split()))
    return ". ".join(p.rstrip(".") for p in parts) + ("." if parts else "")
