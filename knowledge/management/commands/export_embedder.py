"""`manage.py export_embedder [--force]`: export MiniLM to ONNX so commands start without torch."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from knowledge import onnx_export


class Command(BaseCommand):
    help = "Export the installed all-MiniLM-L6-v2 to ONNX (checked against torch) for fast start-up."
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("--force", action="store_true", help="export again even when the file is current")

    def handle(self, *args, **options):
        path = settings.VERITY_ONNX_MODEL
        try:
            report = onnx_export.export(path, force=options["force"])
        except RuntimeError as error:
            raise CommandError(str(error)) from None
        verb = "is current" if report.skipped else "written"
        self.stdout.write(f"ONNX embedder {verb}: {report.path} (min cosine vs torch {report.min_cosine:.6f})")
