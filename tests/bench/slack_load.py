"""Load generator for the Slack bench, run as its own process so it does not share the server's GIL.

Reads {"url", "secret", "envelopes": [...]} as JSON on stdin, posts every envelope at once (one
thread each), prints {"latencies_ms": [...], "sent_s": ...} as JSON.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor


def signed_headers(body: str, secret: str) -> dict[str, str]:
    timestamp = str(int(time.time()))
    digest = hmac.new(secret.encode(), f"v0:{timestamp}:{body}".encode(), hashlib.sha256).hexdigest()
    return {"X-Slack-Request-Timestamp": timestamp, "X-Slack-Signature": f"v0={digest}",
            "Content-Type": "application/json"}


def post(url: str, body: str, secret: str) -> float:
    request = urllib.request.Request(url, body.encode(), signed_headers(body, secret))
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=30) as response:
        response.read()
        if response.status != 200:
            raise RuntimeError(f"HTTP {response.status}")
    return (time.perf_counter() - started) * 1000


def main() -> None:
    job = json.load(sys.stdin)
    bodies = [json.dumps(envelope) for envelope in job["envelopes"]]
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=len(bodies)) as pool:
        latencies = list(pool.map(lambda body: post(job["url"], body, job["secret"]), bodies))
    json.dump({"latencies_ms": latencies, "sent_s": time.perf_counter() - started}, sys.stdout)


if __name__ == "__main__":
    main()
