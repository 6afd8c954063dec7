"""Entry points: verify an answer against its sources, and drop the sentences that failed."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from time import perf_counter

import numpy as np

from .claims import extract_claims
from .enumerations import enumeration_breaks, enumeration_counts, list_items_after
from .guards import Assessment, assess, bad_urls, clean_text, split_citations
from .support import PassageIndex
from .text import content_stems
from .types import Claim, ClaimVerdict, Source, Thresholds, VerificationReport, fitted_thresholds

Embed = Callable[[list[str]], np.ndarray]
Judge = Callable[[list[Claim], list[Source]], list[ClaimVerdict | None]]


def _ms(start: float) -> float:
    """Milliseconds since start, rounded for readable logs."""
    return round((perf_counter() - start) * 1000, 3)


def _embed_all(embed: Embed, claims: list[Claim], index: dict[int, PassageIndex]) -> list[np.ndarray | None]:
    """One batched embedding call for every claim and source sentence; sentence rows go on the index."""
    # Only the passages these claims cite: embedding every source sentence costs ~10 ms apiece.
    cited = {n for c in claims for n in c.citations}
    passages = [p for n, p in index.items() if n in cited and p.vectors is None]
    texts = [c.text for c in claims] + [s for p in passages for s in p.sentences]
    if not texts:
        return [None] * len(claims)
    vecs = np.asarray(embed(texts), dtype=np.float32)
    pos = len(claims)
    for p in passages:
        p.vectors = vecs[pos : pos + len(p.sentences)]
        pos += len(p.sentences)
    return [vecs[i] for i in range(len(claims))]


def _alternative(claim: Claim, index: dict[int, PassageIndex], exclude: Sequence[int], th: Thresholds,
                 vec: np.ndarray | None, counted: frozenset[int] = frozenset(), question: str = "") -> Assessment | None:
    """The best-supporting source among those the claim did not cite, if any supports it."""
    best: Assessment | None = None
    for n, passage in index.items():
        if n in exclude:
            continue
        a = assess(claim.text, [passage], th, vec, counted, question)
        if a.verdict == "supported" and (best is None or a.support.lexical > best.support.lexical):
            best = a
    return best


def _check_claim(claim: Claim, index: dict[int, PassageIndex], urls: list[str], th: Thresholds,
                 vec: np.ndarray | None, counted: frozenset[int] = frozenset(),
                 question: str = "") -> tuple[ClaimVerdict, bool]:
    """Verdict for one claim and whether a guard (rather than the support score) decided it."""
    if claim.connective:
        return ClaimVerdict(claim, "supported", "connective text, nothing to check",
                            checks={"connective": "skipped"}), False
    good, bad = split_citations(claim, set(index))
    checks: dict[str, str] = {}
    if bad:
        checks["citations"] = f"fail: removed out-of-range {', '.join(f'[{n}]' for n in bad)}"
    claim_urls = [u for u in urls if u in claim.raw]
    if claim_urls:
        checks["urls"] = f"fail: {', '.join(claim_urls)} not in any source"
        return ClaimVerdict(claim, "unsupported", f"fabricated URL: {claim_urls[0]} is not in any source",
                            checks=checks), True
    if not good:
        alt = _alternative(claim, index, (), th, vec, counted, question)
        hint = f"; supported by [{alt.source_n}]" if alt else ""
        if bad:
            reason = f"cites a source that does not exist ({', '.join(f'[{n}]' for n in bad)}){hint}"
        else:
            reason = f"uncited claim{hint}"
        return ClaimVerdict(claim, "unsupported", reason, alt.evidence if alt else None,
                            alt.source_n if alt else None, checks), True
    a = assess(claim.text, [index[n] for n in good], th, vec, counted, question)
    checks.update(a.checks)
    if a.verdict != "supported":
        alt = _alternative(claim, index, good, th, vec, counted, question)
        if alt is not None:
            cited = "".join(f"[{n}]" for n in good)
            checks["citation_target"] = f"fail: supported by [{alt.source_n}]"
            return ClaimVerdict(claim, "unsupported", f"wrong citation: cited {cited} but supported by "
                                f"[{alt.source_n}]", alt.evidence, alt.source_n, checks), True
    return ClaimVerdict(claim, a.verdict, a.reason, a.evidence, a.source_n, checks), a.hard


def _score(verdicts: list[ClaimVerdict]) -> float:
    """Content-weighted share of factual claims that are supported (1.0 when nothing is claimed)."""
    total = got = 0.0
    for v in verdicts:
        if v.claim.connective:
            continue
        weight = max(1, len(content_stems(v.claim.text)))
        total += weight
        got += weight if v.verdict == "supported" else 0.0
    return round(got / total, 4) if total else 1.0


def verify_answer(answer: str, sources: list[Source], *, embed: Embed | None = None,
                  allowed_domains: Sequence[str] = (), thresholds: Thresholds | None = None,
                  judge: Judge | None = None, question: str = "") -> VerificationReport:
    """Check every claim of an answer against the sources it cites and report what failed (the question,
    when given, is context for the names the answer may use)."""
    th = thresholds or fitted_thresholds()
    timings: dict[str, float] = {}
    t_total = t = perf_counter()
    claims = extract_claims(answer)
    timings["claims"] = _ms(t)

    t = perf_counter()
    index = {s.n: PassageIndex.build(s) for s in sources}
    urls = bad_urls(answer, sources, tuple(allowed_domains))
    timings["index"] = _ms(t)

    t = perf_counter()
    counts = enumeration_counts([c.raw for c in claims])
    results = [_check_claim(c, index, urls, th, None, n, question) for c, n in zip(claims, counts)]
    timings["guards"] = _ms(t)

    # Embeddings cost ~10 ms a sentence on a CPU; most claims (and every extractive answer, which
    # copies its sources) are settled lexically, so only the undecided ones are embedded.
    undecided = [i for i, (v, hard) in enumerate(results) if v.verdict != "supported" and not hard]
    if embed is not None and undecided:
        t = perf_counter()
        vecs = _embed_all(embed, [claims[i] for i in undecided], index)
        for i, vec in zip(undecided, vecs):
            results[i] = _check_claim(claims[i], index, urls, th, vec, counts[i], question)
        timings["embed"] = _ms(t)
    raws = [c.raw for c in claims]
    for i in (i for i in range(len(raws)) if list_items_after(raws, i)):
        v, hard = results[i]
        if v.verdict == "unsupported" and not hard:
            # "A few settings need specific values:" sums up the list that follows, whose items are checked;
            # the guards (numbers, codes, names, negations) still bear on it, the word overlap does not.
            v.checks["support"] = v.checks.get("support", "") + "; lead-in to a list: its items are checked"
            results[i] = (ClaimVerdict(claims[i], "supported", "lead-in to the list that follows", v.evidence,
                                       v.source_n, v.checks), False)
    for i, why in enumeration_breaks([c.raw for c in claims], [s.text for s in sources]).items():
        v = results[i][0]
        if v.verdict == "supported" and not claims[i].connective:
            v.checks["enumeration"] = f"fail: {why}"
            results[i] = (ClaimVerdict(claims[i], "contradicted", f"list numbering: {why}", v.evidence, v.source_n,
                                       v.checks), True)
    verdicts = [r[0] for r in results]

    if judge is not None and claims:
        t = perf_counter()
        judged = judge(claims, sources)
        for i, jv in enumerate(judged[: len(verdicts)]):
            # Guards are exact checks (numbers, codes, polarity, URLs, citations); the judge only
            # replaces the soft lexical/embedding decision.
            if jv is not None and not results[i][1] and not claims[i].connective:
                jv.checks = {**verdicts[i].checks, **jv.checks, "judge": jv.verdict}
                verdicts[i] = jv
        timings["judge"] = _ms(t)

    removed = sorted({n for c in claims for n in c.citations if n not in index})
    cleaned = clean_text(answer, set(removed), urls)
    faithful = all(v.verdict == "supported" for v in verdicts) and not removed and not urls
    timings["total"] = _ms(t_total)
    return VerificationReport(faithful, verdicts, cleaned, removed, urls, _score(verdicts), timings)


def remove_failing(answer: str, report: VerificationReport) -> str:
    """The answer without its unsupported/contradicted sentences, cleaned; "" if nothing factual is left."""
    failing = [v.claim for v in report.claims if v.verdict != "supported"]
    factual_left = [v for v in report.claims if v.verdict == "supported" and not v.claim.connective]
    if not factual_left:
        return ""
    text = answer
    for claim in sorted(failing, key=lambda c: c.span[0], reverse=True):
        s, e = claim.span
        while e < len(text) and text[e] in " \t":
            e += 1  # the space that separated it from the next sentence goes too
        if (s == 0 or text[s - 1] == "\n") and e < len(text) and text[e] == "\n":
            e += 1  # a whole line (list item) goes with its line break
        text = text[:s] + text[e:]
    lines = [ln.rstrip() for ln in text.split("\n")]
    kept: list[str] = []
    for ln in lines:
        if ln.strip() or (kept and kept[-1].strip()):
            kept.append(re.sub(r"(?<=\S) {2,}", " ", ln))
    while kept and (not kept[-1].strip() or kept[-1].rstrip().endswith(":")):
        kept.pop()  # a lead-in whose list items were all removed
    return clean_text("\n".join(kept), set(report.removed_citations), report.replaced_urls)
