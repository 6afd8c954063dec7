"""The shared core of the local fake servers: a quiet threaded HTTP server on a free loopback port."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class QuietServer(ThreadingHTTPServer):
    """Threaded server that keeps aborted connections (timeout tests) out of the output."""

    daemon_threads = True
    fake: Any

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass


class QuietHandler(BaseHTTPRequestHandler):
    """HTTP/1.1 request handler that logs nothing; `body()` reads the request body."""

    server: QuietServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - silence request logging
        pass

    def body(self) -> bytes:
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""


def send_json(handler: BaseHTTPRequestHandler, status: int, body: Any, headers: dict[str, str] | None = None,
              content_type: str = "application/json") -> None:
    """Write a JSON response (an empty body for None); a client that already gave up is ignored."""
    payload = json.dumps(body).encode() if body is not None else b""
    try:
        handler.send_response(status)
        handler.send_header("Content-Type", content_type)
        handler.send_header("Content-Length", str(len(payload)))
        for key, value in (headers or {}).items():
            handler.send_header(key, value)
        handler.end_headers()
        handler.wfile.write(payload)
    except (BrokenPipeError, ConnectionResetError):
        pass


class LocalServer:
    """Lifecycle of a fake: bind 127.0.0.1 on a free port, serve in a daemon thread, stop on exit."""

    handler_class: type[BaseHTTPRequestHandler]

    def __init__(self) -> None:
        self._httpd: QuietServer | None = None

    def start(self):
        """Start serving in a background thread."""
        self._httpd = QuietServer(("127.0.0.1", 0), self.handler_class)
        self._httpd.fake = self
        threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        return self

    def stop(self) -> None:
        """Stop serving and release the port."""
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    @property
    def url(self) -> str:
        """http://127.0.0.1:<port> (no path)."""
        assert self._httpd is not None, "server not started"
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"
