"""Telling a database outage (retry later) from a bad query (a bug)."""

from __future__ import annotations

from django.db import DatabaseError, InterfaceError, OperationalError

RETRY_AFTER_S = 30


def is_database_outage(exc: BaseException) -> bool:
    """The database is unreachable or went away (not a bad query)."""
    if isinstance(exc, (OperationalError, InterfaceError)):
        return True
    cause = exc.__cause__ or exc.__context__
    return isinstance(exc, DatabaseError) and isinstance(cause, (OperationalError, InterfaceError))
