"""Names guard: a claim may not name a person, team, product or tool that its cited source never mentions.

Names come from textcore.identifiers.names (a run of capitalised words is one name). A name is found
when each of its words occurs in the source, case-insensitively: documentation often writes a product
in lower case in prose ("flask run") and capitalised at a sentence start.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from textcore.identifiers import names
from textcore.words import singular


@dataclass
class NameCheck:
    """Result of the names guard."""

    status: str  # "pass", "missing" or "n/a"
    detail: str


def claim_names(text: str) -> list[str]:
    """The proper names a claim mentions."""
    return names(text)


def _found(part: str, lowered: str) -> bool:
    """A name's word is in the source; a plural counts as its singular: an acronym's ("POSTs", "APIs") and a
    capitalised word's ("Structs, unions and enums have directives of their own" over "c:struct")."""
    if part.lower() in lowered:
        return True
    if len(part) > 2 and part.endswith("s") and part[:-1].isupper():
        return part[:-1].lower() in lowered
    one = singular(part)
    return one is not None and re.search(rf"(?<![a-z]){re.escape(one.lower())}(?![a-z])", lowered) is not None


def check_names(claim_text: str, source_text: str) -> NameCheck:
    """Every name in the claim must appear in the cited source (case-insensitive, word by word)."""
    found = claim_names(claim_text)
    if not found:
        return NameCheck("n/a", "no names")
    lowered = source_text.lower()
    # Word by word, hyphens included: "HTML-related builders" is backed by "HTML related builders".
    # A lower-case part of a hyphenated name modifies it ("Voronoi-based", "Unix-like"): it names nothing.
    missing = [n for n in found if not all(_found(part, lowered) for part in re.split(r"[\s-]+", n)
                                           if part and not (part[0].islower() and "-" in n))]
    if missing:
        return NameCheck("missing", f"{', '.join(missing)} not in cited source")
    return NameCheck("pass", f"{', '.join(found)} found")
