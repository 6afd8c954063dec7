"""`manage.py evaluate QUESTIONS.jsonl [--k 5] [--json] [--collection NAME] [--floors FILE]`.

Retrieval, refusal, answer-quality, calibration and latency figures for a question set; with
--floors, exits non-zero when a metric falls below its floor (what `make eval` and `make test` use).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from knowledge.answering import AskOptions, answer_question
from knowledge.evaluation import folded, score
from knowledge.models import Chunk, Collection
from knowledge.management.commands._schema import schema_up_to_date


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


def run(items: list[dict], *, progress: bool = True, collection_ids: list[int] | None = None) -> list[dict]:
    """Ask every question (no cache, nothing stored) and collect what scoring needs."""
    outcomes = []
    for item in tqdm(items, desc="Evaluating", unit="q", disable=not progress or None, mininterval=2.0):
        started = time.perf_counter()
        options = AskOptions(channel="eval", use_cache=False, store=False, channel_collection_ids=collection_ids)
        result = answer_question(item["question"], options)
        latency = (time.perf_counter() - started) * 1000
        outcomes.append({
            **fact_places(item, result),
            "id": item["id"],
            "refused": result.refused,
            "answer": result.answer,
            "confidence": result.confidence,
            "warning": result.warning,
            "citations": [c.to_dict() for c in result.citations],
            # A chunk that holds short sections merged into it is found for each of them: its sources, its own first.
            "retrieved": [r["sections"] if len(r.get("sections") or []) > 1 else r["source"] for r in result.retrieved],
            "latency_ms": round(latency, 1),
            "evidence": result.evidence,
            "self_check_flags": self_check_flags(result),
        })
    return outcomes


def self_check_flags(result) -> list[str]:
    """The claims the answer checker failed in the answer as first written (its first round). An offline
    answer copies its sources, so each is a false flag of the checker, and it cost the answer a sentence."""
    rounds = (result.verification or {}).get("rounds") or []
    return [f"{f.get('verdict')}: {f.get('reason')} | {f.get('text')}" for f in (rounds[0].get("failing") or [])] \
        if rounds and not result.refused else []


def fact_places(item: dict, result) -> dict:
    """Where an answerable question's hint stands among the chunks the answer drew on: in a cited chunk, in
    one of the five best retrieved chunks, or neither (what `score` reports as `fact_lost`)."""
    hint = folded(item.get("answer_hint"))
    if not (item.get("answerable") and hint) or result.refused:
        return {}
    cited = [pk for c in result.citations for pk in (c.chunk_ids or [c.chunk_id])]  # a passage's chunks
    ids = [r["chunk_id"] for r in result.retrieved[:5]] + cited
    texts = {pk: folded(f"{heading} {text}") for pk, heading, text
             in Chunk.objects.filter(pk__in=ids).values_list("pk", "heading_text", "text")}
    return {"fact_in_cited": any(hint in texts.get(pk, "") for pk in cited),
            "fact_in_top5": any(hint in texts.get(r["chunk_id"], "") for r in result.retrieved[:5])}


def check_floors(metrics: dict, floors: dict) -> list[str]:
    """Metrics below their floor (for "max_*" floors: above their ceiling)."""
    failures = []
    for name, floor in floors.items():
        if name.startswith("max_"):
            value = metrics[name[4:]]
            if value > floor:
                failures.append(f"{name[4:]} {value} > ceiling {floor}")
        elif metrics[name] < floor:
            failures.append(f"{name} {metrics[name]} < floor {floor}")
    return failures


class Command(BaseCommand):
    help = "Evaluate the question path on a JSONL question set."

    def add_arguments(self, parser):
        parser.add_argument("path")
        parser.add_argument("--k", type=int, default=5)
        parser.add_argument("--json", action="store_true")
        parser.add_argument("--collection", action="append", default=[],
                            help="answer from these collections only (by name; repeatable)")
        parser.add_argument("--floors", help="JSON file of metric floors; exit 1 when one is not met")

    def handle(self, *args, **options):
        with schema_up_to_date():
            return self._handle(**options)

    def _handle(self, **options):
        items = load_questions(options["path"])
        if not items:
            raise CommandError(f"{options['path']}: no questions")
        collection_ids = None
        if options["collection"]:
            found = dict(Collection.objects.filter(name__in=options["collection"]).values_list("name", "pk"))
            missing = sorted(set(options["collection"]) - set(found))
            if missing:
                raise CommandError(f"no collection named {', '.join(missing)}; ingest it first")
            collection_ids = sorted(found.values())
        outcomes = run(items, progress=not options["json"], collection_ids=collection_ids)
        metrics = score(items, outcomes, k=options["k"])
        failures = check_floors(metrics, json.loads(Path(options["floors"]).read_text())) if options["floors"] else []
        if options["json"]:
            self.stdout.write(json.dumps({**metrics, "questions": outcomes}, default=str))
        else:
            self._print(metrics)
        if failures:
            raise CommandError("below the floors: " + "; ".join(failures))

    def _print(self, metrics: dict) -> None:
        table = metrics.pop("reliability")
        lost = metrics.pop("fact_lost", {})
        width = max(len(name) for name in metrics)
        for name, value in metrics.items():
            self.stdout.write(f"{name:<{width}}  {value}")
        self.stdout.write("confidence  answers  held the asked fact  mean confidence")
        for row in table:
            correct = "-" if row["correct"] is None else f"{row['correct']:.0%}"
            mean = "-" if row["mean_confidence"] is None else f"{row['mean_confidence']:.2f}"
            self.stdout.write(f"{row['bin']:<10}  {row['n']:>7}  {correct:>19}  {mean:>15}")
        if any(lost.values()):
            self.stdout.write("answered answerable questions, by where the asked fact stands: "
                              + ", ".join(f"{name.replace('_', ' ')} {count}" for name, count in lost.items()))
