"""Grounding: what a question is *about*, so a stored answer is reused only for the same meaning.

Two questions can read almost alike and ask different things ("git reset --hard" / "--soft", E4012 /
E4013, "numeric to factor" / "factor to numeric", `return_exceptions=True` / `False`). Embeddings put
such pairs above 0.93 cosine, so reuse is decided on what must match exactly:

- entities: identifiers (textcore.identifiers), the admin's entity patterns, numbers with their units
  and versions;
- polarity: a side of an antonym pair (enable/disable, add/remove, True/False …), negation, and
  prefixed opposites (lock/unlock, taxable/non-taxable);
- direction: "A to B" against "B to A";
- substitution: one content word put in the place of another ("delete a branch" / "delete a tag").

Pure Python over strings; the cache stores each question's `Grounding.to_dict()` so comparing
candidates costs no parsing.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Iterable

from textcore.antonyms import ANTONYMS
from textcore.identifiers import identifiers
from textcore.words import STOPWORDS, WORD_NUMBERS

__all__ = ["Grounding", "ground", "compatible", "entity_key", "fold"]

# Antonym classes (textcore.antonyms): every word of a side maps to "<class>:<side>"; phrases ("turn on") first.
_ANTONYMS = ANTONYMS
_NEGATIONS = frozenset("not no never without cannot cant none nobody nothing neither nor".split())
_OPPOSITE_PREFIXES = ("non-", "non", "un", "dis", "in", "de")
_DIRECTION_WORDS = r"(?:to|into|->|→|onto)"
_DIRECTION_VERBS = frozenset("""from convert migrate switch move copy merge cast redirect transfer upgrade downgrade
    turn change port""".split())
_DETERMINERS = frozenset("a an the my our your their his her its this that these those some any".split())
# Words that only shape the question ("how big", "what's", "tell me") and never change what is asked.
_QUESTION_FORM = frozenset("""what whats which who whom whose where when why how much many big long often far
    soon does do did is are was were be can could would should will shall may might must i me we us you it
    there here get got need needs want know tell please pls hey hi hello anyone anybody someone
    quick q question just actually exactly really again still also ok okay so um uh wait thanks thx
    possible allowed able way easiest best good happen happens happened use used using""".split())
_WORD_RE = re.compile(r"[a-z0-9][a-z0-9_'’.\-]*[a-z0-9]|[a-z0-9]", re.I)
_NUMBER_RE = re.compile(
    r"(?<![\w.])(\$|€|£|v(?=\d))?(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)*)\s*"
    r"(k\b|%|percent\b|gb\b|mb\b|kb\b|tb\b|ms\b|s\b|secs?\b|seconds?\b|mins?\b|minutes?\b|h\b|hrs?\b|hours?\b|"
    r"days?\b|weeks?\b|months?\b|years?\b|yr\b|px\b|x\b)?", re.I)
_UNIT_FOLD = {"percent": "%", "s": "s", "sec": "s", "secs": "s", "second": "s", "seconds": "s", "min": "min",
              "mins": "min", "minute": "min", "minutes": "min", "h": "h", "hr": "h", "hrs": "h", "hour": "h",
              "hours": "h", "day": "d", "days": "d", "week": "w", "weeks": "w", "month": "mo", "months": "mo",
              "year": "y", "years": "y", "yr": "y"}
_NUMERIC_KINDS = frozenset({"version", "quantity"})
_NUMBER_WORDS = {w: str(v) for w, v in WORD_NUMBERS.items() if v <= 12 and w not in ("dozen", "twice")}


def fold(word: str) -> str:
    """A light stem for matching words across questions: case, possessive and common suffixes folded."""
    word = word.lower().replace("’", "'")
    word = re.sub(r"'(s|t|re|ve|ll|d|m)$", "", word)
    for suffix, keep in (("ies", "y"), ("sses", "ss"), ("able", ""), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            return word[: -len(suffix)] + keep
    return word


@dataclass(frozen=True)
class Grounding:
    """What a question must share with another for one answer to serve both."""

    entities: frozenset[tuple[str, str]] = frozenset()
    polarity: frozenset[str] = frozenset()
    negated: bool = False
    directions: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = ()
    tokens: tuple[str, ...] = ()
    topics: frozenset[str] = field(default=frozenset())

    def to_dict(self) -> dict:
        return {"entities": sorted(list(e) for e in self.entities), "polarity": sorted(self.polarity),
                "negated": self.negated, "directions": [[list(a), list(b)] for a, b in self.directions],
                "tokens": list(self.tokens), "topics": sorted(self.topics)}

    @classmethod
    def from_dict(cls, data: dict) -> "Grounding":
        return cls(entities=frozenset(tuple(e) for e in data.get("entities", [])),
                   polarity=frozenset(data.get("polarity", [])), negated=bool(data.get("negated")),
                   directions=tuple((tuple(a), tuple(b)) for a, b in data.get("directions", [])),
                   tokens=tuple(data.get("tokens", [])), topics=frozenset(data.get("topics", [])))

    @property
    def entity_values(self) -> frozenset[str]:
        return frozenset(value for _kind, value in self.entities)


def _numbers(text: str) -> list[tuple[str, str]]:
    found = []
    for m in _NUMBER_RE.finditer(text):
        value = m.group(2).replace(",", "")
        unit = (m.group(3) or "").lower()
        prefix = (m.group(1) or "").lower()
        if unit == "k" and value.count(".") <= 1:
            value, unit = f"{float(value) * 1000:g}", ""
        unit = _UNIT_FOLD.get(unit, unit)
        if prefix == "v" or (value.count(".") >= 1 and not unit and not prefix):
            found.append(("version", value))
        else:
            found.append(("number", f"{prefix}{value}{unit}"))
    for word in re.findall(r"[a-z]+", text.lower()):
        if word in _NUMBER_WORDS:
            found.append(("number", _NUMBER_WORDS[word]))
    return found


def _entities(text: str, patterns: Iterable[tuple[str, re.Pattern]]) -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for ident in identifiers(text, quotes=False):
        if ident.kind in ("code", "option", "acronym", "backtick"):
            kind = {"option": "option", "acronym": "acronym"}.get(ident.kind, "code")
            found.add((kind, ident.text.lower().removesuffix("()")))
    for kind, rx in patterns:
        if kind in _NUMERIC_KINDS:
            continue  # numbers and versions are read (and normalised: "30 seconds" = "30 s") below
        for m in rx.finditer(text):
            found.add((kind, m.group(0).lower().removesuffix("()")))
    found.update(_numbers(text))
    # A code that merely wraps a number ("1500" in "PPO 1500") is the same fact; keep one reading of each value.
    by_value: dict[str, tuple[str, str]] = {}
    for kind, value in sorted(found):
        by_value.setdefault(value, (kind, value))
    return set(by_value.values())


def _canonical_words() -> dict[str, str]:
    """Each antonym word or phrase -> one token per class side ("turn on", "enable" -> "enable+")."""
    return {phrase: f"{name}{'+' if side == 0 else '-'}" for name, *sides in _ANTONYMS
            for side, phrases in enumerate(sides) for phrase in phrases}


_CANONICAL = _canonical_words()
_CANONICAL_RE = re.compile(r"\b(" + "|".join(re.escape(p) for p in sorted(_CANONICAL, key=len, reverse=True)) + r")\b")


def _tokens(text: str) -> list[str]:
    """Words folded for comparison; antonym words become their class side, so synonyms ("raise",
    "increase") compare equal; upper-case words (HTTPS, CSV) are kept whole."""
    text = text.replace("’", "'")
    tokens = []
    for word in _WORD_RE.findall(text):
        lowered = word.lower()
        tokens.append(lowered if word.isupper() and len(word) > 1 else fold(lowered))
    joined = " ".join(tokens)
    joined = _CANONICAL_RE.sub(lambda m: _CANONICAL[m.group(1)], joined)
    return joined.split()


def _polarity(text: str) -> tuple[set[str], bool]:
    lowered = " " + " ".join(_WORD_RE.findall(text.lower().replace("’", "'"))) + " "
    sides: set[str] = set()
    for name, positive, negative in _ANTONYMS:
        for side, words in (("+", positive), ("-", negative)):
            for phrase in sorted(words, key=len, reverse=True):
                if f" {phrase} " in lowered:
                    sides.add(f"{name}:{side}")
                    lowered = lowered.replace(f" {phrase} ", " ")
    words = lowered.split()
    negated = any(w in _NEGATIONS or w.endswith("n't") for w in words)
    return sides, negated


def _side(words: list[str]) -> tuple[str, ...]:
    kept = [w.lower() if w.isupper() else fold(w) for w in words if w.lower() not in _DETERMINERS]
    return tuple(w for w in kept if w not in STOPWORDS)


def _directions(text: str) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """(from-side, to-side) word sets around "to"/"into"; a reversal swaps them."""
    words = [w.rstrip(".") for w in re.findall(r"[\w.\-$]+|->|→", text)]
    pairs = []
    for i, word in enumerate(words):
        if not re.fullmatch(_DIRECTION_WORDS, word, re.I) or i == 0 or i == len(words) - 1:
            continue
        before = []
        for w in reversed(words[max(0, i - 4):i]):
            if w.lower() in _DIRECTION_VERBS or w.lower() in _QUESTION_FORM:
                break
            before.insert(0, w)
        after = []
        for w in words[i + 1:i + 5]:
            if w.lower() in ("in", "on", "for", "with", "when", "if", "using", "to", "into", "from"):
                break
            after.append(w.rstrip("?.!,"))
        left, right = _side(before), _side(after)
        if left and right:
            pairs.append((left, right))
    return tuple(pairs)


def ground(text: str, patterns: Iterable[tuple[str, re.Pattern]] = (), topics: Iterable[str] = ()) -> Grounding:
    """The grounding of one (redacted, normalised) question."""
    sides, negated = _polarity(text)
    return Grounding(entities=frozenset(_entities(text, list(patterns))), polarity=frozenset(sides),
                     negated=negated, directions=_directions(text), tokens=tuple(_tokens(text)),
                     topics=frozenset(topics))


def entity_key(grounding: Grounding) -> str:
    """One string per entity set, so questions naming the same entities meet in an index."""
    return "|".join(sorted(f"{k}:{v}" for k, v in grounding.entities))[:500]


def _content(token: str, entity_values: frozenset[str]) -> bool:
    return (len(token) > 1 and token not in STOPWORDS and token not in _QUESTION_FORM
            and token not in _DETERMINERS and not any(token == fold(v) for v in entity_values))


def _is_opposite(a: str, b: str) -> bool:
    return min(len(a), len(b)) >= 4 and any(b == p + a or a == p + b for p in _OPPOSITE_PREFIXES)


def _substitution(stored: Grounding, asked: Grounding) -> str:
    """The first content word of one question standing where another content word stood in the other."""
    values = stored.entity_values | asked.entity_values
    a = [t for t in stored.tokens if t not in _DETERMINERS]
    b = [t for t in asked.tokens if t not in _DETERMINERS]
    matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    blocks = matcher.get_opcodes()
    for index, (op, i1, i2, j1, j2) in enumerate(blocks):
        if op != "replace":
            continue
        left = {t for t in a[i1:i2] if _content(t, values)}
        right = {t for t in b[j1:j2] if _content(t, values)}
        # Anchored on both sides: the words around the swap are the same in both questions.
        before = blocks[index - 1][0] if index > 0 else "edge"
        after = blocks[index + 1][0] if index < len(blocks) - 1 else "edge"
        anchored = "equal" in (before, after) and {before, after} <= {"equal", "edge"}
        if left and right and not (left & right) and anchored and (i2 - i1) <= 2 and (j2 - j1) <= 2:
            return f"'{' '.join(sorted(left))}' became '{' '.join(sorted(right))}'"
    return ""


def _unmatched(entities: frozenset[tuple[str, str]], other: Grounding) -> list[str]:
    """Entity values the other question does not name; an acronym written in lower case ("csv") still counts."""
    words = set(other.tokens)
    return sorted(v for kind, v in entities if not (kind == "acronym" and fold(v) in words))


def compatible(stored: Grounding, asked: Grounding) -> tuple[bool, str]:
    """(True, "") when an answer to `stored` answers `asked`; else (False, what differs)."""
    missing = _unmatched(stored.entities - asked.entities, asked)
    extra = _unmatched(asked.entities - stored.entities, stored)
    if missing or extra:
        return False, f"entities differ (stored only: {missing}, asked only: {extra})"
    for name in {p.split(":")[0] for p in stored.polarity} & {p.split(":")[0] for p in asked.polarity}:
        # A class named in only one question is wording ("run the worker" / "the worker"); a class named in
        # both must point the same way ("enable" / "disable").
        sides = ({p for p in stored.polarity if p.startswith(name + ":")},
                 {p for p in asked.polarity if p.startswith(name + ":")})
        if sides[0] != sides[1]:
            return False, f"polarity differs ({sorted(sides[0])} vs {sorted(sides[1])})"
    if stored.negated != asked.negated:
        return False, "one question is negated"
    stored_words, asked_words = set(stored.tokens), set(asked.tokens)
    for word in stored_words ^ asked_words:
        if any(_is_opposite(word, other) for other in (asked_words if word in stored_words else stored_words)):
            return False, f"opposite words ({word})"
    for s_from, s_to in stored.directions:
        for a_from, a_to in asked.directions:
            # Only the words that tell the two ends apart ("old team" / "new team" -> old, new).
            s_only_from, s_only_to = set(s_from) - set(s_to), set(s_to) - set(s_from)
            a_only_from, a_only_to = set(a_from) - set(a_to), set(a_to) - set(a_from)
            if s_only_from & a_only_to and s_only_to & a_only_from:
                return False, "direction reversed"
    swapped = _substitution(stored, asked)
    if swapped:
        return False, f"different object: {swapped}"
    return True, ""
