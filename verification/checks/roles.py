"""Entity-role guard: who does what to whom must match the best-aligned source sentence."""

from __future__ import annotations

import re
from functools import lru_cache
from dataclasses import dataclass

from .text import STOPWORDS, content_stems, is_generic_stem, stem

ROLE_WORDS = frozenset(
    """manager managers employee employees staff contractor contractors intern interns supervisor
    supervisors director directors vp vps ceo cfo cto coo hr finance payroll legal security admin admins
    administrator administrators lead leads recruiter recruiters candidate candidates vendor vendors
    customer customers client clients approver approvers requester requesters requestor owner owners
    reviewer reviewers auditor auditors executive executives board committee engineer engineers
    procurement accounting facilities helpdesk it-help it sponsor sponsors mentor mentors buddy
    member members user users team teams department departments agent agents partner partners
    applicant applicants hiring primary secondary commander commanders ic oncall on-call assignee
    assignees approver head heads""".split()
)
_MODALS = frozenset("must may can should will shall to does do did not never".split())
# Nouns that name an action with an actor: "manager approval" == "the manager approves".
_ACTION_NOUNS = frozenset(stem(w) for w in "approval sign-off review consent authorization permission "
                          "decision signature".split())
_PERSON_STEMS = frozenset(stem(w) for w in ROLE_WORDS | {"people", "operations", "ops"})
_BE = frozenset("is are was were be been being get gets got getting".split())
_AGENT_PREPS = frozenset({"by", "from"})
_PREPS = frozenset("by from to for with of in on at into onto toward towards via".split())
_IRREGULAR_PARTICIPLES = frozenset(
    "paid sent held made built kept set run sought taught told sold bought given taken done seen "
    "shown known written chosen signed approved".split()
)
_CLAUSE_BREAK = re.compile(r"^(?:[,;:()]|if|when|unless|because|although|though|while|whereas|so|but|"
                           r"once|after|before|until|where|whether)$", re.I)
_MONTHS_DAYS = frozenset("""january february march april may june july august september october
    november december monday tuesday wednesday thursday friday saturday sunday""".split())
_PRONOUN_HEADS = frozenset({"i", "you", "we", "they", "he", "she", "it", "this", "that", "these", "those"})


def _tokens(text: str) -> list[str]:
    """Word and clause-punctuation tokens."""
    return re.findall(r"[A-Za-z][A-Za-z0-9'’-]*|[,;:()]", text)


def _entity(tok: str, position: int, possessive: bool = False) -> str | None:
    """Normalised entity name for a role word or a mid-sentence capitalised name, else None."""
    if tok.endswith(("'s", "’s", "s'")):
        if not possessive:
            return None  # possessive modifiers ("the employee's manager") are not the actor
        tok = tok[:-2] if tok.endswith(("'s", "’s")) else tok[:-1]
    low = tok.lower()
    if tok == "IT" or (low in ROLE_WORDS and low != "it"):
        return stem(low)
    # Named things (products, settings, tools) are the context guard's: what surrounds a name tells more
    # about its place than a subject/object reading of a sentence in technical prose.
    return None


_DETERMINERS = frozenset("the a an your their our his her its each every all any both".split())


def _is_break(toks: list[str], i: int) -> bool:
    """Clause break at token i; "and"/"or" break only when no entity follows ("approved by X and
    reimbursed by Y" splits, "managers and directors" does not)."""
    if _CLAUSE_BREAK.match(toks[i]):
        return True
    if toks[i].lower() in ("and", "or"):
        j = i + 1
        while j < len(toks) and (toks[j].lower() in _DETERMINERS or toks[j].endswith(("'s", "’s"))):
            j += 1
        return j >= len(toks) or _entity(toks[j], j) is None
    return False


def _clause_bounds(toks: list[str], pivot: int) -> tuple[int, int]:
    """Token range of the clause around the pivot."""
    lo = pivot
    while lo > 0 and not _is_break(toks, lo - 1):
        lo -= 1
    hi = pivot + 1
    while hi < len(toks) and not _is_break(toks, hi):
        hi += 1
    return lo, hi


def roles(text: str, pivot_stem: str) -> dict[str, set[str]] | None:
    """Map entity -> {"agent"|"patient"} around the first token whose stem is pivot_stem."""
    toks = _tokens(text)
    pivot = next((i for i, t in enumerate(toks) if t[0].isalpha() and stem(t) == pivot_stem), None)
    if pivot is None:
        return None
    lo, hi = _clause_bounds(toks, pivot)
    word = toks[pivot].lower()
    passive = any(t.lower() in _BE for t in toks[max(lo, pivot - 3) : pivot]) and (
        word.endswith(("ed", "en")) or word in _IRREGULAR_PARTICIPLES
    )
    out: dict[str, set[str]] = {}
    for i in range(lo, hi):
        if i == pivot:
            continue
        # "the manager's approval": a possessive right before an action noun is its actor.
        ent = _entity(toks[i], i, possessive=(i == pivot - 1 and stem(word) in _ACTION_NOUNS))
        if not ent:
            continue
        if i < pivot:
            role = "patient" if passive else "agent"
        else:
            prep = next((toks[j].lower() for j in range(i - 1, pivot, -1) if toks[j].lower() in _PREPS), None)
            role = "agent" if prep in _AGENT_PREPS else "patient"
        out.setdefault(ent, set()).add(role)
    return out


def _verbal_stems(text: str) -> set[str]:
    """Stems of tokens that look like verbs: participles, after be/modals/an actor, before "by"."""
    toks = _tokens(text)
    out: set[str] = set()
    for i, tok in enumerate(toks):
        low = tok.lower()
        if not tok[0].isalpha() or low in STOPWORDS:
            continue
        prev = toks[i - 1] if i else ""
        nxt = toks[i + 1].lower() if i + 1 < len(toks) else ""
        # "Finance approves ..." (but not "Security incidents must ...", a noun before a modal).
        after_actor = bool(prev) and _entity(prev, i - 1) is not None and low.endswith("s") \
            and nxt not in _MODALS and nxt not in _BE
        action_noun = bool(prev) and _entity(prev, i - 1, True) is not None and stem(low) in _ACTION_NOUNS
        if low.endswith("ed") or prev.lower() in _BE or prev.lower() in _MODALS or nxt == "by" \
                or after_actor or action_noun:
            out.add(stem(low))
    return out


def _pivots(claim: str, source: str) -> list[str]:
    """Shared verb stems that can anchor a who-did-what comparison (nouns are too unreliable)."""
    c_entities = {_entity(t, i) for i, t in enumerate(_tokens(claim))}
    verbal = _verbal_stems(claim) | _verbal_stems(source)
    shared = [s for s in dict.fromkeys(content_stems(claim)) if s in set(content_stems(source))]
    # Light verbs (get, have, receive, entitled) carry no direction worth comparing.
    return [s for s in shared if s in verbal and s not in c_entities and s not in _PRONOUN_HEADS
            and not is_generic_stem(s)]


@dataclass(frozen=True)
class RoleCheck:
    """Outcome of the entity-role guard for one claim."""

    status: str  # "pass", "n/a", "conflict"
    detail: str


def _surface(text: str, stem_: str) -> str:
    """The word in text whose stem is stem_ (for readable reasons)."""
    return next((t for t in _tokens(text) if t[0].isalpha() and stem(t) == stem_), stem_)


def _names(text: str, stems: set[str]) -> str:
    """Readable list of the entities with these stems."""
    return ", ".join(sorted(_surface(text, s) for s in stems))


def _agents(r: dict[str, set[str]]) -> set[str]:
    """Entities that are unambiguously the actor."""
    return {e for e, rs in r.items() if rs == {"agent"}}


def _aliases(text: str) -> dict[str, str]:
    """Abbreviations defined in the text: "incident commander (IC)" -> {"IC": "commander"}."""
    return dict(_defined_abbreviations(text))


@lru_cache(maxsize=4096)
def _defined_abbreviations(text: str) -> tuple[tuple[str, str], ...]:
    """Cached: the passage is the same for every claim that cites it."""
    out: dict[str, str] = {}
    for m in re.finditer(r"((?:[A-Za-z]+[\s-]){1,4})\(([A-Z]{2,6})\)", text):
        words = m.group(1).split()
        abbr = m.group(2)
        if len(words) >= len(abbr) and "".join(w[0] for w in words[-len(abbr):]).upper() == abbr:
            out[abbr] = words[-1]
    return tuple(out.items())


def _apply_aliases(text: str, aliases: dict[str, str]) -> str:
    """Text with defined abbreviations replaced by the head word they stand for."""
    for abbr, head in aliases.items():
        text = re.sub(rf"\b{abbr}\b", head, text)
    return text


def _patients(r: dict[str, set[str]]) -> set[str]:
    """Entities that are unambiguously acted upon / the recipient."""
    return {e for e, rs in r.items() if rs == {"patient"}}


def check_roles(claim_text: str, source_sentence: str, passage: str = "") -> RoleCheck:
    """Detect swapped actors: an entity that is the agent in one sentence and the patient in the other,
    or a verb whose actor (or recipient) in the claim is another entity the passage mentions."""
    aliases = _aliases(f"{source_sentence} {passage}")
    if aliases:
        claim_text = _apply_aliases(claim_text, aliases)
    if not any(_entity(t, i, possessive=True) for i, t in enumerate(_tokens(claim_text))):
        # No person, team or role in the claim: nobody whose role could have been swapped.
        return RoleCheck("n/a", "no shared entity around a shared verb")
    if aliases:
        source_sentence = _apply_aliases(source_sentence, aliases)
        passage = _apply_aliases(passage, aliases)
    s_entities = {e for i, t in enumerate(_tokens(f"{source_sentence} {passage}")) if (e := _entity(t, i))}
    for pivot in _pivots(claim_text, source_sentence)[:4]:
        c_roles = roles(claim_text, pivot)
        s_roles = roles(source_sentence, pivot)
        if not c_roles or not s_roles:
            continue
        c_agents, s_agents = _agents(c_roles), _agents(s_roles)
        if c_agents and s_agents and c_agents.isdisjoint(s_agents) and c_agents <= s_entities:
            return RoleCheck("conflict", f"{_surface(claim_text, pivot)!r} is done by "
                             f"{_names(claim_text, c_agents)} in the claim but by "
                             f"{_names(source_sentence, s_agents)} in the source")
        c_pat, s_pat = _patients(c_roles), _patients(s_roles)
        # Recipients are compared only for people and teams; product names make noisy objects.
        people = (c_pat | s_pat) <= _PERSON_STEMS
        if people and c_pat and s_pat and c_pat.isdisjoint(s_pat) and c_pat <= s_entities \
                and not c_agents ^ s_agents:
            return RoleCheck("conflict", f"{_surface(claim_text, pivot)!r} goes to "
                             f"{_names(claim_text, c_pat)} in the claim but to "
                             f"{_names(source_sentence, s_pat)} in the source")
        shared = [e for e in c_roles if e in s_roles and len(c_roles[e]) == 1 and len(s_roles[e]) == 1]
        if not shared:
            continue
        swapped = [e for e in shared if c_roles[e] != s_roles[e]]
        # One entity changing role is often just a looser paraphrase; a swap moves two.
        if len(swapped) >= 2:
            e = swapped[0]
            return RoleCheck("conflict", f"{_surface(claim_text, e)!r} is the {next(iter(c_roles[e]))} in the "
                             f"claim but the {next(iter(s_roles[e]))} in the source (around "
                             f"{_surface(claim_text, pivot)!r})")
        return RoleCheck("pass", f"roles agree around {pivot!r}")
    return RoleCheck("n/a", "no shared entity around a shared verb")
