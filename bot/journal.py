"""A local durable journal of Slack questions, written before the ack and cleared once recorded.

Slack counts an acked event as delivered and never sends it again; Verity records the question in
the database only after the ack (bot.after_ack). If the database is down at that moment the question
would be lost. So each question is first written to a file (fsync'd, renamed into place: a crash
leaves a whole entry or none), removed once its SlackQuestion row exists, and replayed at start and
every few seconds while any is left. Replay is safe: a recorded event id is a no-op.

Entries hold the raw event (the question before redaction) only until it is recorded; the files are
readable by the service's user alone.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
import time
from pathlib import Path
from typing import Callable

from django.conf import settings

log = logging.getLogger(__name__)


def _name(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()[:32] + ".json"


class Journal:
    """One file per pending question under `directory`."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)

    def write(self, key: str, body: dict) -> None:
        """Durably store `body` under `key` (an event id) before the event is acknowledged."""
        self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        final = self.directory / _name(key)
        temporary = final.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
        data = json.dumps({"key": key, "at": time.time(), "body": body}).encode()
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temporary, final)

    def done(self, key: str) -> None:
        """The question is recorded: forget it."""
        try:
            (self.directory / _name(key)).unlink()
        except FileNotFoundError:
            pass

    def pending(self, older_than_s: float = 0.0) -> list[dict]:
        """Entries not yet recorded, oldest first (those younger than `older_than_s` are still in flight)."""
        if not self.directory.is_dir():
            return []
        cutoff = time.time() - older_than_s
        entries = []
        for path in self.directory.glob("*.json"):
            try:
                entry = json.loads(path.read_bytes())
            except (OSError, ValueError):
                continue  # being replaced right now, or removed
            if entry.get("at", 0) <= cutoff:
                entries.append(entry)
        return sorted(entries, key=lambda e: e["at"])


def journal() -> Journal:
    """The process's journal (settings.VERITY_SLACK_JOURNAL_DIR)."""
    return Journal(settings.VERITY_SLACK_JOURNAL_DIR)


def replay(take: Callable[[dict], None], *, older_than_s: float = 0.0) -> int:
    """Hand each pending entry's body to `take` (which records it and clears the entry); returns how many
    were taken. Stops at the first failure: the database is probably still down."""
    taken = 0
    for entry in journal().pending(older_than_s):
        try:
            take(entry["body"])
        except Exception as exc:  # noqa: BLE001 - kept for the next round
            log.warning("Slack journal replay paused (%s); %d entr(ies) wait", type(exc).__name__,
                        len(journal().pending()))
            break
        taken += 1
    if taken:
        log.info("Slack journal: %d question(s) recorded after a delay", taken)
    return taken


class Replayer:
    """A daemon thread replaying the journal every `interval_s` seconds (entries older than that)."""

    def __init__(self, take: Callable[[dict], None], interval_s: float) -> None:
        self.take, self.interval_s = take, interval_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="slack-journal", daemon=True)

    def start(self) -> "Replayer":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        from django.db import close_old_connections

        while not self._stop.wait(self.interval_s):
            try:
                replay(self.take, older_than_s=self.interval_s)
            finally:
                close_old_connections()


_replayer: Replayer | None = None
_replayer_lock = threading.Lock()


def start_replayer(take: Callable[[dict], None], interval_s: float) -> None:
    """Start the process's one Replayer (later calls, e.g. an App rebuilt after a settings change, keep it)."""
    global _replayer
    with _replayer_lock:
        if _replayer is None:
            _replayer = Replayer(take, interval_s).start()
