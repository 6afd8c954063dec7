"""An LLM second opinion on each claim: is it supported by the passages it cites?

`LLMClaimJudge(completer)` is a `judge` for `verify_answer`: its verdicts replace the soft
(lexical/embedding) verdicts, never the exact guards (numbers, codes, URLs, citations, polarity).
Pure Python: the completer is any object with `complete(system, user, *, max_tokens) -> (text, usage)`.

Claims are judged in parallel by a bounded thread pool that lives inside the process running the
verification: the `answer` worker on the question path and the `verify` queue's worker for
re-verification (`webapp.jobs` "reverify_answers"). The calls are I/O-bound, so a few threads per
worker are enough; a Celery group per claim would only add broker round-trips. A claim whose call
fails, times out or cannot be parsed gets None, so the lexical verdict stands.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from time import perf_counter
from typing import Any

from verification.checks import Claim, ClaimVerdict, Source

log = logging.getLogger(__name__)

JUDGE_PROMPT = (
    "You check one claim from an answer against the numbered source passages it cites. Decide:\n"
    "- supported: every fact in the claim is stated in the passages (paraphrase is fine);\n"
    "- contradicted: a passage states something incompatible with the claim;\n"
    "- unsupported: anything else (missing facts, additions, different numbers, names or conditions).\n"
    'Reply with JSON only: {"verdict": "supported|unsupported|contradicted", "reason": "one short sentence", '
    '"evidence": "the exact span copied from a passage that decides it, or empty"}'
)

_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.S | re.I)
_VERDICT_FIELD = re.compile(r'"?verdict"?\s*[:=]\s*"?([A-Za-z _-]+)', re.I)
_SYNONYMS = {
    "supported": "supported", "support": "supported", "entailed": "supported", "yes": "supported",
    "unsupported": "unsupported", "not supported": "unsupported", "not_supported": "unsupported",
    "partially supported": "unsupported", "partially_supported": "unsupported", "insufficient": "unsupported",
    "unverifiable": "unsupported", "no": "unsupported",
    "contradicted": "contradicted", "contradiction": "contradicted", "contradicts": "contradicted",
    "refuted": "contradicted",
}


class JudgeParseError(ValueError):
    """The completion held no usable verdict."""


def _json_objects(text: str) -> list[str]:
    """Balanced {...} substrings of text, outermost first (quotes and escapes respected)."""
    found, depth, start, in_str, escape = [], 0, -1, False, False
    for i, ch in enumerate(text):
        if in_str:
            if escape:
                escape = False
            elif ch == "\\":
                escape = True
            elif ch == '"':
                in_str = False
            continue
        if ch == '"':
            in_str = depth > 0
        elif ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
            if depth == 0:
                found.append(text[start : i + 1])
    return found


def _normalise_verdict(value: Any) -> str | None:
    key = re.sub(r"\s+", " ", str(value or "").strip().lower().replace("-", " "))
    return _SYNONYMS.get(key) or _SYNONYMS.get(key.replace(" ", "_"))


def parse_verdict(text: str) -> dict[str, str]:
    """{"verdict", "reason", "evidence"} from a completion: bare JSON, fenced JSON or JSON inside prose."""
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    for chunk in candidates:
        for blob in _json_objects(chunk):
            try:
                data = json.loads(blob)
            except ValueError:
                continue
            if isinstance(data, dict) and (verdict := _normalise_verdict(data.get("verdict"))):
                return {"verdict": verdict, "reason": str(data.get("reason") or "").strip(),
                        "evidence": str(data.get("evidence") or "").strip()}
    match = _VERDICT_FIELD.search(text)  # e.g. truncated JSON: the verdict came before the cut
    if match and (verdict := _normalise_verdict(match.group(1))):
        return {"verdict": verdict, "reason": "", "evidence": ""}
    raise JudgeParseError(f"no verdict in judge reply: {text[:120]!r}")


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


class LLMClaimJudge:
    """Judge every claim with one completion call each, in parallel; failures leave the lexical verdict."""

    def __init__(self, completer: Any, *, max_workers: int = 4, timeout_s: float = 30, max_tokens: int = 200,
                 model: str | None = None) -> None:
        self.completer = completer
        self.max_workers = max(1, int(max_workers))
        self.timeout_s = float(timeout_s)
        self.max_tokens = max_tokens
        self.model = model
        self._lock = threading.Lock()
        self.stats: dict[str, Any] = {"calls": 0, "failures": 0, "skipped": 0, "ms": 0.0, "errors": []}

    def __call__(self, claims: list[Claim], sources: list[Source]) -> list[ClaimVerdict | None]:
        """One verdict (or None) per claim, in the claims' order."""
        started = perf_counter()
        by_n = {s.n: s for s in sources}
        results: list[ClaimVerdict | None] = [None] * len(claims)
        todo: list[tuple[int, Claim, list[Source]]] = []
        for i, claim in enumerate(claims):
            cited = [by_n[n] for n in claim.citations if n in by_n]
            if claim.connective or not cited:
                self._count(skipped=1)  # nothing to compare against: the guards already decided
                continue
            todo.append((i, claim, cited))
        if todo:
            pool = ThreadPoolExecutor(max_workers=min(self.max_workers, len(todo)), thread_name_prefix="claim-judge")
            try:
                futures = [(i, claim, pool.submit(self._judge_one, claim, cited)) for i, claim, cited in todo]
                deadline = perf_counter() + self.timeout_s
                for i, claim, future in futures:
                    results[i] = self._collect(claim, future, deadline)
            finally:
                # Do not wait for a hung call: its thread finishes (or times out in the SDK) on its own.
                pool.shutdown(wait=False, cancel_futures=True)
        self._count(ms=(perf_counter() - started) * 1000)
        return results

    def snapshot(self) -> dict[str, Any]:
        """A copy of the counters (for recording one verification round)."""
        with self._lock:
            return {**self.stats, "errors": list(self.stats["errors"])}

    def _collect(self, claim: Claim, future: Future, deadline: float) -> ClaimVerdict | None:
        try:
            return future.result(timeout=max(0.0, deadline - perf_counter()))
        except FutureTimeout:
            future.cancel()
            self._fail(claim, f"timed out after {self.timeout_s:g}s")
        except Exception as exc:  # ProviderError, JudgeParseError, anything the SDK raises
            self._fail(claim, f"{type(exc).__name__}: {exc}")
        return None

    def _judge_one(self, claim: Claim, cited: list[Source]) -> ClaimVerdict:
        self._count(calls=1)
        passages = "\n\n".join(f"[{s.n}] {s.title or ''}".rstrip() + f"\n{s.text.strip()}" for s in cited)
        user = f"Passages:\n{passages}\n\nClaim: {claim.text}"
        kwargs: dict[str, Any] = {"max_tokens": self.max_tokens}
        if self.model:
            kwargs["model"] = self.model
        text, _usage = self.completer.complete(JUDGE_PROMPT, user, **kwargs)
        parsed = parse_verdict(text)
        return self._verdict(claim, cited, parsed)

    @staticmethod
    def _verdict(claim: Claim, cited: list[Source], parsed: dict[str, str]) -> ClaimVerdict:
        evidence = parsed["evidence"] or None
        source_n = cited[0].n
        checks = {"judge_reason": parsed["reason"][:300]} if parsed["reason"] else {}
        if evidence:
            holder = next((s for s in cited if _squash(evidence) in _squash(s.text)), None)
            if holder is None:
                checks["judge_evidence"] = "not found verbatim in the cited passages"
            else:
                source_n = holder.n
        reason = f"judge: {parsed['reason'] or parsed['verdict']}"
        return ClaimVerdict(claim, parsed["verdict"], reason, evidence, source_n, checks)  # type: ignore[arg-type]

    def _fail(self, claim: Claim, message: str) -> None:
        log.warning("claim judge failed on %r: %s", claim.text[:80], message)
        with self._lock:
            self.stats["failures"] += 1
            self.stats["errors"] = (self.stats["errors"] + [message[:200]])[-10:]

    def _count(self, *, calls: int = 0, skipped: int = 0, ms: float = 0.0) -> None:
        with self._lock:
            self.stats["calls"] += calls
            self.stats["skipped"] += skipped
            self.stats["ms"] = round(self.stats["ms"] + ms, 2)


def judge_stats(judge: Any) -> dict[str, Any] | None:
    """The judge's counters when it keeps any (plain callables do not)."""
    snap = getattr(judge, "snapshot", None)
    return snap() if callable(snap) else None


def stats_delta(before: dict[str, Any] | None, after: dict[str, Any] | None) -> dict[str, Any] | None:
    """What one round added to the counters."""
    if before is None or after is None:
        return None
    delta = {k: round(after[k] - before.get(k, 0), 2) for k in ("calls", "failures", "skipped", "ms") if k in after}
    failed = int(delta.get("failures", 0))
    if failed:
        delta["errors"] = after.get("errors", [])[-failed:]
    return delta


__all__ = ["JUDGE_PROMPT", "JudgeParseError", "LLMClaimJudge", "judge_stats", "parse_verdict",
           "stats_delta"]
