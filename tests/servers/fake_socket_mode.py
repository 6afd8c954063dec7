"""A local WebSocket server speaking Slack's Socket Mode envelopes (the `websockets` package, in a thread).

It greets each connection with {"type": "hello"}, sends the envelopes you give it, and records
every frame the client sends back (acks are {"envelope_id": ...}).
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
import uuid
from typing import Any

from websockets.asyncio.server import ServerConnection, serve


class FakeSocketMode:
    def __init__(self) -> None:
        self.received: list[dict] = []
        self.first_ack_at: dict[str, float] = {}  # envelope_id -> wall-clock time its first ack arrived
        self._connections: list[ServerConnection] = []
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._stop: asyncio.Future | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/link/?ticket=fake"

    def start(self) -> "FakeSocketMode":
        threading.Thread(target=self._run, daemon=True).start()
        assert self._ready.wait(10), "socket mode server did not start"
        return self

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._serve())

    async def _serve(self) -> None:
        self._stop = self._loop.create_future()
        async with serve(self._handler, "127.0.0.1", 0) as server:
            self.port = server.sockets[0].getsockname()[1]
            self._ready.set()
            await self._stop

    async def _handler(self, websocket: ServerConnection) -> None:
        self._connections.append(websocket)
        await websocket.send(json.dumps({"type": "hello", "num_connections": 1,
                                         "debug_info": {"host": "fake", "approximate_connection_time": 3600},
                                         "connection_info": {"app_id": "AVERITY"}}))
        try:
            async for frame in websocket:
                message = json.loads(frame)
                self.received.append(message)
                if message.get("envelope_id"):
                    self.first_ack_at.setdefault(message["envelope_id"], time.time())
        except Exception:  # noqa: BLE001 - the client going away ends the connection
            pass

    def wait_connected(self, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        while not self._connections and time.monotonic() < deadline:
            time.sleep(0.02)
        assert self._connections, "the Socket Mode client never connected"

    def send_event(self, payload: dict, *, retry_attempt: int = 0) -> str:
        """Send an events_api envelope; returns its envelope_id."""
        envelope_id = str(uuid.uuid4())
        envelope = {"envelope_id": envelope_id, "type": "events_api", "accepts_response_payload": False,
                    "retry_attempt": retry_attempt, "retry_reason": "timeout" if retry_attempt else "",
                    "payload": payload}
        asyncio.run_coroutine_threadsafe(self._connections[-1].send(json.dumps(envelope)), self._loop).result(5)
        return envelope_id

    def send_burst(self, payloads: list[dict]) -> dict[str, float]:
        """Send events_api envelopes all at once from the server's loop; returns envelope_id -> time sent."""
        envelopes = [{"envelope_id": str(uuid.uuid4()), "type": "events_api", "accepts_response_payload": False,
                      "retry_attempt": 0, "retry_reason": "", "payload": payload} for payload in payloads]
        sent: dict[str, float] = {}

        async def send_all() -> None:
            connection = self._connections[-1]
            for envelope in envelopes:
                sent[envelope["envelope_id"]] = time.time()
                await connection.send(json.dumps(envelope))

        asyncio.run_coroutine_threadsafe(send_all(), self._loop).result(30)
        return sent

    def acks(self, envelope_id: str) -> list[dict]:
        return [f for f in self.received if f.get("envelope_id") == envelope_id]

    def stop(self) -> None:
        if self._stop is not None:
            self._loop.call_soon_threadsafe(lambda: self._stop.done() or self._stop.set_result(None))

    def __enter__(self) -> "FakeSocketMode":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()
