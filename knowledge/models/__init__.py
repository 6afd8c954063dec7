"""Knowledge models: collections, documents, chunks, and the questions asked of them."""

from knowledge.models.documents import Chunk, Collection, Document, DocumentVersion
from knowledge.models.questions import Answer, Feedback, GlossaryTerm, KnowledgeGap, QueryLog

__all__ = ["Answer", "Feedback", "Chunk", "Collection", "Document", "DocumentVersion", "GlossaryTerm", "KnowledgeGap", "QueryLog"]
