"""The Bolt App factory shared by the HTTP endpoint and the Socket Mode runner. Nothing is built at import."""

from __future__ import annotations

import logging

from django.conf import settings
from slack_bolt import App, BoltResponse
from slack_sdk import WebClient

from bot import actions, after_ack, journal, listeners
from bot.client import with_retry_handlers
from bot.gate import MALFORMED_ERRORS
from webapp.outage import is_database_outage

log = logging.getLogger(__name__)


def build_app(*, token: str, signing_secret: str, client: WebClient | None = None,
              process_before_response: bool = False, token_verification_enabled: bool = True) -> App:
    """A Bolt App with every Verity listener; `client` lets tests point it at a local Slack API.

    Question listeners ack, then hand the rest to the process's AfterAck pool (bot.after_ack), so a
    burst of events is acknowledged before any of them is worked on; with process_before_response
    (FaaS, tests) that work runs inline before the response instead.
    """
    client = client or WebClient(base_url=settings.SLACK_API_URL, timeout=15)
    if client.token is None:
        client.token = token
    app = App(client=with_retry_handlers(client), signing_secret=signing_secret, logger=bolt_logger(),
              process_before_response=process_before_response,
              token_verification_enabled=token_verification_enabled,
              # Verity uses neither say()/assistant threads nor workflow functions: less work per event.
              attaching_conversation_kwargs_enabled=False, attaching_function_token_enabled=False)
    later = after_ack.run_inline if process_before_response else after_ack.submit

    @app.use
    def provide_later(context, next):  # noqa: A002 - Bolt's name for the next middleware
        context["later"] = later
        next()

    app.error(answer_listener_error)
    listeners.register(app)
    actions.register(app)
    if not process_before_response:  # a long-lived server: record what a past outage or crash left behind
        journal.start_replayer(lambda body: listeners.take_journaled(app.client, body),
                               settings.VERITY_SLACK_JOURNAL_REPLAY_S)
    return app



def answer_listener_error(error: Exception, request, response) -> BoltResponse:
    """A listener failure as a status Slack and people can act on; the body is never logged."""
    kind = (request.body or {}).get("type") or ("command" if "command" in (request.body or {}) else "?")
    if is_database_outage(error):
        log.warning("Slack %s not handled: the database is unavailable", kind)
        return BoltResponse(status=503, body='{"error": "temporarily unavailable"}',
                            headers={"Content-Type": "application/json", "Retry-After": "30"})
    if isinstance(error, MALFORMED_ERRORS):
        log.warning("Slack %s refused as malformed: %s: %s", kind, error.__class__.__name__, error)
        return BoltResponse(status=400, body='{"error": "malformed Slack request"}',
                            headers={"Content-Type": "application/json"})
    log.error("Slack %s listener failed", kind, exc_info=error)
    return BoltResponse(status=500, body='{"error": "internal error"}', headers={"Content-Type": "application/json"})


def bolt_logger() -> logging.Logger:
    """Bolt's logger, at WARNING or above: at INFO, Bolt logs the whole body of a request whose signature
    fails, and bodies hold what people typed. (Bolt copies this level to each of its own loggers.)"""
    logger = logging.getLogger("slack_bolt")
    if logger.getEffectiveLevel() < logging.WARNING:
        logger.setLevel(logging.WARNING)
    return logger


def release_db_connections(app: App) -> App:
    """Close Django DB connections around each listener run in Bolt's own threads (Socket Mode).

    The HTTP adapter (SlackRequestHandler) does the same for itself; without it, every pool thread
    keeps a connection open forever.
    """
    from slack_bolt.adapter.django.handler import DjangoListenerCompletionHandler, DjangoListenerStartHandler

    app.listener_runner.listener_start_handler = DjangoListenerStartHandler()
    app.listener_runner.listener_completion_handler = DjangoListenerCompletionHandler()
    return app


def app_from_settings(**kwargs) -> App:
    """The App configured by SLACK_BOT_TOKEN / SLACK_SIGNING_SECRET (both required)."""
    from django.core.exceptions import ImproperlyConfigured

    missing = [name for name in ("SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET") if not getattr(settings, name)]
    if missing:
        raise ImproperlyConfigured(f"{' and '.join(missing)} must be set to run the Slack bot (see bot/README.md).")
    return build_app(token=settings.SLACK_BOT_TOKEN, signing_secret=settings.SLACK_SIGNING_SECRET, **kwargs)
