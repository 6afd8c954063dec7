"""Work that follows an ack runs after a burst of acks, not between them.

Bolt acknowledges an Events API request before its listener runs, then runs the listener in a
thread of the same process. Taking a question (redaction, a few queries, the 👀 reaction and the
placeholder) costs about 10 ms of CPU, so when 100 events arrive together the listeners of the first
ones hold the GIL while the later ones wait for their ack. `AfterAck` keeps that work in a queue and
starts it only once the process has had no new event for `quiet_s`, or when the oldest piece has
waited `max_wait_s` (so steady traffic cannot starve it). Acks go first; the placeholder follows a
few tens of milliseconds later.

Nothing is lost that was not already at risk: Bolt runs listeners in memory after the ack too.
A process that exits normally (a deploy or restart: gunicorn's graceful worker exit, `runbot` on
SIGTERM or Ctrl-C) first runs what is still queued; only a hard kill loses it.
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
import time
from collections import deque
from concurrent.futures import Future
from typing import Any, Callable

from django.db import close_old_connections, connections

log = logging.getLogger(__name__)


class AfterAck:
    """A small thread pool whose tasks wait for a quiet moment (see the module docstring)."""

    def __init__(self, *, threads: int = 4, quiet_s: float = 0.2, max_wait_s: float = 1.0,
                 name: str = "after-ack") -> None:
        if threads < 1 or quiet_s < 0 or max_wait_s < 0:
            raise ValueError("threads must be >= 1 and the delays >= 0")
        self.quiet_s, self.max_wait_s = quiet_s, max_wait_s
        self._tasks: deque[tuple[float, Future, Callable[..., Any], tuple, dict]] = deque()
        self._cond = threading.Condition()
        self._last_submit = 0.0
        self._closed = False
        self._threads = [threading.Thread(target=self._work, name=f"{name}-{i}", daemon=True) for i in range(threads)]
        for thread in self._threads:
            thread.start()

    def submit(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Future:
        """Queue `fn(*args, **kwargs)`; it runs after the current burst of submissions."""
        future: Future = Future()
        with self._cond:
            if self._closed:
                raise RuntimeError("AfterAck is shut down")
            now = time.monotonic()
            self._last_submit = now
            self._tasks.append((now, future, fn, args, kwargs))
            self._cond.notify()
        return future

    def pending(self) -> int:
        with self._cond:
            return len(self._tasks)

    def shutdown(self, wait: bool = True) -> None:
        """Stop taking work; queued tasks still run (at once, without waiting for quiet)."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        if wait:
            for thread in self._threads:
                thread.join()

    def _next(self, busy: bool):
        """The next task once it may start; _IDLE when a busy thread finds the queue empty; None at shutdown."""
        with self._cond:
            while True:
                if self._tasks:
                    now = time.monotonic()
                    enqueued = self._tasks[0][0]
                    wait = min(self._last_submit + self.quiet_s - now, enqueued + self.max_wait_s - now)
                    if wait <= 0 or self._closed:
                        return self._tasks.popleft()
                    self._cond.wait(wait)
                elif self._closed:
                    return None
                elif busy:
                    return _IDLE
                else:
                    self._cond.wait()

    def _work(self) -> None:
        busy = False
        while (task := self._next(busy)) is not None:
            if task is _IDLE:  # the burst is worked off: give this thread's connection back
                connections.close_all()
                busy = False
                continue
            busy = True
            _, future, fn, args, kwargs = task
            if not future.set_running_or_notify_cancel():
                continue
            close_old_connections()  # drops a broken or expired connection, as at a request boundary
            try:
                future.set_result(fn(*args, **kwargs))
            except BaseException as exc:  # noqa: BLE001 - handed to the future and logged, the thread lives on
                log.exception("work after an ack failed: %s", getattr(fn, "__name__", fn))
                future.set_exception(exc)
        connections.close_all()


_IDLE = object()
_shared: tuple[int, AfterAck] | None = None
_shared_lock = threading.Lock()


def shared() -> AfterAck:
    """This process's AfterAck pool, started on first use (never at import). A forked child (gunicorn
    preloads the app in its master) gets its own: threads do not survive a fork."""
    global _shared
    if _shared is None or _shared[0] != os.getpid():
        with _shared_lock:
            if _shared is None or _shared[0] != os.getpid():
                pool = AfterAck()
                atexit.register(pool.shutdown)  # a normal exit runs what is queued, at once
                _shared = (os.getpid(), pool)
    return _shared[1]


def submit(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Future:
    """Run `fn` in this process's AfterAck pool."""
    return shared().submit(fn, *args, **kwargs)


def run_inline(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """The same call signature, run at once: for process_before_response (FaaS, tests)."""
    return fn(*args, **kwargs)
