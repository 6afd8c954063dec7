"""Sentence splitting shared by chunking, the answer writer and the answer checker.

One splitter for everything: answers built from sentences are checked with the same boundaries.
Paragraphs (blank lines) and list items always start a unit; a code block (every line indented four
spaces) is one unit; inside a paragraph a sentence ends at . ! ? (plus any closing quotes and
citation markers) before a capital, a digit or an opening quote — not after an abbreviation, an
initial, a decimal, a version or a list number, and never at a mere line wrap.
"""

from __future__ import annotations

import re

from textcore.words import AUXILIARIES

__all__ = ["sentence_spans", "split_sentences", "paragraphs", "is_code_block", "LIST_ITEM", "ABBREVIATIONS",
           "MARKER_NUMBERS", "TERM_MAX_WORDS", "is_term"]

# Words that end with a period without ending a sentence (lower case, without the final dot).
ABBREVIATIONS = frozenset(
    """e.g i.e eg ie vs approx appr mr mrs ms dr prof sr jr st no nos fig figs dept inc ltd co corp
    jan feb mar apr jun jul aug sep sept oct nov dec pp vol ref refs sec cf al ext tel rev ave a.m p.m
    min max est incl excl ca resp govt misc u.s u.k viz""".split()
)
LIST_ITEM = re.compile(r"^\s*(?:[-*+•‣◦▪]|\d{1,3}[.)]|[a-z][.)]|\(\w{1,3}\))\s+")
MARKER_NUMBERS = r"\d+(?:\s*[,;\-–]\s*\d+)*"  # what a citation marker holds: "1", "1, 2", "1-3"
_MARKERS = rf"(?:\s*\[{MARKER_NUMBERS}\])*"
# End punctuation, closing quotes/brackets, then citation markers that belong to the sentence.
_END = re.compile(r"[.!?…]+[\"'”’)\]]*" + _MARKERS)
_NEXT_START = re.compile(r"\s+[\"'“‘(\[*_]*([A-Z0-9À-Ý])")
# A name of code may open a sentence in lower case: an option ("-a selects …"), a camelCase, snake_case or
# called name ("xPhraseFirst works …", "epub_title defaults …", "load() returns …").
_NEXT_NAME = re.compile(r"\s+[\"'“‘(`]*(?:--?[A-Za-z]|[a-z][a-z0-9]*[A-Z]\w*|[a-z]\w*_\w|[a-z]\w*\(\))")
# What follows a synopsis' repetition mark: another placeholder ("[TARGET]", "<file>"), not a citation marker.
_PLACEHOLDER = re.compile(rf"\s+(?:<|\[(?!{MARKER_NUMBERS}\]))")
# A full stop right after a citation marker ("… -e [1]. -a selects …") ends the sentence it cites.
_AFTER_MARKER = re.compile(rf"\[{MARKER_NUMBERS}\]$")


# At most this many words before a colon make a definition's term ("SESSION_COOKIE_NAME: …"): the answer path
# shows a definition's later sentences with it in front, and the checker reads that form back as a quote.
TERM_MAX_WORDS = 8
# A verb or a subject says the words before a colon are a sentence leading in, not a name ("Paths in Rust have
# three namespaces: type, value, and macro", "You can use: …").
_CLAUSE_CUES = AUXILIARIES | frozenset("i you we they he she it there".split())


def is_term(text: str) -> bool:
    """The words before a colon name what follows (a definition's term, a field, a label): at most
    TERM_MAX_WORDS words and none of them a verb or a subject of a clause."""
    words = text.split()
    return 0 < len(words) <= TERM_MAX_WORDS and not any(w.lower() in _CLAUSE_CUES for w in words)


def code_block(lines: list[str]) -> str:
    """Lines as a code block: each non-blank one indented four spaces (what `is_code_block` reads back)."""
    return "\n".join("    " + line if line.strip() else "" for line in lines)


def is_code_block(paragraph: str) -> bool:
    """Every non-empty line indented four spaces: a code block, kept whole."""
    lines = [line for line in paragraph.split("\n") if line.strip()]
    return bool(lines) and all(line.startswith("    ") for line in lines)


def paragraphs(text: str) -> list[tuple[int, int]]:
    """Spans of blank-line separated paragraphs; a code block with blank lines inside stays one span
    (its indented paragraphs are joined), so no chunk or answer takes only its first lines."""
    spans: list[tuple[int, int]] = []
    start = 0
    for match in re.finditer(r"\n[ \t]*\n+", text):
        if text[start:match.start()].strip():
            spans.append((start, match.start()))
        start = match.end()
    if text[start:].strip():
        spans.append((start, len(text)))
    joined: list[tuple[int, int]] = []
    for span in (part for span in spans for part in _label_apart(text, span)):
        if joined and is_code_block(text[joined[-1][0]:joined[-1][1]]) and is_code_block(text[span[0]:span[1]]):
            joined[-1] = (joined[-1][0], span[1])
        else:
            joined.append(span)
    return joined


def _label_apart(text: str, span: tuple[int, int]) -> list[tuple[int, int]]:
    """A line over a code block with no blank line between ("Synopsis" over "    npm adduser", a section's
    name a merged chunk keeps over its code) is the code's label, a paragraph of its own: otherwise the
    code's first line would be read as the end of a sentence ("Synopsis npm adduser")."""
    start, end = span
    first_end = text.find("\n", start, end)
    if first_end < 0 or text[start:first_end].startswith((" ", "\t")) or not is_code_block(text[first_end + 1:end]):
        return [span]
    return [(start, first_end), (first_end + 1, end)]


_CONNECTORS = frozenset("a an the and or of to in on for with by from as at is are be that which than then "
                        "if when not nor but".split())


def _continues(previous: str, line: str) -> bool:
    """True when `line` carries on the sentence of `previous` (a wrapped line, not a new line)."""
    previous, line = previous.rstrip(), line.lstrip()
    if LIST_ITEM.match(line) or re.search(r"[.!?:;\"'”’)\]]$", previous):
        return False
    last_word = re.search(r"(\w+)\W*$", previous)
    if previous.endswith((",", "-", "–", "(")) or (last_word and last_word.group(1).lower() in _CONNECTORS):
        return True
    return not re.match(r"[\"'“‘(\[]*[A-Z0-9]", line)


def _items(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Lines of a paragraph grouped into items: a list item, or a line after a complete one, starts a
    new item; a wrapped line continues the previous item."""
    items: list[tuple[int, int]] = []
    pos = start
    previous = ""
    for line in text[start:end].split("\n"):
        line_end = pos + len(line)
        if line.strip():
            if not items or not _continues(previous, line):
                items.append((pos, line_end))
            else:
                items[-1] = (items[-1][0], line_end)
            previous = line
        pos = line_end + 1
    return items


def _is_abbreviation(text: str, dot: int, sentence_start: int) -> bool:
    """True when the period at `dot` closes an abbreviation, an initial or a leading list number."""
    head = text[sentence_start:dot]
    match = re.search(r"(\S+)$", head)
    if not match:
        return False
    word = match.group(1).lstrip("(\"'“‘[").lower()
    if word in ABBREVIATIONS or word.rstrip(".") in ABBREVIATIONS:
        return True
    if re.fullmatch(r"[a-z]|(?:[a-z]\.)+[a-z]", word):
        return True  # an initial ("J. Smith") or a dotted abbreviation ("U.S.")
    # "1. Install" at the start of an item or sentence is its number, not a sentence.
    return word.isdigit() and len(word) <= 3 and not text[sentence_start:dot - len(word)].strip(" -*+•\n")


def _split_item(text: str, start: int, end: int) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    cur = start
    for match in _END.finditer(text, start, end):
        stop = match.end()
        if stop < end and not text[stop].isspace():
            continue  # "3.5", "v2.3", "example.com", "e.g.Slack"
        nxt = _NEXT_START.match(text, stop, end) or _NEXT_NAME.match(text, stop, end) \
            or (text[match.start()] == "." and _AFTER_MARKER.search(text, cur, match.start()))
        if stop < end and text[stop:end].strip() and not nxt:
            continue  # the next word starts in lower case and names no code: not a new sentence
        punct = text[match.start()]
        if match.group(0).startswith(("..", "…")) and text[match.start() - 1:match.start()] in ("]", ">") \
                and _PLACEHOLDER.match(text, stop, end):
            continue  # a synopsis' repetition mark ("make [OPTION]... [TARGET]...", "<pkg>... [<pkg>]"): no full stop
        if punct == "." and match.group(0).startswith(".") and not match.group(0).startswith("..") \
                and _is_abbreviation(text, match.start(), cur):
            continue
        spans.append((cur, stop))
        cur = stop
    if text[cur:end].strip():
        spans.append((cur, end))
    return spans


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of sentences, list items and code blocks, whitespace trimmed."""
    out: list[tuple[int, int]] = []
    for p_start, p_end in paragraphs(text):
        code = is_code_block(text[p_start:p_end])
        if code:
            pieces = [(p_start, p_end)]
        else:
            pieces = [span for item in _items(text, p_start, p_end) for span in _split_item(text, *item)]
        for s, e in pieces:
            while s < e and text[s] in ("\n" if code else " \t\n"):
                s += 1
            while e > s and text[e - 1].isspace():
                e -= 1
            if s < e:
                out.append((s, e))
    return out


def split_sentences(text: str) -> list[str]:
    """Sentences, list items and code blocks of a text, in order (citation markers kept)."""
    return [text[s:e] for s, e in sentence_spans(text)]
