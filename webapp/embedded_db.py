"""The embedded PostgreSQL 16 + pgvector used when DATABASE_URL is unset.

pgserver ships the binaries in a wheel; the data lives under `var/pgdata` and the server keeps
running after the process that started it exits, so every local process (web, worker, tests,
management commands) shares one server.
"""

from __future__ import annotations

import logging
from pathlib import Path

DB_NAME = "verity"


def ensure_embedded_database(data_dir: Path, name: str = DB_NAME) -> dict:
    """Start (or reuse) the embedded server and return Django DATABASES['default'] options for the
    database `name` (created when missing; `make eval` keeps its corpus in a database of its own)."""
    DB_NAME = name
    import warnings

    # platformdirs warns that XDG_RUNTIME_DIR is unset on servers; its /tmp fallback is what we want.
    warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR")
    import pgserver

    logging.getLogger("pgserver").setLevel(logging.WARNING)
    data_dir.mkdir(parents=True, exist_ok=True)
    server = pgserver.get_server(data_dir, cleanup_mode=None)
    info = server.get_postmaster_info()
    exists = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{DB_NAME}';")
    if "1 row" not in exists:
        server.psql(f"CREATE DATABASE {DB_NAME};")
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": DB_NAME,
        "USER": "postgres",
        "PASSWORD": "",
        "HOST": str(info.socket_dir) if info.socket_dir else "127.0.0.1",
        "PORT": "" if info.socket_dir else str(info.port),
    }

