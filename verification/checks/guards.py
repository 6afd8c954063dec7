"""Zero-cost guards: citation range, URL whitelist, and the per-claim number/identifier/polarity/role checks."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import numpy as np

from textcore.markers import SPACED_MARKER_RE, marker_numbers
from textcore.sentences import is_term

from .context import DEFINITION_HEAD, check_context
from .enumerations import listed_counts
from .identifiers import URL_RE, IdentifierCheck, check_identifiers
from .names import check_names
from .numbers import check_numbers
from .polarity import check_polarity
from .rows import check_rows
from .roles import check_roles
from .support import PassageIndex, Support, decide, score_support
from .types import Claim, Source, Thresholds, Verdict

LINK_REMOVED = "[link removed]"
_RECORD_FIELD = re.compile(r"(?:^|;\s)[A-Z][\w ()/-]{0,40}:\s")
# A leading "No," / "Yes," answers the question, and so does a short verbless "not ..." qualifier before a
# colon ("No, not with the prefork pool: ...", "Not for the whole file: ..."): neither negates the claim.
# "No" takes punctuation or a pronoun after it to answer ("No, …", "No it isn't"); "No EXCLUSIVE lock is
# acquired …" is a negation of the claim itself.
_YES_NO = re.compile(r"^\s*(?:(?:no|yes)\b(?:[,.;:!]|\s+(?=(?:it|you|they|we|i|that|this|there|he|she)\b))\s*)?"
                     r"(?:not(?: (?!(?:is|are|was|were|be|do|does|did|can|will|has|have)\b)[\w'-]+){1,5}\s*:\s+)?",
                     re.I)


def split_citations(claim: Claim, valid: set[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Citations of a claim that point at a real source, and those that do not."""
    good = tuple(n for n in claim.citations if n in valid)
    bad = tuple(n for n in claim.citations if n not in valid)
    return good, bad


def _norm_url(url: str) -> str:
    """Comparable form of a URL: no scheme, no www., lower-case host, no trailing slash."""
    url = url.strip().rstrip(".,;:!?)\"'")
    if not re.match(r"https?://", url, re.I):
        url = "http://" + url
    parts = urlsplit(url)
    host = parts.netloc.lower().removeprefix("www.")
    path = parts.path.rstrip("/")
    query = f"?{parts.query}" if parts.query else ""
    return f"{host}{path}{query}"


def find_urls(text: str) -> list[str]:
    """URLs in text, trailing sentence punctuation removed."""
    return [m.group(0).rstrip(".,;:!?)\"'") for m in URL_RE.finditer(text)]


def _host_allowed(url: str, allowed_domains: tuple[str, ...]) -> bool:
    """True when the URL's host is an allowed domain or a subdomain of one."""
    host = _norm_url(url).split("/", 1)[0].split(":", 1)[0]
    return any(host == d.lower().removeprefix("www.") or host.endswith("." + d.lower().removeprefix("www."))
               for d in allowed_domains)


def bad_urls(answer: str, sources: list[Source], allowed_domains: tuple[str, ...] = ()) -> list[str]:
    """URLs in the answer that no source contains and whose domain is not explicitly allowed."""
    known = {_norm_url(u) for s in sources for u in find_urls(s.text)}
    known |= {_norm_url(s.url) for s in sources if s.url}
    return [u for u in dict.fromkeys(find_urls(answer))
            if _norm_url(u) not in known and not _host_allowed(u, allowed_domains)]


def clean_text(text: str, invalid: set[int], urls: list[str]) -> str:
    """Text with markers for the invalid source numbers removed and the given URLs replaced."""
    for url in sorted(urls, key=len, reverse=True):
        text = re.sub(re.escape(url) + r"(?![\w/#?&=%-])", LINK_REMOVED, text)

    def fix_marker(m: re.Match[str]) -> str:
        nums = marker_numbers(m.group("inner"))
        keep = [n for n in nums if n not in invalid]
        if len(keep) == len(nums):
            return m.group(0)
        # A marker removed whole takes its leading space with it ("in it [7]." -> "in it.").
        return m.group("space") + f"[{', '.join(str(n) for n in keep)}]" if keep else ""

    text = SPACED_MARKER_RE.sub(fix_marker, text)
    return re.sub(r"[ \t]{2,}", " ", text).strip()


@dataclass
class Assessment:
    """The guards' and support scorer's view of one claim against a set of passages."""

    verdict: Verdict
    reason: str
    evidence: str | None
    source_n: int | None
    checks: dict[str, str] = field(default_factory=dict)
    support: Support | None = None
    # True when a guard (not the soft support score) decided: a judge may not override it.
    hard: bool = False


def _words_only(text: str) -> str:
    """Lower-case words and digits separated by single spaces (punctuation and layout dropped)."""
    return " " + " ".join(re.findall(r"[a-z0-9]+", text.lower().replace("’", "'"))) + " "


def _quoted(claim_text: str, source_text: str) -> bool:
    """True when the claim's words occur in the source in the same order, word for word. A later sentence of
    a definition shown with its term in front ("PERMANENT_SESSION_LIFETIME: Can either be …", as answers show
    it) is quoted when the term and, after it, the sentence are."""
    source = _words_only(source_text)
    if _words_only(claim_text) in source:
        return True
    term, colon, body = claim_text.partition(": ")
    if not colon or not is_term(term):
        return False
    at = source.find(_words_only(term))
    return at >= 0 and _words_only(body) in source[at:]


def _ranked_sentences(sup: Support, passages: list[PassageIndex]) -> list[str]:
    """Passage sentences by how many claim stems they share, the best-covering one first."""
    ranked = sorted(((len(sup.claim_stems & set(st)), s) for p in passages for s, st in zip(p.sentences, p.stems)),
                    key=lambda t: -t[0])
    out = [sup.sentence] if sup.sentence else []
    # Other sentences only when they share a good part of the claim's words (same statement).
    need = max(3, len(sup.claim_stems) / 3)
    return out + [s for n, s in ranked if n >= need and s != sup.sentence]


def _tied_sentences(sup: Support, passages: list[PassageIndex]) -> list[str]:
    """The passage sentences that share as many of the claim's stems as the best one: the claim may be any
    of them ("Fixed in 2.3.0" beside "Fixed in 2.20.0 - CVE 2018-18074" in one list)."""
    scored = [(len(sup.claim_stems & set(st)), s) for p in passages for s, st in zip(p.sentences, p.stems)]
    best = max((n for n, _ in scored), default=0)
    return [s for n, s in scored if best and n == best and s != sup.sentence]


_LITERAL = re.compile(r'"[^"\n]{2,80}"|`[^`\n]{2,80}`|“[^”\n]{2,80}”')


def _without_quoted_literals(claim_text: str, passage_text: str) -> str:
    """The claim with every quoted or code literal that the passage holds verbatim blanked out."""
    return _LITERAL.sub(lambda m: " " if m.group(0)[1:-1] in passage_text else m.group(0), claim_text)


# How many sentences after its first one a definition list's entry may run to, read as its context.
_ENTRY_LINES = 3


def _entries_named(claim_text: str, sentences: list[str], start: int, end: int) -> str | None:
    """The definition list entries ("coverage_show_missing_items: Print … False by default. New in version 3.1.")
    that begin in sentences[start:end] and whose term the claim names, each read to its end; None when no entry
    the claim names begins there."""
    claim = claim_text.lower()
    out: list[str] = []
    for h in range(start, end):
        m = DEFINITION_HEAD.match(sentences[h])
        if not m or m.group(1).lower() not in claim:
            continue
        stop = h + 1
        while stop < min(len(sentences), h + 1 + _ENTRY_LINES) and not DEFINITION_HEAD.match(sentences[stop]):
            stop += 1
        out += sentences[h:stop]
    return " ".join(out) if out else None


def _widened(evidence: str, passages: list[PassageIndex], claim_text: str = "") -> str:
    """The aligned window with the sentence before and after it: a version note ("New in version 1.1.")
    or a unit often stands in a sentence of its own next to the statement it belongs to. In a definition list,
    the entries the claim names are read instead, each to its end: the lines around an entry's first one may
    belong to its neighbours ("New in version 1.1." of the entry before)."""
    for p in passages:
        n = len(p.sentences)
        for i in range(n):
            for size in range(1, 4):
                if i + size <= n and " ".join(p.sentences[i : i + size]) == evidence:
                    lo, hi = max(0, i - 1), min(n, i + size + 1)
                    return _entries_named(claim_text, p.sentences, lo, hi) or " ".join(p.sentences[lo:hi])
    return evidence


def assess(claim_text: str, passages: list[PassageIndex], th: Thresholds,
           claim_vec: np.ndarray | None = None, counted: frozenset[int] = frozenset(), question: str = "") -> Assessment:
    """Run the number, identifier, polarity and role guards, then the support decision. The question is
    context for names: the product or team it asks about needs no source to be named in the answer."""
    checks: dict[str, str] = {}
    # Sentences rather than raw text: list numbering must not count as a number in the source.
    joined = "\n".join(s for p in passages for s in p.sentences)
    sup = score_support(claim_text, passages, claim_vec, th.novel_specificity)
    evidence, src_n = sup.evidence or None, sup.source_n

    # A spelled count of what a cited source lists ("four more kinds" of a list of four) is stated there.
    listed = frozenset().union(*(listed_counts(p.source.text) for p in passages))
    nums = check_numbers(claim_text, joined, counted, listed)
    if nums.status == "pass" and sup.evidence and sup.lexical >= th.lexical:
        # The number may occur elsewhere in the passage; the aligned stretch (the window of one to three
        # sentences that covers the claim best: a claim may join two of them) is what counts. A literal the
        # claim quotes word for word from the passage ("node": ">=0.10.3 <15") is backed where it stands.
        unquoted = _without_quoted_literals(claim_text, joined)
        local = check_numbers(unquoted, _widened(sup.evidence, passages, claim_text), counted, listed)
        if local.status == "conflict" and not any(
                check_numbers(unquoted, _widened(s, passages, claim_text), counted, listed).status == "pass"
                for s in _tied_sentences(sup, passages)):
            nums = local
    checks["numbers"] = f"{nums.status}: {nums.detail}"
    # The passage's context (document title, section headings) may hold the option or code a definition
    # is about; names may come from it too: the passage is read as part of that document.
    context = "\n".join([joined] + [p.source.title for p in passages if p.source.title])
    idents = check_identifiers(claim_text, joined)
    if idents.status == "missing" and check_identifiers(claim_text, f"{context}\n{question}").status == "pass":
        # Missing from the text with no rival there, but the section's heading holds it, or the question
        # names it ("Why does the project need a MANIFEST.in next to setup.py?"): the answer may say it back.
        idents = IdentifierCheck("pass", "found in the passage, its headings or the question")
    checks["identifiers"] = f"{idents.status}: {idents.detail}"
    names = check_names(claim_text, f"{context}\n{question}" if question else context)
    checks["names"] = f"{names.status}: {names.detail}"
    # A leading "No," / "Yes," answers the question; it is not a negation of the claim.
    pol = check_polarity(_YES_NO.sub("", claim_text), [s for p in passages for s in p.scoped],
                         th.polarity_min_shared, th.polarity_max_gap, th.polarity_alignment,
                         th.polarity_context, th.polarity_clause_share)
    checks["polarity"] = f"{pol.status}: {pol.detail}"
    role = None
    # The best-covering sentence may not hold the claim's verb; try the next best ones too. The first
    # sentence that decides (agrees or conflicts) settles it: a sentence that states the claim as the
    # claim does is not overruled by another that mentions the same words in other roles.
    for sentence in _ranked_sentences(sup, passages)[:3]:
        attempt = check_roles(claim_text, sentence, joined)
        if role is None or attempt.status != "n/a":
            role = attempt
        if role.status != "n/a":
            break
    if role:
        checks["roles"] = f"{role.status}: {role.detail}"

    rows = check_rows(claim_text, [p.source.text for p in passages])
    checks["rows"] = f"{rows.status}: {rows.detail}"
    ctx = check_context(claim_text, [s for p in passages for s in p.sentences], th.context_window,
                        th.context_margin, th.context_min_rival, th.context_other_side,
                        th.context_min_rival_shared)
    checks["context"] = f"{ctx.status}: {ctx.detail}"

    anchored_total = nums.status != "n/a" or idents.status != "n/a"
    anchored = anchored_total and nums.status in ("pass", "n/a") and idents.status in ("pass", "n/a")
    ok, detail = decide(sup, anchored, th)
    checks["support"] = f"{'pass' if ok else 'fail'}: {detail}"

    if nums.status == "conflict":
        return Assessment("contradicted", f"number mismatch: {nums.detail}", evidence, src_n, checks, sup, True)
    if idents.status == "conflict":
        return Assessment("contradicted", f"identifier mismatch: {idents.detail}", evidence, src_n, checks, sup, True)
    if rows.status == "conflict":
        return Assessment("contradicted", f"table rows mixed: {rows.detail}", evidence, src_n, checks, sup, True)
    # Polarity and role checks only mean something when the claim is about the aligned text, and a
    # claim quoted word for word from its source cannot have flipped or swapped anything.
    # A table row rendered as "Field: value; Field: value" has no clauses to compare either.
    related = (sup.lexical >= th.related_lexical and not _quoted(claim_text, joined)
               and len(_RECORD_FIELD.findall(claim_text)) < 2)
    if pol.status == "conflict" and related:
        return Assessment("contradicted", f"polarity mismatch: {pol.detail}", pol.evidence, src_n, checks, sup, True)
    if role and role.status == "conflict" and related:
        return Assessment("contradicted", f"roles swapped: {role.detail}", evidence, src_n, checks, sup, True)
    # A table row ("Field: value; Field: value") has no sentence around its values to compare either.
    if ctx.status == "conflict" and not _quoted(claim_text, joined) and len(_RECORD_FIELD.findall(claim_text)) < 2:
        return Assessment("contradicted", f"entity out of place: {ctx.detail}", ctx.evidence, src_n, checks, sup,
                          True)
    if nums.status == "missing":
        return Assessment("unsupported", f"number not in cited source: {nums.detail}", evidence, src_n, checks, sup,
                          True)
    if idents.status == "missing":
        return Assessment("unsupported", f"identifier not in cited source: {idents.detail}", evidence, src_n,
                          checks, sup, True)
    if names.status == "missing":
        return Assessment("unsupported", f"names something the cited source does not: {names.detail}", evidence,
                          src_n, checks, sup, True)
    if not ok:
        return Assessment("unsupported", f"not supported by cited source ({detail})", evidence, src_n, checks, sup)
    return Assessment("supported", f"supported ({detail})", evidence, src_n, checks, sup)
