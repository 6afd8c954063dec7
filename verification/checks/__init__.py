"""Automatic answer checker: split an answer into cited claims and test each against its sources."""

from .claims import extract_claims, parse_markers, split_sentences, strip_markers
from .guards import LINK_REMOVED, bad_urls, clean_text
from .identifiers import check_identifiers, extract_identifiers
from .numbers import check_numbers, extract_numbers
from .polarity import check_polarity
from .roles import check_roles
from .support import score_support
from .types import Claim, ClaimVerdict, Source, Thresholds, Verdict, VerificationReport
from .verify import Embed, Judge, remove_failing, verify_answer

__all__ = [
    "LINK_REMOVED", "Claim", "ClaimVerdict", "Embed", "Judge", "Source", "Thresholds", "Verdict",
    "VerificationReport", "bad_urls", "check_identifiers", "check_numbers", "check_polarity",
    "check_roles", "clean_text", "extract_claims", "extract_identifiers", "extract_numbers",
    "parse_markers", "remove_failing", "score_support", "split_sentences", "strip_markers",
    "verify_answer",
]
