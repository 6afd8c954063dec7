"""`make worker` / `make run`: a worker's children never outlive it, however its main process ends."""

from __future__ import annotations

import signal
import subprocess
import sys

import psutil
import pytest

from tests.live import ROOT, db_env, wait_until

pytestmark = pytest.mark.django_db(transaction=True)


def _gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def _start_worker() -> tuple[subprocess.Popen, psutil.Process, list[int]]:
    """qcluster under scripts/process_group.py, once it has started its sentinel and workers."""
    supervisor = subprocess.Popen([sys.executable, "scripts/process_group.py", "--grace", "5", "--",
                                   sys.executable, "manage.py", "qcluster"], cwd=ROOT, env=db_env(),
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    tree = psutil.Process(supervisor.pid)
    wait_until(lambda: len(tree.children(recursive=True)) >= 4, 120, "qcluster and its children")
    leader = tree.children()[0]
    return supervisor, leader, [p.pid for p in leader.children(recursive=True)]


@pytest.mark.parametrize("how", ["the worker's main process is killed", "the supervisor is asked to stop"])
def test_no_worker_process_outlives_the_worker(how):
    supervisor, leader, children = _start_worker()
    try:
        assert children
        if how.startswith("the worker's"):
            leader.send_signal(signal.SIGKILL)  # nothing of qcluster's own shutdown can run
        else:
            supervisor.send_signal(signal.SIGTERM)
        supervisor.wait(timeout=60)
        wait_until(lambda: all(_gone(pid) for pid in [leader.pid, *children]), 30, "every worker process to end")
    finally:
        if supervisor.poll() is None:
            supervisor.kill()
