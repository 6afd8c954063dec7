"""The one place a Slack Web API client is built: token and API URL from settings, with retry handlers."""

from __future__ import annotations

from django.conf import settings
from slack_sdk import WebClient
from slack_sdk.http_retry.builtin_handlers import ConnectionErrorRetryHandler, RateLimitErrorRetryHandler

RATE_LIMIT_RETRIES = 3  # Slack answers 429 with Retry-After; wait and try again this many times


def with_retry_handlers(client: WebClient) -> WebClient:
    """Add the rate-limit (429 + Retry-After) and connection-error retry handlers once."""
    kinds = {type(h) for h in client.retry_handlers}
    if RateLimitErrorRetryHandler not in kinds:
        client.retry_handlers.append(RateLimitErrorRetryHandler(max_retry_count=RATE_LIMIT_RETRIES))
    if ConnectionErrorRetryHandler not in kinds:
        client.retry_handlers.append(ConnectionErrorRetryHandler(max_retry_count=1))
    return client


def slack_client(token: str | None = None) -> WebClient:
    """A WebClient for the bot token and API URL in settings (tests point SLACK_API_URL at a local fake)."""
    token = token or settings.SLACK_BOT_TOKEN
    if not token:
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured("SLACK_BOT_TOKEN is not set: the bot cannot post to Slack (see bot/README.md).")
    return with_retry_handlers(WebClient(token=token, base_url=settings.SLACK_API_URL, timeout=15))
