"""Split an answer into claims (sentences and list items) and read their [n] citation markers."""

from __future__ import annotations

import re

from .text import content_stems, normalise_space
from .types import Claim

# [1], [1][2], [1, 2], [1-3]; "[link removed]" and other bracketed words are not markers.
MARKER_RE = re.compile(r"\[(\d+(?:\s*[,;\-–]\s*\d+)*)\]")
_MARKER_RUN = re.compile(r"(?:\s*\[\d+(?:\s*[,;\-–]\s*\d+)*\])+")
BULLET_RE = re.compile(r"^\s*(?:[-*•‣◦▪]|\d{1,2}[.)]|[a-z][.)])\s+")
_STANDALONE_RE = re.compile(r"^\s*(?:#{1,6}\s|\|)")
_END_PUNCT = re.compile(r"[.!?]+[\"'”’)]*")

# Tokens that end with a period without ending the sentence.
ABBREVIATIONS = frozenset(
    """e.g i.e eg ie vs approx appr mr mrs ms dr prof st no nos inc ltd co corp jr sr a.m p.m am pm
    min max dept ext fig est incl excl cf al ca jan feb mar apr jun jul aug sep sept oct nov dec
    mon tue tues wed thu thur thurs fri sat sun u.s u.k approx. resp govt misc ref refs vol pp""".split()
)

_CONNECTIVE_RE = re.compile(
    r"^(?:here(?:'s| is| are)\b|in summary\b|to summari[sz]e\b|hope this helps|let me know\b|"
    r"i hope\b|please (?:let|reach|see|refer)\b|if you have (?:any )?(?:other|more|further)|"
    r"(?:i )?(?:couldn't|could not|can't|cannot|did not|didn't) find\b|i don't know\b|"
    r"(?:the )?(?:documents?|sources?) (?:do not|don't) (?:say|mention|cover)|"
    r"based on the (?:documents?|sources?|policy)[^,]*[,:]?$|according to the (?:documents?|sources?)[,:]?$)",
    re.IGNORECASE,
)


def parse_markers(text: str) -> list[int]:
    """All citation numbers in text, in order of appearance, duplicates removed."""
    seen: list[int] = []
    for m in MARKER_RE.finditer(text):
        for part in re.split(r"\s*[,;]\s*", m.group(1)):
            if re.fullmatch(r"\d+\s*[\-–]\s*\d+", part):
                lo, hi = (int(x) for x in re.split(r"\s*[\-–]\s*", part))
                nums = list(range(lo, hi + 1)) if 0 <= hi - lo <= 20 else [lo, hi]
            else:
                nums = [int(part)]
            for n in nums:
                if n not in seen:
                    seen.append(n)
    return seen


def strip_markers(text: str) -> str:
    """Text with citation markers removed and the spacing they leave tidied."""
    out = MARKER_RE.sub("", text)
    out = re.sub(r"\s+([.,;:!?])", r"\1", out)
    return normalise_space(out)


def _is_abbreviation(text: str, punct_start: int) -> bool:
    """True when the period at punct_start closes an abbreviation or an initial."""
    head = text[:punct_start]
    m = re.search(r"(\S+)$", head)
    if not m:
        return False
    word = m.group(1).lstrip("(\"'“‘").lower()
    if word in ABBREVIATIONS or word.rstrip(".") in ABBREVIATIONS:
        return True
    return len(word) == 1 and word.isalpha()


def _blocks(text: str) -> list[tuple[int, int]]:
    """Line-based blocks: bullets and blank lines break; wrapped prose lines are joined."""
    lines: list[tuple[int, int]] = []
    pos = 0
    for line in text.split("\n"):
        lines.append((pos, pos + len(line)))
        pos += len(line) + 1
    blocks: list[tuple[int, int]] = []
    cur: tuple[int, int] | None = None
    for start, end in lines:
        line = text[start:end]
        if not line.strip():
            if cur:
                blocks.append(cur)
            cur = None
            continue
        if cur is None or BULLET_RE.match(line) or _STANDALONE_RE.match(line):
            if cur:
                blocks.append(cur)
            cur = (start, end)
            continue
        prev = text[cur[0] : cur[1]].rstrip()
        # A previous line ending in punctuation or a marker is complete; otherwise it was wrapped.
        # Headings and table rows stand alone whatever they end with.
        if re.search(r"([.!?:;\]\"”)|]|\[\d+\])$", prev) or _STANDALONE_RE.match(prev):
            blocks.append(cur)
            cur = (start, end)
        else:
            cur = (cur[0], end)
    if cur:
        blocks.append(cur)
    return blocks


def _split_block(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Sentence spans inside one block; markers after the end punctuation stay with the sentence."""
    spans: list[tuple[int, int]] = []
    cur = start
    bullet = BULLET_RE.match(text[start:end])
    scan_from = start + (bullet.end() if bullet else 0)  # "1. Call IT" is not a sentence "1."
    for m in _END_PUNCT.finditer(text, scan_from, end):
        stop = m.end()
        mk = _MARKER_RUN.match(text, stop, end)
        has_markers = bool(mk and mk.end() > stop)
        if has_markers:
            stop = mk.end()
        if stop < end and not text[stop].isspace():
            continue  # "3.5", "v2.3", "e.g.Slack", "example.com"
        rest = text[stop:end].lstrip()
        if rest and not has_markers:
            if m.group(0)[0] == "." and _is_abbreviation(text, m.start()):
                continue
            if rest[0].islower():
                continue
        spans.append((cur, stop))
        cur = stop
    if cur < end and text[cur:end].strip():
        spans.append((cur, end))
    return spans


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of sentences and list items, whitespace trimmed."""
    out: list[tuple[int, int]] = []
    for b_start, b_end in _blocks(text):
        for s, e in _split_block(text, b_start, b_end):
            while s < e and text[s].isspace():
                s += 1
            while e > s and text[e - 1].isspace():
                e -= 1
            if s < e:
                out.append((s, e))
    return out


def split_sentences(text: str) -> list[str]:
    """Sentences and list items of text (markers kept)."""
    return [text[s:e] for s, e in sentence_spans(text)]


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


def extract_claims(answer: str) -> list[Claim]:
    """Claims of an answer: one per sentence or list item, with the markers each one carries."""
    claims: list[Claim] = []
    for sent_idx, (s, e) in enumerate(sentence_spans(answer)):
        raw = answer[s:e]
        body = BULLET_RE.sub("", raw, count=1)
        body = re.sub(r"^#+\s*|\*\*|__", "", body)
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
