"""Slack users ↔ Django users, matched by e-mail address (users.info / users.lookupByEmail)."""

from __future__ import annotations

import logging

from django.contrib.auth import get_user_model
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from webapp.roles import can_review

log = logging.getLogger(__name__)


def slack_email(client: WebClient, slack_user_id: str) -> str:
    """The Slack user's e-mail address ('' when hidden, missing, or the scope is not granted)."""
    try:
        user = client.users_info(user=slack_user_id)["user"]
    except SlackApiError as exc:
        log.warning("users.info failed for %s: %s", slack_user_id, exc.response.get("error"))
        return ""
    return (user.get("profile") or {}).get("email", "") or ""


def django_user_for(client: WebClient, slack_user_id: str):
    """The active Django user with the same e-mail as this Slack user, or None (→ public collections only)."""
    email = slack_email(client, slack_user_id)
    if not email:
        return None
    return get_user_model().objects.filter(email__iexact=email, is_active=True).order_by("pk").first()


def is_reviewer(user) -> bool:
    """Staff, or a member of the "reviewers" group (the console's rule, see webapp.roles.can_review)."""
    return can_review(user)


def slack_ids_for(client: WebClient, emails: list[str]) -> list[str]:
    """Slack user ids for these e-mail addresses (best effort: unknown addresses are skipped)."""
    ids = []
    for email in emails:
        try:
            ids.append(client.users_lookupByEmail(email=email)["user"]["id"])
        except SlackApiError:
            continue
    return ids
