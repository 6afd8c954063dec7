"""`manage.py verify-answers CASES.jsonl [--json]` (alias of `verify_answers`): check answers against their sources.

Each input line `{"id", "question", "answer", "sources": [{"n", "text"}]}` is judged on its own, from those
fields alone. stdout gets one line per case, in input order: `{"id", "faithful", "sentences": [{"text",
"verdict", "reason"}]}`. When every line carries `"faithful"` (and optionally `"corruption"`), detection
recall, false-flag rate and per-type recall go to stderr: readable text, or one JSON object with --json.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from verification.checks import verify_answer
from verification.evaluate_cases import run_cases


def read_cases(path: str) -> list[dict[str, Any]]:
    """Parse a JSONL file ("-" for stdin); a bad line stops the run with its number and what is wrong."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"Cannot read {path}: {exc.strerror or exc}") from exc
    cases = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            case = json.loads(line)
        except ValueError as exc:
            raise CommandError(f"{path}, line {lineno}: not valid JSON ({exc}); each line must be one JSON "
                               f"object like {{\"id\", \"answer\", \"sources\": [{{\"n\", \"text\"}}]}}") from None
        problem = _problem(case)
        if problem:
            raise CommandError(f"{path}, line {lineno}: {problem}")
        case.setdefault("id", f"line-{lineno}")
        cases.append(case)
    return cases


def _problem(case: Any) -> str:
    if not isinstance(case, dict):
        return f"expected a JSON object, got {type(case).__name__}"
    if not isinstance(case.get("answer"), str):
        return 'missing "answer" (a string)'
    sources = case.get("sources")
    if not isinstance(sources, list):
        return 'missing "sources" (a list of {"n", "text"})'
    for i, src in enumerate(sources):
        if not isinstance(src, dict) or "text" not in src or "n" not in src:
            return f'sources[{i}] needs "n" and "text"'
        try:
            src["n"] = int(src["n"])
        except (TypeError, ValueError):
            return f'sources[{i}].n must be a number, got {src["n"]!r}'
    return ""


class Command(BaseCommand):
    help = ("Verify answers against their sources, one JSON case a line (also runnable as `verify-answers`). "
            "Prints one JSON line per case; metrics (when cases are labelled) go to stderr.")

    def add_arguments(self, parser):
        parser.add_argument("cases", help='JSONL file of {"id", "question", "answer", "sources"} ("-" = stdin)')
        parser.add_argument("--json", action="store_true", help="print the metrics as one JSON object")
        parser.add_argument("--no-embed", action="store_true", help="lexical checks only (no MiniLM)")
        parser.add_argument("--no-judge", action="store_true", help="do not use the LLM claim judge")

    def handle(self, *args, **options):
        cases = read_cases(options["cases"])
        verify = self._verifier(embed=not options["no_embed"], judge=not options["no_judge"])
        lines, metrics = run_cases(cases, verify)
        for line in lines:
            self.stdout.write(json.dumps(line, ensure_ascii=False))
        if metrics is None:
            return
        if options["json"]:
            self.stderr.write(json.dumps({"metrics": metrics}))
            return
        self.stderr.write(_summary(metrics))

    def _verifier(self, *, embed: bool, judge: bool):
        from django.conf import settings

        from webapp.composition import claim_judge
        from knowledge.embedding import get_embedder

        embed_fn = get_embedder().embed if embed else None
        if embed_fn is not None:
            embed_fn(["warm-up"])  # load the model now, so per-case latency is the check's own
        judge_fn = claim_judge() if judge else None
        domains = tuple(settings.VERITY_ALLOWED_LINK_DOMAINS)
        return lambda answer, sources, question="": verify_answer(answer, sources, embed=embed_fn,
                                                                  allowed_domains=domains, judge=judge_fn,
                                                                  question=question)


def _summary(metrics: dict[str, Any]) -> str:
    lines = [f"{metrics['cases']} cases: {metrics['corrupted']} corrupted, {metrics['faithful']} faithful"]
    if metrics.get("detection_recall") is not None:
        lines.append(f"  detection recall  {metrics['detection_recall']:.3f}")
    if metrics.get("false_flag_rate") is not None:
        lines.append(f"  false-flag rate   {metrics['false_flag_rate']:.3f} "
                     f"({metrics['false_flags']}/{metrics['faithful']})")
    for kind, row in metrics["per_type"].items():
        lines.append(f"  {kind:24s} recall {row['recall']:.3f} ({row['detected']}/{row['cases']})")
    lat = metrics["latency_ms"]
    lines.append(f"  latency ms p50 {lat['p50']:.1f} p95 {lat['p95']:.1f}")
    return "\n".join(lines)
