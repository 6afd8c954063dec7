"""Support scoring: how well a passage backs a claim, lexically and (optionally) by embeddings."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from .claims import BULLET_RE, split_sentences
from .identifiers import EMAIL_RE, URL_RE
from .negation import NEGATION_CUES, cue_words, negative_prefix
from textcore.tables import row_text, split_tables
from textcore.words import specificity, words

from .text import bigrams, content_stems, is_generic_stem, root, stem
from .types import Source, Thresholds

_NEUTRAL = frozenset(NEGATION_CUES)  # negations are judged by the polarity guard, not coverage


def _stems(text: str) -> list[str]:
    """Content roots (`text.root`) with negative prefixes split off ("unchanged" counts as "changed"):
    negation is the polarity guard's business, the words are the support score's."""
    out = []
    for s in content_stems(text, _NEUTRAL):
        rest = negative_prefix(s) if s.startswith(("un", "non")) else None
        out.append(root(stem(rest) if rest else s))
    return out


@dataclass
class PassageIndex:
    """A source split into sentences with their content stems (built once per verification)."""

    source: Source
    sentences: list[str]
    stems: list[list[str]]
    all_stems: set[str] = field(default_factory=set)
    scoped: list[str] = field(default_factory=list)  # sentences with list lead-ins, for polarity
    # The document's title ("Installation — Flask Documentation") is context every sentence of the
    # passage is read in: an answer may name the product the passage never repeats.
    title_stems: frozenset[str] = frozenset()
    vectors: np.ndarray | None = None  # one normalised row per sentence, when embeddings are on
    # Per sentence, the roots its adjacent words spell when written as one ("hyper links" -> "hyperlink").
    joined: list[set[str]] = field(default_factory=list)

    @classmethod
    def build(cls, source: Source) -> "PassageIndex":
        """Index one source passage."""
        sentences: list[str] = []
        scoped: list[str] = []
        lead = ""
        # A source is the document's own text: a bracketed number there is content ("level [1-19]",
        # "argv[1]"), never one of the answer's citation markers, so it is kept.
        for raw in split_sentences(rows_as_prose(source.text)):
            # List numbering ("2. The change must...") is layout, not content: drop it.
            text = BULLET_RE.sub("", raw, count=1)
            if not text:
                continue
            bullet = text != raw or raw.lstrip().startswith("- ")
            sentences.append(text)
            # List items inherit their lead-in for polarity ("must never appear in logs: - passwords").
            scoped.append(f"{lead} {text}" if bullet and lead else text)
            colon = [m.start() for m in re.finditer(r":(?:\s|$)", text)]
            if colon:
                lead = " ".join(cue_words(_CONDITION.sub(" ", text[: colon[-1]])))
            elif not bullet:
                lead = ""
        if not sentences:
            sentences = scoped = [source.text]
        stems = [_stems(s) for s in sentences]
        title = frozenset(_stems(source.title)) if source.title else frozenset()
        joined = [joined_stems(s) for s in sentences]
        return cls(source, sentences, stems, {x for st in stems + joined for x in st} | title, scoped, title,
                   joined=joined)


def joined_stems(text: str) -> set[str]:
    """Roots of the compounds two adjacent words of text make when written as one word ("hyper links",
    "user name", "look up"): an answer may close up what its source writes apart."""
    toks = [w.lower() for w in words(text)]
    out: set[str] = set()
    for i in range(len(toks) - 1):
        a, b = toks[i], toks[i + 1]
        if len(a) > 2 and len(b) > 2:
            out.add(root(stem(a + b)))
    return out


def rows_as_prose(text: str) -> str:
    """The text with each pipe table's rows read as the answer writer reads them ("Header: value; Header:
    value"), one paragraph a row: a claim taken from a row is compared with that row, not with pipes and the
    cells of its neighbours."""
    parts = split_tables(text)
    if len(parts) == 1 and isinstance(parts[0], str):
        return text
    return "\n\n".join(p if isinstance(p, str) else "\n\n".join(row_text(p.header, row) for row in p.rows)
                       for p in parts)


# A lead-in's condition ("When not set explicitly:", "If the flag is not given, …:") says when its items hold;
# its negation does not pass on to them.
_CONDITION = re.compile(r"(?:^|(?<=[.;]\s))\s*(?:when|whenever|if|unless|once|while|where)\b[^,;]*(?:,|$)", re.I)


@dataclass(frozen=True)
class Support:
    """How well some passages back a claim."""

    lexical: float
    bigram: float
    embedding: float | None
    novel: tuple[str, ...]
    specific: int  # claim content stems that are not generic filler
    evidence: str
    source_n: int | None
    sentence: str  # the single passage sentence that covers the claim best
    claim_stems: frozenset[str] = frozenset()
    # Every absent non-generic stem, everyday words included (`novel` keeps only the specific ones):
    # the embedding route, which forgives rewording by itself, counts them all.
    novel_all: tuple[str, ...] = ()


def _weighted_coverage(claim: list[str], window: set[str]) -> float:
    """Share of claim content stems found in the window; generic stems weigh half."""
    if not claim:
        return 1.0
    total = got = 0.0
    for s in claim:
        w = 0.5 if is_generic_stem(s) else 1.0
        total += w
        if s in window:
            got += w
    return got / total


def _novel(claim_text: str, c_stems: list[str], union: set[str], min_specificity: float) -> tuple[str, ...]:
    """Claim stems the passages lack, leaving out generic words and words too common in English to
    mark new content (a paraphrase brings in "pick" or "together", an added fact brings in names)."""
    surface: dict[str, str] = {}
    named: set[str] = set()
    for position, word in enumerate(words(claim_text)):
        surface.setdefault(root(stem(word.lower())), word)
        # An acronym ("HR", "IT") or a capitalised word inside the sentence names someone or something:
        # new content however common the word is in English.
        if (len(word) > 1 and word.isupper()) or (position > 0 and word[0].isupper()):
            named.add(root(stem(word.lower())))
    return tuple(s for s in c_stems if s not in union and not is_generic_stem(s)
                 and (min_specificity <= 0 or s in named or specificity(surface.get(s, s)) >= min_specificity))


def score_support(claim_text: str, passages: list[PassageIndex], claim_vec: np.ndarray | None = None,
                  min_specificity: float = 0.0) -> Support:
    """Best lexical window (1-3 sentences) and best sentence cosine across the given passages."""
    # URLs and emails are checked by their own guards; their fragments are not content words.
    claim_text = EMAIL_RE.sub(" ", URL_RE.sub(" ", claim_text))
    c_stems = list(dict.fromkeys(_stems(claim_text)))
    c_bigrams = bigrams(_stems(claim_text))
    best = (-1.0, 0.0, "", None, "")
    best_single = (-1.0, "")
    union: set[str] = set()
    for p in passages:
        union |= p.all_stems
        n = len(p.sentences)
        for i in range(n):
            single = _weighted_coverage(c_stems, set(p.stems[i]) | p.joined[i] | p.title_stems)
            if single > best_single[0]:
                best_single = (single, p.sentences[i])
            window: set[str] = set(p.title_stems)
            win_bigrams: set[tuple[str, str]] = set()
            for size in range(1, 4):
                if i + size > n:
                    break
                window |= set(p.stems[i + size - 1]) | p.joined[i + size - 1]
                win_bigrams |= bigrams(p.stems[i + size - 1])
                cov = _weighted_coverage(c_stems, window)
                bg = len(c_bigrams & win_bigrams) / len(c_bigrams) if c_bigrams else cov
                # Prefer the shortest window that reaches a given coverage.
                key = cov + 0.1 * bg - 0.02 * (size - 1)
                if key > best[0]:
                    span = " ".join(p.sentences[i : i + size])
                    best = (key, bg, span, p.source.n, p.sentences[i])
    window_cov = max(0.0, best[0] - 0.1 * best[1]) if best[0] >= 0 else 0.0
    # Claims that merge facts from two cited passages, or from sentences of one passage further apart than a
    # window ("npm init foo becomes npm exec create-foo, and npm init @usr becomes …" over a list), are scored
    # against all that they cite too. The words of an added fact that none of it holds still count against the
    # claim (though everyday words below `novel_specificity` are not counted as new, here as in a window).
    cov = max(window_cov, 0.95 * _weighted_coverage(c_stems, union))
    novel = _novel(claim_text, c_stems, union, min_specificity)
    emb = None
    if claim_vec is not None:
        sims = [(float(np.max(p.vectors @ claim_vec)), p) for p in passages if p.vectors is not None and len(p.vectors)]
        if sims:
            emb = max(s for s, _ in sims)
    specific = sum(1 for s in c_stems if not is_generic_stem(s))
    return Support(min(1.0, cov), best[1], emb, novel, specific, best[2], best[3], best_single[1],
                   frozenset(c_stems), _novel(claim_text, c_stems, union, 0.0))


def decide(support: Support, anchored: bool, th: Thresholds) -> tuple[bool, str]:
    """Supported or not, with a reason, from the support scores and whether anchors all matched."""
    lex, emb, novel = support.lexical, support.embedding, support.novel
    detail = f"coverage {lex:.2f}" + (f", cosine {emb:.2f}" if emb is not None else "")
    if novel:
        detail += f", absent: {', '.join(novel[:4])}"
    if support.specific == 0:
        return True, detail + ", nothing specific to check"
    if emb is not None:
        # Cosine and word coverage trade off: loose paraphrases score high on the first,
        # topical additions ("also gets a free account") only moderately on both.
        if emb + 0.5 * lex >= th.embedding_combined and lex >= th.embedding_min_lexical:
            return True, detail
        if emb >= th.embedding and lex >= th.embedding_min_lexical and not support.novel_all:
            return True, detail
        if anchored and emb >= th.embedding and len(support.novel_all) <= th.max_novel_anchored:
            return True, detail
        if support.novel_all != novel:
            return False, detail + ", absent everyday words: " + ", ".join(
                s for s in support.novel_all[:4] if s not in novel)
    if not novel and lex >= th.lexical_anchored:
        return True, detail
    if anchored and lex >= th.lexical_anchored and len(novel) <= th.max_novel_anchored:
        return True, detail
    if anchored and lex >= th.lexical_anchored_loose and len(novel) <= th.max_novel_anchored + 1:
        return True, detail
    if lex >= th.lexical and len(novel) <= 1:
        return True, detail
    return False, detail
