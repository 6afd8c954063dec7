"""Word-level helpers of the checker: light stemming, generic words and paraphrase synonyms (tokens and
stop words come from textcore.words)."""

from __future__ import annotations

import re
from functools import lru_cache

from textcore.wordforms import base_form
from textcore.words import STOPWORDS, WORD_NUMBERS, singular, words

# Verbs and fillers that paraphrases add or drop freely; they count half and are never "novel".
GENERIC = frozenset(
    """get gets got getting receive receives received have has make makes made use used uses using
    provide provides provided give gives given take takes taken do done go goes find see ensure note
    please able allow allowed available applicable apply applies following follow follows include
    includes included including certain specific relevant appropriate new current company employees
    employee staff team people person anyone everyone someone time way thing things part case cases
    one ones well always usually generally typically normally up first then also just only still even
    like via basis total overall entire whole standard regular general eligible entitled let lets
    want wants help helps need needed needs require requires required request become becomes
    happen happens ahead back forward going keep keeps stay stays remain remains detail details more
    information info see policy page link read here document documents doc docs""".split()
)

# Paraphrase pairs common in policy answers, folded to one canonical stem.
_SYNONYMS: dict[str, str] = {
    "staff": "employee", "worker": "employee", "workers": "employee", "personnel": "employee",
    "employees": "employee", "colleague": "employee", "colleagues": "employee",
    "supervisor": "manager", "supervisors": "manager", "boss": "manager",
    "obtain": "get", "receive": "get", "received": "get", "entitled": "get",
    "purchase": "buy", "purchased": "buy", "bought": "buy", "purchases": "buy",
    "lodge": "submit", "lodged": "submit", "file": "submit", "filed": "submit",
    "begin": "start", "begins": "start", "commence": "start", "commences": "start",
    "finish": "end", "finishes": "end", "conclude": "end",
    "pay": "reimburse", "pays": "reimburse", "refund": "reimburse", "refunded": "reimburse", "repay": "reimburse", "repaid": "reimburse",
    "expenses": "expense", "cost": "expense", "costs": "expense",
    "utilize": "use", "utilise": "use", "employ": "use",
    "assist": "help", "assistance": "help", "support": "help", "helpful": "help", "handy": "help", "useful": "help",
    "contact": "reach", "email": "reach", "message": "reach",
    "prohibit": "forbid", "prohibited": "forbid", "forbidden": "forbid", "banned": "forbid",
    "permitted": "allow", "permit": "allow", "allowed": "allow",
    "mandatory": "require", "compulsory": "require", "obligatory": "require",
    "annual": "year", "annually": "year", "yearly": "year", "years": "year",
    "monthly": "month", "weekly": "week", "daily": "day", "hourly": "hour",
    "modify": "change", "alter": "change", "update": "change", "amend": "change",
    "big": "large", "huge": "large", "small": "little", "quickly": "fast", "promptly": "fast",
    "ask": "request", "asks": "request", "asked": "request", "apply": "request",
    "remotely": "remote", "home": "remote",
    "laptop": "computer", "laptops": "computer", "device": "computer", "devices": "computer",
    # Short forms of technical documentation.
    "config": "configuration", "configs": "configuration", "repo": "repository", "repos": "repository",
    "dir": "directory", "dirs": "directory", "env": "environment", "arg": "argument", "args": "argument",
    "param": "parameter", "params": "parameter", "app": "application", "apps": "application",
    "db": "database", "lib": "library", "libs": "library", "pkg": "package", "deps": "dependency",
    "spec": "specification", "tmp": "temporary", "temp": "temporary",
}

_SUFFIXES: tuple[tuple[str, str], ...] = (
    ("ational", "ate"), ("ization", "ize"), ("isation", "ize"), ("issions", "it"), ("ission", "it"),
    ("ations", ""), ("ation", ""), ("ements", ""), ("ement", ""), ("ments", ""), ("ment", ""),
    ("ities", ""), ("ity", ""), ("ness", ""), ("ingly", ""), ("ings", ""), ("ing", ""),
    ("edly", ""), ("ied", "y"), ("ies", "y"), ("ed", ""), ("ly", ""), ("al", ""), ("s", ""),
)


@lru_cache(maxsize=20000)
def stem(word: str) -> str:
    """Very light suffix-stripping stemmer, enough to match inflections and nominalisations."""
    w = word.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    w = w.rstrip("'")  # a plural's possessive ("the nodes' centres") is the plural
    # "shrunk" is read as "shrink", "neighbouring" as "neighboring": forms no suffix rule folds.
    w = base_form(w)
    w = _SYNONYMS.get(w, w)
    if w.endswith("ses") and len(w) >= 7 and singular(w) == w[:-2]:
        w = w[:-2]  # "aliases" is read as "alias" is, "releases" as "release"
    # British -ise spellings fold into -ize ("customised" == "customized").
    w = re.sub(r"(?<=\w{3})is(e|es|ed|ing)$", r"iz\1", w)
    for suffix, repl in _SUFFIXES:
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            if suffix == "s" and w.endswith(("ss", "us", "is")):
                break
            w = w[: -len(suffix)] + repl
            break
    if w.endswith("e") and len(w) > 3:
        w = w[:-1]
    if len(w) > 4 and w[-1] == w[-2] and w[-1] not in "lsz":
        w = w[:-1]
    # An inflected synonym ("alters" -> "alter") folds into its canonical word's stem ("change" -> "chang"),
    # the stem the canonical word itself gets.
    canonical = _SYNONYMS.get(w)
    return stem(canonical) if canonical and canonical != w else w


# Endings that turn one word into another of the same family ("recover" / "recovery", "violates" /
# "violation", "specific" / "specify", "smart" / "smarter"), stripped from stems at most twice.
_DERIVATIONAL = ("ion", "ive", "ory", "ery", "ary", "ure", "er", "or", "y", "i", "at", "ic")


@lru_cache(maxsize=20000)
def root(s: str) -> str:
    """The stem of a word family: `stem`'s output with derivational endings taken off while at least four
    letters stay ("recovery" -> "recov", "violat" -> "viol"). Support compares roots, so a sentence reworded
    into another form of the same word ("the system recovers" for "system recovery") keeps its support;
    names and numbers are still compared whole by their own guards."""
    for _ in range(2):
        for suffix in _DERIVATIONAL:
            if s.endswith(suffix) and len(s) - len(suffix) >= 4:
                s = s[: -len(suffix)]
                break
        else:
            break
    # A Latin noun in -sion/-tion and its verb keep one root ("conclusion" / "concludes", "decision" / "decide",
    # "description" / "describe", "reduction" / "reduce").
    for end, verb in _ALTERNATIONS:
        if s.endswith(end) and len(s) - len(end) >= 2:
            return s[: -len(end)] + verb
    return s


_ALTERNATIONS = (("script", "scrib"), ("miss", "mit"), ("us", "ud"), ("is", "id"), ("uct", "uc"), ("ans", "and"))


# Spelled-out numbers are the number guard's business, not content words.
NUMBER_WORDS = frozenset(WORD_NUMBERS) | {"thousand", "million", "billion", "half"}


@lru_cache(maxsize=20000)
def is_content(word: str) -> bool:
    """True for words that carry meaning (not stopwords, number words or single letters)."""
    lw = word.lower().replace("’", "'")
    return len(lw) > 1 and lw not in STOPWORDS and lw not in NUMBER_WORDS


def content_stems(text: str, exclude: frozenset[str] = frozenset()) -> list[str]:
    """Stemmed content words of text, in order, skipping words listed in exclude."""
    return list(_content_stems(text, exclude))


@lru_cache(maxsize=8192)
def _content_stems(text: str, exclude: frozenset[str]) -> tuple[str, ...]:
    out = []
    for w in words(text):
        lw = w.lower()
        if lw in exclude or not is_content(lw):
            continue
        out.append(stem(lw))
    return tuple(out)


@lru_cache(maxsize=20000)
def is_generic_stem(s: str) -> bool:
    """True for stems of words that paraphrases add or drop freely."""
    return s in _GENERIC_STEMS


_GENERIC_STEMS = frozenset(stem(w) for w in GENERIC) | frozenset(root(stem(w)) for w in GENERIC)


def bigrams(stems: list[str]) -> set[tuple[str, str]]:
    """Adjacent pairs of content stems."""
    return {(a, b) for a, b in zip(stems, stems[1:])}


def normalise_space(text: str) -> str:
    """Collapse runs of whitespace and strip the ends."""
    return re.sub(r"\s+", " ", text).strip()
