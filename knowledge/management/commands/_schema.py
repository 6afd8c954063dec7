"""A database older than the code says so in one line instead of a traceback."""

from __future__ import annotations

from contextlib import contextmanager

from django.core.management.base import CommandError
from django.db.utils import ProgrammingError

# PostgreSQL's codes for a missing table (42P01) and a missing column (42703).
_MISSING = {"42P01", "42703"}


@contextmanager
def schema_up_to_date():
    """Turn "relation/column does not exist" into the step that fixes it: apply the migrations."""
    try:
        yield
    except ProgrammingError as exc:
        if getattr(exc.__cause__, "sqlstate", None) not in _MISSING:
            raise
        raise CommandError(f"the database is older than this code ({str(exc.__cause__).splitlines()[0]}): run "
                           "`.venv/bin/python manage.py migrate` (`make run` and `make test` do it)") from None
