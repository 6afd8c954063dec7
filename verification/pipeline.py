"""Verify an answer, correct failing sentences (when a writer is configured), re-verify, cut what still fails.

Pure Python: the writer is any object with `complete(system, user, *, max_tokens) -> (text, usage)`.
"""

from __future__ import annotations

import logging
from time import perf_counter
from typing import Any, Callable, Sequence

from verification.checks import Source, VerificationReport, remove_failing, verify_answer
from verification.checks.text import content_stems
from verification.judge import judge_stats, stats_delta

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


def _correct(writer: Any, answer: str, report: VerificationReport, sources: list[Source]) -> tuple[str | None, str]:
    """(corrected answer or None, error message) from one correction call."""
    context = "\n\n".join(f"[{s.n}] {s.title or ''}\n{s.text}" for s in sources)
    user = f"Sources:\n{context}\n\nAnswer:\n{answer}\n\nFailing sentences:\n{_format_failures(report)}"
    try:
        text, _usage = writer.complete(CORRECTION_PROMPT, user, max_tokens=700)
    except Exception as exc:  # a failed correction round must not lose the answer
        log.warning("correction round failed: %s", exc)
        return None, f"{type(exc).__name__}: {exc}"[:300]
    text = text.strip()
    return (text or None), ("" if text else "the corrector returned nothing")


def verify_and_correct(answer: str, sources: Sequence[tuple[int, str, str | None, str | None]], *,
                       question: str = "", embed: Callable | None = None, allowed_domains: Sequence[str] = (),
                       corrector: Any = None, judge: Callable | None = None,
                       rounds: int = 2) -> tuple[str, dict]:
    """(final answer, report dict with every round recorded). Failing sentences never reach the user.

    The report is the last round's, plus `rounds` (each round's answer, verdicts, judge stats and ms),
    `removed_sentences` (what was cut after the last round) and a `score` that counts those as unsupported.
    """
    started = perf_counter()
    source_list = [Source(n=n, text=text, url=url, title=title) for n, text, url, title in sources]
    if not answer.strip():
        return "", {"faithful": False, "final_faithful": False, "claims": [], "rounds": [], "score": 0.0,
                    "removed_sentences": []}
    judge_before = judge_stats(judge)

    def check(number: int, text: str) -> VerificationReport:
        before, t = judge_stats(judge), perf_counter()
        report = verify_answer(text, source_list, embed=embed, allowed_domains=allowed_domains, judge=judge,
                               question=question)
        history.append(_round(number, text, report, stats_delta(before, judge_stats(judge)), t))
        return report

    history: list[dict] = []
    checked = answer  # the text whose claim spans the current report refers to
    report = check(0, answer)
    for number in range(1, rounds + 1):
        if report.faithful or corrector is None:
            break
        corrected, error = _correct(corrector, report.cleaned_answer, report, source_list)
        if corrected is None:
            history[-1]["correction_error"] = error
            break
        if corrected.strip() == checked.strip():
            history[-1]["correction_error"] = "the corrector returned the same answer"
            break
        checked = corrected
        report = check(number, corrected)

    removed = [] if report.faithful else [(v.claim.raw or v.claim.text).strip() for v in report.failing]
    final = report.cleaned_answer if report.faithful else remove_failing(checked, report)
    result = report.to_dict()
    result["rounds"] = history
    result["removed_sentences"] = removed
    result["score"] = final_score(report, final)
    result["final_faithful"] = report.faithful or bool(final.strip())
    if judge_before is not None:
        result["judge"] = stats_delta(judge_before, judge_stats(judge))
    result["timings_ms"] = {**result.get("timings_ms", {}), "pipeline": _ms(started)}
    return final, result


def final_score(report: VerificationReport, final: str) -> float:
    """Share of the answer's factual content that survived supported: removed claims count against it."""
    if not final.strip():
        return 0.0
    total = kept = 0.0
    for verdict in report.claims:
        if verdict.claim.connective:
            continue
        weight = max(1, len(content_stems(verdict.claim.text)))
        total += weight
        kept += weight if verdict.verdict == "supported" else 0.0
    return round(kept / total, 4) if total else report.score


def _ms(since: float) -> float:
    return round((perf_counter() - since) * 1000, 2)


def _round(number: int, text: str, report: VerificationReport, judge: dict | None, since: float) -> dict:
    """One verify round as recorded in the report (answer, verdicts, failing claims, judge stats, ms)."""
    return {
        "round": number,
        "answer": text,
        "faithful": report.faithful,
        "score": report.score,
        "failing": [{"text": v.claim.text, "verdict": v.verdict, "reason": v.reason} for v in report.failing],
        "verdicts": [{"text": v.claim.text, "verdict": v.verdict, "reason": v.reason, "source_n": v.source_n,
                      "judge": v.checks.get("judge")} for v in report.claims],
        "judge": judge,
        "ms": _ms(since),
    }
