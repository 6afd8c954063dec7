"""Data types shared by the answer checker: sources, claims, verdicts and the report."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache
from typing import Any, Literal

from verification.fitted import THRESHOLDS

Verdict = Literal["supported", "unsupported", "contradicted"]


@dataclass(frozen=True)
class Source:
    """One numbered passage the answer may cite as [n]."""

    n: int
    text: str
    url: str | None = None
    title: str | None = None


@dataclass(frozen=True)
class Claim:
    """One sentence (or list item) of the answer with the citation markers it carries."""

    index: int
    text: str
    citations: tuple[int, ...]
    sentence_index: int
    raw: str = ""
    span: tuple[int, int] = (0, 0)
    connective: bool = False


@dataclass
class ClaimVerdict:
    """The checker's judgement of one claim, with the evidence span and per-check notes."""

    claim: Claim
    verdict: Verdict
    reason: str
    evidence: str | None = None
    source_n: int | None = None
    checks: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Thresholds:
    """Tunable cut-offs for the support decision and the alignment-based guards."""

    # Claim content-word coverage needed on its own (no embeddings, nothing anchored).
    lexical: float = 0.75
    # Coverage needed when every number/identifier in the claim was found verbatim.
    lexical_anchored: float = 0.5
    # With all anchors matched, one more novel word is tolerated at this higher coverage.
    lexical_anchored_loose: float = 0.65
    # Cosine (MiniLM, normalised) between claim and best source sentence.
    embedding: float = 0.62
    # Even with a high cosine, some words must be shared: stops topical look-alikes.
    embedding_min_lexical: float = 0.25
    # cosine + 0.5 * coverage at or above this is support whatever words are new (paraphrase).
    # The three embedding cut-offs are fitted on dev in embedding mode (scripts/fit_verifier.py).
    embedding_combined: float = 0.9
    # Below this coverage a claim is about something else: polarity/role conflicts are not reported.
    related_lexical: float = 0.34
    # Polarity: content words a source sentence must share with the claim to be aligned with it, and
    # the longest edit (in words, either side) between two aligned stretches that is still compared.
    polarity_min_shared: int = 2
    polarity_max_gap: int = 6
    # Share of the claim's content words the best source sentence must hold before what each side
    # negates is compared without a word-for-word alignment.
    polarity_alignment: float = 0.5
    # Specific words (besides the negated one) a clause and its counterpart must share to be compared.
    polarity_context: int = 1
    # Share of a claim clause's specific words its counterpart source clause must hold before their
    # negations are compared clause to clause (above 1: never).
    polarity_clause_share: float = 1.1
    # A word absent from the source counts as novel only at or above this specificity (0 = everyday
    # English such as "pick" or "together", 1 = rare or technical, textcore.words.specificity).
    novel_specificity: float = 0.0
    # Novel (absent, non-generic) content words tolerated when anchored / when coverage is high.
    max_novel_anchored: int = 1
    # Context guard (checks/context.py): content words either side of an entity that make its context,
    # the share of that context another entity of the passage must agree with, and by how much more
    # than the entity's own source context, before the claim is said to have put one in the other's place.
    context_window: int = 3
    context_min_rival: float = 0.4
    context_margin: float = 0.3
    # The share a rival must reach when its source sentence names the claim's entity too (chosen on the dev
    # cases of 2026-11-30 over 0.3-0.7: the largest value that lost no dev swap).
    context_min_rival_shared: float = 0.4
    # How much a context word counts when it stands on the other side of the entity in the source than in the
    # claim (1: word order ignored).
    context_other_side: float = 1.0


@lru_cache(maxsize=1)
def fitted_thresholds() -> Thresholds:
    """The defaults with the cut-offs scripts/fit_verifier.py fitted on dev (verification/fitted.py)."""
    return replace(Thresholds(), **THRESHOLDS)


@dataclass
class VerificationReport:
    """Outcome of checking one answer against its sources."""

    faithful: bool
    claims: list[ClaimVerdict]
    cleaned_answer: str
    removed_citations: list[int]
    replaced_urls: list[str]
    score: float
    timings_ms: dict[str, float] = field(default_factory=dict)
    # Filled by the caller's correction loop: one dict per regenerate/verify round.
    rounds: list[dict[str, Any]] = field(default_factory=list)

    @property
    def failing(self) -> list[ClaimVerdict]:
        """Claim verdicts that are not supported."""
        return [c for c in self.claims if c.verdict != "supported"]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-serialisable form (for logs, the console and Slack debugging)."""
        return asdict(self)
