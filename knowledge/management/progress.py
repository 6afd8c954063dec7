"""Progress for long commands: a live bar on a terminal, a plain line every few seconds elsewhere.

tqdm draws with carriage returns, which a log file or CI output turns into one unreadable line (or,
with tqdm's `disable=None`, nothing at all); when output is not a terminal, print whole lines.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import TextIO

# Often enough to show a long ingestion is alive, rarely enough not to flood a log.
LINE_INTERVAL_SECONDS = 5.0


class Progress:
    """`with Progress(total, "Ingesting", "doc") as bar: bar.update(n)`; also `bar.n`."""

    def __init__(self, total: int, desc: str, unit: str, stream: TextIO | None = None,
                 interval: float = LINE_INTERVAL_SECONDS) -> None:
        self.total, self.desc, self.unit, self.n = total, desc, unit, 0
        self.stream = stream or sys.stderr
        self.interval = interval
        self._bar = None
        self._started = time.monotonic()
        self._stop = threading.Event()
        self._ticker = None
        if self.stream.isatty():
            from tqdm import tqdm

            self._bar = tqdm(total=total, desc=desc, unit=unit, file=self.stream)
        elif total:
            # A line on a clock, not on updates: one slow batch must still show the command is alive.
            self._ticker = threading.Thread(target=self._tick, name="progress", daemon=True)
            self._ticker.start()

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def update(self, count: int = 1) -> None:
        """Count `count` more items done."""
        self.n += count
        if self._bar is not None:
            self._bar.update(count)

    def close(self) -> None:
        """Finish: close the bar, or stop the clock and print the final line."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        elif self._ticker is not None:
            self._stop.set()
            self._ticker.join()
            self._ticker = None
            self._line(time.monotonic())

    def _tick(self) -> None:
        while not self._stop.wait(self.interval):
            self._line(time.monotonic())

    def _line(self, now: float) -> None:
        share = f" ({self.n / self.total:.0%})" if self.total else ""
        self.stream.write(f"{self.desc}: {self.n}/{self.total} {self.unit}{share}, {now - self._started:.0f}s\n")
        self.stream.flush()
