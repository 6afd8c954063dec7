"""Identifiers: the tokens that must be copied exactly — settings, options, codes, file names, quotes.

One extractor for indexing, retrieval, the answer checker and reuse of stored answers:
- code: snake_case, CONSTANT_CASE, camelCase, PascalCase with an inner capital (FileSystemLoader),
  letters mixed with digits (E4012, x86_64, sqlite3), dotted names (app.config, push.autoSetupRemote,
  mkdocs.yml, os.path.join()), upper-case codes with hyphens (IT-HELP, EXP-204);
- option: command-line options (-v, --hard, --save-exact);
- acronym: upper-case words of 2–10 letters (WAL, PRAGMA, DEBUG);
- quote / backtick: quoted strings (checker only); path (/etc/npmrc, src/lib.rs; checker only); url, email,
  channel (#ops).
Versions (v2.3, 3.11) and quantities (5pm, 16GB, 3rd) are numbers, not identifiers.
"""

from __future__ import annotations

import re
from functools import lru_cache
from dataclasses import dataclass

from textcore.words import zipf

__all__ = ["Identifier", "identifiers", "names", "code_terms", "code_spans", "URL_RE", "EMAIL_RE", "is_code",
           "described_code"]

URL_RE = re.compile(r"(?:https?://|www\.)[^\s<>()\[\]\"'|`]+", re.I)
EMAIL_RE = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")
# A file path: a token with a slash that starts at a root, a home, a variable or the current folder
# ("/etc/npmrc", "~/.config", "$PREFIX/etc/npmrc", "./build") or ends in a file name with an extension
# ("src/lib.rs", "requirements/dev.txt"). "and/or", "TCP/IP", "1/2" and "-o/--out-dir" are none.
_PATH_TOKEN = re.compile(r"(?<![^\s(\[{<\"'`])[^\s\"'`()<>\[\]{},;]*/[^\s\"'`()<>\[\]{},;]*")
_PATH_START = re.compile(r"(?:\$\{?[A-Za-z_]\w*\}?|~|\.{1,2})?/[\w.@+$-]")
_PATH_FILE = re.compile(r"[\w.@+-]+/(?:[\w.@+-]+/)*[\w@+-]+\.[A-Za-z][A-Za-z0-9]{0,7}")
_CHANNEL_RE = re.compile(r"(?<![\w&])#[a-z0-9][a-z0-9_-]*[a-z0-9]", re.I)
_OPTION_RE = re.compile(r"(?<![\w\-/])--?[A-Za-z][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*")
_TOKEN_RE = re.compile(r"(?<![\w/#@\-.])[A-Za-z0-9_][A-Za-z0-9_]*(?:[.\-][A-Za-z0-9_]+)*(?:\(\))?(?![\w-])")
_QUOTE_RES = (
    ("backtick", re.compile(r"`([^`\n]{1,120})`")),
    ("quote", re.compile(r"\"([^\"\n]{1,120})\"")),
    ("quote", re.compile(r"“([^”\n]{1,120})”")),
    # Single quotes hug what they quote ("'none'"); apostrophes around words ("a ' character, quote it with '")
    # have space or punctuation inside them.
    ("quote", re.compile(r"(?<![\w])'(?=[^\s,;.])([^'\n]{2,80})(?<=\S)'(?![\w])")),
)
# The old Unix quotes, a backtick opening and an apostrophe closing ("`Umask' is a synonym to `aclumask'"):
# read first, so that two of them are not one backtick quote of the words between them.
_UNIX_QUOTE = re.compile(r"`([^`'\n]{1,80})'(?!\w)")
# Suffixes that make "5pm", "16GB", "3rd" a quantity rather than a code.
_UNIT_SUFFIXES = frozenset("st nd rd th am pm k m gb mb kb tb gib mib kib h hr hrs min mins s d x bn ms px em".split())
# A code with an everyday word hyphened on ("Base64-encoded", "UTF-8-based"): the code, described. The word is
# everyday English from this Zipf frequency on ("encoded" 3.4, "based" 4.9).
_DESCRIBED = re.compile(r"(.*[A-Za-z0-9_])-([a-z]{4,})")
_EVERYDAY = 3.0
_DOTTED_NOT_CODE = frozenset({"e.g", "i.e", "a.m", "p.m", "u.s", "u.k", "vs", "etc", "n.b"})
_STOP_CAPS = frozenset("""A AN AND ARE AS AT BE BY FOR IF IN IS IT NO NOT OF ON OR THE TO YES YOU WITH ALL ANY
    NOTE TIP WARNING IMPORTANT CAUTION OK I II III IV V VI""".split())


@dataclass(frozen=True)
class Identifier:
    """A token that must be copied exactly; `kind` says what sort it is."""

    text: str
    kind: str
    case_sensitive: bool


@lru_cache(maxsize=65536)
def is_code(token: str) -> bool:
    """True for code-like tokens (see the module docstring); False for words, numbers, versions."""
    bare = token.removesuffix("()")
    if len(bare) < 2 or len(bare) > 100:
        return False
    if re.fullmatch(r"[vV]?\d+(?:\.\d+)*", bare):
        return False  # numbers and versions belong to the number check
    if "." in bare:
        parts = bare.split(".")
        if bare.lower() in _DOTTED_NOT_CODE or not all(parts):
            return False
        return any(re.search(r"[A-Za-z]", p) for p in parts) and not all(p.isdigit() for p in parts[1:])
    if "_" in bare:
        return bool(re.search(r"[A-Za-z0-9]", bare))
    if bare[0].isdigit():
        match = re.fullmatch(r"\d+([A-Za-z]+)", bare)
        if match:
            return match.group(1).lower() not in _UNIT_SUFFIXES
        if re.fullmatch(r"\d+-[a-z]{3,}", bare):
            return False  # "15-degree", "64-bit": a quantity and its unit, read by the number check
        return bool(re.search(r"[A-Za-z]", bare)) and "-" in bare
    if "-" in bare:
        parts = bare.split("-")
        if any(ch.isdigit() for ch in bare):
            return True
        return all(p.isupper() and len(p) >= 2 for p in parts)
    if re.search(r"\d", bare):
        return True
    return bool(re.fullmatch(r"[a-z]+[A-Z][A-Za-z]*", bare) or re.fullmatch(r"[A-Z][a-z]+[A-Z][A-Za-z]*", bare))


def described_code(token: str) -> str | None:
    """The code a described code names ("Base64-encoded" -> "Base64", "UTF-8-based" -> "UTF-8"), else None."""
    m = _DESCRIBED.fullmatch(token)
    return m.group(1) if m and zipf(m.group(2)) >= _EVERYDAY else None


def _masked(text: str) -> str:
    """Text with URLs and emails blanked so their parts are not read as codes."""
    for rx in (URL_RE, EMAIL_RE):
        text = rx.sub(lambda m: " " * len(m.group(0)), text)
    return text


def code_spans(text: str) -> list[tuple[int, int]]:
    """Spans of URLs, emails, options and code-like tokens (the number check skips their digits)."""
    masked = _masked(text)
    spans = [m.span() for rx in (URL_RE, EMAIL_RE) for m in rx.finditer(text)]
    spans += [m.span() for m in _OPTION_RE.finditer(masked)]
    spans += [m.span() for m in _TOKEN_RE.finditer(masked) if is_code(m.group(0))]
    return spans


def identifiers(text: str, *, quotes: bool = True) -> list[Identifier]:
    """Identifiers in text, in order of appearance, each (text, kind) once."""
    return list(_identifiers(text, quotes))


@lru_cache(maxsize=4096)
def _identifiers(text: str, quotes: bool) -> tuple[Identifier, ...]:
    """Cached: a passage is read once for every claim that cites it."""
    found: list[tuple[int, Identifier]] = []
    masked = _masked(text)
    if quotes:
        unix = list(_UNIX_QUOTE.finditer(masked))
        found += [(m.start(), Identifier(m.group(1).strip(), "quote", False)) for m in unix if m.group(1).strip()]
        rest = _UNIX_QUOTE.sub(lambda m: " " * len(m.group(0)), masked)
        for kind, rx in _QUOTE_RES:
            for m in rx.finditer(rest):
                # A quote is read whole, a URL or an email inside it included ("`<http://example.org>`", "`pip install
                # git+https://…`"): URLs are masked only so that their parts are not read as codes.
                inner = text[m.start(1):m.end(1)].strip()
                if inner:
                    found.append((m.start(), Identifier(inner, kind, kind == "backtick")))
    for m in _OPTION_RE.finditer(masked):
        found.append((m.start(), Identifier(m.group(0), "option", True)))
    option_spans = [m.span() for m in _OPTION_RE.finditer(masked)]
    for m in _TOKEN_RE.finditer(masked):
        token = m.group(0).rstrip(".")
        if any(a <= m.start() < b for a, b in option_spans):
            continue
        if is_code(token):
            pascal = bool(re.fullmatch(r"[A-Z][a-z]+[A-Z][A-Za-z]*", token))
            found.append((m.start(), Identifier(token, "code", not pascal)))
        elif token.isalpha() and token.isupper() and 2 <= len(token) <= 10 and token not in _STOP_CAPS:
            found.append((m.start(), Identifier(token, "acronym", True)))
    for m in _PATH_TOKEN.finditer(text):
        token = m.group(0).rstrip(".:!?")
        if "://" not in token and (_PATH_START.match(token) or _PATH_FILE.fullmatch(token)):
            found.append((m.start(), Identifier(token, "path", True)))
    for m in _CHANNEL_RE.finditer(masked):
        found.append((m.start(), Identifier(m.group(0), "channel", False)))
    for m in URL_RE.finditer(text):
        found.append((m.start(), Identifier(m.group(0).rstrip(".,;:!?)"), "url", False)))
    for m in EMAIL_RE.finditer(text):
        found.append((m.start(), Identifier(m.group(0), "email", False)))
    seen: set[tuple[str, str]] = set()
    unique: list[Identifier] = []
    for _, ident in sorted(found, key=lambda pair: pair[0]):
        if (ident.text, ident.kind) not in seen:
            seen.add((ident.text, ident.kind))
            unique.append(ident)
    return tuple(unique)


def code_terms(text: str, kinds: tuple[str, ...] = ("code", "option", "acronym")) -> list[str]:
    """Lower-cased codes, options and acronyms of a text, in order (what retrieval matches exactly)."""
    terms = [i.text.lower().removesuffix("()") for i in identifiers(text, quotes=False) if i.kind in kinds]
    return list(dict.fromkeys(terms))


# Capitalised words that start clauses or are generic, not names.
_NOT_NAMES = frozenset("""a an the this that these those if when for with without after before during each every
    all any some no not only you your we our they their it its he she there here in on at by to of from and or
    but also once until unless employees employee staff managers manager yes please note what how who where why
    which i do can may must should will is are was were be new current step see use set run since because
    although though while whereas unlike like apart besides instead otherwise""".split())
_WEEK_AND_MONTHS = frozenset("""monday tuesday wednesday thursday friday saturday sunday january february march
    april june july august september october november december""".split())
# A sentence's first word is a name only when general English hardly knows it (zipf <= 3.2: "Okta", not
# "Receipts"); see textcore.words.specificity.
_RARE = 0.9
_ORDINARY_SHAPE = re.compile(r"[a-z](?:ly|ing|ed|ity|tion|sion|ness|ment)$")
_EVERYDAY = 0.05
_NAME_WORD = re.compile(r"[A-Za-z][A-Za-z0-9&'\-]*")


def _capitalised(word: str) -> bool:
    low = word.lower()
    return word[0].isupper() and not word.isupper() and low not in _NOT_NAMES and low not in _WEEK_AND_MONTHS


def _everyday(word: str) -> bool:
    """One of the most common English words ("Hold", "Press", "People"): capitalised at a sentence's start, it
    opens the sentence, not the name after it ("Hold Shift while clicking" names "Shift")."""
    from .words import specificity

    return specificity(word) < _EVERYDAY


def _rare(word: str) -> bool:
    """Not everyday English, read as its singular too: "Browsers" is as ordinary as "browser", whose
    frequency says so better than the plural's does."""
    from .words import singular, specificity

    return min(specificity(w) for w in (word, singular(word) or word)) >= _RARE


def names(text: str) -> list[str]:
    """Proper names: runs of capitalised words, each run one name ("Okta Verify", "People Operations").

    The first word of a sentence is capitalised anyway, so a run that starts the text is a name only
    when it has two or more words or its first word is not everyday English ("Okta", not "Employees").
    """
    return list(_names(text))


@lru_cache(maxsize=8192)
def _names(text: str) -> tuple[str, ...]:
    """Cached: a source sentence is read for every claim that cites it."""
    from .words import specificity

    found: list[str] = []
    run: list[str] = []
    run_at_start = False
    matches = list(_NAME_WORD.finditer(text))

    def close() -> None:
        # A first word shaped like an adverb, a gerund or a participle ("Relatedly", "Scoping", "Using
        # BSD-style options") is a capitalised ordinary word, however rare: alone it is no name, and it
        # does not belong to the name that follows it.
        if run_at_start and len(run) > 1 and (_ORDINARY_SHAPE.search(run[0]) or _everyday(run[0])):
            del run[0]
        lone_ordinary = run_at_start and len(run) == 1 and bool(_ORDINARY_SHAPE.search(run[0]))
        if run and not lone_ordinary and (not run_at_start or len(run) > 1 or _rare(run[0])):
            name = " ".join(run)
            if len(name) > 2:
                found.append(name)

    for index, match in enumerate(matches):
        word = re.sub(r"'s?$", "", match.group(0))
        gap = text[matches[index - 1].end():match.start()] if index else ""
        sentence_start = index == 0 or bool(re.search(r"[.!?:]\s*$", gap))
        # A name does not run across a comma or a bracket ("Yep, Celery ships it": "Celery" is the name).
        if word and _capitalised(word) and not (run and (sentence_start or re.search(r"[,;()]", gap))):
            if not run:
                run_at_start = sentence_start
            run.append(word)
            continue
        close()
        run = [word] if word and _capitalised(word) else []
        run_at_start = sentence_start
    close()
    return tuple(dict.fromkeys(found))
