"""Names guard: a claim may not name a person, team or product that its cited source never mentions.

This catches actor swaps the role check cannot see ("With People Operations approval …" when the
source says "With manager approval …").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Capitalised words that start clauses or are generic, not names.
_COMMON = {
    "a", "an", "the", "this", "that", "these", "those", "if", "when", "for", "with", "without", "after",
    "before", "during", "each", "every", "all", "any", "some", "no", "not", "only", "you", "your", "we", "our",
    "they", "their", "it", "its", "he", "she", "there", "here", "in", "on", "at", "by", "to", "of", "from",
    "and", "or", "but", "also", "once", "until", "unless", "employees", "employee", "staff", "managers",
    "manager", "yes", "please", "note", "what", "how", "who", "where", "why", "which", "i", "to", "do",
    "can", "may", "must", "should", "will", "is", "are", "was", "were", "be", "new", "current", "step",
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january", "february",
    "march", "april", "june", "july", "august", "september", "october", "november", "december",
}
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9&'\-]*")


@dataclass
class NameCheck:
    """Result of the names guard."""

    status: str  # "pass", "missing" or "n/a"
    detail: str


def claim_names(text: str) -> list[str]:
    """Runs of capitalised words that are not at the start of the sentence and not common words."""
    names: list[str] = []
    current: list[str] = []
    for index, match in enumerate(_WORD.finditer(text)):
        word = match.group(0)
        capital = word[0].isupper() and not word.isupper() and word.lower() not in _COMMON
        if capital and index > 0:
            current.append(re.sub(r"'s?$", "", word))
            continue
        if current:
            names.append(" ".join(current))
            current = []
    if current:
        names.append(" ".join(current))
    return [n for n in names if len(n) > 2]


def check_names(claim_text: str, source_text: str) -> NameCheck:
    """Every name in the claim must appear in the cited source (case-insensitive, word by word)."""
    names = claim_names(claim_text)
    if not names:
        return NameCheck("n/a", "no names")
    lowered = source_text.lower()
    missing = [n for n in names if not all(part.lower() in lowered for part in n.split())]
    if missing:
        return NameCheck("missing", f"{', '.join(missing)} not in cited source")
    return NameCheck("pass", f"{', '.join(names)} found")
