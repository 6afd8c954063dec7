"""Knowledge models: collections, documents, chunks, the questions asked of them (alone or in
conversations) and the question graph."""

from knowledge.models.conversations import Conversation
from knowledge.models.documents import Chunk, Collection, Document, DocumentVersion
from knowledge.models.graph import (AnswerCitation, Entity, EntityPattern, Question, QuestionEntity, QuestionTopic,
                                    Topic, question_hash)
from knowledge.models.questions import Answer, Feedback, GlossaryTerm, KnowledgeGap, QueryLog

__all__ = ["Answer", "AnswerCitation", "Chunk", "Collection", "Conversation", "Document", "DocumentVersion", "Entity",
           "EntityPattern", "Feedback", "GlossaryTerm", "KnowledgeGap", "QueryLog", "Question", "QuestionEntity",
           "QuestionTopic", "Topic", "question_hash"]
