"""Question listeners: @mentions, DMs, thread follow-ups, all-questions channels and `/ask`.

Each one acks at once and hands the rest to `later` (bot.after_ack: after the current burst of
acks): record the question (the unique event id drops Slack's retries), show a placeholder and
enqueue `answer_slack_question`. Nothing here answers inline.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Callable

from django.conf import settings
from slack_bolt import Ack, App
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot import blocks
from bot.journal import journal
from bot.models import ChannelSetting, SlackQuestion
import jobqueue as jobs

log = logging.getLogger(__name__)

Later = Callable[..., Any]  # later(fn, *args): run fn after the ack (AfterAck.submit, or inline)

_MENTION = re.compile(r"<@[UW][A-Z0-9]+>")


def question_text(text: str) -> str:
    """The question without @mentions and surrounding space."""
    return " ".join(_MENTION.sub(" ", text or "").split())


def rate_limited(user_id: str) -> bool:
    """Whether this Slack user already asked SLACK_USER_RATE_PER_MINUTE questions in the last minute."""
    return SlackQuestion.objects.recent_for_user(user_id).count() >= settings.SLACK_USER_RATE_PER_MINUTE


def take_question(client: WebClient, *, event_id: str, kind: str, channel_id: str, user_id: str, text: str,
                  message_ts: str, thread_ts: str, team_id: str = "", disabled: bool = False) -> SlackQuestion | None:
    """Record a question once, show the placeholder in its thread, and enqueue the answer job.

    A question the bot declines (disabled channel, empty text, over the rate limit) is recorded too,
    so that Slack's retry of that event gets neither a second note nor an answer.
    """
    text = question_text(text)
    declined = ("disabled channel" if disabled else "empty question" if not text
                else "over the rate limit" if rate_limited(user_id) else "")
    # A declined question keeps only what de-duplication needs: not its text.
    question = SlackQuestion.record(event_id=event_id, text="" if declined else text, kind=kind,
                                    channel_id=channel_id, user_id=user_id,
                                    message_ts=message_ts, thread_ts=thread_ts, team_id=team_id,
                                    status=SlackQuestion.Status.DECLINED if declined else SlackQuestion.Status.QUEUED,
                                    error=declined)
    journal().done(event_id)  # recorded: from here on the database remembers it
    if question is None:
        return None  # a retried delivery: the first one is being (or was) answered or declined
    if declined:
        note = {"disabled channel": blocks.DISABLED_TEXT, "empty question": blocks.EMPTY_QUESTION_TEXT,
                "over the rate limit": blocks.RATE_LIMIT_TEXT.format(limit=settings.SLACK_USER_RATE_PER_MINUTE)}
        _tell(client, channel_id, user_id, thread_ts, note[declined], kind)
        return None
    try:
        client.reactions_add(channel=channel_id, timestamp=message_ts, name="eyes")
    except SlackApiError as exc:  # a missing reaction is cosmetic
        log.info("reactions.add failed: %s", exc.response.get("error"))
    try:
        placeholder = client.chat_postMessage(channel=channel_id, thread_ts=thread_ts or None,
                                              text=blocks.PLACEHOLDER_TEXT)
        question.placeholder_ts = placeholder["ts"]
        question.save(update_fields=["placeholder_ts", "updated_at"])
    except SlackApiError as exc:  # the worker will post the answer as a new message instead
        log.warning("placeholder not posted: %s", exc.response.get("error"))
    jobs.enqueue("answer_slack_question", question.pk)
    return question


def _tell(client: WebClient, channel_id: str, user_id: str, thread_ts: str, text: str, kind: str) -> None:
    """A short note only the asker sees (a plain reply in a DM)."""
    try:
        if kind == SlackQuestion.Kind.DM:
            client.chat_postMessage(channel=channel_id, thread_ts=thread_ts or None, text=text)
        else:
            client.chat_postEphemeral(channel=channel_id, user=user_id, thread_ts=thread_ts or None, text=text)
    except SlackApiError as exc:
        log.warning("could not tell %s: %s", user_id, exc.response.get("error"))


def _from_a_bot(event: dict) -> bool:
    return bool(event.get("bot_id") or event.get("bot_profile") or event.get("subtype"))


def _event_id(body: dict, event: dict, kind: str) -> str:
    return body.get("event_id") or f"{kind}:{event['channel']}:{event['ts']}"


def journal_questions(body: dict, next) -> None:  # noqa: A002 - Bolt's name for the next middleware
    """Bolt middleware: write each question to the journal before any listener runs, hence before the ack
    (Bolt acks events by itself as soon as their listener starts). See bot.journal."""
    event = body.get("event") if body.get("type") == "event_callback" else None
    if isinstance(event, dict) and event.get("type") in ("app_mention", "message") and event.get("user") \
            and not _from_a_bot(event) and event.get("channel") and event.get("ts"):
        kind = "mention" if event["type"] == "app_mention" else "message"
        journal().write(_event_id(body, event, kind), body)
    elif body.get("command") == "/ask" and body.get("user_id") and question_text(body.get("text", "")):
        journal().write(_command_id(body), body)
    next()


def on_mention(ack: Ack, body: dict, event: dict, client: WebClient, later: Later) -> None:
    ack()
    if not _from_a_bot(event):
        later(take_mention, client, body, event)


def take_mention(client: WebClient, body: dict, event: dict) -> None:
    channel_id = event["channel"]
    disabled = ChannelSetting.objects.for_channel(channel_id).mode == ChannelSetting.Mode.DISABLED
    in_thread = event.get("thread_ts", "")
    kind = SlackQuestion.Kind.THREAD_FOLLOWUP if in_thread else SlackQuestion.Kind.MENTION
    take_question(client, event_id=_event_id(body, event, "mention"), kind=kind,
                  channel_id=channel_id, user_id=event["user"], text=event.get("text", ""), message_ts=event["ts"],
                  thread_ts=in_thread or event["ts"], team_id=body.get("team_id", ""), disabled=disabled)


def on_message(ack: Ack, body: dict, event: dict, client: WebClient, context, later: Later) -> None:
    ack()
    if _from_a_bot(event) or not event.get("user"):
        return
    if event.get("channel_type") != "im" and context.bot_user_id and f"<@{context.bot_user_id}>" in event.get("text", ""):
        journal().done(_event_id(body, event, "message"))
        return  # the app_mention listener takes it
    later(take_message, client, body, event)


def take_message(client: WebClient, body: dict, event: dict) -> None:
    channel_id, text = event["channel"], event.get("text", "")
    thread_ts = event.get("thread_ts", "")
    if event.get("channel_type") == "im":
        kind = SlackQuestion.Kind.DM
    else:
        mode = ChannelSetting.objects.for_channel(channel_id).mode
        if mode == ChannelSetting.Mode.DISABLED:
            journal().done(_event_id(body, event, "message"))
            return
        if thread_ts and thread_ts != event["ts"] and SlackQuestion.objects.answered_thread(channel_id, thread_ts):
            kind = SlackQuestion.Kind.THREAD_FOLLOWUP
        elif mode == ChannelSetting.Mode.ALL_QUESTIONS and not thread_ts and "?" in text:
            kind, thread_ts = SlackQuestion.Kind.CHANNEL, event["ts"]
        else:
            journal().done(_event_id(body, event, "message"))  # not a question for Verity
            return
    take_question(client, event_id=_event_id(body, event, "message"), kind=kind,
                  channel_id=channel_id, user_id=event["user"], text=text, message_ts=event["ts"],
                  thread_ts=thread_ts, team_id=body.get("team_id", ""))


def on_ask_command(ack: Ack, body: dict, respond) -> None:
    text = question_text(body.get("text", ""))
    if not text:
        ack(text=blocks.EMPTY_QUESTION_TEXT)
        return
    user_id = body["user_id"]
    ack(text=blocks.PLACEHOLDER_TEXT)
    if rate_limited(user_id):
        journal().done(_command_id(body))
        respond(text=blocks.RATE_LIMIT_TEXT.format(limit=settings.SLACK_USER_RATE_PER_MINUTE),
                response_type="ephemeral", replace_original=False)
        return
    take_command(body)


def _command_id(body: dict) -> str:
    # Slash commands are not retried by Slack, but a trigger id is unique per invocation anyway.
    return f"command:{body.get('trigger_id') or body.get('command_ts', '')}"


def take_command(body: dict) -> None:
    """Record an /ask question and enqueue its answer."""
    question = SlackQuestion.record(event_id=_command_id(body), text=question_text(body.get("text", "")),
                                    kind=SlackQuestion.Kind.COMMAND, channel_id=body.get("channel_id", ""),
                                    user_id=body["user_id"], team_id=body.get("team_id", ""), ephemeral=True,
                                    response_url=body.get("response_url", ""))
    journal().done(_command_id(body))
    if question is not None:
        jobs.enqueue("answer_slack_question", question.pk)


def take_journaled(client: WebClient, body: dict) -> None:
    """Record a question from the journal (see bot.journal): the work its listener would have done after the ack."""
    if body.get("command"):
        take_command(body)
        return
    event = body.get("event") or {}
    if event.get("type") == "app_mention":
        take_mention(client, body, event)
    else:
        take_message(client, body, event)


def register(app: App) -> None:
    """Attach the question listeners (they find `later` in the context: see bot.app.build_app)."""
    app.use(journal_questions)
    app.event("app_mention")(on_mention)
    app.event("message")(on_message)
    app.command("/ask")(on_ask_command)
