"""Local threaded HTTP server speaking the Slack Web API methods the bot uses, recording every call.

Point `WebClient(base_url=fake.api_url)` at it. Requests are parsed whatever their encoding (JSON
body, form body, query string). Script failures per method with `fail(method, error)` or
`rate_limit(method)` (one 429 with Retry-After). Response URLs (`fake.response_url(...)`) are served
too and recorded as method "response_url".
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections import defaultdict, deque
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlparse

from tests.servers.http import LocalServer, QuietHandler, send_json

BOT_USER_ID = "UBOT0VERITY"
BOT_ID = "BVERITY01"
TEAM_ID = "T0NORTHWIND"


@dataclass
class Call:
    """One recorded Web API call."""

    method: str
    params: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)
    response: dict = field(default_factory=dict)
    at: float = field(default_factory=time.time)  # wall-clock arrival, comparable across processes


@dataclass
class Scripted:
    status: int
    body: dict
    headers: dict[str, str] = field(default_factory=dict)


class _Handler(QuietHandler):
    def _serve(self) -> None:
        raw = self.body().decode("utf-8", "replace")
        url = urlparse(self.path)
        params: dict[str, Any] = dict(parse_qsl(url.query))
        ctype = (self.headers.get("Content-Type") or "").lower()
        if raw:
            if "json" in ctype or raw.lstrip().startswith("{"):
                try:
                    params.update(json.loads(raw))
                except ValueError:
                    params["_raw"] = raw
            else:
                params.update(dict(parse_qsl(raw, keep_blank_values=True)))
        for key in ("blocks", "view", "attachments"):  # form-encoded JSON fields
            if isinstance(params.get(key), str) and params[key][:1] in "[{":
                params[key] = json.loads(params[key])
        headers = {k.lower(): v for k, v in self.headers.items()}
        status, body, extra = self.server.fake.handle(url.path, params, headers)
        send_json(self, status, body, extra, "application/json; charset=utf-8")

    do_GET = do_POST = _serve


class FakeSlack(LocalServer):
    """The fake Slack Web API. `calls` holds every request as Call(method, params), in arrival order."""

    handler_class = _Handler

    def __init__(self, *, emails: dict[str, str] | None = None, socket_url: str = "") -> None:
        super().__init__()
        self.calls: list[Call] = []
        self.emails = dict(emails or {})  # Slack user id -> e-mail (users.info / users.lookupByEmail)
        self.socket_url = socket_url  # what apps.connections.open hands out
        self.thread_messages: dict[tuple[str, str], list[dict]] = defaultdict(list)
        self._scripted: dict[str, deque[Scripted]] = defaultdict(deque)
        self._lock = threading.Lock()
        self._ts = itertools.count(1)

    @property
    def api_url(self) -> str:
        """The WebClient base_url (ends with /api/)."""
        return f"{self.url}/api/"

    def response_url(self, name: str = "hook") -> str:
        return f"{self.url}/response/{name}"

    # scripting -------------------------------------------------------------------------
    def fail(self, method: str, error: str = "internal_error", *, times: int = 1, status: int = 200) -> None:
        """The next `times` calls of `method` answer {"ok": false, "error": error}."""
        with self._lock:
            self._scripted[method].extend(Scripted(status, {"ok": False, "error": error}) for _ in range(times))

    def rate_limit(self, method: str, *, retry_after: int = 1, times: int = 1) -> None:
        """The next `times` calls of `method` answer 429 ratelimited with Retry-After."""
        with self._lock:
            self._scripted[method].extend(Scripted(429, {"ok": False, "error": "ratelimited"},
                                                   {"Retry-After": str(retry_after)}) for _ in range(times))

    def reset(self) -> None:
        with self._lock:
            self.calls.clear()
            self._scripted.clear()

    # inspection ------------------------------------------------------------------------
    def called(self, method: str) -> list[dict]:
        """Params of every call of `method`, in order."""
        with self._lock:
            return [c.params for c in self.calls if c.method == method]

    def calls_of(self, method: str) -> list[Call]:
        """Every recorded call of `method` (with arrival times), in order."""
        with self._lock:
            return [c for c in self.calls if c.method == method]

    def responses(self, method: str) -> list[dict]:
        """What the fake answered to each call of `method`, in order."""
        with self._lock:
            return [c.response for c in self.calls if c.method == method]

    def wait_for(self, method: str, count: int = 1, timeout: float = 20.0) -> list[dict]:
        """Wait until `method` was called at least `count` times; return the calls."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = self.called(method)
            if len(found) >= count:
                return found
            time.sleep(0.02)
        raise AssertionError(f"{method} called {len(self.called(method))} times, expected {count}; "
                             f"calls: {[c.method for c in self.calls]}")

    # the API -----------------------------------------------------------------------------
    def handle(self, path: str, params: dict, headers: dict) -> tuple[int, dict, dict]:
        if path.startswith("/response/"):
            method = "response_url"
        elif path.startswith("/api/"):
            method = path[len("/api/"):].strip("/")
        else:
            return 404, {"ok": False, "error": "unknown_path"}, {}
        call = Call(method, params, headers)
        with self._lock:
            self.calls.append(call)
            scripted = self._scripted[method].popleft() if self._scripted[method] else None
        if scripted is not None:
            call.response = scripted.body
            return scripted.status, scripted.body, scripted.headers
        if method != "response_url" and not headers.get("authorization", "").startswith(("Bearer xox", "Bearer xapp")):
            return 200, {"ok": False, "error": "not_authed"}, {}
        handler = getattr(self, "_" + method.replace(".", "_"), None)
        if handler is None:
            return 200, {"ok": False, "error": "unknown_method"}, {}
        call.response = handler(params)
        return 200, call.response, {}

    def _next_ts(self) -> str:
        return f"{int(time.time())}.{next(self._ts):06d}"

    def _auth_test(self, p: dict) -> dict:
        return {"ok": True, "url": "https://northwind.slack.com/", "team": "Northwind", "user": "verity",
                "team_id": TEAM_ID, "user_id": BOT_USER_ID, "bot_id": BOT_ID, "is_enterprise_install": False}

    def _chat_postMessage(self, p: dict) -> dict:
        ts = self._next_ts()
        message = {"type": "message", "user": BOT_USER_ID, "bot_id": BOT_ID, "text": p.get("text", ""), "ts": ts}
        if p.get("thread_ts"):
            message["thread_ts"] = p["thread_ts"]
            with self._lock:
                self.thread_messages[(p.get("channel", ""), p["thread_ts"])].append(message)
        return {"ok": True, "channel": p.get("channel"), "ts": ts, "message": message}

    def _chat_update(self, p: dict) -> dict:
        if not p.get("ts"):
            return {"ok": False, "error": "message_not_found"}
        with self._lock:  # the thread shows the updated text from now on, as in Slack
            for message in (m for thread in self.thread_messages.values() for m in thread if m["ts"] == p["ts"]):
                message["text"] = p.get("text", "")
        return {"ok": True, "channel": p.get("channel"), "ts": p["ts"], "text": p.get("text", ""),
                "message": {"text": p.get("text", ""), "user": BOT_USER_ID, "bot_id": BOT_ID}}

    def _chat_postEphemeral(self, p: dict) -> dict:
        return {"ok": True, "message_ts": self._next_ts()}

    def _reactions_add(self, p: dict) -> dict:
        return {"ok": True}

    def _conversations_replies(self, p: dict) -> dict:
        key = (p.get("channel", ""), p.get("ts", ""))
        with self._lock:
            messages = sorted(self.thread_messages.get(key, []), key=lambda m: float(m["ts"]))
        return {"ok": True, "messages": messages, "has_more": False,
                "response_metadata": {"next_cursor": ""}}

    def _views_open(self, p: dict) -> dict:
        view = p.get("view") or {}
        return {"ok": True, "view": {"id": f"V{next(self._ts):08d}", **view}}

    def _views_publish(self, p: dict) -> dict:
        view = p.get("view") or {}
        return {"ok": True, "view": {"id": f"V{next(self._ts):08d}", **view}}

    def _users_info(self, p: dict) -> dict:
        user_id = p.get("user", "")
        profile = {"real_name": f"User {user_id}", "display_name": user_id.lower()}
        if user_id in self.emails:
            profile["email"] = self.emails[user_id]
        return {"ok": True, "user": {"id": user_id, "team_id": TEAM_ID, "name": user_id.lower(), "is_bot": False,
                                     "deleted": False, "profile": profile}}

    def _users_lookupByEmail(self, p: dict) -> dict:
        for user_id, email in self.emails.items():
            if email.lower() == str(p.get("email", "")).lower():
                return {"ok": True, "user": {"id": user_id, "team_id": TEAM_ID, "profile": {"email": email}}}
        return {"ok": False, "error": "users_not_found"}

    def _apps_connections_open(self, p: dict) -> dict:
        if not self.socket_url:
            return {"ok": False, "error": "invalid_auth"}
        return {"ok": True, "url": self.socket_url}

    def _response_url(self, p: dict) -> dict:
        return {"ok": True}

    def add_thread_message(self, channel: str, thread_ts: str, text: str, user: str = "UASKER",
                           ts: str | None = None) -> dict:
        """Put a message in a thread (what conversations.replies will return, oldest first); `ts=thread_ts`
        is the thread's parent message."""
        message = {"type": "message", "user": user, "text": text, "ts": ts or self._next_ts(), "thread_ts": thread_ts}
        with self._lock:
            self.thread_messages[(channel, thread_ts)].append(message)
        return message


# --- what Slack sends to the app ------------------------------------------------------------


def signature(body: str, secret: str, timestamp: str) -> str:
    """Slack's v0 request signature: HMAC-SHA256 of "v0:{timestamp}:{body}"."""
    import hashlib
    import hmac

    return "v0=" + hmac.new(secret.encode(), f"v0:{timestamp}:{body}".encode(), hashlib.sha256).hexdigest()


def signed_headers(body: str, secret: str, *, timestamp: int | None = None) -> dict[str, str]:
    ts = str(int(time.time()) if timestamp is None else timestamp)
    return {"X-Slack-Request-Timestamp": ts, "X-Slack-Signature": signature(body, secret, ts)}


_event_seq = itertools.count(1)


def event_callback(event: dict, *, event_id: str | None = None) -> dict:
    """An Events API envelope around `event`."""
    return {"token": "legacy", "team_id": TEAM_ID, "api_app_id": "AVERITY", "type": "event_callback",
            "event_id": event_id or f"Ev{next(_event_seq):08d}{int(time.time() * 1000) % 100000}",
            "event_time": int(time.time()), "event": event,
            "authorizations": [{"team_id": TEAM_ID, "user_id": BOT_USER_ID, "is_bot": True}]}


def mention(text: str, *, user: str = "UASKER1", channel: str = "CGENERAL", ts: str | None = None,
            thread_ts: str | None = None) -> dict:
    event = {"type": "app_mention", "user": user, "text": f"<@{BOT_USER_ID}> {text}", "channel": channel,
             "ts": ts or f"{time.time():.6f}", "event_ts": ts or f"{time.time():.6f}"}
    if thread_ts:
        event["thread_ts"] = thread_ts
    return event


def message(text: str, *, user: str = "UASKER1", channel: str = "DASKER1", channel_type: str = "im",
            ts: str | None = None, thread_ts: str | None = None, **extra) -> dict:
    event = {"type": "message", "user": user, "text": text, "channel": channel, "channel_type": channel_type,
             "ts": ts or f"{time.time():.6f}", "event_ts": ts or f"{time.time():.6f}", **extra}
    if thread_ts:
        event["thread_ts"] = thread_ts
    return event


def block_action(action_id: str, value: str, *, user: str = "UASKER1", channel: str = "CGENERAL",
                 response_url: str = "", message: dict | None = None) -> dict:
    return {"type": "block_actions", "team": {"id": TEAM_ID}, "user": {"id": user, "team_id": TEAM_ID},
            "api_app_id": "AVERITY", "token": "legacy", "trigger_id": f"trig.{time.time():.6f}",
            "response_url": response_url, "channel": {"id": channel}, "container": {"type": "message"},
            "message": message or {"ts": "1700000000.000100", "text": "", "blocks": []},
            "actions": [{"type": "button", "action_id": action_id, "block_id": "b", "value": value,
                         "action_ts": f"{time.time():.6f}"}]}
