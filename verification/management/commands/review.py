"""`manage.py review verify|flag ANSWER_ID [--note TEXT] [--as USERNAME]`: a reviewer's verdict from the terminal."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.core.management.base import BaseCommand, CommandError

from knowledge.models import Answer
from verification import curation


class Command(BaseCommand):
    help = "Verify or flag an answer as a reviewer (the same rule as Slack, the console, the admin and the API)."

    def add_arguments(self, parser):
        parser.add_argument("action", choices=["verify", "flag"])
        parser.add_argument("answer_id", type=int)
        parser.add_argument("--note", default="", help="why (kept in the answer's review history)")
        parser.add_argument("--as", dest="username", default="",
                            help="the reviewer's username (default: the only active superuser)")

    def handle(self, *args, **options):
        answer = Answer.objects.filter(pk=options["answer_id"]).first()
        if answer is None:
            raise CommandError(f"No answer {options['answer_id']}.")
        reviewer = self._reviewer(options["username"])
        try:
            if options["action"] == "verify":
                curation.verify(answer, reviewer, note=options["note"])
            else:
                curation.flag(answer, reviewer, note=options["note"])
        except PermissionDenied as exc:
            raise CommandError(f"{reviewer.get_username()} is not a reviewer: {exc}") from exc
        answer.refresh_from_db()
        self.stdout.write(f"Answer {answer.pk}: {answer.get_status_display()}"
                          + (f" — {answer.badge()}" if answer.badge() else ""))

    def _reviewer(self, username: str):
        users = get_user_model().objects.filter(is_active=True)
        if username:
            user = users.filter(username=username).first()
            if user is None:
                raise CommandError(f"No active user {username!r}.")
            return user
        superusers = list(users.filter(is_superuser=True)[:2])
        if len(superusers) != 1:
            raise CommandError("Say who reviews with --as USERNAME.")
        return superusers[0]
