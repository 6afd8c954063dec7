"""Load, before serving, what every web process would otherwise load on its first request."""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import connections
from django.urls import get_resolver

log = logging.getLogger(__name__)


def warm() -> list[str]:
    """Import the views, build the Slack request handler (when configured), load the redaction engine.

    Returns what was done, one line each; a failure is reported and skipped (the request that needs
    the part builds it then), never raised: the web tier must start even when Slack is unreachable.
    """
    done = []
    get_resolver().url_patterns  # noqa: B018 - imports every view module
    done.append("views imported")
    if settings.SLACK_BOT_TOKEN and settings.SLACK_SIGNING_SECRET:
        try:
            from bot.views import handler

            handler()
            done.append("Slack app ready")
        except Exception as exc:  # noqa: BLE001 - e.g. Slack unreachable or a revoked token
            log.warning("Slack app not built at start-up (%s); the first Slack request will try again", exc)
            done.append(f"Slack app not ready: {exc}")
    from knowledge.redaction import redact

    redact("warm-up: jane.doe@example.com")
    done.append("redaction engine loaded")
    from knowledge.embedding import get_embedder

    get_embedder().embed(["warm-up"], kind="query")  # loading the model costs seconds: not on a request
    done.append("embedder loaded")
    connections.close_all()
    return done
