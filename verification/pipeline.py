"""Verify an answer, correct failing sentences (when a writer is configured), re-verify, cut what still fails.

Pure Python: the writer is any object with `complete(system, user, *, max_tokens) -> (text, usage)`.
"""

from __future__ import annotations

import logging
from time import perf_counter
from typing import Any, Callable, Sequence

from verification.checks import Source, VerificationReport, remove_failing, verify_answer

log = logging.getLogger(__name__)

CORRECTION_PROMPT = (
    "You fix answers so that every sentence is supported by the numbered sources. Rewrite ONLY the sentences "
    "listed as failing, using only facts from the sources, keeping their [n] citation markers correct; drop a "
    "sentence if the sources cannot support it. Return the whole corrected answer and nothing else."
)


def _format_failures(report: VerificationReport) -> str:
    lines = []
    for verdict in report.failing:
        lines.append(f'- "{verdict.claim.text}" -> {verdict.verdict}: {verdict.reason}')
    return "\n".join(lines)


def _correct(writer: Any, answer: str, report: VerificationReport, sources: list[Source]) -> str | None:
    context = "\n\n".join(f"[{s.n}] {s.title or ''}\n{s.text}" for s in sources)
    user = f"Sources:\n{context}\n\nAnswer:\n{answer}\n\nFailing sentences:\n{_format_failures(report)}"
    try:
        text, _usage = writer.complete(CORRECTION_PROMPT, user, max_tokens=700)
    except Exception as exc:  # a failed correction round must not lose the answer
        log.warning("correction round failed: %s", exc)
        return None
    return text.strip() or None


def verify_and_correct(answer: str, sources: Sequence[tuple[int, str, str | None, str | None]], *,
                       question: str = "", embed: Callable | None = None, allowed_domains: Sequence[str] = (),
                       corrector: Any = None, judge: Callable | None = None,
                       rounds: int = 2) -> tuple[str, dict]:
    """(final answer, report dict with every round recorded). Failing sentences never reach the user."""
    started = perf_counter()
    source_list = [Source(n=n, text=text, url=url, title=title) for n, text, url, title in sources]
    if not answer.strip():
        return "", {"faithful": False, "claims": [], "rounds": [], "score": 0.0}

    def check(text: str) -> VerificationReport:
        return verify_answer(text, source_list, embed=embed, allowed_domains=allowed_domains, judge=judge)

    report = check(answer)
    history = [_round(0, answer, report)]
    text = report.cleaned_answer
    for number in range(1, rounds + 1):
        if report.faithful or corrector is None:
            break
        corrected = _correct(corrector, text, report, source_list)
        if corrected is None:
            break
        report = check(corrected)
        text = report.cleaned_answer
        history.append(_round(number, corrected, report))
    final = text if report.faithful else remove_failing(text, report)
    result = report.to_dict()
    result["rounds"] = history
    result["removed_sentences"] = [v.claim.text for v in report.failing] if not report.faithful else []
    result["final_faithful"] = report.faithful or bool(final.strip())
    result["timings_ms"] = {**result.get("timings_ms", {}), "pipeline": round((perf_counter() - started) * 1000, 2)}
    return final, result


def _round(number: int, text: str, report: VerificationReport) -> dict:
    return {
        "round": number,
        "answer": text,
        "faithful": report.faithful,
        "failing": [{"text": v.claim.text, "verdict": v.verdict, "reason": v.reason} for v in report.failing],
        "score": report.score,
    }
