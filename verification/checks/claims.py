"""Split an answer into claims (sentences and list items) and read their [n] citation markers."""

from __future__ import annotations

import re

from textcore.markers import MARKER_RE, parse_markers
from textcore.markers import strip_markers as _strip
from textcore.sentences import LIST_ITEM as BULLET_RE
from textcore.sentences import sentence_spans, split_sentences

from .text import content_stems, normalise_space
from .types import Claim

__all__ = ["MARKER_RE", "BULLET_RE", "extract_claims", "is_connective", "parse_markers", "sentence_spans",
           "split_sentences", "strip_markers"]

_CONNECTIVE_RE = re.compile(
    r"^(?:here(?:'s| is| are)\b|in summary\b|to summari[sz]e\b|hope this helps|let me know\b|"
    r"i hope\b|please (?:let|reach|see|refer)\b|if you have (?:any )?(?:other|more|further)|"
    r"(?:i )?(?:couldn't|could not|can't|cannot|did not|didn't) find\b|i don't know\b|"
    r"(?:the )?(?:documents?|sources?) (?:do not|don't) (?:say|mention|cover)|(?:the )?sources disagree\b|"
    r"based on the (?:documents?|sources?|policy)[^,]*[,:]?$|according to the (?:documents?|sources?)[,:]?$)",
    re.IGNORECASE,
)


def strip_markers(text: str) -> str:
    """Text with citation markers removed, spacing tidied and whitespace runs collapsed."""
    return normalise_space(_strip(text))


def is_connective(text: str, citations: tuple[int, ...]) -> bool:
    """True for uncited sentences that carry no checkable fact (lead-ins, sign-offs, refusals)."""
    if citations:
        return False
    body = text.strip()
    if not body:
        return True
    if body.endswith(":") or _CONNECTIVE_RE.search(body):
        return True
    if re.search(r"\d|https?://|`|\"|[A-Z]{2,}|\w[-_]\w", body):
        return False
    return len(content_stems(body)) <= 2


# Underscores mark bold only outside words (CommonMark: "FLASK_MYAPI__credentials__username" is one name).
# Stars mark bold around words, not inside an expression ("less than 2**32").
_STAR_BOLD = re.compile(r"(?<![\w*])\*\*(?=[^\s*])(.+?)(?<=[^\s*])\*\*(?![\w*])")
_UNDERSCORE_BOLD = re.compile(r"(?<![\w_])__(?=[^\s_])(.+?)(?<=[^\s_])__(?![\w_])")


def extract_claims(answer: str) -> list[Claim]:
    """Claims of an answer: one per sentence or list item, with the markers each one carries."""
    claims: list[Claim] = []
    for sent_idx, (s, e) in enumerate(sentence_spans(answer)):
        raw = answer[s:e]
        body = BULLET_RE.sub("", raw, count=1)
        # Bold markup goes; one word in double underscores is a Python dunder name ("Bootstep.__init__"),
        # not bold, and stays.
        body = _STAR_BOLD.sub(r"\1", re.sub(r"^#+\s*", "", body))
        body = _UNDERSCORE_BOLD.sub(lambda m: m.group(0) if re.fullmatch(r"\w+", m.group(1)) else m.group(1), body)
        cites = tuple(parse_markers(raw))
        text = strip_markers(body)
        if not re.search(r"[A-Za-z0-9]", text):
            # A stray marker line: its citations belong to the previous claim.
            if claims and cites:
                prev = claims[-1]
                merged = prev.citations + tuple(c for c in cites if c not in prev.citations)
                claims[-1] = Claim(prev.index, prev.text, merged, prev.sentence_index,
                                   answer[prev.span[0] : e], (prev.span[0], e), prev.connective)
            continue
        claims.append(Claim(len(claims), text, cites, sent_idx, raw, (s, e), is_connective(text, cites)))
    return claims
