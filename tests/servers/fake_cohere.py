"""Local HTTP server speaking the Cohere v2 wire format: POST /v2/chat, /v2/rerank, /v2/embed."""

from __future__ import annotations

import uuid
from typing import Any, Callable

from .fake_openai import DEFAULT_BODY, FakeHTTPServer, RecordedRequest, Response, first_sentence, hashed_embedding, words

__all__ = ["FakeCohere", "Response", "DEFAULT_BODY", "chat_response", "overlap_score"]

EMBED_DIMS = {
    "embed-english-light-v3.0": 384,
    "embed-multilingual-light-v3.0": 384,
    "embed-english-v3.0": 1024,
    "embed-multilingual-v3.0": 1024,
    "embed-v4.0": 1536,
}
_META = {"api_version": {"version": "2"}}


def overlap_score(query: str, doc: str) -> float:
    """Share of the query's distinct words found in the document (0-1)."""
    q = set(words(query))
    return len(q & set(words(doc))) / len(q) if q else 0.0


def chat_response(
    text: str,
    citations: list[tuple[int, int, list[str]]] | None = None,
    *,
    documents: dict[str, dict[str, Any]] | None = None,
    input_tokens: int = 100,
    output_tokens: int = 20,
    finish_reason: str = "COMPLETE",
) -> dict[str, Any]:
    """A v2 ChatResponse JSON body; citations are (start, end, [document ids]) over `text`."""
    docs = documents or {}
    cits = [
        {
            "start": start,
            "end": end,
            "text": text[start:end],
            "sources": [{"type": "document", "id": d, "document": {"id": d, **docs.get(d, {})}} for d in ids],
            "type": "TEXT_CONTENT",
        }
        for start, end, ids in (citations or [])
    ]
    message: dict[str, Any] = {"role": "assistant", "content": [{"type": "text", "text": text}]}
    if cits:
        message["citations"] = cits
    return {
        "id": str(uuid.uuid4()),
        "finish_reason": finish_reason,
        "message": message,
        "usage": {
            "billed_units": {"input_tokens": input_tokens, "output_tokens": output_tokens},
            "tokens": {"input_tokens": input_tokens + 500, "output_tokens": output_tokens + 2},
        },
    }


def _user_text(body: dict[str, Any]) -> str:
    for msg in reversed(body.get("messages", [])):
        if msg.get("role") == "user":
            content = msg.get("content") or ""
            if isinstance(content, list):
                return " ".join(p.get("text", "") for p in content if isinstance(p, dict))
            return str(content)
    return ""


class FakeCohere(FakeHTTPServer):
    """Cohere v2 fake; base_url is the server root (the SDK appends /v2/...)."""

    def error_body(self, status: int, message: str) -> Any:
        return {"id": str(uuid.uuid4()), "message": message}

    def routes(self) -> dict[str, Callable[[RecordedRequest], Response]]:
        return {"/v2/chat": self.chat_default, "/v2/rerank": self.rerank_default, "/v2/embed": self.embed_default}

    def chat_default(self, req: RecordedRequest) -> Response:
        """Grounded answer: first sentence of the (up to two) best-overlapping documents, each cited."""
        body = req.body or {}
        question = _user_text(body)
        docs = []
        for i, d in enumerate(body.get("documents") or []):
            if isinstance(d, str):
                d = {"data": {"snippet": d}}
            docs.append((str(d.get("id") or f"doc:{i}"), d.get("data") or {}))
        if not docs:
            text = f"FAKE COMPLETION: {question[:80]}"
            return Response(200, chat_response(text, input_tokens=len(words(question)),
                                               output_tokens=len(words(text))))
        snippet = lambda data: str(data.get("snippet") or data.get("text") or "")  # noqa: E731
        ranked = sorted(docs, key=lambda d: overlap_score(question, snippet(d[1])), reverse=True)
        chosen = [d for d in ranked[:2] if overlap_score(question, snippet(d[1])) > 0] or ranked[:1]
        chosen.sort(key=docs.index)  # answer in the order the documents were given
        text, citations = "", []
        for doc_id, data in chosen:
            sentence = first_sentence(snippet(data))
            start = len(text)
            text += sentence
            citations.append((start, len(text), [doc_id]))
            text += ". "
        text = text.strip()
        prompt = len(words(question)) + sum(len(words(snippet(d))) for _, d in docs)
        return Response(200, chat_response(text, citations, documents=dict(docs), input_tokens=prompt,
                                           output_tokens=len(words(text))))

    def rerank_default(self, req: RecordedRequest) -> Response:
        """Score by word overlap with the query; best first; honour top_n."""
        body = req.body or {}
        documents = [d if isinstance(d, str) else str(d.get("text", d)) for d in body.get("documents", [])]
        scored = sorted(((i, overlap_score(body.get("query", ""), d)) for i, d in enumerate(documents)),
                        key=lambda p: p[1], reverse=True)
        top_n = body.get("top_n") or len(scored)
        results = [{"index": i, "relevance_score": round(s, 6)} for i, s in scored[:top_n]]
        return Response(200, {"id": str(uuid.uuid4()), "results": results,
                              "meta": {**_META, "billed_units": {"search_units": 1}}})

    def embed_default(self, req: RecordedRequest) -> Response:
        """Hashed-word float embeddings of the model's width (or output_dimension)."""
        body = req.body or {}
        texts = list(body.get("texts") or [])
        model = body.get("model", "unknown")
        dim = int(body.get("output_dimension") or EMBED_DIMS.get(model, 384))
        embeddings: dict[str, Any] = {}
        for kind in body.get("embedding_types") or ["float"]:
            if kind == "float":
                embeddings["float"] = [hashed_embedding(t, dim) for t in texts]
        tokens = sum(len(words(t)) for t in texts)
        return Response(200, {"id": str(uuid.uuid4()), "response_type": "embeddings_by_type",
                              "embeddings": embeddings, "texts": texts,
                              "meta": {**_META, "billed_units": {"input_tokens": tokens}}})
