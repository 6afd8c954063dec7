"""Sources that disagree: two documents state the same thing with a different number.

A policy and an FAQ that restates it drift apart ("The daily meal allowance is $55." / "The daily meal
allowance is $60."). When neither document supersedes the other (knowledge.supersession), the answer
must not pick one in silence: it quotes both, each with its citation, and says they disagree.

Two units disagree when they come from different documents, each states a number the other lacks, and
the rest of the two sentences is nearly the same (`SAME_STATEMENT`, a Jaccard share of their
content words): the same statement with another value. Two sentences about different things that
happen to share a number's neighbourhood ("domestic" / "international") differ in a content word and
stay below the share when the sentences are short; a longer sentence needs more words changed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from textcore.words import content_words

from .currency import chain
from .extractive import Candidate

# Share of content words two sentences must have in common (numbers aside) to be one statement. A
# six-word statement with one word changed ("domestic" / "international") shares 5 of 7: 0.71.
SAME_STATEMENT = 0.8
# Only units nearly as good as the answer's own are looked at: a far-off sentence that restates the same
# thing with another number is about something else more often than not.
NEAR_BEST = 0.5
_POOL = 8
_NUMBER = re.compile(r"(?<![\w.])[$€£]?\d[\d,]*(?:\.\d+)?(?:\s?%)?(?![\w.]*\w)")


@dataclass(frozen=True)
class Disagreement:
    """Two units of different documents that give the same statement different numbers."""

    kept: Candidate  # in the answer already
    other: Candidate
    values: tuple[str, str]

    def sentence(self) -> str:
        """The line the answer ends with (uncited: it is about the sources, not from them)."""
        return f"The sources disagree on this ({self.values[0]} and {self.values[1]}): check which one applies."


def _numbers(text: str) -> tuple[str, ...]:
    return tuple(m.group(0).replace(",", "").replace(" ", "") for m in _NUMBER.finditer(text))


def _words(text: str) -> set[str]:
    return {w.lower().rstrip("s") for w in content_words(_NUMBER.sub(" ", text))}


def _same_statement(wa: set[str], wb: set[str]) -> bool:
    if len(wa) < 3 or len(wb) < 3:
        return False
    return len(wa & wb) / len(wa | wb) >= SAME_STATEMENT


def find(chosen: list[Candidate], candidates: list[Candidate],
         successors: dict[int, int] | None = None) -> Disagreement | None:
    """The first unit of the answer that another document restates with a different number, if any.
    `successors` ({old document id: newer document id}): a superseded version does not disagree, it is old."""
    newer = successors or {}
    if not chosen or not candidates:
        return None
    best = max(c.score for c in candidates)
    near = sorted((c for c in candidates if c.score >= NEAR_BEST * best), key=lambda c: c.score, reverse=True)
    pool = [(c, _numbers(c.text), _words(c.text)) for c in near[:_POOL]]
    for kept in chosen:
        mine = _numbers(kept.text)
        if not mine:
            continue
        document, my_words = kept.passage.first.document_id, _words(kept.text)
        for other, theirs, their_words in pool:
            other_document = other.passage.first.document_id
            only_mine, only_theirs = set(mine) - set(theirs), set(theirs) - set(mine)
            # Each gives a value the other lacks: a restatement that leaves a detail out ("an OSError" for
            # "OSError: [Errno 98]") says less, not something else.
            if (other_document == document or not only_mine or not only_theirs
                    or other_document in chain(newer, document) or document in chain(newer, other_document)):
                continue
            if _same_statement(my_words, their_words):
                first = next(v for v in mine if v in only_mine)
                second = next(v for v in theirs if v in only_theirs)
                return Disagreement(kept, other, (first, second))
    return None
