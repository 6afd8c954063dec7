"""Strict readers for settings that come from the environment.

Each helper raises ImproperlyConfigured naming the variable when its value cannot be used,
so a typo in `.env` stops the process at start instead of surfacing as odd behaviour later.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from django.core.exceptions import ImproperlyConfigured

T = TypeVar("T")

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def _raw(name: str) -> str | None:
    value = os.environ.get(name)
    return value.strip() if value is not None else None


def env_str(name: str, default: str = "") -> str:
    """Return the variable as text, or the default when unset."""
    value = _raw(name)
    return default if value is None or value == "" else value


def env_bool(name: str, default: bool = False) -> bool:
    """Return the variable as a boolean; only the usual spellings are accepted."""
    value = _raw(name)
    if value is None:
        return default
    lowered = value.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be one of 1/0, true/false, yes/no, on/off; got {value!r}")


def _number(name: str, default, kind: type, noun: str, minimum, maximum):
    value = _raw(name)
    if value is None or value == "":
        return default
    try:
        number = kind(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be {noun}; got {value!r}") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}; got {number}")
    if maximum is not None and number > maximum:
        raise ImproperlyConfigured(f"{name} must be at most {maximum}; got {number}")
    return number


def env_int(name: str, default: int, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """Return the variable as an integer within the given bounds."""
    return _number(name, default, int, "a whole number", minimum, maximum)


def env_float(name: str, default: float, *, minimum: float | None = None, maximum: float | None = None) -> float:
    """Return the variable as a float within the given bounds."""
    return _number(name, default, float, "a number", minimum, maximum)


def env_choice(name: str, choices: tuple[str, ...], default: str) -> str:
    """Return the variable when it is one of the allowed choices."""
    value = env_str(name, default).lower()
    if value not in choices:
        raise ImproperlyConfigured(f"{name} must be one of {', '.join(choices)}; got {value!r}")
    return value


def env_list(name: str, default: tuple[str, ...] = ()) -> list[str]:
    """Return a comma-separated variable as a list of non-empty items."""
    value = _raw(name)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def env_path(name: str, default: Path) -> Path:
    """Return the variable as an absolute path."""
    value = env_str(name, "")
    return Path(value).expanduser().resolve() if value else default


_RATE_PERIODS = ("s", "sec", "second", "m", "min", "minute", "h", "hour", "d", "day")


def env_rate(name: str, default: str) -> str:
    """Return a request rate such as `60/min` (count/period: s, min, hour or day)."""
    value = env_str(name, default).lower().replace(" ", "")
    count, _, period = value.partition("/")
    if not count.isdigit() or int(count) < 1 or period not in _RATE_PERIODS:
        raise ImproperlyConfigured(f"{name} must look like 60/min (count/s, min, hour or day); got {value!r}")
    return value


def env_identifier(name: str, default: str) -> str:
    """Return a lower-case SQL identifier (letters, digits, underscores), e.g. a database name."""
    value = env_str(name, default)
    if not value.replace("_", "a").isalnum() or not value.islower() or value[0].isdigit():
        raise ImproperlyConfigured(f"{name} must be lower-case letters, digits and underscores; got {value!r}")
    return value


def load_env_file(path: Path) -> list[str]:
    """Copy `NAME=value` lines from a `.env` file into the environment; variables already set win.

    Returns the names it set. A missing file is not an error: every variable has a local default.
    """
    if not path.is_file():
        return []
    from dotenv import dotenv_values

    loaded = []
    for name, value in dotenv_values(path, interpolate=True).items():
        if value is not None and name not in os.environ:
            os.environ[name] = value
            loaded.append(name)
    return loaded


def exit_on_bad_setting(start: Callable[[], T]) -> T:
    """Run a process entry point; a setting that cannot be used ends it with one line, no traceback."""
    try:
        return start()
    except ImproperlyConfigured as error:
        sys.stderr.write(f"Configuration error: {error} (set it in .env or the environment; see .env.example)\n")
        raise SystemExit(2) from None


def main(argv: list[str]) -> int:
    """`python -m webapp.env NAME...`: print each variable after `.env` is read (for shell scripts)."""
    load_env_file(Path(os.environ.get("VERITY_ENV_FILE") or Path(__file__).resolve().parent.parent / ".env"))
    for name in argv:
        print(os.environ.get(name, ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
