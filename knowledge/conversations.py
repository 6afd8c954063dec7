"""Asking within a conversation: the earlier turns are a follow-up's thread context, exactly as in Slack.

The console and the API keep a person's run of questions as a `Conversation`; each turn is the
`QueryLog` row the question path writes anyway (question, standalone question, answer). A follow-up
is answered by `answer_question` with those turns as `thread_context`, so "and for part-time
employees?" is completed by the same `standalone_question` a Slack thread uses.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction

from knowledge.answering import AnswerResult, AskOptions, answer_question
from knowledge.answering.service import CONTEXT_TURNS
from knowledge.models import Conversation, QueryLog


class ConversationNotFound(LookupError):
    """No conversation with this id belongs to the asker; someone else's looks exactly like a missing one."""

    def __init__(self, conversation_id: int) -> None:
        super().__init__(f"No conversation {conversation_id} of yours.")
        self.conversation_id = conversation_id
        self.hint = "Leave out `conversation` to start a new one; a conversation can be continued only by its owner."


@dataclass
class Turn:
    """One question of a conversation and the answer it got."""

    question: str
    standalone_question: str
    answer: str
    answer_id: int | None
    refused: bool
    citations: list[dict]
    asked_at: datetime

    def to_dict(self) -> dict:
        return {"question": self.question, "standalone_question": self.standalone_question, "answer": self.answer,
                "answer_id": self.answer_id, "refused": self.refused, "citations": self.citations,
                "asked_at": self.asked_at.isoformat()}


def find_conversation(user, conversation_id: int) -> Conversation:
    """The user's own conversation with this id; ConversationNotFound otherwise."""
    conversation = Conversation.objects.owned_by(user).filter(pk=conversation_id).first()
    if conversation is None:
        raise ConversationNotFound(conversation_id)
    return conversation


def turns_of(conversation: Conversation, last: int | None = None) -> list[Turn]:
    """The conversation's turns (only the `last` few when given), oldest first."""
    logs = QueryLog.objects.filter(conversation=conversation).select_related("answer").order_by("-created_at", "-pk")
    logs = list(logs[:last] if last else logs)[::-1]
    return [Turn(question=log.question, standalone_question=log.standalone_question,
                 answer=log.answer.text if log.answer else "", answer_id=log.answer_id,
                 refused=log.answer.refused if log.answer else log.outcome == QueryLog.Outcome.REFUSED,
                 citations=list(log.answer.citations or []) if log.answer else [], asked_at=log.created_at)
            for log in logs]


def thread_context(conversation: Conversation) -> list[str]:
    """The earlier turns as a Slack thread gives them: question, answer, … oldest first, at most CONTEXT_TURNS."""
    texts: list[str] = []
    for turn in turns_of(conversation, last=CONTEXT_TURNS):
        texts.append(turn.question)
        if turn.answer:
            texts.append(turn.answer)
    return texts[-CONTEXT_TURNS:]


def ask_in_conversation(question: str, options: AskOptions, conversation_id: int | None = None,
                        providers=None) -> tuple[Conversation, AnswerResult]:
    """Answer a question as the next turn of the asker's conversation (a new one when no id is given).

    Raises ConversationNotFound when the id is not one of the asker's conversations. The question,
    its answer and the link to the conversation are written together or not at all.
    """
    if not getattr(options.user, "pk", None):
        raise ValueError("A conversation belongs to a signed-in person; ask without one from the command line.")
    with transaction.atomic():
        if conversation_id is None:
            conversation = Conversation.objects.create(owner=options.user, channel=options.channel)
        else:
            # Locked, so two follow-ups sent at once are answered one after the other, each seeing the other.
            conversation = find_conversation(options.user, conversation_id)
            conversation = Conversation.objects.select_for_update().get(pk=conversation.pk)
        asked = dataclasses.replace(options, thread_context=thread_context(conversation), store=True,
                                    thread=f"conversation:{conversation.pk}")
        result = answer_question(question, asked, providers)
        QueryLog.objects.filter(pk=result.log_id).update(conversation=conversation)
        conversation.save(update_fields=["updated_at"])
    return conversation, result
