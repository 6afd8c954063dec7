"""`manage.py ask "QUESTION" [--json]`: the same question path as Slack, from the terminal."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from knowledge.answering import AskOptions, QuestionError, answer_question, check_question
from knowledge.management.commands._schema import schema_up_to_date


class Command(BaseCommand):
    help = "Ask the knowledge base a question."
    # The system checks import every URL module (API, Slack, admin); a one-shot question needs none.
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("question")
        parser.add_argument("--json", action="store_true", help="print the full result as JSON")
        parser.add_argument("--no-cache", action="store_true", help="do not reuse stored answers")

    def handle(self, *args, **options):
        try:
            question = check_question(options["question"])
        except QuestionError as exc:
            raise CommandError(str(exc)) from exc
        with schema_up_to_date():
            result = answer_question(question, AskOptions(channel="cli", use_cache=not options["no_cache"]))
        if options["json"]:
            self.stdout.write(json.dumps(result.to_dict(), indent=2, default=str))
            return
        if result.warning:
            self.stdout.write(self.style.WARNING(result.warning))
        self.stdout.write(result.answer)
        if result.citations:
            self.stdout.write("\nSources:")
            for citation in result.citations:
                self.stdout.write(f"  [{citation.n}] {citation.title} — {citation.source}  {citation.url}")
        badge = " · verified" if result.verified else ""
        self.stdout.write(self.style.SUCCESS(
            f"\nConfidence {result.confidence:.0%}{badge} · cache {result.cache} · {result.timings_ms.get('total', 0):.0f} ms"))
