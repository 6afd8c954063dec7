"""Interactivity: answer buttons, the "not helpful" modal, Retry, Share, reviewer shortcuts and the App Home."""

from __future__ import annotations

import json
import logging

from django.conf import settings
from slack_bolt import Ack, App
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot import blocks
from bot.answers import owner_emails, result_for
from bot.models import SlackQuestion
from bot.people import django_user_for, is_reviewer, slack_ids_for
import jobqueue as jobs
from knowledge.models import Answer
from verification import curation

log = logging.getLogger(__name__)

SHORTCUT_VERIFY = "verity_verify_answer"
SHORTCUT_FLAG = "verity_flag_answer"
THANKS = {"helpful": "Thanks! Glad it helped.", "flag": "Flagged. A reviewer will check this answer; until then it is "
          "shown with a warning."}
THANKS_REVIEWER_FLAG = "Flagged 🚩: this answer won't be reused until it is verified."


def _ids(body: dict) -> tuple[int | None, int | None]:
    return blocks.parse_action_value(body["actions"][0].get("value", ""))


def _whisper(respond, text: str) -> None:
    respond(text=text, response_type="ephemeral", replace_original=False)


def on_feedback(ack: Ack, body: dict, respond, client: WebClient) -> None:
    """Helpful / Flag: one click, one record (a reviewer's flag is a verdict, anyone else's asks for one)."""
    ack()
    answer_id, _ = _ids(body)
    kind = "helpful" if body["actions"][0]["action_id"] == blocks.ACTION_HELPFUL else "flag"
    answer = Answer.objects.filter(pk=answer_id).first() if answer_id is not None else None
    if answer is None:
        _whisper(respond, "That answer no longer exists.")
        return
    user = django_user_for(client, body["user"]["id"]) if kind == "flag" else None
    curation.give_feedback(answer, kind, user=user, external_user=body["user"]["id"])
    _whisper(respond, THANKS_REVIEWER_FLAG if kind == "flag" and is_reviewer(user) else THANKS[kind])


def on_unhelpful(ack: Ack, body: dict, client: WebClient) -> None:
    """Not helpful: count it at once, then ask why in a small modal (the trigger id lives 3 s)."""
    ack()
    answer_id, question_id = _ids(body)
    if answer_id is None:
        return
    client.views_open(trigger_id=body["trigger_id"],
                      view=blocks.unhelpful_modal(answer_id, question_id, (body.get("channel") or {}).get("id", "")))
    answer = Answer.objects.filter(pk=answer_id).first()
    if answer is not None:
        curation.give_feedback(answer, "unhelpful", external_user=body["user"]["id"])


def on_unhelpful_submitted(ack: Ack, body: dict, view: dict) -> None:
    ack()
    meta = json.loads(view.get("private_metadata") or "{}")
    reason = (((view.get("state") or {}).get("values") or {}).get("reason") or {}).get("text", {}).get("value") or ""
    answer = Answer.objects.filter(pk=int(meta["answer_id"])).first() if meta.get("answer_id") else None
    if answer is not None:
        curation.give_feedback(answer, "unhelpful", external_user=body["user"]["id"], reason=reason)


def on_ask_expert(ack: Ack, body: dict, client: WebClient, respond) -> None:
    """Post the question, the answer and a console link to the reviewers' channel, mentioning the owners."""
    ack()
    answer = Answer.objects.filter(pk=_ids(body)[0]).first()
    if answer is None:
        _whisper(respond, "That answer no longer exists.")
        return
    if not settings.SLACK_REVIEWERS_CHANNEL:
        _whisper(respond, "No reviewers' channel is set up yet: ask your Verity admin to set SLACK_REVIEWERS_CHANNEL.")
        return
    link_url = f"{settings.SITE_URL}/admin/knowledge/answer/{answer.pk}/change/"
    message = blocks.expert_request_blocks(
        question=answer.question_text, answer=answer.text, asker_id=body["user"]["id"], link_url=link_url,
        mentions=slack_ids_for(client, owner_emails(answer)), confidence=answer.confidence)
    client.chat_postMessage(channel=settings.SLACK_REVIEWERS_CHANNEL, blocks=message,
                            text=f"Expert check requested: {blocks.escape(answer.question_text[:200])}")
    _whisper(respond, f"I've asked the experts in <#{settings.SLACK_REVIEWERS_CHANNEL}>. They'll reply there.")


def on_retry(ack: Ack, body: dict, client: WebClient, respond) -> None:
    """Retry a failed question: back to the placeholder, back in the queue."""
    ack()
    value = body["actions"][0].get("value", "")
    question = SlackQuestion.objects.filter(pk=int(value)).first() if value.isdigit() else None
    if question is None or not question.requeue():
        return  # unknown, or already retried / answered: a double click does nothing
    if question.ephemeral:
        if body.get("response_url"):
            question.response_url = body["response_url"]
            question.save(update_fields=["response_url", "updated_at"])
        respond(text=blocks.PLACEHOLDER_TEXT, replace_original=True)
    elif question.placeholder_ts:
        client.chat_update(channel=question.channel_id, ts=question.placeholder_ts, text=blocks.PLACEHOLDER_TEXT,
                           blocks=blocks.text_blocks(blocks.PLACEHOLDER_TEXT))
    jobs.enqueue("answer_slack_question", question.pk)


def on_share(ack: Ack, body: dict, respond) -> None:
    """Share an ephemeral /ask answer in the channel (through the response URL: works where the bot isn't a member)."""
    ack()
    answer = Answer.objects.filter(pk=_ids(body)[0]).first()
    if answer is None:
        return
    shared = [blocks.context_block(f"<@{body['user']['id']}> shared an answer from Verity")]
    result = result_for(answer)
    respond(text=blocks.fallback_text(result), blocks=shared + blocks.answer_blocks(result)[:blocks.MAX_BLOCKS - 1],
            response_type="in_channel", replace_original=False)
    respond(delete_original=True)


def on_review_shortcut(ack: Ack, body: dict, client: WebClient, respond) -> None:
    """Message shortcut on a Verity answer: reviewers verify or flag it from Slack."""
    ack()
    reviewer = django_user_for(client, body["user"]["id"])
    if not is_reviewer(reviewer):
        _whisper(respond, "Only reviewers can do this. Reviewers are staff users, or members of the "
                          "'reviewers' group, whose e-mail matches their Slack account.")
        return
    answer = Answer.objects.filter(pk=_answer_id_in(body.get("message") or {})).first()
    if answer is None:
        _whisper(respond, "That message isn't a Verity answer.")
        return
    if body["callback_id"] == SHORTCUT_VERIFY:
        curation.verify(answer, reviewer)
        done = "Verified ✅: this answer will be reused for similar questions."
    else:
        curation.flag(answer, reviewer)
        done = "Flagged 🚩: this answer won't be reused until it is verified."
    try:
        result = result_for(answer)
        client.chat_update(channel=body["channel"]["id"], ts=body["message"]["ts"], blocks=blocks.answer_blocks(result),
                           text=blocks.fallback_text(result))
    except SlackApiError as exc:
        log.warning("could not refresh the reviewed answer: %s", exc.response.get("error"))
    _whisper(respond, done)


def _answer_id_in(message: dict) -> int | None:
    for block in message.get("blocks") or []:
        for element in block.get("elements") or []:
            if element.get("action_id") in blocks.ANSWER_ACTIONS:
                return blocks.parse_action_value(element.get("value", ""))[0]
    return None


def on_home_opened(event: dict, client: WebClient) -> None:
    if event.get("tab", "home") != "home":
        return
    rows = [blocks.HomeRow(question=q.text, status=q.status, answer_status=q.answer.status if q.answer else "",
                           refused=bool(q.answer and q.answer.refused),
                           confidence=q.answer.confidence if q.answer else None,
                           asked_at=q.created_at.strftime("%Y-%m-%d %H:%M"))
            for q in SlackQuestion.objects.for_home(event["user"])]
    client.views_publish(user_id=event["user"], view=blocks.home_view(rows))


def register(app: App) -> None:
    """Attach the interactivity listeners."""
    app.action(blocks.ACTION_HELPFUL)(on_feedback)
    app.action(blocks.ACTION_FLAG)(on_feedback)
    app.action(blocks.ACTION_UNHELPFUL)(on_unhelpful)
    app.view(blocks.UNHELPFUL_MODAL)(on_unhelpful_submitted)
    app.action(blocks.ACTION_EXPERT)(on_ask_expert)
    app.action(blocks.ACTION_RETRY)(on_retry)
    app.action(blocks.ACTION_SHARE)(on_share)
    app.shortcut(SHORTCUT_VERIFY)(on_review_shortcut)
    app.shortcut(SHORTCUT_FLAG)(on_review_shortcut)
    app.event("app_home_opened")(on_home_opened)
