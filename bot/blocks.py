"""Slack Block Kit formatting for answers, apologies, modals and the App Home. Pure: no database, no I/O.

Everything a person wrote (answers, titles, questions) is escaped (`&`, `<`, `>`) so it can never
break or forge a link; only the `<url|title>` links built here stay live.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Iterable
from urllib.parse import quote

SECTION_LIMIT = 3000  # characters in one section's text (Slack's limit)
MAX_BLOCKS = 50  # blocks in one message (Slack's limit)
FALLBACK_LIMIT = 3000  # the notification `text` of a message

PLACEHOLDER_TEXT = "Looking through the knowledge base…"
APOLOGY_TEXT = ("Sorry, something went wrong while I was answering, so there is no answer yet. "
                "Nothing was lost: press *Retry* to try again.")
RATE_LIMIT_TEXT = ("You're asking faster than I can read ({limit} questions a minute). "
                   "Give me a minute and ask again.")
DISABLED_TEXT = "I'm switched off in this channel. Ask me in a direct message, or with `/ask` anywhere."
EMPTY_QUESTION_TEXT = "Ask me a question, e.g. `/ask How many weeks of parental leave do we get?`"
VERIFIED_BADGE = "✅ Verified by a reviewer"

ACTION_HELPFUL = "verity_helpful"
ACTION_UNHELPFUL = "verity_unhelpful"
ACTION_FLAG = "verity_flag"
ACTION_EXPERT = "verity_expert"
ACTION_RETRY = "verity_retry"
ACTION_SHARE = "verity_share"
ANSWER_ACTIONS = (ACTION_HELPFUL, ACTION_UNHELPFUL, ACTION_FLAG, ACTION_EXPERT)
UNHELPFUL_MODAL = "verity_unhelpful_reason"

_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


def escape(text: str) -> str:
    """Escape the three characters Slack's mrkdwn treats as control characters."""
    return "".join(_ESCAPES.get(c, c) for c in text)


def link(url: str, title: str) -> str:
    """A live `<url|title>` link; the plain (escaped) title when the URL cannot be linked safely."""
    title = escape(title.strip() or url).replace("|", "¦")
    url = url.strip()
    if not re.match(r"^(https?|mailto):", url, re.I):
        return title
    # `|` and `>` would end the link early, spaces would cut the URL: percent-encode them.
    safe_url = quote(url, safe=":/?#[]@!$&'()*+,;=%~-._").replace("&", "&amp;")
    return f"<{safe_url}|{title}>"


def split_text(text: str, limit: int = SECTION_LIMIT) -> list[str]:
    """Split text into pieces of at most `limit` characters, preferring paragraph, line, sentence, word ends."""
    pieces: list[str] = []
    rest = text.strip()
    while len(rest) > limit:
        window = rest[:limit]
        cut = -1
        for sep in ("\n\n", "\n", ". ", " "):
            at = window.rfind(sep)
            if at > limit // 3:
                cut = at + len(sep)
                break
        if cut <= 0:
            cut = limit
        # Never cut inside an escape such as &amp;
        amp = window.rfind("&", max(0, cut - 5), cut)
        if amp != -1 and ";" not in window[amp:cut]:
            cut = amp
        pieces.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    if rest:
        pieces.append(rest)
    return pieces


def confidence_label(confidence: float) -> str:
    if confidence >= 0.75:
        return "high"
    if confidence >= 0.55:
        return "medium"
    return "low"


def _section(text: str, block_id: str | None = None) -> dict:
    block: dict[str, Any] = {"type": "section", "text": {"type": "mrkdwn", "text": text}}
    if block_id:
        block["block_id"] = block_id
    return block


def context_block(text: str) -> dict:
    return {"type": "context", "elements": [{"type": "mrkdwn", "text": text[:SECTION_LIMIT]}]}


def _button(text: str, action_id: str, value: str, style: str | None = None) -> dict:
    button: dict[str, Any] = {"type": "button", "text": {"type": "plain_text", "text": text, "emoji": True},
                              "action_id": action_id, "value": value}
    if style:
        button["style"] = style
    return button


def action_value(answer_id: int | None, question_id: int | None) -> str:
    """The value carried by an answer's buttons: "<answer id>:<slack question id>"."""
    return f"{answer_id or ''}:{question_id or ''}"


def parse_action_value(value: str) -> tuple[int | None, int | None]:
    """(answer id, slack question id) from a button value; None for a missing part."""
    answer, _, question = (value or "").partition(":")
    return (int(answer) if answer.isdigit() else None, int(question) if question.isdigit() else None)


def citation_line(citation: Any) -> str:
    """`[n] <url|title>` · collection · updated date."""
    parts = [f"[{citation.n}] {link(citation.url, citation.title or citation.source)}"]
    if getattr(citation, "collection", ""):
        parts.append(escape(citation.collection))
    if getattr(citation, "updated_at", ""):
        parts.append(f"updated {escape(str(citation.updated_at)[:10])}")
    return " · ".join(parts)


def confidence_text(result: Any) -> str:
    """The honest confidence line: a refusal says so; a low score carries its warning."""
    if result.refused:
        return ":no_entry_sign: Not answered: nothing in the knowledge base covers this well enough."
    score = f"Confidence: *{confidence_label(result.confidence)}* ({result.confidence:.0%})"
    if result.cache in ("exact", "similar"):
        score += " · reused an earlier answer"
    return score


def answer_blocks(result: Any, *, question_id: int | None = None, share: bool = False,
                  site_url: str = "") -> list[dict]:
    """Blocks for an AnswerResult: badge, text with [n] markers, warning, Sources, confidence, buttons."""
    head: list[dict] = []
    if result.verified:
        badge = getattr(result, "badge", "")
        head.append(context_block(f"*✅ {escape(badge)}*" if badge else f"*{VERIFIED_BADGE}*"))
    body = [_section(piece) for piece in split_text(escape(result.answer or ""))]
    if not body:
        body = [_section("_(empty answer)_")]

    tail: list[dict] = []
    if result.warning and not result.refused:
        tail.append(_section(f":warning: {escape(result.warning)}"))
    if result.citations and not result.refused:
        lines = [citation_line(c) for c in result.citations]
        tail.append({"type": "header", "text": {"type": "plain_text", "text": "Sources"}})
        tail.extend(_section(piece) for piece in split_text("\n".join(lines)))
    tail.append(context_block(confidence_text(result)))
    if getattr(result, "note", ""):
        tail.append(context_block(escape(result.note)))
    value = action_value(result.answer_id, question_id)
    buttons = []
    if result.answer_id:
        if not result.refused:
            buttons += [_button("👍 Helpful", ACTION_HELPFUL, value),
                        _button("👎 Not helpful", ACTION_UNHELPFUL, value),
                        _button("🚩 Flag for review", ACTION_FLAG, value, "danger")]
        buttons.append(_button("🙋 Ask an expert", ACTION_EXPERT, value))
    if share:
        buttons.insert(0, _button("Share in channel", ACTION_SHARE, value, "primary"))
    if buttons:
        tail.append({"type": "actions", "block_id": f"verity_answer_{result.answer_id or 0}", "elements": buttons})

    room = MAX_BLOCKS - len(head) - len(tail)
    if len(body) > room:
        more = f"{site_url}/admin/knowledge/answer/{result.answer_id}/change/" if site_url and result.answer_id else ""
        body = body[:room - 1] + [_section("_…the answer is too long for Slack_" +
                                           (f": {link(more, 'read all of it')}" if more else "."))]
    return head + body + tail


def fallback_text(result: Any) -> str:
    """The notification text that accompanies blocks (shown in notifications and to screen readers)."""
    return escape(result.answer or "")[:FALLBACK_LIMIT]


def apology_blocks(question_id: int) -> list[dict]:
    """What replaces the placeholder when answering failed: never silence, always a Retry."""
    return [_section(f":warning: {APOLOGY_TEXT}"),
            {"type": "actions", "block_id": f"verity_retry_{question_id}",
             "elements": [_button("Retry", ACTION_RETRY, str(question_id), "primary")]}]


def text_blocks(text: str) -> list[dict]:
    """A plain message as blocks (already escaped where needed by the caller)."""
    return [_section(piece) for piece in split_text(text)][:MAX_BLOCKS]


def unhelpful_modal(answer_id: int, question_id: int | None, channel_id: str = "") -> dict:
    """The small "why wasn't this helpful?" modal."""
    meta = json.dumps({"answer_id": answer_id, "question_id": question_id, "channel_id": channel_id})
    return {
        "type": "modal",
        "callback_id": UNHELPFUL_MODAL,
        "private_metadata": meta,
        "title": {"type": "plain_text", "text": "Not helpful"},
        "submit": {"type": "plain_text", "text": "Send"},
        "close": {"type": "plain_text", "text": "Cancel"},
        "blocks": [
            _section("Thanks for telling us. What was wrong? A reviewer will read it."),
            {"type": "input", "block_id": "reason", "optional": True,
             "label": {"type": "plain_text", "text": "What was wrong or missing?"},
             "element": {"type": "plain_text_input", "action_id": "text", "multiline": True, "max_length": 2000}},
        ],
    }


def expert_request_blocks(*, question: str, answer: str, asker_id: str, link_url: str,
                          mentions: Iterable[str] = (), confidence: float = 0.0) -> list[dict]:
    """The message posted to the reviewers' channel when someone presses "Ask an expert"."""
    who = " ".join(f"<@{m}>" for m in mentions if re.fullmatch(r"[UW][A-Z0-9]+", m))
    intro = f"<@{asker_id}> would like an expert to check this answer" + (f" ({who})" if who else "") + "."
    blocks = [_section(intro), _section(f"*Question:* {escape(question)}"[:SECTION_LIMIT])]
    blocks += [_section(piece) for piece in split_text(f"*Answer ({confidence:.0%}):* {escape(answer)}")][:40]
    if link_url:
        blocks.append(context_block(link(link_url, "Open in the review console")))
    return blocks


@dataclass
class HomeRow:
    """One line of the App Home: a question and what became of it."""

    question: str
    status: str  # queued / answered / failed
    answer_status: str = ""  # auto / needs_review / verified / flagged
    refused: bool = False
    confidence: float | None = None
    asked_at: str = ""


_STATUS_WORDS = {"verified": "✅ verified", "needs_review": "👀 waiting for a reviewer", "flagged": "🚩 flagged",
                 "auto": "answered"}


def home_view(rows: list[HomeRow]) -> dict:
    """The App Home tab: the user's recent questions and the status of their answers."""
    blocks: list[dict] = [
        {"type": "header", "text": {"type": "plain_text", "text": "Verity"}},
        _section("Ask me about company policies and runbooks: mention me in a channel, send me a direct "
                 "message, or use `/ask`. I answer with numbered sources and say when I'm not sure."),
        {"type": "divider"},
        {"type": "header", "text": {"type": "plain_text", "text": "Your recent questions"}},
    ]
    if not rows:
        blocks.append(context_block("No questions yet."))
    for row in rows[:MAX_BLOCKS - len(blocks)]:
        if row.status == "failed":
            state = "⚠️ failed (press Retry in the thread)"
        elif row.status in ("queued", "answering"):
            state = "⏳ in progress"
        elif row.refused:
            state = "🚫 not in the knowledge base"
        else:
            state = _STATUS_WORDS.get(row.answer_status, row.answer_status or "answered")
            if row.confidence is not None:
                state += f" · {confidence_label(row.confidence)} confidence"
        when = f" · {escape(row.asked_at)}" if row.asked_at else ""
        blocks.append(_section(f"*{escape(row.question[:200])}*\n{state}{when}"))
    return {"type": "home", "blocks": blocks}
