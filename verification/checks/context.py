"""Context guard: each name, identifier and number of a claim must sit in the context its source gives it.

An entity swap takes another entity of the same passage ("SQLITE_FULL" for "SQLITE_MAX_PAGE_COUNT",
"404" for "405"), so every name of the claim is still found in the source and the names and identifier
guards pass. What changes is what surrounds it: the claim attaches X to the words the source attaches
to Y. For every entity X of the claim, the words around it in the claim (nearer words weigh more,
words found in many sentences of the passage weigh less) are compared with the words around each
source occurrence of X and around every other entity of the cited sentences. When another entity's
surroundings agree with the claim's markedly better than X's own do, the claim has put X in Y's place.
A context word counts fully where it stands on the same side of the entity in claim and source, and
`context_other_side` as much where the sides differ (word order says who does what to whom).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from textcore.identifiers import described_code, identifiers, names
from textcore.words import WORD_RE

from .text import is_content, is_generic_stem, stem

_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*(?![\w])")
_KINDS = ("code", "option", "acronym", "quote", "backtick")


@dataclass(frozen=True)
class ContextCheck:
    """Outcome of the context guard for one claim."""

    status: str  # "pass", "n/a", "conflict"
    detail: str
    evidence: str | None = None


def _entity_spans(text: str, extra: tuple[str, ...] = ()) -> list[tuple[int, int, str]]:
    """(start, end, key) of every entity in text; longer spans win where two overlap."""
    found = [i.text for i in identifiers(text) if i.kind in _KINDS] + names(text) + list(extra)
    spans: list[tuple[int, int, str]] = []
    for ent in dict.fromkeys(found):
        if len(ent) < 2:
            continue
        pattern = rf"(?<![\w.-]){re.escape(ent)}(?![\w-])" if re.match(r"\w", ent) else re.escape(ent)
        for m in re.finditer(pattern, text, re.I):
            spans.append((m.start(), m.end(), key(ent)))
    for m in _NUMBER.finditer(text):
        spans.append((m.start(), m.end(), key(m.group(0))))
    spans.sort(key=lambda s: (s[0], -(s[1] - s[0])))
    kept: list[tuple[int, int, str]] = []
    for s in spans:
        if kept and s[0] < kept[-1][1]:
            continue
        kept.append(s)
    return kept


def key(entity: str) -> str:
    """Comparison key of an entity: lower case, quotes, brackets and thousands separators dropped."""
    ent = entity.lower().strip("\"'“”‘’`()").removesuffix("()")
    return "@" + re.sub(r"(?<=\d),(?=\d{3})", "", ent)


def sequence(text: str, extra: tuple[str, ...] = ()) -> list[str]:
    """Entity keys and specific content stems of text, in order (stop words and filler dropped)."""
    return list(_sequence(text, extra))


@lru_cache(maxsize=8192)
def _sequence(text: str, extra: tuple[str, ...]) -> tuple[str, ...]:
    """Cached sequence (a source sentence is read once for every claim that cites it)."""
    out: list[str] = []
    pos = 0
    for start, end, k in _entity_spans(text, extra):
        out += _stems(text[pos:start])
        out.append(k)
        pos = end
    out += _stems(text[pos:])
    return tuple(out)


def _stems(text: str) -> list[str]:
    return [s for w in WORD_RE.findall(text) if is_content(w) and not is_generic_stem(s := stem(w.lower()))]


def _around(seq: list[str], i: int, window: int) -> dict[str, float]:
    """Tokens within `window` places of position i, each weighted 1/distance (nearest kept), signed by side:
    negative before position i, positive after it."""
    out: dict[str, float] = {}
    for j in range(max(0, i - window), min(len(seq), i + window + 1)):
        if j != i and seq[j] != seq[i]:
            w = 1.0 / abs(i - j)
            if w > abs(out.get(seq[j], 0.0)):
                out[seq[j]] = w if j > i else -w
    return out


def _agreement(claim_ctx: dict[str, float], src_ctx: dict[str, float], idf: dict[str, float],
               other_side: float) -> float:
    """Weight of the context words claim and source share; a word that stands on the other side of the entity
    in the source ("Linux distributions ship Sphinx" for "Sphinx distributions ship Linux") counts
    `other_side` as much: word order says who does what to whom, though a reworded sentence may turn it."""
    total = 0.0
    for t, w in claim_ctx.items():
        v = src_ctx.get(t)
        if v is None:
            continue
        total += abs(w) * abs(v) * idf.get(t, 1.0) * (1.0 if w * v >= 0 else other_side)
    return total


def described(k: str) -> str:
    """The key of the code a described code names ("@base64-encoded" -> "@base64"), else the key itself."""
    code = described_code(k[1:])
    return "@" + code if code else k


def _kind(k: str) -> str:
    """Numbers compete with numbers, names and identifiers with each other."""
    return "number" if _NUMBER.fullmatch(k[1:]) else "name"


def _related(a: str, b: str) -> bool:
    """Same entity, one part of the other ("ClickException" / "ClickException.show"), or different kinds."""
    return a == b or _kind(a) != _kind(b) or a[1:] in b[1:] or b[1:] in a[1:]


@dataclass
class _Placement:
    """How well the words around one claim entity agree with each entity's source context."""

    total: float
    scores: dict[str, tuple[float, int]]  # entity -> (best agreement, sentence index)

    def of(self, entity: str) -> float:
        return self.scores.get(entity, (0.0, 0))[0]


def _placement(ctx: dict[str, float], ent: str, occurrences: dict[str, list[tuple[dict[str, float], int]]],
               idf: dict[str, float], other_side: float) -> _Placement:
    scores: dict[str, tuple[float, int]] = {}
    for other, occs in occurrences.items():
        for c, n in occs:
            if other != ent and ent in c:
                continue  # named beside the claim's entity: the two share what surrounds them
            score = _agreement(ctx, c, idf, other_side)
            if score > scores.get(other, (-1.0, 0))[0]:
                scores[other] = (score, n)
    return _Placement(sum(abs(w) * idf.get(t, 1.0) for t, w in ctx.items()), scores)


# Weight of a word of a term's definition in the term's context (a word next to it weighs 1, one two
# places away 1/2 …).
DEFINITION_WEIGHT = 0.25
# A sentence that opens a definition list's entry: a term (or two, with a comma) and a colon.
DEFINITION_HEAD = re.compile(r"^\s*(\S+(?:\s*,\s*\S+)?)\s*:\s")
_DEFINITION_LINES = 6


def _definitions(sentences: list[str], seqs: list[list[str]]) -> list[tuple[str, int, list[str]]]:
    """(term key, its sentence, the tokens of its definition) for each sentence that opens with an entity
    and a colon ("numfig_format: A dictionary …"): the definition runs to the next such term, at most
    _DEFINITION_LINES sentences."""
    heads = []
    for n, (text, seq) in enumerate(zip(sentences, seqs)):
        m = DEFINITION_HEAD.match(text)
        if m and seq and seq[0].startswith("@") and seq[0][1:] in m.group(1).lower():
            heads.append(n)
    out = []
    for k, n in enumerate(heads):
        end = min(heads[k + 1] if k + 1 < len(heads) else len(sentences), n + _DEFINITION_LINES)
        out.append((seqs[n][0], n, [t for seq in seqs[n:end] for t in seq]))
    return out


_OPTION = r"-{1,2}[A-Za-z0-9][\w-]*"
# An option followed by its other spellings in brackets ("--max-lines (-L, -l)"), or two spellings joined by a
# slash or a comma ("-T/--no-toc", "-n, --max-args"): one option, named several ways.
_BRACKETED_ALIASES = re.compile(rf"(?<![\w-])(?P<main>{_OPTION})\s*\((?P<alts>\s*{_OPTION}(?:\s*[,/|]\s*{_OPTION})*\s*)\)")
_JOINED_ALIASES = re.compile(r"(?<![\w-])(?P<main>-[A-Za-z0-9])(?P<alts>\s*[,/]\s*--[A-Za-z0-9][\w-]*)(?![\w-])")


@lru_cache(maxsize=1024)
def _aliases(sentences: tuple[str, ...]) -> tuple[tuple[str, ...], dict[str, str]]:
    """The sentences with bracketed alias lists left out, and each spelling's key -> the first spelling's key.
    Cached: every claim of an answer reads the same cited sentences (the mapping is read, never changed)."""
    alias: dict[str, str] = {}

    def find(k: str) -> str:
        while alias.get(k, k) != k:
            k = alias[k]
        return k

    def record(m: re.Match[str]) -> None:
        main = find(key(m.group("main")))
        for alt in re.findall(_OPTION, m.group("alts")):
            root = find(key(alt))
            if root != main:
                alias[root] = main

    cleaned = []
    for sentence in sentences:
        for m in _JOINED_ALIASES.finditer(sentence):
            record(m)
        for m in _BRACKETED_ALIASES.finditer(sentence):
            record(m)
        cleaned.append(_BRACKETED_ALIASES.sub(lambda m: m.group("main"), sentence))
    return tuple(cleaned), {k: find(k) for k in alias}


def check_context(claim_text: str, sentences: list[str], window: int, margin: float, min_rival: float = 0.0,
                  other_side: float = 1.0, min_rival_shared: float = 0.0) -> ContextCheck:
    """Conflict when another entity's source context agrees with the words around a claim entity by at
    least `min_rival`, and by `margin` more than the entity's own source context (both as shares of the
    claim context's weight). A rival the claim also names counts only when the two changed places. A rival
    whose sentence names the claim's entity too must agree by `min_rival_shared`: a claim that rewords that
    sentence shares words with both, wherever in it the two stand (0: no more than `min_rival`)."""
    sentences, alias = _aliases(tuple(sentences))
    claim_seq = [alias.get(t, t) for t in sequence(claim_text)]
    entities = [k for k in dict.fromkeys(claim_seq) if k.startswith("@")]
    if not entities or not sentences:
        return ContextCheck("n/a", "no entities")
    # The claim's own entities are looked for in the source even where the source's capitals do not mark
    # them ("Checkout the code." starts a sentence).
    claim_surface = tuple(dict.fromkeys([i.text for i in identifiers(claim_text) if i.kind in _KINDS]
                                        + names(claim_text)))
    seqs = [[alias.get(t, t) for t in sequence(s, claim_surface)] for s in sentences]
    df = Counter(t for seq in seqs for t in set(seq))
    idf = {t: 1.0 / n for t, n in df.items()}
    occurrences: dict[str, list[tuple[dict[str, float], int]]] = {}
    for n, seq in enumerate(seqs):
        for i, t in enumerate(seq):
            if t.startswith("@"):
                occurrences.setdefault(t, []).append((_around(seq, i, window), n))
    for term, n, body in _definitions(sentences, seqs):
        # A definition list's term ("SESSION_COOKIE_HTTPONLY: Controls …" then "Default: True") owns its
        # whole definition: the lines under it say what it is, however far from the term they stand.
        occurrences[term].append(({t: DEFINITION_WEIGHT for t in body if t != term}, n))
    found = [e for e in entities if e in occurrences]
    places = {e: _placement(_around(claim_seq, claim_seq.index(e), window), e, occurrences, idf, other_side)
              for e in found}
    for ent in found:
        place = places[ent]
        if place.total <= 0:
            continue
        own = place.of(ent)
        for rival, (best, where) in sorted(place.scores.items(), key=lambda kv: -kv[1][0]):
            if _related(ent, rival):
                continue
            if (best - own) / place.total < margin or best / place.total < min_rival:
                break
            if ent in seqs[where] and best / place.total < min_rival_shared:
                continue
            if rival in places and places[rival].of(ent) <= places[rival].of(rival):
                continue  # the claim names the rival too, in its own place: not an exchange
            if rival not in places and any(described(e) == rival for e in entities):
                continue  # the claim names the rival, described ("Base64-encoded"): nothing took its place
            return ContextCheck("conflict", f"{ent[1:]!r} stands where the source has {rival[1:]!r} "
                                f"(context agreement {own / place.total:.2f} vs {best / place.total:.2f})",
                                sentences[where])
    return ContextCheck("pass", f"{len(found)} entit(ies) in their source context")
