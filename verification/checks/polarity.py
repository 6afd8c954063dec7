"""Polarity guard: the claim's negations and antonyms compared with the source text that supports it.

The claim is aligned word by word (difflib) with the few source sentences that share most of its content words.
Only the edits *between* two shared stretches are compared: there the claim and the source talk about one thing:
- an edit that adds or drops a negation while the rest of it says the same ("is supported" / "is not
  supported", "can be carried over" / "cannot be carried over") is a conflict;
- an edit that puts one word of an antonym pair where the source has the other ("added" / "removed",
  "before" / "after") is a conflict, unless a negation flips it back ("not enabled" / "disabled").
A negation the source has somewhere else, or an edit that rewords the content as well, is paraphrase, which the
support scorer judges. Negative prefixes are read as negations ("unchanged" == "not changed"), so both align.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass

from .negation import (BOUNDARY, CONTRAST, IMPLICIT_NEGATIONS, NEG, Token, clause_of, clauses, clauses_read_whole,
                       contrasts, flips, lexically_negative, negated_head, phrase_negation, reaching, sense, set_aside,
                       specific, stated, text_of, tokens)
from .text import is_generic_stem, stem


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
    """Antonym-axis signs on one side of an edit. A side that names both poles of an axis ("before or after",
    "enable and disable") takes neither side of it."""
    signs: dict[str, int] = {}
    both: set[str] = set()
    for t in side:
        if t.axis:
            axis, sign = t.axis
            if signs.setdefault(axis, sign) != sign:
                both.add(axis)
    return {axis: sign for axis, sign in signs.items() if axis not in both}


def _conflict(edit: _Edit) -> str | None:
    """What the edit flips, or None when it only rewords or says the same. A contrast ("rather than")
    may be read as a negation or not: the edit conflicts only when it conflicts either way."""
    why = _conflict_read(edit, False)
    if why and any(contrasts(side) for side in (edit.claim, edit.source)):
        return _conflict_read(edit, True) and why
    return why


def _conflict_read(edit: _Edit, contrast_negates: bool) -> str | None:
    """What the edit flips, reading a contrast as a negation or not."""
    if _meaning(edit.claim) != _meaning(edit.source):
        return None  # the content changed too: a rewording, not a flipped statement
    if not edit.claim or not edit.source:
        side = edit.claim or edit.source
        if any(t.content for t in side):
            return None  # a phrase (negation and its verb) moved to another place: a reordering
    negating = {NEG, CONTRAST} if contrast_negates else {NEG}
    neg_c = sum(t.key in negating for t in edit.claim) % 2
    neg_s = sum(t.key in negating for t in edit.source) % 2
    signs_c, signs_s = _signs(edit.claim), _signs(edit.source)
    shared = [axis for axis in signs_c if axis in signs_s]
    for axis in shared:
        # An antonym is flipped by the negations of its own clause: "introspection failed and no signature was
        # given" / "introspection did not succeed and signature was not given" agree on "failed".
        if (signs_c[axis] * (-1) ** _clause_negations(edit.claim, axis, negating)
                != signs_s[axis] * (-1) ** _clause_negations(edit.source, axis, negating)):
            words_c = [t.surface for t in edit.claim if t.axis and t.axis[0] == axis]
            words_s = [t.surface for t in edit.source if t.axis and t.axis[0] == axis]
            return f"antonym: claim says {words_c[0]!r}, source says {words_s[0]!r}"
    if not shared and not signs_c and not signs_s and neg_c != neg_s:
        return "negation added" if neg_c else "negation dropped"
    return None


def _said_as_is(stretch: list[Token], sources: list[list[Token]]) -> bool:
    """A source says the stretch word for word (the same keys, in a row)."""
    keys = [t.key for t in stretch]
    n = len(keys)
    return n > 1 and any(keys == [t.key for t in src[i:i + n]] for src in sources for i in range(len(src) - n + 1))


def _clause_negations(side: list[Token], axis: str, negating: set[str]) -> int:
    """The negations (mod 2) in the stretch of an edit's side between the clause boundaries around its first
    word of the antonym axis."""
    at = next(i for i, t in enumerate(side) if t.axis and t.axis[0] == axis)
    start, end = clause_of(side, at)
    return sum(t.key in negating for t in side[start:end]) % 2


def _contrasted(claim: list[Token], source: list[Token], edit: "_Edit") -> bool:
    """The side without the edit's negation sets aside by contrast, in the clause around it, what the other side
    negates ("uses the document root rather than the app folder" / "does not use the app folder") and does not
    affirm it before the contrast ("files changed in the archive instead of the entire archive" / "not changed")."""
    sides = [(claim, max(0, edit.claim_span[0])), (source, max(0, edit.source_span[0]))]
    if sum(t.key == NEG for t in edit.claim) % 2:
        sides.reverse()  # the claim negates: the source is the plain side
    (plain, at), (negating, neg_at) = sides
    start, end = clause_of(plain, at)
    neg_start, neg_end = clause_of(negating, neg_at)
    cut = next((i for i in range(start, end) if plain[i].key == CONTRAST), end)
    return bool(set_aside(plain[start:end]) & (_scope(negating[neg_start:neg_end]) - specific(plain[start:cut])))


def _same_clause_parity(claim: list[Token], source: list[Token], edit: "_Edit") -> bool:
    """The clauses around an edit negate the same number of times (mod 2) on both sides."""
    cs, ce = clause_of(claim, max(0, edit.claim_span[0]))
    ss, se = clause_of(source, max(0, edit.source_span[0]))
    return _negating(claim[cs:ce]) % 2 == _negating(source[ss:se]) % 2


def _negating(clause: list[Token]) -> int:
    """flips(), and the negating verbs that are also antonym words ("stops it from producing" == "it does not
    produce"): an edit compares negations, so a negating verb counts as one wherever it stands."""
    return flips(clause) + sum(1 for t in clause if t.axis and stem(t.surface) in IMPLICIT_NEGATIONS)


def _elliptic(clause: list[Token]) -> bool:
    """A clause that ends on its negation ("options are documented, arguments are not"): it negates the
    predicate of the clause before it, so it may say what the other side negates in full."""
    negs = [i for i, t in enumerate(clause) if t.key == NEG]
    return len(negs) % 2 == 1 and not any(t.content for t in clause[negs[-1] + 1:])


def _scope(clause: list[Token]) -> set[str]:
    """The specific words a clause's (odd count of) negation bears on: those after the first one."""
    negs = [i for i, t in enumerate(clause) if t.key == NEG]
    if len(negs) % 2 == 0:
        return set()
    return specific(clause[negs[0] + 1:])


def _negated_elsewhere(clause: list[Token], others: list[list[Token]]) -> bool:
    """The other side negates what this clause negates, in a clause of its own: the same head ("print the
    commands that would be executed, but do not execute them"), a word of this negation's scope ("only
    modifies the endpoint, not the URL" beside "does not modify the URL, only the endpoint"), or an
    elliptic clause ("arguments are not")."""
    head, scope = negated_head(clause), _scope(clause)
    return any(negated_head(c) is not None and (negated_head(c) == head or negated_head(c) in scope)
               or _elliptic(c) for c in others)


def _scope_conflict(claim: list[Token], source: list[Token], min_context: int) -> str | None:
    """A clause negated on one side whose counterpart clause (same negated word, at least min_context
    other specific words in common) on the other side has no negation."""
    for first, second, label in ((claim, source, "claim negates"), (source, claim, "source negates")):
        others = clauses(second)
        for clause in clauses(first):
            head = negated_head(clause)
            if head is None:
                continue
            context = specific(clause) - {head}
            twins = [c for c in others if head in specific(c) and len(context & specific(c)) >= min_context]
            # The other side negates the same word in another clause ("print the commands that would be
            # executed, but do not execute them"): it says the same.
            negated_there = _negated_elsewhere(clause, others)
            if twins and not negated_there and not any(t.key == NEG for c in twins for t in c) \
                    and not any(lexically_negative(c) or set_aside(c) & _scope(clause) for c in twins):
                word = next(t.surface for t in clause if t.key == head)
                return f"{label} {word!r}, the aligned clause does not"
    return None


def _preposition(toks: list[Token], i: int) -> bool:
    """"on" before the noun phrase it governs ("created on a virtual table") is a preposition, not the pole
    of on / off ("turn it on", "on or off", "set to on")."""
    if toks[i].surface != "on" or i + 1 >= len(toks):
        return False
    following = toks[i + 1]
    return following.key not in (BOUNDARY, NEG) and following.surface not in ("or", "and")


def _both_poles(toks: list[Token], i: int, start: int, end: int) -> bool:
    """The axis word at i stands in a clause, or beside an "or"/"and", that names the other pole too: "turns it
    on or off", "reads input and output", "enables it where the other disables it" take no side."""
    axis, sign = toks[i].axis
    if any(u.axis == (axis, -sign) for u in toks[start:end]):
        return True
    return any(0 <= i + 2 * step < len(toks) and toks[i + step].surface in ("or", "and")
               and toks[i + 2 * step].axis == (axis, -sign) for step in (-1, 1))


# Antonym axes whose poles name one relation from its two ends (A before B == B after A).
CONVERSE_AXES = frozenset({"before", "above", "left", "top"})


def _axis_conflict(claim: list[Token], source: list[Token], others: Sequence[list[Token]] = ()) -> str | None:
    """An antonym-axis word in the claim beside a content word that the source pairs with the opposite pole,
    and that no other cited sentence pairs with the claim's pole (a claim may join two sentences: "data
    written to tape is padded, so when the block is read …"). A converse pair says one relation from either
    end ("stems it after diacritics are removed" == "diacritics are removed before stemming"): its poles
    conflict only when the word beside them also stands on the same side of them in both texts. Sides that use the
    same pole and negate as often differ only in a negation's reach, which cannot be settled: no conflict."""
    def poles(toks: list[Token], sided: bool, negated: bool = True) -> dict[tuple[str, str], set[int]]:
        out: dict[tuple[str, str], set[int]] = {}
        for i, t in enumerate(toks):
            if not t.axis or _preposition(toks, i):
                continue
            start, end = clause_of(toks, i)
            if _both_poles(toks, i, start, end):
                continue
            flip = -1 if negated and reaching(toks[start:], i - start) else 1
            for j in range(max(start, i - 2), min(end, i + 3)):
                u = toks[j]
                if u.content and not is_generic_stem(u.key):
                    side = (1 if j > i else -1) if sided and t.axis[0] in CONVERSE_AXES else 1
                    out.setdefault((t.axis[0], u.key), set()).add(t.axis[1] * flip * side)
        return out

    def conflicts(sided: bool) -> list[tuple[str, str]]:
        pc, ps = poles(claim, sided), poles(source, sided)
        elsewhere: dict[tuple[str, str], set[int]] = {}
        for toks in others:
            for pair, signs in poles(toks, sided).items():
                elsewhere.setdefault(pair, set()).update(signs)
        found = [pair for pair, signs in pc.items()
                 if (other := ps.get(pair)) and not (signs & other) and not (signs & elsewhere.get(pair, set()))]
        if not found or _negating(claim) != _negating(source):
            return found
        said = poles(claim, sided, False), poles(source, sided, False)
        return [pair for pair in found if not said[0][pair] & said[1][pair]]

    found = conflicts(False)
    if any(axis in CONVERSE_AXES for axis, _ in found):
        sided = set(conflicts(True))
        found = [pair for pair in found if pair[0] not in CONVERSE_AXES or pair in sided]
    if found:
        return f"antonym about {found[0][1]!r}: claim and source take opposite sides of {found[0][0]!r}"
    return None


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
    the commands that would be executed, but do not execute them"); a claim's negation may be said in any
    cited sentence, not only the counterpart's ("If no package root is found" beside "it installs to the
    root of your package" states "if npm does not find a package root"); a sentence that names both poles
    ("grant or revoke") takes no side; when several source clauses tie, one that agrees is enough."""
    claim_clauses = clauses_read_whole(claim)
    rows = []  # (clause, its words, its sense, the clauses of its sentence, the poles that sentence names)
    for src in sources:
        siblings = clauses_read_whole(src)
        poles: dict[str, set[int]] = {}
        for sibling in siblings:
            for axis, signs in sense(sibling)[1].items():
                poles.setdefault(axis, set()).update(signs)
        rows += [(c, specific(c), sense(c), siblings, poles) for c in siblings]
    everywhere = [row[0] for row in rows]  # a claim's negation may be said by any cited sentence
    for clause in claim_clauses:
        words = specific(clause)
        if len(words) < min_words:
            continue
        shared = [len(words & row[1]) for row in rows]
        best = max(shared, default=0)
        if best < max(min_words, min_share * len(words)):
            continue
        whys = [_disagreement(clause, claim_clauses, row, everywhere)
                for row, k in zip(rows, shared) if k == best]
        if all(whys):
            return whys[0]
    return None


def _disagreement(clause: list[Token], claim_clauses: list[list[Token]], row: tuple,
                  everywhere: list[list[Token]]) -> str | None:
    """How a claim clause and its counterpart source clause disagree, or None (see _clause_conflict)."""
    twin, twin_words, (twin_sign, twin_axes), siblings, sentence_poles = row
    sign, axes = sense(clause)
    if set(axes) != set(twin_axes):
        return None  # an antonym on one side only ("disabled" / "not enabled"): reworded
    if any(axes[a] != twin_axes[a] for a in axes):
        if sign != twin_sign or any(len(sentence_poles.get(a, ())) > 1 for a in axes):
            return None
        return f"clause '{text_of(clause)}' takes the other side of {next(iter(axes))!r} than '{text_of(twin)}'"
    if sign == twin_sign:
        return None
    negated, other_words, other_clauses = ((clause, twin_words, everywhere) if sign < 0
                                           else (twin, specific(clause), claim_clauses))
    affirming, negating = (twin, clause) if sign < 0 else (clause, twin)
    if set_aside(affirming) & _scope(negating) or phrase_negation(negating):
        # The affirming side sets aside what the other negates ("rather than using a fixed port"), or the negating
        # side denies a phrase, not its verb ("annual plans, not monthly ones"): nothing to compare by the verb.
        return None
    head = negated_head(negated)
    if head is None or head not in other_words or _negated_elsewhere(negated, other_clauses):
        return None
    return (f"clause '{text_of(clause)}' {'negates' if sign < 0 else 'affirms'} what the source clause "
            f"'{text_of(twin)}' {'negates' if twin_sign < 0 else 'affirms'}")


def check_polarity(claim_text: str, sentences: list[str], min_shared: int, max_gap: int,
                   min_alignment: float = 1.1, min_context: int = 1, clause_share: float = 1.1) -> PolarityCheck:
    """Align the claim with its best-matching source sentences; a flipped negation or antonym there conflicts."""
    # A clause that asks ("… or whether the messages fit") asserts neither side: only what is stated is read.
    claim = stated(tokens(claim_text))
    claim_keys = {t.key for t in claim if t.content}
    if not claim_keys or not sentences:
        return PolarityCheck("n/a", "nothing to align")
    ranked = []
    for sentence in sentences:
        src = stated(tokens(sentence))
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
            if why and why.startswith("negation") and (_same_clause_parity(claim, src, edit)
                                                       or _contrasted(claim, src, edit)):
                # The negation moved within its clause ("likely to not" / "unlikely to"), or the other
                # side says it by contrast ("rather than").
                why = None
            if why:
                found.append((edit, why, sentence))
            else:
                clean |= _pairs(*edit.claim_span)
    for edit, why, sentence in found:
        # Another sentence that says this stretch of the claim as the claim does settles it, in its own order
        # or elsewhere in its words ("so a blueprint can't handle them" / "the blueprint cannot handle 404 routing
        # errors because …").
        if _pairs(*edit.claim_span) <= clean or _said_as_is(claim[max(0, edit.claim_span[0]):edit.claim_span[1]],
                                                            [src for _, _, src in ranked[:3]]):
            continue
        return PolarityCheck("conflict", f"{why}: claim '{text_of(edit.claim)}' where source has "
                             f"'{text_of(edit.source)}'", sentence)
    # A reworded claim has no word-for-word counterpart: compare what each side negates with the one
    # sentence that states most of the claim.
    shared, sentence, src = ranked[0]
    if shared / len(claim_keys) >= min_alignment:
        why = _scope_conflict(claim, src, min_context) or _axis_conflict(
            claim, src, [stated(tokens(other)) for other in sentences if other != sentence])
        if why:
            return PolarityCheck("conflict", f"{why} (aligned sentence shares {shared}/{len(claim_keys)} "
                                 "content words)", sentence)
    if clause_share <= 1.0:
        why = _clause_conflict(claim, [src for _, _, src in ranked], clause_share)
        if why:
            return PolarityCheck("conflict", why, ranked[0][1])
    return PolarityCheck("pass", f"negations and antonyms agree with {len(ranked[:3])} aligned sentence(s)")
