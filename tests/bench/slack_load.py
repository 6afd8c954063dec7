"""Load generator for the Slack bench, run as its own process so it shares no GIL with the server.

Reads {"url", "secret", "envelopes": [...]} as JSON on stdin, signs each envelope as Slack does,
then sends them all at once from one asyncio loop over plain sockets (one connection each, the
request bytes prepared beforehand, so the sender spends as little as possible of the CPU the server
under test needs: Slack's senders are not on our machine). Prints {"latencies_ms": [...],
"sent_at": [...], "sent_s": ...} as JSON: per envelope, the time from opening its connection to the
complete 200 response, and the wall-clock time it was sent.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import sys
import time
from urllib.parse import urlsplit


def signed_request(url: str, body: str, secret: str) -> bytes:
    parts = urlsplit(url)
    timestamp = str(int(time.time()))
    digest = hmac.new(secret.encode(), f"v0:{timestamp}:{body}".encode(), hashlib.sha256).hexdigest()
    payload = body.encode()
    head = (f"POST {parts.path} HTTP/1.1\r\nHost: {parts.netloc}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(payload)}\r\nX-Slack-Request-Timestamp: {timestamp}\r\n"
            f"X-Slack-Signature: v0={digest}\r\nConnection: close\r\n\r\n")
    return head.encode() + payload


async def send(host: str, port: int, request: bytes, sent_at: list[float], i: int) -> float:
    sent_at[i] = time.time()
    started = time.perf_counter()
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(request)
    response = await reader.read()  # the server closes the connection after the response
    took = (time.perf_counter() - started) * 1000
    writer.close()
    status = response.split(b" ", 2)[1] if response.startswith(b"HTTP/") else b"?"
    if status != b"200":
        raise RuntimeError(f"HTTP {status.decode()}: {response[:300]!r}")
    return took


async def burst(url: str, secret: str, bodies: list[str]) -> dict:
    parts = urlsplit(url)
    requests = [signed_request(url, body, secret) for body in bodies]
    sent_at = [0.0] * len(bodies)
    started = time.perf_counter()
    latencies = await asyncio.gather(*(send(parts.hostname, parts.port, request, sent_at, i)
                                       for i, request in enumerate(requests)))
    return {"latencies_ms": latencies, "sent_at": sent_at, "sent_s": time.perf_counter() - started}


def main() -> None:
    job = json.load(sys.stdin)
    json.dump(asyncio.run(burst(job["url"], job["secret"], [json.dumps(e) for e in job["envelopes"]])), sys.stdout)


if __name__ == "__main__":
    main()
