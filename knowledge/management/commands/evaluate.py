"""`manage.py evaluate QUESTIONS.jsonl [--k 5] [--json]`: retrieval, refusal and answer quality figures."""

from __future__ import annotations

import json
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from knowledge.answering import AskOptions, answer_question
from knowledge.evaluation import score


def load_questions(path: str) -> list[dict]:
    """Questions from a JSONL file; a line that is not a JSON object is an error naming its line."""
    items = []
    for number, line in enumerate(Path(path).read_text().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CommandError(f"{path}:{number}: not valid JSON ({exc})") from None
        if "question" not in item:
            raise CommandError(f"{path}:{number}: missing 'question'")
        item.setdefault("id", f"line{number}")
        item.setdefault("answerable", True)
        item.setdefault("expected_sources", [])
        items.append(item)
    return items


def run(items: list[dict], *, progress: bool = True) -> list[dict]:
    """Ask every question (no cache, nothing stored) and collect what scoring needs."""
    outcomes = []
    for item in tqdm(items, desc="Evaluating", unit="q", disable=not progress or None):
        started = time.perf_counter()
        result = answer_question(item["question"], AskOptions(channel="eval", use_cache=False, store=False))
        latency = (time.perf_counter() - started) * 1000
        outcomes.append({
            "id": item["id"],
            "refused": result.refused,
            "answer": result.answer,
            "confidence": result.confidence,
            "citations": [c.to_dict() for c in result.citations],
            "retrieved": [r["source"] for r in result.retrieved],
            "latency_ms": round(latency, 1),
            "evidence": result.evidence,
        })
    return outcomes


class Command(BaseCommand):
    help = "Evaluate the question path on a JSONL question set."

    def add_arguments(self, parser):
        parser.add_argument("path")
        parser.add_argument("--k", type=int, default=5)
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, **options):
        items = load_questions(options["path"])
        if not items:
            raise CommandError(f"{options['path']}: no questions")
        outcomes = run(items, progress=not options["json"])
        metrics = score(items, outcomes, k=options["k"])
        if options["json"]:
            self.stdout.write(json.dumps({**metrics, "questions": outcomes}, default=str))
            return
        width = max(len(name) for name in metrics)
        for name, value in metrics.items():
            self.stdout.write(f"{name:<{width}}  {value}")
