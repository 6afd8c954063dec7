"""AfterAck: work queued by Slack listeners starts after a burst of acks, never between them."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from bot import after_ack
from bot.after_ack import AfterAck


def test_a_burst_is_acknowledged_before_any_work_starts():
    pool = AfterAck(threads=2, quiet_s=0.15, max_wait_s=5)
    started: list[float] = []
    lock = threading.Lock()

    def work():
        with lock:
            started.append(time.monotonic())

    try:
        futures = []
        for _ in range(20):  # a burst: a submission every few milliseconds
            futures.append(pool.submit(work))
            last_submit = time.monotonic()
            time.sleep(0.005)
        for future in futures:
            future.result(timeout=10)
    finally:
        pool.shutdown()
    assert len(started) == 20
    assert min(started) >= last_submit + 0.15 * 0.95  # nothing ran until the process had been quiet


def test_steady_traffic_cannot_starve_the_work():
    pool = AfterAck(threads=1, quiet_s=0.2, max_wait_s=0.3)
    first_started = threading.Event()
    try:
        first = pool.submit(first_started.set)
        begun = time.monotonic()
        while not first_started.is_set() and time.monotonic() - begun < 5:
            pool.submit(lambda: None)  # never quiet for 0.2 s
            time.sleep(0.02)
        stopped_submitting = time.monotonic()
        first.result(timeout=5)
    finally:
        pool.shutdown()
    assert first_started.is_set() and stopped_submitting - begun < 2  # it ran while traffic went on


def test_a_failing_piece_of_work_is_reported_and_the_pool_goes_on():
    pool = AfterAck(threads=1, quiet_s=0, max_wait_s=0)

    def broken():
        raise ValueError("bad event")

    try:
        failed = pool.submit(broken)
        fine = pool.submit(lambda: 42)
        with pytest.raises(ValueError, match="bad event"):
            failed.result(timeout=5)
        assert fine.result(timeout=5) == 42
    finally:
        pool.shutdown()


def test_shutdown_runs_what_was_queued_and_refuses_more():
    pool = AfterAck(threads=1, quiet_s=60, max_wait_s=60)  # would wait a minute for a quiet moment
    ran = []
    pool.submit(ran.append, "queued")
    pool.shutdown(wait=True)
    assert ran == ["queued"]
    with pytest.raises(RuntimeError):
        pool.submit(ran.append, "late")


def test_bad_settings_are_refused():
    with pytest.raises(ValueError):
        AfterAck(threads=0)


def _in_child(queue):
    queue.put(after_ack.submit(lambda: "ran in the child").result(timeout=10))


def test_a_forked_process_gets_its_own_pool():
    # gunicorn forks workers from a master that may already hold a pool: threads do not survive a fork.
    after_ack.submit(lambda: None).result(timeout=10)
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_in_child, args=(queue,))
    child.start()
    child.join(timeout=30)
    assert child.exitcode == 0
    assert queue.get(timeout=5) == "ran in the child"


def test_a_normal_exit_runs_what_is_still_queued(tmp_path):
    done = tmp_path / "done"
    script = textwrap.dedent(f"""
        import pathlib
        from bot import after_ack
        after_ack.submit(pathlib.Path({str(done)!r}).write_text, "taken")
        # the process exits at once: the work waits for a quiet moment that never comes
    """)
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60, cwd=Path(__file__).resolve().parents[1],
                   env={**os.environ, "DJANGO_SETTINGS_MODULE": "webapp.settings"})
    assert done.read_text() == "taken"


@pytest.mark.django_db(transaction=True)
def test_a_burst_reuses_a_connection_and_an_idle_pool_gives_it_back():
    from django.db import connection

    def backend_pid() -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            return cursor.fetchone()[0]

    def others() -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                           "AND pid <> pg_backend_pid()")
            return cursor.fetchone()[0]

    before = others()
    pool = AfterAck(threads=1, quiet_s=0.05, max_wait_s=5)
    try:
        pids = [future.result(timeout=10) for future in [pool.submit(backend_pid) for _ in range(5)]]
        assert len(set(pids)) == 1  # one connection for the whole burst, not one per question
        deadline = time.monotonic() + 5
        while others() > before and time.monotonic() < deadline:
            time.sleep(0.05)
        assert others() == before  # idle again: the pool's thread holds no connection
    finally:
        pool.shutdown()
