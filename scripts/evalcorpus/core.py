"""What every step of the corpus build shares: its error, its cache folder, its log and its checksum."""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path


class CorpusError(Exception):
    """The corpus could not be built; the message says what to do."""


def cache_root() -> Path:
    return Path(os.environ.get("VERITY_EVAL_CACHE") or Path.home() / ".cache" / "verity" / "eval")


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
