"""make_* factories for tests."""

from __future__ import annotations

import itertools

from django.contrib.auth import get_user_model

from knowledge.models import Collection

_seq = itertools.count(1)


def make_user(username: str | None = None, password: str = "pw", **fields):
    """A user with a unique name."""
    return get_user_model().objects.create_user(username=username or f"user{next(_seq)}", password=password, **fields)


def make_collection(name: str | None = None, **fields) -> Collection:
    """A collection with a unique name."""
    return Collection.objects.create(name=name or f"Collection {next(_seq)}", **fields)


def all_text(parsed) -> str:
    """Every block's text of a parsed document, one block a line."""
    return "\n".join(block.text for block in parsed.blocks)
