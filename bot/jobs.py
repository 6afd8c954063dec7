"""The worker side of a Slack question: answer it and replace the placeholder (job `answer_slack_question`)."""

from __future__ import annotations

import logging
import re
from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone
from slack_sdk import WebClient
from slack_sdk.webhook import WebhookClient

from bot import blocks
from bot.client import slack_client
from bot.models import ChannelSetting, SlackQuestion
from bot.people import django_user_for
from knowledge.answering import AnswerResult, AskOptions, answer_question
from knowledge.answering.service import CONTEXT_TURNS
import jobqueue as jobs

log = logging.getLogger(__name__)

STUCK_AFTER_S = 120  # a queued question no worker took for this long is enqueued again
GIVE_UP_AFTER_S = 15 * 60  # ...and one no worker took for this long (or tried MAX_ATTEMPTS times) gets the apology
MAX_ATTEMPTS = 3
_MENTION = re.compile(r"<@[UW][A-Z0-9]+>")


def answer_slack_question(slack_question_id: int, *, client: WebClient | None = None, providers=None) -> None:
    """Answer one recorded Slack question and deliver it; safe to run twice (an answered question is skipped).

    Any failure marks the question failed and replaces the placeholder with an apology and a Retry
    button: the asker is never left looking at "Looking…".
    """
    question = SlackQuestion.claim(slack_question_id, stale_after_s=settings.CELERY_TASK_TIME_LIMIT + 60)
    if question is None:  # answered, being answered by another worker, or gone
        return
    client = client or slack_client()
    try:
        result = _answer(client, question, providers)
        deliver(client, question, blocks.answer_blocks(result, question_id=question.pk, share=question.ephemeral,
                                                       site_url=settings.SITE_URL), blocks.fallback_text(result))
        question.mark_answered(result.answer_id)
    except Exception as exc:  # noqa: BLE001 - whatever broke, the asker gets an apology with Retry
        log.exception("answering Slack question %s failed", slack_question_id)
        question.mark_failed(f"{type(exc).__name__}: {exc}")
        try:
            deliver(client, question, blocks.apology_blocks(question.pk), blocks.APOLOGY_TEXT)
        except Exception:  # noqa: BLE001 - Slack itself is failing; the row says failed, the log says why
            log.exception("could not post the apology for Slack question %s", slack_question_id)


def _answer(client: WebClient, question: SlackQuestion, providers) -> AnswerResult:
    user = django_user_for(client, question.user_id)
    channel_scope = None  # a DM uses the asker's own access
    if question.kind != SlackQuestion.Kind.DM:
        channel_scope = ChannelSetting.objects.for_channel(question.channel_id).collection_ids()
    context = thread_context(client, question) if question.kind == SlackQuestion.Kind.THREAD_FOLLOWUP else []
    options = AskOptions(user=user, channel_collection_ids=channel_scope, thread_context=context, channel="slack",
                         external_user=question.user_id)
    return answer_question(question.text, options, providers)


def thread_context(client: WebClient, question: SlackQuestion) -> list[str]:
    """The thread's earlier turns (oldest first, at most CONTEXT_TURNS), without the question and placeholder."""
    replies = client.conversations_replies(channel=question.channel_id, ts=question.thread_ts, limit=50)
    turns = []
    for message in replies.get("messages", []):
        if message.get("ts") in (question.message_ts, question.placeholder_ts):
            continue
        text = _MENTION.sub("", message.get("text") or "").strip()
        if text and text != blocks.PLACEHOLDER_TEXT:
            turns.append(text)
    return turns[-CONTEXT_TURNS:]


def deliver(client: WebClient, question: SlackQuestion, message_blocks: list[dict], text: str) -> None:
    """Show blocks where the asker looks: replace the placeholder, or answer ephemerally for /ask."""
    if question.ephemeral:
        if question.response_url:
            response = WebhookClient(question.response_url).send(text=text, blocks=message_blocks,
                                                                  response_type="ephemeral", replace_original=False)
            if response.status_code >= 400:
                raise RuntimeError(f"response_url answered {response.status_code}: {response.body}")
        else:
            client.chat_postEphemeral(channel=question.channel_id, user=question.user_id, text=text,
                                      blocks=message_blocks)
    elif question.placeholder_ts:
        client.chat_update(channel=question.channel_id, ts=question.placeholder_ts, text=text, blocks=message_blocks)
    else:
        reply = client.chat_postMessage(channel=question.channel_id, thread_ts=question.thread_ts or None,
                                        text=text, blocks=message_blocks)
        question.placeholder_ts = reply["ts"]
        question.save(update_fields=["placeholder_ts", "updated_at"])


def sweep_slack_questions(*, client: WebClient | None = None) -> dict[str, int]:
    """Job `sweep_slack_questions` (every minute): nobody is left looking at "Looking…".

    A question can be left waiting by a crash between recording it and enqueueing its job, by a job
    that expired in a long queue, or by a worker killed mid-answer. Such questions are enqueued again
    (the answer job's atomic claim makes a duplicate harmless); after MAX_ATTEMPTS tries, or when no
    worker took it within GIVE_UP_AFTER_S, the asker gets the apology with a Retry button instead.
    """
    now = timezone.now()
    stuck = SlackQuestion.objects.filter(
        Q(status=SlackQuestion.Status.QUEUED, updated_at__lt=now - timedelta(seconds=STUCK_AFTER_S))
        | Q(status=SlackQuestion.Status.ANSWERING,
            updated_at__lt=now - timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 60)))
    counts = {"requeued": 0, "given_up": 0}
    for question in stuck:
        unchanged = SlackQuestion.objects.filter(pk=question.pk, status=question.status,
                                                 updated_at=question.updated_at)
        never_taken_for_long = (question.status == SlackQuestion.Status.QUEUED
                                and question.created_at < now - timedelta(seconds=GIVE_UP_AFTER_S))
        if question.attempts >= MAX_ATTEMPTS or never_taken_for_long:
            minutes = int((now - question.created_at).total_seconds() // 60)
            reason = f"not answered after {question.attempts} attempt(s) in {minutes} min; gave up"
            if unchanged.update(status=SlackQuestion.Status.FAILED, error=reason, updated_at=now):
                counts["given_up"] += 1
                try:
                    client = client or slack_client()
                    deliver(client, question, blocks.apology_blocks(question.pk), blocks.APOLOGY_TEXT)
                except Exception:  # noqa: BLE001 - Slack itself failing: the row says failed, the log says why
                    log.exception("could not post the apology for stuck Slack question %s", question.pk)
        elif unchanged.update(status=SlackQuestion.Status.QUEUED, updated_at=now):  # an abandoned claim too
            counts["requeued"] += 1
            jobs.enqueue("answer_slack_question", question.pk)
    if any(counts.values()):
        log.warning("Slack questions swept: %s", counts)
    return counts
