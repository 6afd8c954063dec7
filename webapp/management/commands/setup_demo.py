"""`manage.py setup_demo`: a demo admin and the sample corpus on an empty knowledge base."""

from __future__ import annotations

import os
import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand

from knowledge.models import Document


class Command(BaseCommand):
    help = "Create the demo admin (credentials printed) and ingest fixtures/corpus when the knowledge base is empty."

    def add_arguments(self, parser):
        parser.add_argument("--no-corpus", action="store_true", help="do not ingest the sample corpus")

    def handle(self, *args, **options):
        self._admin()
        if not options["no_corpus"] and not Document.objects.exists():
            corpus = settings.BASE_DIR / "fixtures" / "corpus"
            self.stdout.write(f"Empty knowledge base: ingesting the sample corpus from {corpus} …")
            call_command("ingest", str(corpus), "--sync", "--collection", settings.VERITY_DEFAULT_COLLECTION,
                         "--public")

    def _admin(self) -> None:
        User = get_user_model()
        username = os.environ.get("VERITY_ADMIN_USER", "admin")
        password_file = settings.VAR_DIR / "admin-password.txt"
        if User.objects.filter(username=username).exists():
            hint = f" (password in {password_file})" if password_file.exists() else ""
            self.stdout.write(f"Admin user: {username}{hint}")
            return
        password = os.environ.get("VERITY_ADMIN_PASSWORD") or secrets.token_urlsafe(12)
        User.objects.create_superuser(username=username, email=f"{username}@example.com", password=password)
        if not os.environ.get("VERITY_ADMIN_PASSWORD"):
            password_file.parent.mkdir(parents=True, exist_ok=True)
            password_file.write_text(password + "\n")
            password_file.chmod(0o600)
        self.stdout.write(self.style.SUCCESS(f"Created admin user '{username}' with password '{password}'"))
