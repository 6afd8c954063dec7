"""`manage.py runbot`: run the Slack bot over Socket Mode (no public URL needed)."""

from __future__ import annotations

import signal
import sys

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Connect to Slack over Socket Mode and answer questions (needs SLACK_BOT_TOKEN and SLACK_APP_TOKEN)."

    def handle(self, *args, **options) -> None:
        missing = [name for name, hint in (("SLACK_BOT_TOKEN", "xoxb-"), ("SLACK_APP_TOKEN", "xapp-"))
                   if not getattr(settings, name)]
        if missing:
            raise CommandError(f"{', '.join(missing)} not set. Create the Slack app from bot/manifest.yml, then put "
                               "the bot token (xoxb-…) and an app-level token with connections:write (xapp-…) in "
                               ".env — see bot/README.md.")
        if not settings.SLACK_APP_TOKEN.startswith("xapp-"):
            raise CommandError("SLACK_APP_TOKEN must be an app-level token (starts with xapp-), not a bot token.")
        from slack_bolt.adapter.socket_mode import SocketModeHandler

        from bot.app import build_app, release_db_connections

        # Socket Mode requests are not signed (the WebSocket is authenticated by the app token).
        app = build_app(token=settings.SLACK_BOT_TOKEN, signing_secret=settings.SLACK_SIGNING_SECRET or "unused")
        # SIGTERM (a deploy, docker stop) exits like Ctrl-C, so questions already acked are still taken.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        self.stdout.write("Verity bot connected over Socket Mode. Ctrl-C to stop.")
        SocketModeHandler(release_db_connections(app), settings.SLACK_APP_TOKEN).start()
