"""Number guard: numbers, money, percentages, versions, dates and times must match the cited text."""

from __future__ import annotations

import re
from functools import lru_cache
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from textcore.words import WORD_NUMBERS

from .identifiers import code_spans
from .text import STOPWORDS, stem

_WORD_NUMBERS = WORD_NUMBERS
_MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december"]
_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_SCALE = {"k": 1000, "thousand": 1000, "m": 10**6, "million": 10**6, "mn": 10**6,
          "bn": 10**9, "billion": 10**9}

# Units where a different number in the same unit is a contradiction, not just a gap.
UNIT_NOUNS = frozenset(stem(w) for w in """second minute hour day week month year quarter night
    business_day percent dollar euro pound time times employee person people user seat license
    attempt character page session""".split()) | {"date"}
_MONTH_STEMS = frozenset(stem(m) for m in _MONTHS) | frozenset(stem(m[:3]) for m in _MONTHS)
# Words between a number and its unit that do not change the role ("16 paid weeks").
_UNIT_SKIP = frozenset("""business working calendar consecutive full paid unpaid additional extra more
    total of the a an whole entire fully further straight rolling""".split())

# "the other two", "the latter two": a count of part of what was named.
_PART = r"(?:latter|former|other|remaining|first|last)"
_ANAPHORIC = re.compile(rf"\b(?:(?:the|these|those|its|their)(?:\s+{_PART})?|both|all)\s+$", re.IGNORECASE)
_SUBSET = re.compile(rf"\b{_PART}\s+$", re.IGNORECASE)
_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_WORDNUM = "|".join(sorted(_WORD_NUMBERS, key=len, reverse=True))
_WORD_COUNT = re.compile(rf"\b({_WORDNUM})(?:[- ](one|two|three|four|five|six|seven|eight|nine))?\b", re.I)
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("iso_date", re.compile(r"(?<![\w-])(\d{4})-(\d{1,2})-(\d{1,2})(?![\w-])")),
    ("slash_date", re.compile(r"(?<![\w/])(\d{1,2})/(\d{1,2})/(\d{2,4})(?![\w/])")),
    ("time", re.compile(r"(?<![\w:.])(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s?m\b\.?", re.I)),
    ("time", re.compile(r"(?<![\w:.])([01]?\d|2[0-3]):([0-5]\d)(?![\d:])()")),
    ("noon", re.compile(r"\b(noon|midday|midnight)\b", re.I)),
    ("money", re.compile(rf"(?:[$€£]|\b(?:USD|EUR|GBP|US\$|CAD|AUD)\s?)\s?({_NUM})"
                         r"(?:\s?(k|m|mn|bn|thousand|million|billion)\b)?", re.I)),
    ("money", re.compile(rf"(?<![\w.])({_NUM})(?:\s?(k|thousand|million|billion))?\s?"
                         r"(?:dollars|usd|euros?|eur|pounds|gbp)\b", re.I)),
    ("percent", re.compile(rf"(?<![\w.])({_NUM})\s?(?:%|percent\b|per cent\b|pct\b)", re.I)),
    ("version", re.compile(r"(?<![\w-])(?:v|version\s?)(\d+(?:\.\d+)*)(?![\w])", re.I)),
    # A sentence's full stop may follow a version ("in 3.8.17."); another dotted part may not.
    ("version", re.compile(r"(?<![\w.])(\d+\.\d+\.\d+)(?!\w|\.\w)")),
    ("number", re.compile(rf"(?<![\w.,])({_NUM})(?:\s?(k|m|bn)\b)?(?:st|nd|rd|th)?(?![\w])", re.I)),
    ("word", _WORD_COUNT),
    ("month", re.compile(r"\b(January|February|March|April|June|July|August|September|October|"
                         r"November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\b"
                         r"|\bMay\b(?=\s+\d)|(?<=\d\s)May\b")),
    ("weekday", re.compile(r"\b(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)s?\b")),
]


@dataclass(frozen=True)
class NumberMention:
    """One numeric fact in a text; keys are the normalised forms it can be matched by."""

    text: str
    kind: str
    key: str
    extra_keys: frozenset[str]
    unit: str | None


def _canon(raw: str, scale: str | None = None) -> str:
    """Canonical decimal string: "1,000" -> "1000", "16.0" -> "16", "5k" -> "5000"."""
    try:
        value = Decimal(raw.replace(",", ""))
    except InvalidOperation:
        return raw
    if scale:
        value *= _SCALE.get(scale.lower(), 1)
    text = format(value.normalize(), "f")
    return text


def _unit_after(text: str, end: int, start: int, before_too: bool = True) -> str | None:
    """The role word of a number: the next noun-ish word, else (when `before_too`) the previous content word."""
    # The role word sits in the same phrase: stop at punctuation that ends it.
    after = re.findall(r"[A-Za-z]+", re.split(r"[,;:()\[\]—–.!?]", text[end : end + 40])[0])
    for w in after[:4]:
        lw = w.lower()
        if lw in _UNIT_SKIP:
            continue
        if lw in STOPWORDS or lw in _WORD_NUMBERS:
            break
        return stem(lw)
    if not before_too:
        return None
    before = re.findall(r"[A-Za-z]+", re.split(r"[,;:()\[\]—–.!?]", text[max(0, start - 30) : start])[-1])
    for w in reversed(before[-2:]):
        if w.lower() not in STOPWORDS:
            return stem(w.lower())
    return None


def extract_numbers(text: str) -> list[NumberMention]:
    """Every numeric fact in text, normalised; identifier digits (EXP-204) are skipped."""
    return list(_extract_numbers(text))


@lru_cache(maxsize=4096)
def _extract_numbers(text: str) -> tuple[NumberMention, ...]:
    """Cached: every claim of an answer reads the same passages."""
    buf = list(text)
    for s, e in code_spans(text):
        buf[s:e] = " " * (e - s)
    out: list[NumberMention] = []
    # Patterns run most-specific first; each match is blanked so "$50" is not also a bare "50".
    for kind, pattern in _PATTERNS:
        for m in pattern.finditer("".join(buf)):
            mentions = _mentions(kind, m, text)
            if mentions is None:
                continue
            out.extend(mentions)
            buf[m.start() : m.end()] = " " * (m.end() - m.start())
    return tuple(out)


def _mentions(kind: str, m: re.Match[str], text: str) -> list[NumberMention] | None:
    """Mentions for one regex match, or None when the match is not a number in context."""
    raw = m.group(0)
    if kind == "iso_date":
        y, mo, d = m.group(1), int(m.group(2)), m.group(3)
        return [NumberMention(raw, "number", _canon(y), frozenset(), "year"),
                NumberMention(raw, "month", f"m{mo}", frozenset(), "month-name"),
                NumberMention(raw, "number", _canon(d), frozenset(), None)]
    if kind == "slash_date":
        return [NumberMention(raw, "number", _canon(g), frozenset(), None) for g in m.groups()]
    if kind == "time":
        hour = int(m.group(1))
        minute = int(m.group(2) or 0)
        ampm = (m.group(3) or "").lower()
        if ampm == "p" and hour < 12:
            hour += 12
        if ampm == "a" and hour == 12:
            hour = 0
        h12 = str(hour % 12 or 12)
        return [NumberMention(raw, "time", f"t{hour:02d}:{minute:02d}", frozenset({h12}), "time")]
    if kind == "noon":
        key = "t00:00" if m.group(1).lower() == "midnight" else "t12:00"
        return [NumberMention(raw, "time", key, frozenset({"12"}), "time")]
    if kind == "money":
        value = _canon(m.group(1), m.group(2))
        return [NumberMention(raw, "money", value, frozenset(), "money")]
    if kind == "percent":
        value = _canon(m.group(1))
        return [NumberMention(raw, "percent", f"{value}%", frozenset({value}), "percent")]
    if kind == "version":
        value = m.group(1)
        return [NumberMention(raw, "version", f"v{value}", frozenset({value}), "version")]
    if kind == "number":
        value = _canon(m.group(1), m.group(2))
        unit = _unit_after(text, m.end(), m.start())
        if re.fullmatch(r"(19|20)\d\d", value) and unit not in UNIT_NOUNS:
            unit = "year"  # "3 December 2024": a calendar year competes with other years only
        elif unit in _MONTH_STEMS:
            unit = "date"  # "15 December" / "December 15": a day of the month
        # A decimal as written ("3.0") is also kept, so "added in 3.0" finds "version 3.0".
        written = frozenset({m.group(1)}) if "." in m.group(1) else frozenset()
        return [NumberMention(raw, "number", value, written, unit)]
    if kind == "word":
        first = m.group(1).lower()
        value = _WORD_NUMBERS[first] + (_WORD_NUMBERS[m.group(2).lower()] if m.group(2) else 0)
        # "one" is usually a pronoun ("one of the managers", "a third time the one in aux"); count it only
        # before a unit.
        unit = _unit_after(text, m.end(), m.start(), before_too=first != "one")
        if first == "one" and unit not in UNIT_NOUNS:
            return None
        # "the two end points", "those three lints", "both": a count after a definite determiner points back
        # at things already named, it does not state how many there are; a unit keeps it a quantity
        # ("the two weeks").
        if _points_back(text, m.start(), unit):
            return None
        return [NumberMention(raw, "number", str(value), frozenset(), unit)]
    if kind == "month":
        name = m.group(0).lower()
        idx = next(i for i, full in enumerate(_MONTHS) if full.startswith(name[:3]))
        return [NumberMention(raw, "month", f"m{idx + 1}", frozenset(), "month-name")]
    if kind == "weekday":
        idx = _WEEKDAYS.index(m.group(1).lower())
        return [NumberMention(raw, "weekday", f"w{idx}", frozenset(), "weekday")]
    return None


def _points_back(text: str, start: int, unit: str | None) -> bool:
    """A spelled count after a definite determiner and before no unit noun ("the two end points")."""
    return unit not in UNIT_NOUNS and bool(_ANAPHORIC.search(text[max(0, start - 24):start]))


@lru_cache(maxsize=4096)
def counts_pointing_back(text: str) -> tuple[tuple[str, str], ...]:
    """(value, counted noun) of each count that `extract_numbers` leaves out because it points back at
    things already named ("the four corners"): it states no fact to back, but it can still contradict a
    source that counts the same noun otherwise."""
    out = []
    for m in _WORD_COUNT.finditer(text):
        first = m.group(1).lower()
        unit = _unit_after(text, m.end(), m.start(), before_too=False)
        if first == "one" or unit is None or not _points_back(text, m.start(), unit):
            continue
        if _SUBSET.search(text[max(0, m.start() - 12):m.start()]):
            continue  # "the other two functions" counts part of them: another count of the whole is no rival
        if text[m.end():m.end() + 1] == "-":
            continue  # "the two-row groups" counts no rows: the count describes the groups
        value = _WORD_NUMBERS[first] + (_WORD_NUMBERS[m.group(2).lower()] if m.group(2) else 0)
        out.append((str(value), unit))
    return tuple(out)


# A whole count right before the noun it counts ("1 compression thread", "two built-in themes").
_COUNT_NOUN = re.compile(rf"(?<![\w.,-])(\d+|{_WORDNUM})\s+([A-Za-z][a-z-]+)\b", re.I)


def _counted(text: str) -> set[tuple[str, str]]:
    """(value, stemmed noun) of each whole count written right before a noun."""
    out = set()
    for m in _COUNT_NOUN.finditer(text):
        noun = m.group(2).lower()
        if noun in STOPWORDS or noun in _UNIT_SKIP or noun in _WORD_NUMBERS:
            continue
        word = m.group(1).lower()
        out.add((word if word.isdigit() else str(_WORD_NUMBERS[word]), stem(noun)))
    return out


_NEAR = 6  # words (dev: 4 -> one false flag more, 6-8 the same)


def _near(text: str, value: str, noun: str) -> bool:
    """The text says the value within a few words of the noun, in any order ("the maximum number of pages in a
    database file is 2147483646")."""
    words = re.findall(r"[A-Za-z]+|\d+", text)
    at_value = [i for i, w in enumerate(words) if w == value or str(_WORD_NUMBERS.get(w.lower(), "")) == value]
    at_noun = [i for i, w in enumerate(words) if w.isalpha() and stem(w.lower()) == noun]
    return any(abs(i - j) <= _NEAR for i in at_value for j in at_noun)


def _misplaced(claim_nums: list[NumberMention], claim_text: str, passage_text: str) -> NumberCheck | None:
    """A conflict when the claim counts a noun with a number the passage has only elsewhere, and the passage counts
    that noun with another ("spawns two compression threads" where it says "Note 2: ... spawns 1 compression
    thread")."""
    source = _counted(passage_text)
    stated = {m.key for m in claim_nums}
    for value, noun in _counted(claim_text):
        if value not in stated or (value, noun) in source or _near(passage_text, value, noun):
            continue
        rival = sorted(v for v, n in source if n == noun and v != value)
        if rival:
            return NumberCheck("conflict", f"claim counts {value} {noun}, source counts {rival[0]}", (value,))
    return None


def _recounted(claim_text: str, passage_text: str) -> NumberCheck | None:
    """A conflict when the claim counts a noun back ("the five corners") that the passage counts
    differently ("the four corners", "4 corners"); None otherwise."""
    source = {(m.key, m.unit) for m in extract_numbers(passage_text) if m.kind == "number"}
    source |= set(counts_pointing_back(passage_text))
    for value, unit in counts_pointing_back(claim_text):
        if (value, unit) in source:
            continue
        rival = next((v for v, u in sorted(source, key=lambda p: (p[0], p[1] or "")) if u == unit and v != value),
                     None)
        if rival is not None:
            return NumberCheck("conflict", f"claim counts {value} {unit}, source counts {rival}", (value,))
    return None


@dataclass(frozen=True)
class NumberCheck:
    """Outcome of the number guard for one claim."""

    status: str  # "pass", "n/a", "missing", "conflict"
    detail: str
    missing: tuple[str, ...] = ()


def _role(m: NumberMention) -> str | None:
    """The role a mention competes in: its kind for typed facts, its unit noun for bare numbers."""
    if m.kind != "number":
        return m.kind
    return m.unit if m.unit in UNIT_NOUNS else None


def check_numbers(claim_text: str, passage_text: str, own: frozenset[int] = frozenset(),
                  listed: frozenset[int] = frozenset()) -> NumberCheck:
    """Every number in the claim must appear in the passage; a rival in the same role contradicts.
    A count of the answer's own list (`own`, see `enumeration_counts`: "three options:" and three items, "3 steps:
    first …, next …, and finally …") needs no source; a spelled count of what a cited source lists (`listed`,
    see `listed_counts`: "four more kinds") neither."""
    claim_nums = [m for m in extract_numbers(claim_text)
                  if not (m.key.isdigit() and (int(m.key) in own
                                               or m.text.strip().isalpha() and int(m.key) in listed))]
    if not claim_nums:
        return _recounted(claim_text, passage_text) or NumberCheck("n/a", "no numbers")
    source_nums = extract_numbers(passage_text)
    available: dict[str, list[NumberMention]] = {}
    for sm in source_nums:
        for k in {sm.key, *sm.extra_keys}:
            available.setdefault(k, []).append(sm)
    missing: list[NumberMention] = []
    for cm in claim_nums:
        matches = available.get(cm.key, [])
        if not matches and cm.kind == "number":
            # A decimal said without the word "version" ("added in 3.0") is backed by "version 3.0".
            matches = [sm for k in cm.extra_keys for sm in available.get(k, []) if sm.kind == "version"]
        role = _role(cm)
        if role and cm.kind == "number" and matches:
            # "16 weeks" is not backed by "16 days" when the passage uses 16 only as days.
            if all(_role(sm) not in (None, role) for sm in matches if sm.kind == "number") and all(
                sm.kind == "number" for sm in matches
            ):
                matches = []
        if not matches and (_in_identifier(cm, passage_text) or _one_by_article(cm, passage_text)):
            continue
        if not matches:
            missing.append(cm)
    if not missing:
        return (_recounted(claim_text, passage_text) or _misplaced(claim_nums, claim_text, passage_text)
                or NumberCheck("pass", f"{len(claim_nums)} number(s) found"))
    names = tuple(m.text.strip() for m in missing)
    # A number the claim states itself is no rival to its other numbers ("2015, unless --edition 2018").
    stated = {cm.key for cm in claim_nums}
    for cm in missing:
        role = _role(cm)
        if role is None:
            continue
        rivals = [sm for sm in source_nums if _role(sm) == role and sm.key not in stated]
        if rivals:
            return NumberCheck("conflict", f"claim says {cm.text.strip()!r}, source says "
                               f"{rivals[0].text.strip()!r}", names)
    return NumberCheck("missing", f"{', '.join(repr(n) for n in names)} not in cited source", names)


_ARTICLE_NOUN = re.compile(r"\b(?:an?|single)\s+(?:[a-z]+\s+)?([a-z]+)", re.I)  # "a (single) character"


def _one_by_article(cm: NumberMention, passage_text: str) -> bool:
    """"one character" is backed by "a single character" or "a character": an article counts one of its noun."""
    if cm.kind != "number" or cm.key != "1" or cm.unit is None:
        return False
    return any(stem(m.group(1).lower()) == cm.unit for m in _ARTICLE_NOUN.finditer(passage_text))


def _in_identifier(cm: NumberMention, passage_text: str) -> bool:
    """A dotted number (a version: "1.1.2") that the passage writes inside a code or package spec
    ("dep1@1.1.2", "foo==1.1.2"), where the number guard does not read numbers: the passage states it."""
    written = [w for w in {cm.text.strip(), *cm.extra_keys} if re.fullmatch(r"\d+(?:\.\d+)+", w)]
    return any(re.search(rf"(?<![\d.]){re.escape(w)}(?!\d|\.\d)", passage_text) for w in written)
