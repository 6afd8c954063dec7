"""Shared test set-up: real PostgreSQL + pgvector (the embedded server), loopback-only network."""

from __future__ import annotations

import ipaddress
import os
import socket
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fixtures" / "corpus"
# Folders of screenshots the browser tests saved in this run, listed at the end of the output.
SCREENSHOT_FOLDERS = pytest.StashKey[list]()

_real_connect = socket.socket.connect


def _guarded_connect(sock, address):
    # The suite must never reach the internet: only loopback and unix sockets are allowed.
    if isinstance(address, tuple) and sock.family in (socket.AF_INET, socket.AF_INET6):
        host = address[0]
        try:
            allowed = ipaddress.ip_address(host).is_loopback
        except ValueError:
            allowed = host == "localhost"
        if not allowed:
            raise ConnectionRefusedError(f"tests may not connect to {host}: only loopback is allowed")
    return _real_connect(sock, address)


socket.socket.connect = _guarded_connect


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """A test database per test process, so parallel runs on one embedded server never collide."""
    from django.conf import settings

    test = settings.DATABASES["default"].setdefault("TEST", {})
    test["NAME"] = f"test_{settings.DATABASES['default']['NAME']}_{os.getpid()}"


@pytest.fixture(scope="session")
def embedder():
    """The real local MiniLM embedder, loaded once."""
    from knowledge.embedding import get_embedder

    return get_embedder()


@pytest.fixture(scope="session")
def corpus_db(django_db_setup, django_db_blocker):
    """The sample corpus ingested once into the test database (kept for the session)."""
    from django.core.management import call_command

    from knowledge.models import Document

    with django_db_blocker.unblock():
        if not Document.objects.filter(status=Document.Status.READY).exists():
            call_command("ingest", str(CORPUS), "--sync", "--collection", "General", "--public", verbosity=0)
        return list(Document.objects.all())


@pytest.fixture
def staff(client):
    """A staff user, logged in on the test client."""
    from tests.factories import make_user

    user = make_user(is_staff=True)
    client.force_login(user)
    return user


@pytest.fixture
def reviewer(client):
    """A member of the reviewers group (not staff), logged in on the test client."""
    from django.contrib.auth.models import Group

    from tests.factories import make_user
    from webapp.roles import REVIEWERS_GROUP

    user = make_user()
    user.groups.add(Group.objects.get_or_create(name=REVIEWERS_GROUP)[0])
    client.force_login(user)
    return user


@pytest.fixture(autouse=True)
def slack_journal_dir(settings, tmp_path):
    """Each test its own Slack journal (bot.journal), never the checkout's var/."""
    settings.VERITY_SLACK_JOURNAL_DIR = tmp_path / "slack-journal"


def pytest_terminal_summary(terminalreporter, config):
    folders = config.stash.get(SCREENSHOT_FOLDERS, [])
    if folders:
        terminalreporter.write_line(f"browser screenshots ({len(folders)} tests): {folders[0].parent}/")
