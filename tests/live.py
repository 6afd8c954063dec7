"""Real processes for tests: the web tier (gunicorn) on the test database, on a free loopback port."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

from django.db import connection

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def db_env(**extra: str) -> dict:
    """The environment a child process needs to use this test's database."""
    db = connection.settings_dict
    env = dict(os.environ, DATABASE_URL=f"postgresql://{db['USER']}@/{db['NAME']}?host={db['HOST']}",
               DJANGO_SETTINGS_MODULE="webapp.settings")
    env.update(extra)
    return env


def wait_until(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def http(method: str, url: str, body: bytes | None = None, headers: dict | None = None,
         timeout: float = 60) -> tuple[int, dict, bytes]:
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


@contextmanager
def gunicorn(log: Path, *, workers: int = 1, **env: str):
    """A gunicorn web tier (without the warm-up) on a free port; yields its base URL."""
    port = free_port()
    argv = [sys.executable, "-m", "gunicorn", "webapp.wsgi", "-c", os.devnull, "--workers", str(workers),
            "--bind", f"127.0.0.1:{port}", "--timeout", "120"]
    with open(log, "w") as out:
        process = subprocess.Popen(argv, cwd=ROOT, env=db_env(**env), stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    base = f"http://127.0.0.1:{port}"

    def up() -> bool:
        assert process.poll() is None, log.read_text()[-3000:]
        try:
            return http("GET", base + "/login/", timeout=5)[0] == 200
        except OSError:
            return False

    try:
        wait_until(up, 120, "gunicorn")
        yield base
    finally:
        process.terminate()
        process.wait(timeout=30)


@contextmanager
def own_postgres(directory: Path):
    """A PostgreSQL server of the test's own (stoppable without disturbing the suite), migrated, with a
    superuser `ops` (password `pw-outage-1`); yields {"url", "stop", "start", "run"}."""
    import pgserver
    from pgserver._commands import pg_ctl

    server = pgserver.get_server(directory, cleanup_mode="delete")
    server.psql("CREATE DATABASE outage;")
    url = server.get_uri("outage")
    env = dict(os.environ, DATABASE_URL=url, DJANGO_SUPERUSER_PASSWORD="pw-outage-1")

    def run(*args: str) -> str:
        return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True,
                              capture_output=True, text=True).stdout

    run("migrate", "--noinput", "-v", "0")
    run("createsuperuser", "--noinput", "--username", "ops", "--email", "ops@example.com")
    try:
        yield {"url": url, "run": run, "start": server.ensure_postgres_running,
               "stop": lambda: pg_ctl(["-w", "-m", "fast", "stop"], pgdata=directory, user=server.system_user)}
    finally:
        server.cleanup()


@contextmanager
def qcluster(log: Path, **env: str):
    """A django-q2 worker (the default job backend) on the test database; yields its process.

    Stopped as an operator would: SIGTERM to qcluster alone (a SIGTERM that reaches its children too leaves it
    waiting for them), then whatever is left of its process group is killed."""
    argv = [sys.executable, "manage.py", "qcluster"]
    with open(log, "w") as out:
        process = subprocess.Popen(argv, cwd=ROOT, env=db_env(VERITY_TASK_BACKEND="django_q", **env), stdout=out,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    try:
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()
