"""Progress lines when output is not a terminal: printed on a clock, whole lines, a final one."""

from __future__ import annotations

import io
import threading

from knowledge.management.progress import Progress


class Stream(io.StringIO):
    """A non-terminal stream that signals each line written."""

    def __init__(self):
        super().__init__()
        self.wrote = threading.Event()

    def write(self, text):
        self.wrote.set()
        return super().write(text)


def test_lines_come_on_a_clock_even_without_updates():
    stream = Stream()
    with Progress(10, "Ingesting", "documents", stream=stream, interval=0.01) as bar:
        bar.update(3)
        assert stream.wrote.wait(5), "a line is printed while the work is still running"
    lines = stream.getvalue().splitlines()
    assert len(lines) >= 2 and "\r" not in stream.getvalue()
    assert lines[-1].startswith("Ingesting: 3/10 documents (30%)")


def test_nothing_to_do_prints_nothing():
    stream = Stream()
    with Progress(0, "Ingesting", "documents", stream=stream, interval=0.01):
        pass
    assert stream.getvalue() == ""
