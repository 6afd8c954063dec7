#!/usr/bin/env python3
"""Run a command as the leader of its own process group and never leave any of the group behind.

`make worker`, `make run`: django-q's qcluster forks a sentinel, a monitor, a pusher and its workers.
When the qcluster process itself dies (crash, OOM kill, SIGKILL), those children would live on,
holding tasks and database connections. Here, when the leader exits for any reason, or when this
process is asked to stop, the whole group is terminated (then killed after a grace period).

    python scripts/process_group.py [--grace SECONDS] -- COMMAND [ARGS...]
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def stop_group(pgid: int, grace: float) -> None:
    """SIGTERM to every process of the group; SIGKILL to what is left after `grace` seconds."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(pgid, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline:
            if not _group_alive(pgid):
                return
            time.sleep(0.1)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grace", type=float, default=20.0, help="seconds between SIGTERM and SIGKILL")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("a command is required")
    leader = subprocess.Popen(command, start_new_session=True)
    stopping_since: list[float] = []

    def forward(signum, _frame):
        stopping_since.append(time.monotonic())
        try:
            os.killpg(leader.pid, signum)
        except ProcessLookupError:
            pass

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, forward)
    try:
        while True:
            try:
                code = leader.wait(timeout=0.2)
                break
            except subprocess.TimeoutExpired:
                # Asked to stop: the group gets `grace` seconds to shut down cleanly, not forever.
                if stopping_since and time.monotonic() - stopping_since[0] > args.grace:
                    stop_group(leader.pid, args.grace)
    finally:
        # The leader is gone (it exited, or was killed): whatever it started goes with it.
        stop_group(leader.pid, args.grace)
    return code if code >= 0 else 128 - code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
