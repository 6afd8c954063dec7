"""Writing the question graph: each asked question with its topics and entities, each answer with its citations."""

from __future__ import annotations

from dataclasses import dataclass

from knowledge.grounding import Grounding, entity_key, ground
from knowledge.models import (Answer, AnswerCitation, Chunk, Entity, EntityPattern, Question, QuestionEntity,
                              QuestionTopic, Topic, question_hash)


@dataclass
class AskedQuestion:
    """A question as the cache and the graph see it: normalised text, embedding, grounding, topics."""

    text: str
    normalized: str
    vector: object
    grounding: Grounding
    topic_ids: list[int]

    @property
    def hash(self) -> str:
        return question_hash(self.normalized)

    @property
    def entity_key(self) -> str:
        return entity_key(self.grounding)


def understand(text: str, normalized: str, vector) -> AskedQuestion:
    """Ground a question on the admin's entity patterns and topics."""
    topics = Topic.objects.all().matching(text)
    grounding = ground(text, EntityPattern.compiled(), topics=[t.slug for t in topics])
    return AskedQuestion(text=text, normalized=normalized, vector=vector, grounding=grounding,
                         topic_ids=[t.pk for t in topics])


def record_question(asked: AskedQuestion, answer: Answer | None, *, origin: bool, cache: str, asker=None,
                    external_user: str = "", channel: str = "cli", thread: str = "") -> Question:
    """Store one asked question and its edges to topics and entities."""
    question = Question.objects.create(
        text=asked.text, normalized=asked.normalized[:500], normalized_hash=asked.hash, embedding=asked.vector,
        grounding=asked.grounding.to_dict(), entity_key=asked.entity_key, answer=answer, is_origin=origin,
        cache=cache, asker=asker if getattr(asker, "pk", None) else None, external_user=external_user,
        channel=channel, thread=thread[:64])
    QuestionTopic.objects.bulk_create([QuestionTopic(question=question, topic_id=pk) for pk in asked.topic_ids])
    entities = []
    for kind, value in sorted(asked.grounding.entities):
        entity, _ = Entity.objects.get_or_create(kind=kind, value=value[:200])
        entities.append(QuestionEntity(question=question, entity=entity))
    QuestionEntity.objects.bulk_create(entities, ignore_conflicts=True)
    return question


def record_citations(answer: Answer) -> None:
    """One citation edge per numbered source: answer → chunk, document and the document's version."""
    rows = [c for c in answer.citations or [] if isinstance(c, dict) and isinstance(c.get("n"), int)]
    chunks = {c.pk: c for c in Chunk.objects.filter(pk__in=[r.get("chunk_id") for r in rows if r.get("chunk_id")])
              .select_related("document")}
    AnswerCitation.objects.bulk_create([
        AnswerCitation(answer=answer, n=r["n"], chunk=chunks.get(r.get("chunk_id")),
                       document=chunks[r["chunk_id"]].document if r.get("chunk_id") in chunks else None,
                       version=chunks[r["chunk_id"]].document.version if r.get("chunk_id") in chunks else 1,
                       source=str(r.get("source", ""))[:500])
        for r in rows])
