"""Redaction of personal data and secrets: what is replaced, what is kept, and that it stays offline."""

from __future__ import annotations

import logging
import socket
import threading
import time

import pytest

from knowledge import redaction
from knowledge.redaction import Redaction, redact, warm_up

JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
    "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkRhbmEifQ."
    "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
)
SLACK = "xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOp"
GITHUB = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
HEX_KEY = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
B64_KEY = "qZ8xL2mN4vB7kR1tY5wE9aS3dF6gH0jQ"

# (question, secret that must disappear, placeholder that must replace it)
REDACTED = [
    ("Email dana.whitfield@example.com about it", "dana.whitfield@example.com", "<EMAIL>"),
    ("cc ops+oncall@corp.example.co.uk", "ops+oncall@corp.example.co.uk", "<EMAIL>"),
    ("Call me on +1 415 555 0134 tomorrow", "+1 415 555 0134", "<PHONE>"),
    ("My desk is (415) 555-0134.", "(415) 555-0134", "<PHONE>"),
    ("London office: +44 20 7946 0958", "+44 20 7946 0958", "<PHONE>"),
    ("Mobile 415-555-0134 after 6", "415-555-0134", "<PHONE>"),
    ("ring 07700 900123", "07700 900123", "<PHONE>"),
    ("Card 4111 1111 1111 1111 was declined", "4111 1111 1111 1111", "<CARD>"),
    ("charged to 5500-0000-0000-0004", "5500-0000-0000-0004", "<CARD>"),
    ("My SSN is 123-45-6789", "123-45-6789", "<NATIONAL_ID>"),
    ("NI number AB 12 34 56 C", "AB 12 34 56 C", "<NATIONAL_ID>"),
    ("Pay to GB82 WEST 1234 5698 7654 32 please", "GB82 WEST 1234 5698 7654 32", "<NATIONAL_ID>"),
    ("IBAN DE89370400440532013000", "DE89370400440532013000", "<NATIONAL_ID>"),
    ("the key is sk-live-4eC39HqLyjWDarjtT1zdp7dc", "sk-live-4eC39HqLyjWDarjtT1zdp7dc", "<API_TOKEN>"),
    ("bot token " + SLACK, SLACK, "<API_TOKEN>"),
    (GITHUB + " leaked", GITHUB, "<API_TOKEN>"),
    ("aws AKIAIOSFODNN7EXAMPLE in the repo", "AKIAIOSFODNN7EXAMPLE", "<API_TOKEN>"),
    (f"Authorization: Bearer {JWT}", JWT, "<API_TOKEN>"),
    ("secret=" + HEX_KEY, HEX_KEY, "<API_TOKEN>"),
    ("password reset token " + B64_KEY, B64_KEY, "<API_TOKEN>"),
    # Presidio layer: no regex of ours covers these.
    ("the server at 81.2.69.160 is down", "81.2.69.160", "<IP_ADDRESS>"),
    ("my passport number is 912803456", "912803456", "<NATIONAL_ID>"),
    ("my driver's license is D1234567", "D1234567", "<NATIONAL_ID>"),
    ("bank account number 12345678 for payroll", "12345678", "<NATIONAL_ID>"),
    ("phone 4155550134", "4155550134", "<PHONE>"),
]

KEPT = [
    "How do I fill in form EXP-204?",
    "What does error E4012 mean?",
    "Is FEATURE_CHECKOUT_V2 on?",
    "What's the status of ticket IT-48213?",
    "Does version 2.3.1 fix it?",
    "Is version 10.2.3.4 supported?",
    "What happens after the 2025-03-01 deadline?",
    "Is there a $1,500 limit on hotels?",
    "Parental leave is 16 weeks, right?",
    "Should I call extension 4412?",
    "Who approves Dana Whitfield's travel?",
    "SEV2 incidents page within 15 minutes",
    "Meeting at 10:30 on 03/01/2025",
    "Budget is 1,234,567.89 for Q3",
    "Which license does product X1234 use?",
    "Renew the Adobe license for team A12345",
    "Which license key for build 20250301?",
    "Is TravelAndExpensePolicyDocument2025v2 the latest?",
    "Where is Finance/Policies/Travel2025/ExpensesQ3?",
    "Reimburse 2 nights at 189.50 each, PO 4500123",
    "My business travel ref is 123456789",
    "Ask the Platform Team in #it-help",
    "With an nVidia binary driver older than 302.17, which flag must i3 be started with?",
    "Does the printer driver support the B2 tray?",
]


@pytest.fixture(scope="module", autouse=True)
def loaded() -> None:
    """Presidio loaded once for the module, so both layers are exercised."""
    assert warm_up(), "Presidio should load from the installed spaCy model"


@pytest.mark.parametrize(("text", "secret", "placeholder"), REDACTED, ids=[t[:40] for t, _, _ in REDACTED])
def test_personal_data_is_replaced(text: str, secret: str, placeholder: str) -> None:
    result = redact(text)
    assert secret not in result.text
    assert placeholder in result.text
    assert any(original == secret for _, original in result.found), result.found


@pytest.mark.parametrize("text", KEPT, ids=[t[:40] for t in KEPT])
def test_codes_names_and_numbers_are_kept(text: str) -> None:
    result = redact(text)
    assert result.text == text
    assert result.found == []


def test_several_kinds_in_one_message() -> None:
    result = redact("I'm dana@example.com, +44 20 7946 0958, card 4111 1111 1111 1111, form EXP-204")
    assert result.text == "I'm <EMAIL>, <PHONE>, card <CARD>, form EXP-204"
    assert [kind for kind, _ in result.found] == ["EMAIL", "CREDIT_CARD", "PHONE"]


def test_luhn_and_iban_checksums_reject_lookalikes() -> None:
    # One digit off: neither a card nor an IBAN, and not phone-shaped either.
    assert "<CARD>" not in redact("ref 4111 1111 1111 1112").text
    assert "<NATIONAL_ID>" not in redact("ref GB82 WEST 1234 5698 7654 33").text


def test_repr_does_not_leak_originals() -> None:
    result = redact("mail dana@example.com")
    assert "dana@example.com" not in repr(result)
    assert isinstance(result, Redaction)


def test_no_network_while_loading_and_redacting(monkeypatch: pytest.MonkeyPatch) -> None:
    attempts: list[object] = []

    def refuse(*args: object, **kwargs: object) -> None:
        attempts.append(args)
        raise OSError("network disabled in test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    # tldextract's fetch fails at DNS resolution before it ever connects, so block that too.
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    # Build a fresh analyzer under the patch so construction is covered, not just the cached one.
    monkeypatch.setattr(redaction, "_analyzer", None)
    monkeypatch.setattr(redaction, "_load_failed", False)

    assert warm_up()
    assert redact("write to a@example.co.uk or +1 415 555 0134").text == "write to <EMAIL> or <PHONE>"
    # Our regexes take emails first, so call Presidio directly to exercise its tldextract check.
    analyzer = redaction._get_analyzer()
    hits = analyzer.analyze(text="write to dana@example.co.uk", language="en", entities=["EMAIL_ADDRESS"])
    assert [h.entity_type for h in hits] == ["EMAIL_ADDRESS"]
    assert attempts == []


def test_falls_back_to_regexes_when_presidio_cannot_load(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken() -> None:
        raise RuntimeError("model missing")

    monkeypatch.setattr(redaction, "_build_analyzer", broken)
    monkeypatch.setattr(redaction, "_analyzer", None)
    monkeypatch.setattr(redaction, "_load_failed", False)
    with caplog.at_level(logging.WARNING, logger="knowledge.redaction"):
        assert not warm_up()
        first = redact("call +1 415 555 0134 from 192.168.10.24")
        redact("and 4111 1111 1111 1111")
    assert first.text == "call <PHONE> from 192.168.10.24"  # IPs are Presidio-only
    assert len([r for r in caplog.records if "Presidio failed to load" in r.getMessage()]) == 1


def test_analyze_errors_do_not_break_redaction(monkeypatch: pytest.MonkeyPatch) -> None:
    class Exploding:
        def analyze(self, **kwargs: object) -> None:
            raise ValueError("boom")

    monkeypatch.setattr(redaction, "_analyzer", Exploding())
    assert redact("call +1 415 555 0134, room 12").text == "call <PHONE>, room 12"


def test_presidio_is_built_once_across_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def slow_build() -> object:
        calls.append(1)
        time.sleep(0.05)
        return object()

    monkeypatch.setattr(redaction, "_build_analyzer", slow_build)
    monkeypatch.setattr(redaction, "_analyzer", None)
    monkeypatch.setattr(redaction, "_load_failed", False)
    threads = [threading.Thread(target=redaction._get_analyzer) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert calls == [1]


def test_text_without_digits_or_at_skips_presidio(monkeypatch: pytest.MonkeyPatch) -> None:
    class Recording:
        seen: list[str] = []

        def analyze(self, *, text: str, **kwargs: object) -> list[object]:
            self.seen.append(text)
            return []

    recorder = Recording()
    monkeypatch.setattr(redaction, "_analyzer", recorder)
    redact("Who approves Dana Whitfield's travel?")
    redact("How many days for SEV2?")
    assert recorder.seen == ["How many days for SEV2?"]
