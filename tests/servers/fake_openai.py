"""Local HTTP server speaking the OpenAI chat-completions/embeddings wire format, plus the shared fake-server core."""

from __future__ import annotations

import base64
import hashlib
import inspect
import json
import re
import struct
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable

from tests.servers.http import LocalServer, QuietHandler, send_json

__all__ = ["DEFAULT_BODY", "Response", "RecordedRequest", "FakeHTTPServer", "FakeOpenAI", "hashed_embedding", "words"]


DEFAULT_BODY: Any = object()  # as Response.json: "whatever the route's default handler would answer"


@dataclass
class Response:
    """A scripted reply: status, JSON body, headers, and an optional delay before answering."""

    status: int = 200
    json: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


@dataclass
class RecordedRequest:
    """One request the fake received."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any


Script = Callable[..., "Response | None"]

_WORD = re.compile(r"\w+")


def words(text: str) -> list[str]:
    """Lower-cased word tokens."""
    return _WORD.findall(text.lower())


def hashed_embedding(text: str, dim: int) -> list[float]:
    """Deterministic unit-length bag-of-hashed-words vector (shared words → higher cosine)."""
    vec = [0.0] * dim
    for w in words(text):
        h = hashlib.blake2b(w.encode(), digest_size=8).digest()
        idx = int.from_bytes(h[:4], "little") % dim
        vec[idx] += 1.0 if h[4] & 1 else -1.0
    norm = sum(v * v for v in vec) ** 0.5
    if norm == 0:
        vec[0] = 1.0
        return vec
    return [v / norm for v in vec]


def first_sentence(text: str) -> str:
    """The first sentence of `text`, without its closing punctuation."""
    text = " ".join(text.split())
    m = re.search(r"(.+?[.!?])(\s|$)", text)
    return (m.group(1) if m else text).rstrip(".!?").strip()


class _Handler(QuietHandler):
    def _serve(self) -> None:
        raw = self.body()
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", "replace")
        req = RecordedRequest(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
        resp = self.server.fake._dispatch(req)
        if resp.delay_s and self.server.fake._stopping.wait(resp.delay_s):
            return
        send_json(self, resp.status, resp.json, resp.headers)

    do_POST = _serve
    do_GET = _serve


class FakeHTTPServer(LocalServer):
    """Threaded local HTTP server with a response queue, an optional script, and per-route defaults."""

    handler_class = _Handler

    def __init__(self, api_key: str | None = None) -> None:
        super().__init__()
        self.api_key = api_key
        self.requests: list[RecordedRequest] = []
        self._queue: deque[Response] = deque()
        self._script: Script | None = None
        self._lock = threading.Lock()
        self._stopping = threading.Event()

    def stop(self) -> None:
        """Stop serving and release the port (pending hangs end at once)."""
        self._stopping.set()
        super().stop()

    @property
    def root_url(self) -> str:
        """http://127.0.0.1:<port> (no path)."""
        return self.url

    @property
    def base_url(self) -> str:
        """The base_url to give the SDK."""
        return self.root_url

    # scripting -------------------------------------------------------------------
    def script(self, fn: Script | None) -> None:
        """Decide responses with fn(body) or fn(body, request); returning None falls back to the default."""
        self._script = fn

    def enqueue(self, *responses: Response) -> None:
        """Serve these responses, in order, before anything else."""
        with self._lock:
            self._queue.extend(responses)

    def error(self, status: int, message: str | None = None, *, times: int = 1) -> None:
        """Enqueue `times` error responses in the provider's error format."""
        headers = {"retry-after-ms": "10", "Retry-After": "0"} if status == 429 else {}
        for _ in range(times):
            self.enqueue(Response(status, self.error_body(status, message or f"fake error {status}"), headers))

    def hang(self, seconds: float, *, times: int = 1) -> None:
        """Enqueue `times` replies that wait `seconds` before answering (to trip client timeouts)."""
        for _ in range(times):
            self.enqueue(Response(200, DEFAULT_BODY, delay_s=seconds))

    @property
    def last(self) -> RecordedRequest:
        """The most recent request."""
        return self.requests[-1]

    def bodies(self, path_suffix: str = "") -> list[Any]:
        """JSON bodies of requests whose path ends with `path_suffix`."""
        return [r.body for r in self.requests if r.path.split("?")[0].endswith(path_suffix)]

    # provider hooks ------------------------------------------------------------------
    def error_body(self, status: int, message: str) -> Any:
        """Error JSON in the provider's format."""
        return {"message": message}

    def routes(self) -> dict[str, Callable[[RecordedRequest], Response]]:
        """Path → default handler."""
        return {}

    def _dispatch(self, req: RecordedRequest) -> Response:
        with self._lock:
            self.requests.append(req)
            queued = self._queue.popleft() if self._queue else None
        if queued is not None:
            if queued.json is DEFAULT_BODY:  # e.g. a hang: answer normally after the delay
                default = self._default(req)
                return Response(queued.status, default.json, {**default.headers, **queued.headers}, queued.delay_s)
            return queued
        if self.api_key is not None and req.headers.get("authorization") != f"Bearer {self.api_key}":
            return Response(401, self.error_body(401, "invalid api token"))
        if self._script is not None:
            fn = self._script
            resp = fn(req.body, req) if len(inspect.signature(fn).parameters) >= 2 else fn(req.body)
            if resp is not None:
                return resp
        return self._default(req)

    def _default(self, req: RecordedRequest) -> Response:
        handler = self.routes().get(req.path.split("?")[0].rstrip("/"))
        if handler is None:
            return Response(404, self.error_body(404, f"no route for {req.method} {req.path}"))
        return handler(req)


_PASSAGE = re.compile(r"^\[(\d+)\][^\n]*\n(.*?)(?=^\[\d+\]|\Z)", re.M | re.S)
EMBED_DIMS = {"text-embedding-3-small": 1536, "text-embedding-3-large": 3072, "text-embedding-ada-002": 1536}


class FakeOpenAI(FakeHTTPServer):
    """OpenAI-compatible fake: POST /v1/chat/completions and /v1/embeddings."""

    @property
    def base_url(self) -> str:
        return f"{self.root_url}/v1"

    def error_body(self, status: int, message: str) -> Any:
        kind = {429: "rate_limit_exceeded", 401: "invalid_request_error", 404: "not_found_error"}.get(
            status, "server_error" if status >= 500 else "invalid_request_error"
        )
        return {"error": {"message": message, "type": kind, "param": None, "code": kind}}

    def routes(self) -> dict[str, Callable[[RecordedRequest], Response]]:
        return {"/v1/chat/completions": self.chat_default, "/v1/embeddings": self.embeddings_default}

    @staticmethod
    def passages_in(body: dict[str, Any]) -> dict[int, str]:
        """Passage number → text, read from "[n] Title\\ntext" blocks in the messages."""
        found: dict[int, str] = {}
        for msg in body.get("messages", []):
            content = msg.get("content") or ""
            if isinstance(content, list):
                content = " ".join(part.get("text", "") for part in content if isinstance(part, dict))
            for m in _PASSAGE.finditer(content):
                found.setdefault(int(m.group(1)), m.group(2).strip())
        return found

    @staticmethod
    def chat_completion(body: dict[str, Any], content: str, *, finish_reason: str = "stop") -> dict[str, Any]:
        """A ChatCompletion JSON body carrying `content`, with word-count usage."""
        prompt = sum(len(words(str(m.get("content") or ""))) for m in body.get("messages", []))
        completion = len(words(content))
        return {
            "id": f"chatcmpl-fake-{int(time.time() * 1000)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "unknown"),
            "system_fingerprint": "fp_fake",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content, "refusal": None},
                    "logprobs": None,
                    "finish_reason": finish_reason,
                }
            ],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
        }

    def chat_default(self, req: RecordedRequest) -> Response:
        """Grounded answer: first sentence of passage [1] + " [1]."; plain echo when there is no context."""
        body = req.body or {}
        passages = self.passages_in(body)
        if passages:
            n = 1 if 1 in passages else min(passages)
            content = f"{first_sentence(passages[n])} [{n}]."
        elif any(m.get("role") == "system" and "[n]" in str(m.get("content")) for m in body.get("messages", [])):
            content = "INSUFFICIENT_CONTEXT: the context does not answer this question."
        else:
            user = next((str(m.get("content")) for m in reversed(body.get("messages", [])) if m.get("role") == "user"), "")
            content = f"FAKE COMPLETION: {user[:80]}"
        return Response(200, self.chat_completion(body, content))

    def embeddings_default(self, req: RecordedRequest) -> Response:
        """Hashed-word embeddings; honours `dimensions` and encoding_format=base64."""
        body = req.body or {}
        inputs = body.get("input", [])
        inputs = [inputs] if isinstance(inputs, str) else list(inputs)
        model = body.get("model", "unknown")
        dim = int(body.get("dimensions") or EMBED_DIMS.get(model, 384))
        data = []
        for i, text in enumerate(inputs):
            vec = hashed_embedding(str(text), dim)
            emb: Any = vec
            if body.get("encoding_format") == "base64":
                emb = base64.b64encode(struct.pack(f"<{dim}f", *vec)).decode()
            data.append({"object": "embedding", "index": i, "embedding": emb})
        tokens = sum(len(words(str(t))) for t in inputs)
        return Response(200, {"object": "list", "data": data, "model": model,
                              "usage": {"prompt_tokens": tokens, "total_tokens": tokens}})
