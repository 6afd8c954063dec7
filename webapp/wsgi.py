"""WSGI entry point (gunicorn webapp.wsgi, and runserver through WSGI_APPLICATION).

Slack's POST /slack/events goes straight to Bolt (bot.wsgi); everything else to Django.
"""
import os

from django.core.wsgi import get_wsgi_application

from webapp.env import exit_on_bad_setting

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "webapp.settings")
django_application = exit_on_bad_setting(get_wsgi_application)

from bot.wsgi import SlackEventsFirst  # noqa: E402 - needs Django set up first

application = SlackEventsFirst(django_application)
