"""Polarity guard: the claim's negations and antonyms compared with the source text that supports it.

The claim is aligned word by word (difflib) with the few source sentences that share most of its
content words. Stretches both sides share anchor the alignment; only the edits *between* two anchors
are compared, because that is where the claim and the source talk about the same thing:
- an edit that adds or drops a negation while the rest of it says the same ("is supported" / "is not
  supported", "can be carried over" / "cannot be carried over") is a conflict;
- an edit that puts one word of an antonym pair where the source has the other ("added" / "removed",
  "before" / "after") is a conflict, unless a negation flips it back ("not enabled" / "disabled").
A negation the source has somewhere else, or an edit that rewords the content as well, is not compared:
that is paraphrase, and the support scorer judges it. Negative prefixes are read as negations first
("unchanged" == "not changed", "non-public" == "not public"), so both spellings align.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import lru_cache

from textcore.antonyms import WORD_AXES as AXES
from textcore.words import STOPWORDS

from .text import is_generic_stem, stem

NEG = "¬"
NEGATION_CUES = frozenset(
    "not no never none nor neither without nothing nobody cannot can't don't doesn't didn't isn't aren't "
    "wasn't weren't won't wouldn't shouldn't mustn't shan't haven't hasn't hadn't couldn't".split()
)
# Phrases with a negation word that do not negate the claim ("whether or not", "no later than").
_NOT_NEGATIONS = re.compile(
    r"\b(?:whether or not|not only|not just|if not|no (?:later|earlier|sooner|more|less|fewer) than|"
    r"not (?:later|earlier|more|less|fewer) than|no matter)\b", re.I)
_TOKEN = re.compile(r"[a-z0-9][a-z0-9'_-]*|[,;:()]|\.(?=\s|$)")
BOUNDARY = "|"
# Words that start a new clause: a negation does not reach past them.
_CLAUSE_WORDS = frozenset("and but or so because which while whereas although though unless if when since "
                          "otherwise except".split())
# Words that start with a negative prefix but are not negations of the rest.
_PREFIX_EXCEPTIONS = frozenset("unless until under understand understood unit units unique universal union "
                               "uninstall unicode uniform unify unified unix unlike".split())
# Words that negate without a negation word ("the data is missing" == "the data cannot be found").
_IMPLICIT_NEGATIONS = frozenset(stem(w) for w in "missing lack lacks lacking absent fail fails failed unable "
                                "stop stops stopped cease ceased prevent prevents avoid refuse refuses skip skips skipped omit omits "
                                "omitted".split())
# Polarity words the checker knows: negation cues and every antonym-axis word (support scoring ignores them).
CUE_WORDS = frozenset(NEGATION_CUES | set(AXES))


@lru_cache(maxsize=20000)
def negative_prefix(word: str) -> str | None:
    """The word a negative-prefixed word negates ("unchanged" -> "changed"), or None."""
    from wordfreq import zipf_frequency

    if word in _PREFIX_EXCEPTIONS:
        return None
    for prefix in ("non-", "un-", "non", "un"):
        rest = word[len(prefix):]
        # The rest must itself be an everyday English word, and more common than the whole word.
        if word.startswith(prefix) and len(rest) >= 4 and zipf_frequency(rest, "en") >= 3.0 \
                and zipf_frequency(rest, "en") > zipf_frequency(word, "en"):
            return rest
    return None


@dataclass(frozen=True)
class Token:
    """One aligned word: its comparison key, its surface form, and what it is."""

    key: str  # stem, NEG for a negation, or the axis word's stem
    surface: str
    content: bool  # carries meaning (not a function word, negation or antonym word)
    axis: tuple[str, int] | None = None


def tokens(text: str) -> list[Token]:
    """Alignment tokens of a text: negations folded to one key, negative prefixes split off."""
    return list(_tokens(text))


@lru_cache(maxsize=4096)
def _tokens(text: str) -> tuple[Token, ...]:
    """Cached tokens (each source sentence is aligned with every claim that cites it)."""
    text = _NOT_NEGATIONS.sub(" ", text.lower().replace("’", "'"))
    text = re.sub(r"\bcan(?:not|'t)\b", "can not", text)
    text = re.sub(r"\bwon't\b", "will not", text)
    text = re.sub(r"n't\b", " not", text)
    text = re.sub(r"\bno longer\b", "not", text)
    # "neither A nor B" negates once: the "nor" only joins the second item.
    text = re.sub(r"\b(neither\b[^.;:]*?)\bnor\b", r"\1 or", text)
    out: list[Token] = []
    for word in _TOKEN.findall(text):
        if word in ",;:()." or word in _CLAUSE_WORDS:
            out.append(Token(BOUNDARY, word, False))
            continue
        word = word.strip("'-")
        if not word:
            continue
        if word in NEGATION_CUES:
            out.append(Token(NEG, word, False))
            continue
        if word in AXES:
            out.append(Token(word, word, False, AXES[word]))
            continue
        rest = negative_prefix(word)
        if rest is not None:
            out.append(Token(NEG, word, False))
            word = rest.strip("-")
            if word in AXES:
                out.append(Token(word, word, False, AXES[word]))
                continue
        if word in STOPWORDS or len(word) < 2:
            out.append(Token(word, word, False))
        else:
            out.append(Token(stem(word), word, True))
    return tuple(out)


def cue_words(text: str) -> list[str]:
    """The negation words of a text (a list lead-in passes them on to its items)."""
    return [t.surface for t in tokens(text) if t.key == NEG]


@dataclass(frozen=True)
class PolarityCheck:
    """Outcome of the polarity guard for one claim."""

    status: str  # "pass", "n/a", "conflict"
    detail: str
    evidence: str | None = None


@dataclass(frozen=True)
class _Edit:
    """One stretch where the claim and the aligned source sentence differ, between two anchors."""

    claim: list[Token]
    source: list[Token]
    claim_span: tuple[int, int]
    source_span: tuple[int, int] = (0, 0)


def _anchors(claim: list[Token], source: list[Token]) -> list[tuple[int, int, int]]:
    """Matching blocks (claim start, source start, size) that hold at least one content word."""
    matcher = difflib.SequenceMatcher(None, [t.key for t in claim], [t.key for t in source], autojunk=False)
    return [(a, b, n) for a, b, n in matcher.get_matching_blocks()
            if n and any(t.content for t in claim[a:a + n])]


def _pairs(start: int, end: int) -> set[tuple[int, int]]:
    """Adjacent claim positions within [start, end)."""
    return {(i, i + 1) for i in range(start, end - 1)}


def _edits(claim: list[Token], source: list[Token], max_gap: int) -> tuple[list[_Edit], set[tuple[int, int]]]:
    """Interior edits (between two anchors, short on both sides) and the adjacent claim positions that
    this sentence says in the same words."""
    blocks = _anchors(claim, source)
    covered = set().union(*(_pairs(a, a + n) for a, _, n in blocks)) if blocks else set()
    edits = []
    for (a1, b1, n1), (a2, b2, _) in zip(blocks, blocks[1:]):
        ca, cb = claim[a1 + n1:a2], source[b1 + n1:b2]
        if (ca or cb) and len(ca) <= max_gap and len(cb) <= max_gap:
            edits.append(_Edit(ca, cb, (a1 + n1 - 1, a2 + 1), (b1 + n1 - 1, b2 + 1)))
    return edits, covered


def _meaning(side: list[Token]) -> set[str]:
    """The specific content stems of one side of an edit (generic words are free to differ)."""
    return {t.key for t in side if t.content and not is_generic_stem(t.key)}


def _signs(side: list[Token]) -> dict[str, int]:
    """Antonym-axis signs on one side of an edit."""
    return {t.axis[0]: t.axis[1] for t in side if t.axis}


def _conflict(edit: _Edit) -> str | None:
    """What the edit flips, or None when it only rewords or says the same."""
    if _meaning(edit.claim) != _meaning(edit.source):
        return None  # the content changed too: a rewording, not a flipped statement
    if not edit.claim or not edit.source:
        side = edit.claim or edit.source
        if any(t.content for t in side):
            return None  # a phrase (negation and its verb) moved to another place: a reordering
    neg_c = sum(t.key == NEG for t in edit.claim) % 2
    neg_s = sum(t.key == NEG for t in edit.source) % 2
    signs_c, signs_s = _signs(edit.claim), _signs(edit.source)
    shared = [axis for axis in signs_c if axis in signs_s]
    for axis in shared:
        if signs_c[axis] * (-1) ** neg_c != signs_s[axis] * (-1) ** neg_s:
            words_c = [t.surface for t in edit.claim if t.axis and t.axis[0] == axis]
            words_s = [t.surface for t in edit.source if t.axis and t.axis[0] == axis]
            return f"antonym: claim says {words_c[0]!r}, source says {words_s[0]!r}"
    if not shared and not signs_c and not signs_s and neg_c != neg_s:
        return "negation added" if neg_c else "negation dropped"
    return None




def _flips(clause: list[Token]) -> int:
    """Negations and negating words in a stretch of tokens."""
    return sum(1 for t in clause if t.key == NEG or (t.content and t.key in _IMPLICIT_NEGATIONS))


def _same_clause_parity(claim: list[Token], source: list[Token], edit: "_Edit") -> bool:
    """The clauses around an edit negate the same number of times (mod 2) on both sides."""
    cs, ce = _clause_of(claim, max(0, edit.claim_span[0]))
    ss, se = _clause_of(source, max(0, edit.source_span[0]))
    return _flips(claim[cs:ce]) % 2 == _flips(source[ss:se]) % 2


def _clause_of(toks: list[Token], i: int) -> tuple[int, int]:
    """[start, end) of the clause around position i."""
    start = i
    while start > 0 and toks[start - 1].key != BOUNDARY:
        start -= 1
    end = i
    while end < len(toks) and toks[end].key != BOUNDARY:
        end += 1
    return start, end


def _clauses(toks: list[Token]) -> list[list[Token]]:
    """The token lists between clause boundaries."""
    out: list[list[Token]] = [[]]
    for t in toks:
        if t.key == BOUNDARY:
            out.append([])
        else:
            out[-1].append(t)
    return [c for c in out if c]


def _specific(clause: list[Token]) -> set[str]:
    return {t.key for t in clause if t.content and not is_generic_stem(t.key)}


def _negated_head(clause: list[Token]) -> str | None:
    """The first specific content word after the clause's (odd count of) negation, or None."""
    negs = [i for i, t in enumerate(clause) if t.key == NEG]
    if len(negs) % 2 == 0:
        return None
    for t in clause[negs[0] + 1:]:
        if t.content and not is_generic_stem(t.key):
            return t.key
    return None


def _lexically_negative(clause: list[Token]) -> bool:
    """A clause that says "not" with a word ("stopped", "missing", "disabled", "fails")."""
    return any((t.axis and t.axis[1] < 0) or t.key in _IMPLICIT_NEGATIONS for t in clause)


def _scope_conflict(claim: list[Token], source: list[Token], min_context: int) -> str | None:
    """A clause negated on one side whose counterpart clause (same negated word, at least min_context
    other specific words in common) on the other side has no negation."""
    for first, second, label in ((claim, source, "claim negates"), (source, claim, "source negates")):
        others = _clauses(second)
        for clause in _clauses(first):
            head = _negated_head(clause)
            if head is None:
                continue
            context = _specific(clause) - {head}
            twins = [c for c in others if head in _specific(c) and len(context & _specific(c)) >= min_context]
            # The other side negates the same word in another clause ("print the commands that would be
            # executed, but do not execute them"): it says the same.
            negated_there = any(_negated_head(c) == head for c in others)
            if twins and not negated_there and not any(t.key == NEG for c in twins for t in c) \
                    and not any(_lexically_negative(c) for c in twins):
                word = next(t.surface for t in clause if t.key == head)
                return f"{label} {word!r}, the aligned clause does not"
    return None


# How far (in words) a negation reaches forward to an antonym word it flips ("is not enabled",
# "do not automatically enable").
_REACH = 3


def _reaching(toks: list[Token], end: int) -> int:
    """How many negations (or negating verbs: "skips", "avoid") before position `end` of a clause reach
    it: "no" before a word is a
    determiner that negates that word only ("with no options, NEATO always ...", "no 'first item'
    target"), and a negative prefix negates its own word only ("Unpublishing removes a package")."""
    count = 0
    for k, t in enumerate(toks[:end]):
        implicit = t.content and t.key in _IMPLICIT_NEGATIONS  # "skips creating" == "does not create"
        if not implicit and (t.key != NEG or t.surface not in NEGATION_CUES and t.surface not in ("not", "no")):
            continue
        if end - k > _REACH:
            continue  # "does not exist in the application static folder": it negates "exist"
        follows = toks[k + 1] if k + 1 < len(toks) else None
        if t.surface == "no" and follows is not None and (follows.content or follows.axis):
            continue
        count += 1
    return count


def _axis_conflict(claim: list[Token], source: list[Token]) -> str | None:
    """An antonym-axis word in the claim beside a content word that the source pairs with the opposite pole."""
    def poles(toks: list[Token]) -> dict[tuple[str, str], set[int]]:
        out: dict[tuple[str, str], set[int]] = {}
        for i, t in enumerate(toks):
            if not t.axis:
                continue
            start, end = _clause_of(toks, i)
            flip = -1 if _reaching(toks[start:], i - start) else 1
            near = [u.key for u in toks[max(start, i - 2):min(end, i + 3)] if u.content and not is_generic_stem(u.key)]
            for key in near:
                out.setdefault((t.axis[0], key), set()).add(t.axis[1] * flip)
        return out

    pc, ps = poles(claim), poles(source)
    for pair, signs in pc.items():
        other = ps.get(pair)
        if other and not (signs & other):
            return f"antonym about {pair[1]!r}: claim and source take opposite sides of {pair[0]!r}"
    return None


def _sense(clause: list[Token]) -> tuple[int, dict[str, set[int]]]:
    """(+1 or -1: the parity of the clause's negations and negating words; the poles of each antonym
    axis the clause uses). Axis words that are also function words ("on", "before", "most") are left
    out: as prepositions they take no side."""
    flips = _flips(clause)
    axes: dict[str, set[int]] = {}
    for t in clause:
        if t.axis and t.surface not in STOPWORDS:
            axes.setdefault(t.axis[0], set()).add(t.axis[1])
    return (-1) ** flips, axes


def _clause_conflict(claim: list[Token], sources: list[list[Token]], min_share: float,
                     min_words: int = 2) -> str | None:
    """A claim clause whose counterpart in the sources says the opposite, compared clause to clause.

    A reworded claim rarely aligns word for word, but its clauses still have counterparts: the source
    clause (of any cited sentence) sharing most of its specific words, at least `min_share` of them
    and two. Each side has a sense (the parity of its negations: "not", "never", "without", "missing")
    and the poles of the antonym axes it uses ("grant" / "revoke"). The clauses disagree when the poles
    differ and the senses agree, or the poles agree and the senses differ (so "not enabled" and
    "disabled" agree). An axis on one side only means the words were reworded: nothing is compared. A
    negation must bear on a word the other side says, and not be said there in another clause ("print
    the commands that would be executed, but do not execute them"); a sentence that names both poles
    ("grant or revoke") takes no side; when several source clauses tie, one that agrees is enough."""
    by_sentence = [(_clauses(src), src) for src in sources]
    source_clauses = [(c, src_clauses) for src_clauses, _ in by_sentence for c in src_clauses]
    for clause in _clauses(claim):
        words = _specific(clause)
        if len(words) < min_words:
            continue
        scored = [(len(words & _specific(c)), c, siblings) for c, siblings in source_clauses]
        best = max((k for k, _, _ in scored), default=0)
        if best < max(min_words, min_share * len(words)):
            continue
        sign, axes = _sense(clause)
        why = None
        for _, twin, siblings in (row for row in scored if row[0] == best):
            twin_sign, twin_axes = _sense(twin)
            sentence_poles: dict[str, set[int]] = {}
            for sibling in siblings:
                for axis, poles in _sense(sibling)[1].items():
                    sentence_poles.setdefault(axis, set()).update(poles)
            if set(axes) != set(twin_axes):
                why = None  # an antonym on one side only ("disabled" / "not enabled"): reworded
            elif any(axes[a] != twin_axes[a] for a in axes):
                both = any(len(sentence_poles.get(a, ())) > 1 for a in axes)
                why = None if both or sign != twin_sign else (
                    f"clause '{_text(clause)}' takes the other side of {next(iter(axes))!r} than '{_text(twin)}'")
            elif sign == twin_sign:
                why = None
            else:
                negated, other, other_clauses = ((clause, twin, siblings) if sign < 0
                                                 else (twin, clause, _clauses(claim)))
                head = _negated_head(negated)
                said_there = any(_negated_head(c) == head for c in other_clauses)
                why = (f"clause '{_text(clause)}' {'negates' if sign < 0 else 'affirms'} what the source clause "
                       f"'{_text(twin)}' {'negates' if twin_sign < 0 else 'affirms'}"
                       if head is not None and head in _specific(other) and not said_there else None)
            if why is None:
                break
        if why:
            return why
    return None


def _text(side: list[Token]) -> str:
    return " ".join(t.surface for t in side) or "(nothing)"


def check_polarity(claim_text: str, sentences: list[str], min_shared: int, max_gap: int,
                   min_alignment: float = 1.1, min_context: int = 1, clause_share: float = 1.1) -> PolarityCheck:
    """Align the claim with its best-matching source sentences; a flipped negation or antonym there conflicts."""
    claim = tokens(claim_text)
    claim_keys = {t.key for t in claim if t.content}
    if not claim_keys or not sentences:
        return PolarityCheck("n/a", "nothing to align")
    ranked = []
    for sentence in sentences:
        src = tokens(sentence)
        shared = len(claim_keys & {t.key for t in src if t.content})
        if shared >= min_shared:
            ranked.append((shared, sentence, src))
    ranked.sort(key=lambda r: -r[0])
    if not ranked:
        return PolarityCheck("n/a", "no source sentence shares enough words to align")
    found: list[tuple[_Edit, str, str]] = []
    clean: set[tuple[int, int]] = set()
    for _, sentence, src in ranked[:3]:
        edits, covered = _edits(claim, src, max_gap)
        clean |= covered
        for edit in edits:
            why = _conflict(edit)
            if why and why.startswith("negation") and _same_clause_parity(claim, src, edit):
                why = None  # the negation moved within its clause ("likely to not" / "unlikely to")
            if why:
                found.append((edit, why, sentence))
            else:
                clean |= _pairs(*edit.claim_span)
    for edit, why, sentence in found:
        # Another sentence that says this stretch of the claim as the claim does settles it.
        if _pairs(*edit.claim_span) <= clean:
            continue
        return PolarityCheck("conflict", f"{why}: claim '{_text(edit.claim)}' where source has "
                             f"'{_text(edit.source)}'", sentence)
    # A reworded claim has no word-for-word counterpart: compare what each side negates with the one
    # sentence that states most of the claim.
    shared, sentence, src = ranked[0]
    if shared / len(claim_keys) >= min_alignment:
        why = _scope_conflict(claim, src, min_context) or _axis_conflict(claim, src)
        if why:
            return PolarityCheck("conflict", f"{why} (aligned sentence shares {shared}/{len(claim_keys)} "
                                 "content words)", sentence)
    if clause_share <= 1.0:
        why = _clause_conflict(claim, [src for _, _, src in ranked[:3]], clause_share)
        if why:
            return PolarityCheck("conflict", why, ranked[0][1])
    return PolarityCheck("pass", f"negations and antonyms agree with {len(ranked[:3])} aligned sentence(s)")
