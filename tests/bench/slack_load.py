"""Load generator for the Slack bench, run as its own process so it shares no GIL with the server.

Reads {"url", "secret", "envelopes": [...]} as JSON on stdin, signs each envelope as Slack does and
posts them all at once from one asyncio loop (one connection each, like Slack's senders), then
prints {"latencies_ms": [...], "sent_at": [...], "sent_s": ...} as JSON: per envelope, the time
from sending to the complete 200 response, and the wall-clock time it was sent.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import sys
import time

import aiohttp


def signed_headers(body: str, secret: str) -> dict[str, str]:
    timestamp = str(int(time.time()))
    digest = hmac.new(secret.encode(), f"v0:{timestamp}:{body}".encode(), hashlib.sha256).hexdigest()
    return {"X-Slack-Request-Timestamp": timestamp, "X-Slack-Signature": f"v0={digest}",
            "Content-Type": "application/json"}


async def burst(url: str, secret: str, bodies: list[str]) -> dict:
    signed = [(body.encode(), signed_headers(body, secret)) for body in bodies]
    sent_at = [0.0] * len(bodies)
    connector = aiohttp.TCPConnector(limit=0, force_close=True)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=30)) as session:
        async def post(i: int) -> float:
            data, headers = signed[i]
            sent_at[i] = time.time()
            started = time.perf_counter()
            async with session.post(url, data=data, headers=headers) as response:
                await response.read()
                if response.status != 200:
                    raise RuntimeError(f"HTTP {response.status}")
            return (time.perf_counter() - started) * 1000

        started = time.perf_counter()
        latencies = await asyncio.gather(*(post(i) for i in range(len(bodies))))
    return {"latencies_ms": latencies, "sent_at": sent_at, "sent_s": time.perf_counter() - started}


def main() -> None:
    job = json.load(sys.stdin)
    result = asyncio.run(burst(job["url"], job["secret"], [json.dumps(e) for e in job["envelopes"]]))
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
