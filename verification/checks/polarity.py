"""Polarity guard: negation cues and antonym pairs between a claim and its best-aligned source clause."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .text import content_stems

NEGATION_CUES = frozenset(
    "not no never cannot can't don't doesn't didn't isn't aren't wasn't weren't won't wouldn't "
    "shouldn't mustn't shan't haven't hasn't hadn't without none nor neither nobody nothing".split()
)

# Multi-word phrases rewritten to a single cue word first, so "no later than" is not a negation
# and "must not" lands on the same deontic scale as "prohibited".
_PHRASES: tuple[tuple[str, str], ...] = (
    (r"\bwhether or not\b", " "), (r"\bnot only\b", " "), (r"\bif not\b", " "),
    (r"\bno (?:later|after) than\b", " before "), (r"\bnot later than\b", " before "),
    (r"\bno earlier than\b", " after "), (r"\bno sooner than\b", " after "),
    (r"\b(?:no|not) more than\b", " maximum "), (r"\b(?:no|not) (?:less|fewer) than\b", " minimum "),
    (r"\bat least\b", " minimum "), (r"\bat most\b", " maximum "), (r"\bup to\b", " maximum "),
    (r"\bor more\b", " minimum "), (r"\bor (?:less|fewer)\b", " maximum "),
    (r"\bprior to\b", " before "), (r"\bin advance\b", " before "), (r"\bahead of\b", " before "),
    (r"\b(?:do|does|did)(?: not|n't) (?:need|have) to\b", " optional "), (r"\bneed(?: not|n't)\b", " optional "),
    (r"\b(?:is|are|be|was|were)(?: not|n't) (?:required|mandatory|compulsory|obligatory)\b", " optional "),
    (r"\bnot (?:required|mandatory|compulsory|obligatory)\b", " optional "),
    (r"\b(?:is|are|be)(?: not|n't) optional\b", " required "),
    (r"\b(?:rather than|instead of)\b", " not "),
    (r"\b(?:must|may|shall|can)(?: not|n't| never)\b", " prohibited "), (r"\bmustn't\b", " prohibited "),
    (r"\b(?:should|ought to) never\b", " discouraged "),
    (r"\b(?:cannot|can't|can not)\b", " prohibited "),
    (r"\b(?:is|are|be|was|were)(?: not|n't) (?:allowed|permitted)\b", " prohibited "),
    (r"\bnot (?:allowed|permitted)\b", " prohibited "),
    (r"\b(?:should|ought)(?: not|n't)\b", " discouraged "),
    (r"\b(?:need|needs|have|has) to\b", " required "),
)
_PHRASE_RES = [(re.compile(p, re.I), r) for p, r in _PHRASES]

# Deontic status words; conflicts are checked with _DEONTIC_CONFLICTS, not by sign.
_DEONTIC: dict[str, str] = {
    "prohibited": "prohibited", "prohibit": "prohibited", "prohibits": "prohibited",
    "forbidden": "prohibited", "forbid": "prohibited", "banned": "prohibited", "disallowed": "prohibited",
    "off-limits": "prohibited", "blocked": "prohibited",
    "must": "required", "required": "required", "requires": "required", "require": "required",
    "mandatory": "required", "compulsory": "required", "obligatory": "required", "shall": "required",
    "optional": "optional", "voluntary": "optional",
    "may": "permitted", "can": "permitted", "allowed": "permitted", "permitted": "permitted",
    "allow": "permitted", "allows": "permitted", "permits": "permitted",
}
_DEONTIC_CONFLICTS = {
    frozenset({"prohibited", "permitted"}), frozenset({"prohibited", "required"}),
    frozenset({"prohibited", "optional"}), frozenset({"required", "optional"}),
}

# Polar axes: the sign flips with a negation in the same clause ("not eligible" == "ineligible").
_POLAR: dict[str, tuple[str, int]] = {}
_DIRECTIONAL: dict[str, tuple[str, int]] = {}


def _axis(table: dict[str, tuple[str, int]], name: str, plus: str, minus: str) -> None:
    """Register the words of one antonym axis."""
    for w in plus.split():
        table[w] = (name, 1)
    for w in minus.split():
        table[w] = (name, -1)


_axis(_POLAR, "eligible", "eligible qualify qualifies qualified", "ineligible")
_axis(_POLAR, "enabled", "enabled enable enables", "disabled disable disables")
_axis(_POLAR, "paid", "paid", "unpaid")
_axis(_POLAR, "approved", "approve approves approved approval accept accepts accepted grant granted",
      "reject rejects rejected rejection deny denies denied decline declines declined refuse refused")
_axis(_POLAR, "included", "include includes included including covered covers",
      "exclude excludes excluded excluding")
_axis(_POLAR, "recommended", "recommended recommend recommends preferred encouraged should supported",
      "deprecated discouraged obsolete unsupported retired")
_axis(_POLAR, "available", "available active valid", "unavailable inactive invalid expired")
_axis(_POLAR, "refundable", "refundable reimbursable taxable billable", "nonrefundable")
_axis(_POLAR, "encrypted", "encrypted", "unencrypted")
_axis(_DIRECTIONAL, "before", "before earlier", "after afterwards later")
_axis(_DIRECTIONAL, "minimum", "minimum min", "maximum max")
_axis(_DIRECTIONAL, "increase", "increase increases increased raise raised higher",
      "decrease decreases decreased reduce reduces reduced lower")
_axis(_DIRECTIONAL, "internal", "internal internally", "external externally")
_axis(_DIRECTIONAL, "public", "public publicly", "private privately confidential")
_axis(_DIRECTIONAL, "above", "above exceeds exceeding", "below")
_axis(_DIRECTIONAL, "incoming", "incoming inbound arriving", "outgoing outbound departing")
_axis(_DIRECTIONAL, "primary", "primary", "secondary backup")
_axis(_DIRECTIONAL, "first", "first earliest", "last latest final")

CUE_WORDS = frozenset(NEGATION_CUES | set(_DEONTIC) | set(_POLAR) | set(_DIRECTIONAL)
                      | {"later", "earlier", "least", "most", "optional", "prohibited", "discouraged"})

# Colons are not clause breaks: "X must never appear in logs: passwords, keys" scopes over the list.
# ", not X" and "and can/must ..." start a new clause that keeps its own cue words.
_CLAUSE_SPLIT = re.compile(
    r"\s*(?:[;—–]|,\s*(?:but|and|so|which|while|whereas|although|though|unless|except)\b|"
    r"\bbut\b|\bunless\b|\bwhereas\b|\bhowever\b|\botherwise\b|\bexcept (?:when|if|for)\b|"
    r",\s*(?=not\b|never\b|rather than\b|instead of\b)|\s(?=rather than\b|instead of\b)|"
    r"\band\s+(?=(?:can|cannot|can't|may|must|should|will|won't|is|are|do|does|don't|doesn't)\b))\s*",
    re.I,
)


@dataclass
class Profile:
    """Polarity cues found in one clause."""

    neg: int = 0
    deontic: set[str] = field(default_factory=set)
    polar: dict[str, int] = field(default_factory=dict)
    directional: dict[str, int] = field(default_factory=dict)


# Negative participles and adjectives: "unused" is "not used" for polarity and alignment.
_UN_WORDS = re.compile(r"\bun(used|paid|approved|available|authori[sz]ed|supported|limited|encrypted|"
                       r"signed|answered|resolved|reconciled|claimed|planned|scheduled|verified|billed|"
                       r"reimbursed|locked|published|assigned|attended|known|able)\b", re.I)


def cue_words(text: str) -> list[str]:
    """The negation and deontic cue words of a text, after phrase folding (for list lead-ins)."""
    return [t for t in re.findall(r"[a-z][a-z'-]*", normalise_phrases(text))
            if t in NEGATION_CUES or t in _DEONTIC]


def normalise_phrases(text: str) -> str:
    """Lower-case text with polarity phrases folded to single cue words."""
    out = " " + _UN_WORDS.sub(r"not \1", text.lower().replace("’", "'")) + " "
    for rx, repl in _PHRASE_RES:
        out = rx.sub(repl, out)
    return out


def _scope(stems: list[str | None], i: int, negation: bool) -> set[str]:
    """Content stems a cue at position i talks about: the next two for a negation ("not carry over"),
    two either side for deontic and antonym words ("devices are prohibited on the network")."""
    after = [s for s in stems[i + 1 :] if s][:2]
    if negation:
        return set(after)
    before = [s for s in stems[:i] if s][-2:]
    return set(before) | set(after)


def profile(text: str, focus: set[str] | None = None) -> Profile:
    """Negations, deontic words and antonym-axis signs in a clause; with focus, only cues whose
    scope touches those stems count (a "not" about something the other side never mentions is ignored)."""
    prof = Profile()
    toks = re.findall(r"[a-z][a-z'-]*", normalise_phrases(text))
    stems = [None if t in CUE_WORDS else (content_stems(t) or [None])[0] for t in toks]

    def counts(i: int, negation: bool) -> bool:
        if focus is None:
            return True
        # A negation right before a polarity word ("not reimbursable") is about that word.
        if negation and any(t in CUE_WORDS and t not in NEGATION_CUES for t in toks[i + 1 : i + 4]):
            return True
        return bool(_scope(stems, i, negation) & focus)

    for i, tok in enumerate(toks):
        if tok.startswith("non-") or tok.startswith("un-"):
            if counts(i, True):
                prof.neg += 1
            continue
        if tok in NEGATION_CUES and counts(i, True):
            prof.neg += 1
        if tok in _DEONTIC and counts(i, False):
            prof.deontic.add(_DEONTIC[tok])
        if tok in _POLAR and counts(i, False):
            name, sign = _POLAR[tok]
            prev = prof.polar.get(name)
            prof.polar[name] = sign if prev in (None, sign) else 0
        if tok in _DIRECTIONAL and counts(i, False):
            name, sign = _DIRECTIONAL[tok]
            prev = prof.directional.get(name)
            prof.directional[name] = sign if prev in (None, sign) else 0
    # "may" and "can" are weak: only count them when no stronger deontic word is present.
    if len(prof.deontic) > 1 and "permitted" in prof.deontic:
        prof.deontic.discard("permitted")
    return prof


def _negativity(p: Profile) -> int:
    """Overall negative-ness of a clause: negation parity xor prohibition xor negative polar words."""
    value = p.neg % 2
    if "prohibited" in p.deontic:
        value ^= 1
    for sign in p.polar.values():
        if sign < 0:
            value ^= 1
    return value


def compare(claim: Profile, source: Profile) -> str | None:
    """A description of the polarity mismatch between two aligned clauses, or None."""
    if len(claim.deontic) == 1 and len(source.deontic) == 1:
        pair = frozenset(claim.deontic | source.deontic)
        if pair in _DEONTIC_CONFLICTS:
            return f"claim is {next(iter(claim.deontic))}, source is {next(iter(source.deontic))}"
    shared = [a for a in claim.polar if a in source.polar and claim.polar[a] and source.polar[a]]
    for axis in shared:
        if claim.polar[axis] != source.polar[axis] and claim.neg % 2 == source.neg % 2:
            return f"opposite polarity on {axis!r}"
    for axis in [a for a in claim.directional if a in source.directional]:
        if claim.directional[axis] and source.directional[axis] and claim.directional[axis] != source.directional[axis]:
            return f"opposite direction on {axis!r}"
    if _negativity(claim) != _negativity(source):
        # A lone negative-sounding word ("expired" vs "has run out") is paraphrase territory.
        one_sided_ban = ("prohibited" in claim.deontic) != ("prohibited" in source.deontic)
        if claim.neg % 2 == source.neg % 2 and not one_sided_ban:
            return None
        return "negation mismatch"
    return None


def clauses(sentence: str) -> list[str]:
    """Clauses of a sentence, split at semicolons, dashes and contrastive conjunctions."""
    parts = [p.strip() for p in _CLAUSE_SPLIT.split(sentence) if p and p.strip()]
    return parts or [sentence]


@dataclass(frozen=True)
class PolarityCheck:
    """Outcome of the polarity guard for one claim."""

    status: str  # "pass", "n/a", "conflict"
    detail: str
    evidence: str | None = None


def check_polarity(claim_text: str, sentences: list[str], min_alignment: float) -> PolarityCheck:
    """Align each claim clause to its best source clause; opposite polarity there is a conflict."""
    source_clauses = [(c, s) for s in sentences for c in clauses(s)]
    if not source_clauses:
        return PolarityCheck("n/a", "no source text")
    src_stems = [(set(content_stems(_UN_WORDS.sub(r"\1", c), CUE_WORDS)), c, s) for c, s in source_clauses]
    aligned_any = False
    for clause in clauses(claim_text):
        c_stems = set(content_stems(_UN_WORDS.sub(r"\1", clause), CUE_WORDS))
        if not c_stems:
            continue
        best = max(src_stems, key=lambda t: (len(c_stems & t[0]) / len(c_stems), -len(t[0])))
        overlap = c_stems & best[0]
        # One shared word aligns only short clauses ("Alcohol is reimbursable" / "... not reimbursable").
        short = len(c_stems) == 1 and len(overlap) == 1 and len(best[0]) <= 3
        if not short and (len(overlap) < 2 or len(overlap) / len(c_stems) < min_alignment):
            continue
        aligned_any = True
        mismatch = compare(profile(clause, best[0]), profile(best[1], c_stems))
        if mismatch:
            # Clause splits are rough: confirm against the whole claim and the whole source sentence.
            s_all = set(content_stems(_UN_WORDS.sub(r"\1", best[2]), CUE_WORDS))
            whole_c, whole_s = profile(claim_text, s_all), profile(best[2], c_stems)
            # Counts, not parity: "separate, does not carry over, and is not paid out" has two.
            if compare(whole_c, whole_s) is None and whole_c.neg == whole_s.neg:
                mismatch = None
        if mismatch:
            return PolarityCheck("conflict", f"{mismatch}: {best[1]!r}", best[2])
    if not aligned_any:
        return PolarityCheck("n/a", "no clause aligned closely enough")
    return PolarityCheck("pass", "polarity agrees")
