"""The LLM claim judge and the correction loop, through the real OpenAI and Cohere SDKs against local fakes."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable

import pytest

from knowledge.providers.cohere_provider import CohereCompleter
from knowledge.providers.openai_provider import OpenAICompleter
from tests.servers.fake_cohere import FakeCohere, chat_response
from tests.servers.fake_openai import FakeOpenAI, Response
from verification.checks import Source, extract_claims, verify_answer
from verification.judge import JUDGE_PROMPT, LLMClaimJudge, parse_verdict
from verification.pipeline import CORRECTION_PROMPT, verify_and_correct

KEY = "sk-test"
SOURCES = [
    Source(1, "Employees get 25 days of paid annual leave per year. Unused leave days expire on 31 March of the "
              "following year."),
    Source(2, "IT replaces laptops every three years. Lost laptops must be reported to the service desk within "
              "24 hours."),
]
PARAPHRASE = "Staff members are entitled to a holiday allowance each year [1]."  # lexically unsupported
WRONG_NUMBER = "Employees get 30 days of paid annual leave per year [1]."  # the number guard decides
COPIED = "IT replaces laptops every three years [2]."  # lexically supported
REPORTING = "Lost laptops must be reported to the service desk within 24 hours [2]."
FABRICATED = "Laptops are leased from Dell by the finance team [2]."


class Fake:
    """One provider's fake server, a completer on it, and a way to answer chat requests with text."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.server = FakeOpenAI(api_key=KEY) if name == "openai" else FakeCohere(api_key=KEY)
        self.lock = threading.Lock()
        self.in_flight = self.max_in_flight = 0

    def completer(self, timeout_s: float = 5):
        if self.name == "openai":
            return OpenAICompleter(KEY, self.server.base_url, "small", timeout_s=timeout_s, max_retries=0)
        return CohereCompleter(KEY, self.server.base_url, "command-r", timeout_s=timeout_s, max_retries=0)

    def reply(self, body: dict, text: str, **kw) -> Response:
        json_body = FakeOpenAI.chat_completion(body, text) if self.name == "openai" else chat_response(text)
        return Response(200, json_body, **kw)

    def script(self, decide: Callable[[str, str, dict], Response | str | None], *, hold_s: float = 0.0) -> None:
        """decide(system, user, body) → a Response, a reply text, or None for the default."""

        def handler(body):
            system, user = _messages(body)
            with self.lock:
                self.in_flight += 1
                self.max_in_flight = max(self.max_in_flight, self.in_flight)
            try:
                time.sleep(hold_s)
                out = decide(system, user, body)
            finally:
                with self.lock:
                    self.in_flight -= 1
            return self.reply(body, out) if isinstance(out, str) else out

        self.server.script(handler)


def _messages(body: dict) -> tuple[str, str]:
    def text(msg: dict) -> str:
        content = msg.get("content") or ""
        if isinstance(content, list):
            return " ".join(p.get("text", "") for p in content if isinstance(p, dict))
        return str(content)

    msgs = body.get("messages") or []
    system = next((text(m) for m in msgs if m.get("role") == "system"), "")
    user = next((text(m) for m in reversed(msgs) if m.get("role") == "user"), "")
    return system, user


def verdict_json(verdict: str, reason: str = "checked", evidence: str = "") -> str:
    return json.dumps({"verdict": verdict, "reason": reason, "evidence": evidence})


def claim_of(user: str) -> str:
    return user.rsplit("Claim:", 1)[-1].strip()


@pytest.fixture(params=["openai", "cohere"])
def llm(request):
    fake = Fake(request.param)
    with fake.server:
        yield fake


def test_claims_are_judged_in_parallel(llm):
    llm.script(lambda system, user, body: verdict_json("supported") if system == JUDGE_PROMPT else None, hold_s=0.3)
    judge = LLMClaimJudge(llm.completer(), max_workers=4)
    claims = extract_claims(" ".join([PARAPHRASE, COPIED, REPORTING, FABRICATED]))
    verdicts = judge(claims, SOURCES)
    assert llm.max_in_flight > 1
    assert all(v is not None and v.verdict == "supported" for v in verdicts)
    assert judge.stats["calls"] == 4 and judge.stats["failures"] == 0
    judged = {claim_of(b["messages"][-1]["content"]) for b in llm.server.bodies()}
    assert judged == {c.text for c in claims}


def test_judge_overrides_soft_verdicts_but_not_guards(llm):
    def decide(system, user, body):
        claim = claim_of(user)
        if claim.startswith("IT replaces"):
            return "```json\n" + verdict_json("unsupported", "the passage says something else") + "\n```"
        return "Here is my verdict: " + verdict_json("supported", "stated", "25 days of paid annual leave")

    llm.script(decide)
    answer = " ".join([PARAPHRASE, WRONG_NUMBER, COPIED])
    lexical = {v.claim.text: v.verdict for v in verify_answer(answer, SOURCES).claims}
    assert list(lexical.values()) == ["unsupported", "contradicted", "supported"]

    report = verify_answer(answer, SOURCES, judge=LLMClaimJudge(llm.completer()))
    verdicts = {v.claim.text: v for v in report.claims}
    paraphrase, wrong, copied = verdicts.values()
    assert paraphrase.verdict == "supported" and paraphrase.checks["judge"] == "supported"
    assert paraphrase.evidence == "25 days of paid annual leave"
    assert wrong.verdict == "contradicted" and "judge" not in wrong.checks  # the number guard stands
    assert copied.verdict == "unsupported" and copied.reason.startswith("judge:")
    assert not report.faithful


@pytest.mark.parametrize("failure", ["http_500", "timeout", "unparsable"])
def test_a_failed_judge_call_keeps_the_lexical_verdict(llm, failure):
    def decide(system, user, body):
        if not claim_of(user).startswith("Staff members"):
            return verdict_json("supported")
        if failure == "http_500":
            return Response(500, llm.server.error_body(500, "boom"))
        if failure == "timeout":
            return llm.reply(body, verdict_json("supported"), delay_s=3)
        return "I am not sure about this one."

    llm.script(decide)
    judge = LLMClaimJudge(llm.completer(timeout_s=5), timeout_s=1)
    answer = " ".join([PARAPHRASE, COPIED, REPORTING])
    started = time.perf_counter()
    report = verify_answer(answer, SOURCES, judge=judge)
    assert time.perf_counter() - started < 2.5  # a hung call does not hold the answer beyond timeout_s
    first, *rest = report.claims
    assert first.verdict == "unsupported" and "judge" not in first.checks  # lexical verdict stands
    assert all(v.checks.get("judge") == "supported" for v in rest)
    assert judge.stats["calls"] == 3 and judge.stats["failures"] == 1
    assert judge.stats["errors"]


def test_correction_round_fixes_the_answer(llm):
    fixed = f"{COPIED} {REPORTING}"

    def decide(system, user, body):
        if system == CORRECTION_PROMPT:
            return fixed
        if system == JUDGE_PROMPT:
            return verdict_json("unsupported" if "finance" in claim_of(user) else "supported")
        return None

    llm.script(decide)
    completer = llm.completer()
    final, report = verify_and_correct(f"{COPIED} {FABRICATED}", [(s.n, s.text, s.url, s.title) for s in SOURCES],
                                       corrector=completer, judge=LLMClaimJudge(completer), rounds=2)
    assert final == fixed and report["faithful"] and report["score"] == 1.0
    assert report["removed_sentences"] == []
    first, second = report["rounds"]
    assert not first["faithful"] and first["failing"][0]["text"].startswith("Laptops are leased from Dell")
    assert second["faithful"] and second["answer"] == fixed
    for number, row in enumerate(report["rounds"]):
        assert row["round"] == number and row["ms"] >= 0 and len(row["verdicts"]) == 2
        assert row["judge"]["calls"] == 2 and row["judge"]["failures"] == 0
    assert report["judge"]["calls"] == 4


def test_a_corrector_that_keeps_failing_gets_the_sentence_removed_and_the_score_drops(llm):
    attempts = iter(["Laptops are leased from Lenovo by the finance department [2].",
                     "Laptops are replaced by the procurement team [2]."])

    llm.script(lambda system, user, body: f"{COPIED} {next(attempts)}" if system == CORRECTION_PROMPT else None)
    sources = [(s.n, s.text, s.url, s.title) for s in SOURCES]
    final, report = verify_and_correct(f"{COPIED} {FABRICATED}", sources, corrector=llm.completer(), rounds=2)
    assert len(report["rounds"]) == 3 and not any(r["faithful"] for r in report["rounds"])
    assert final == COPIED
    assert report["removed_sentences"] == ["Laptops are replaced by the procurement team [2]."]
    assert 0 < report["score"] < 1.0
    clean_final, clean = verify_and_correct(COPIED, sources, corrector=llm.completer(), rounds=2)
    assert clean["score"] == 1.0 and len(clean["rounds"]) == 1 and report["score"] < clean["score"]


def test_a_failing_corrector_keeps_the_checked_answer_and_records_why(llm):
    llm.server.error(500, "down", times=3)
    sources = [(s.n, s.text, s.url, s.title) for s in SOURCES]
    final, report = verify_and_correct(f"{COPIED} {FABRICATED}", sources, corrector=llm.completer(), rounds=2)
    assert final == COPIED and len(report["rounds"]) == 1
    assert "ProviderError" in report["rounds"][0]["correction_error"]


@pytest.mark.parametrize("reply, verdict", [
    ('{"verdict": "supported", "reason": "ok", "evidence": "x"}', "supported"),
    ('```json\n{"verdict": "Contradicted", "reason": "says \\"no\\" {really}"}\n```', "contradicted"),
    ('Sure. {"verdict": "not supported"} Hope that helps.', "unsupported"),
    ('{"verdict": "partially_supported", "reason": "half"}', "unsupported"),
    ('{"verdict": "supported", "reason": "cut off mid', "supported"),
])
def test_parse_verdict_is_robust(reply, verdict):
    assert parse_verdict(reply)["verdict"] == verdict


@pytest.mark.parametrize("reply", ["", "I cannot tell.", '{"verdict": "maybe"}', "[1, 2]"])
def test_parse_verdict_rejects_replies_without_a_verdict(reply):
    with pytest.raises(ValueError):
        parse_verdict(reply)


def _provider_settings(settings, base_url: str, **extra) -> None:
    settings.VERITY_GENERATOR = "openai"
    settings.PROVIDERS = {**settings.PROVIDERS, "openai": {"api_key": KEY, "base_url": base_url, "timeout_s": 5,
                                                           "max_retries": 0, "cheap_model": "small"}}
    for name, value in extra.items():
        setattr(settings, name, value)


def test_default_providers_wire_the_judge_only_with_a_provider(settings):
    from knowledge.answering.providers import default_providers

    assert default_providers().judge is None  # extractive: nothing to judge with
    with FakeOpenAI(api_key=KEY) as server:
        _provider_settings(settings, server.base_url, VERITY_CLAIM_JUDGE_WORKERS=3)
        judge = default_providers().judge
        assert isinstance(judge, LLMClaimJudge) and judge.max_workers == 3
        settings.VERITY_CLAIM_JUDGE = False
        assert default_providers().judge is None


@pytest.mark.django_db
def test_question_path_records_judge_rounds_and_skips_the_judge_during_an_outage(corpus_db, settings):
    from knowledge.answering import AskOptions, answer_question

    question = "How many weeks of paid parental leave do employees get?"
    with FakeOpenAI(api_key=KEY) as server:
        _provider_settings(settings, server.base_url)
        def judge_says_supported(body):
            if _messages(body)[0] == JUDGE_PROMPT:
                return Response(200, FakeOpenAI.chat_completion(body, verdict_json("supported")))
            return None  # generation: the fake's grounded default

        server.script(judge_says_supported)
        result = answer_question(question, AskOptions(use_cache=False, store=False))
        assert not result.refused and result.provider == "openai"
        first = result.verification["rounds"][0]
        assert first["judge"]["calls"] >= 1 and first["judge"]["failures"] == 0
        assert result.verification["judge"]["calls"] >= 1

        server.requests.clear()
        server.script(lambda body: Response(500, server.error_body(500, "down")))
        result = answer_question(question, AskOptions(use_cache=False, store=False))
        assert result.provider == "extractive" and not result.refused
        assert len(server.bodies("/chat/completions")) == 1  # generation only: no judge, no correction
        assert result.verification["rounds"][0]["judge"] is None
