"""Validators for regex redaction candidates: checksums (Luhn, IBAN mod-97), structural SSN and
phone rules, and the randomness test that tells a secret from a long identifier."""

from __future__ import annotations

import math
import re
from collections import Counter


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
