"""How an extractive answer reads: each unit with its [n] marker after every sentence, list items one per line,
code as a fenced block, a sentence that says "this flag" given its section's subject, and no lead-in left
dangling at the end."""

from __future__ import annotations

import dataclasses
import re
import textwrap

from knowledge.answering.extractive import Candidate
from knowledge.answering.passages import SourcePassage
from textcore.identifiers import identifiers
from textcore.sentences import split_sentences

# A lead-in too bare to say what follows: a few plain words ("Example:", "For example:", "Example usage:"), or
# a relative clause hanging on the sentence before ("Which will give:"). A file name ("flaskr/db.py:") or a
# sentence ("This is what the workflow looks like:") says what follows.
_BARE_LEAD_WORDS = 3
_PLAIN_WORD = re.compile(r"[A-Za-z]+\.?")


def bare_lead(lead: Candidate) -> bool:
    """A lead-in of a few plain words ("Example:") or a relative clause on the sentence before ("Which will give:")."""
    words = lead.text.rstrip(":").split()
    return bool(words) and (len(words) <= _BARE_LEAD_WORDS and all(_PLAIN_WORD.fullmatch(w) for w in words)
                            or words[0].lower() == "which")


# "this flag", "this pragma": a sentence that speaks of its section's subject without naming it.
_THIS_SUBJECT = re.compile(r"\bthis (?:flag|option|switch|setting|pragma|signal|lint|directive|attribute|command|"
                           r"function|method|variable|hook|event|parameter|argument|field|key)\b", re.I)


def _heading_subject(passage: SourcePassage, text: str) -> str:
    """The code or option the section holding text is about ("--crate-version : control the crate
    version", "PRAGMA table_info", "worker_process_init"), or "" when its heading names none."""
    probe = " ".join(text.split())[:60]
    for hit in passage.hits:
        at = " ".join(hit.text.split()).find(probe)
        if at < 0:
            continue
        # A chunk may hold small sections merged under one heading, each led by its own heading line:
        # the nearest such line before the sentence is its section's heading.
        label = hit.heading_text.split(" > ")[-1]
        start = 0  # where each paragraph starts in the space-folded text
        for paragraph in re.split(r"\n[ \t]*\n", hit.text):
            lines = paragraph.split("\n")
            first = lines[0]
            if start + len(" ".join(first.split())) > at:
                break  # this paragraph's first line is not before the sentence
            start += len(" ".join(paragraph.split())) + 1
            if (len(lines) > 1 and lines[1].strip() and first.strip() and not first[0].isspace()
                    and not re.search(r"[.!?:]$", first.strip()) and len(first.split()) <= 15):
                label = first.strip()
        named = [i.text for i in identifiers(label, quotes=False) if i.kind in ("code", "option")]
        return named[0] if named else ""
    return ""


def _named_subject(candidate: Candidate, said: str) -> Candidate:
    """A sentence that says "this flag" gets its section's subject as its term, unless the answer (or the
    sentence) already names it: "--crate-version: When rustdoc receives this flag, it prints ..."."""
    if candidate.unit.term or candidate.unit.kind == "code" or not _THIS_SUBJECT.search(candidate.text):
        return candidate
    subject = _heading_subject(candidate.passage, candidate.text)
    if not subject or subject.lower() in f"{said} {candidate.text}".lower():
        return candidate
    unit = dataclasses.replace(candidate.unit, text=f"{subject}: {candidate.text}")
    return dataclasses.replace(candidate, unit=unit)


def _without_a_dangling_lead(chosen: list[Candidate]) -> list[Candidate]:
    """A lead-in that ends the answer (its passage ends on it; its list or code is in the next chunk) promises
    what does not follow: bare ones ("Examples:") go, and one that states something ends as a sentence."""
    out = list(chosen)
    while len(out) > 1 and out[-1].unit.kind == "lead" and bare_lead(out[-1]):
        out.pop()
    if out and out[-1].unit.kind == "lead":
        text = out[-1].text.rstrip().removesuffix(":").rstrip() + "."
        out[-1] = dataclasses.replace(out[-1], unit=dataclasses.replace(out[-1].unit, text=text, kind="sentence"))
    return out


def render(chosen: list[Candidate]) -> str:
    """Units with their markers: sentences run on, list items one per line, code as a fenced block
    (cited by the sentence that introduces it)."""
    parts: list[str] = []
    previous_term = ""
    previous: Candidate | None = None
    for candidate in _without_a_dangling_lead(chosen):
        candidate = _named_subject(candidate, "".join(parts))
        kind = candidate.unit.kind
        term = candidate.unit.term
        if term and term == previous_term and candidate.text.startswith(f"{term}: "):
            # The same definition's next sentence: its term was just said.
            candidate = dataclasses.replace(candidate, unit=dataclasses.replace(candidate.unit,
                                                                             text=candidate.text[len(term) + 2:]))
        previous_term = term
        if kind == "code":
            parts.append("\n```\n" + textwrap.dedent(candidate.text).strip("\n") + "\n```\n")
            continue
        line = _with_marker(candidate)
        continuing = previous is not None and continues_item(previous, candidate)
        if kind == "item":
            parts.append("\n- " + line)
        elif continuing:
            parts.append(" " + line)  # the item's own next sentence stays on its line
        elif parts and (parts[-1].startswith("\n- ") or parts[-1].endswith("```\n")):
            parts.append("\n" + line)
        else:
            parts.append((" " if parts else "") + line)
        previous = candidate if kind == "item" or continuing else None
    return "".join(parts).strip()


def continues_item(item: Candidate, candidate: Candidate) -> bool:
    """A sentence right after a list item, in the same paragraph: the item's own next sentence ("- non-release
    builds will enable address sanitizer by default. Use the --disable-sanitizers option to turn them off.").
    `item` is a list item or a sentence already known to continue one."""
    return (candidate.unit.kind == "sentence" and item.unit.kind in ("item", "sentence")
            and candidate.passage.n == item.passage.n and candidate.unit.paragraph == item.unit.paragraph
            and candidate.position == item.position + 1)


# A definition whose term is a directive's own syntax (".. ifconfig::", Sphinx's directive reference):
# the term is code, quoted as code, not reST left in the prose.
# Anywhere in a sentence ("object descriptions (.. class::, .. function:: etc.)") it is quoted the same way.
_DIRECTIVE_TERM = re.compile(r"(?<![`\w])(\.\. [a-z][\w:-]*::)(?=[\s,;.)]|$)")


def _with_marker(candidate: Candidate) -> str:
    """The unit with its [n] marker after each of its sentences: a table row or list item may hold several
    ("Description: The remote branch to commit to. This overrides the config."), and every sentence of an
    answer is a claim that must name its source."""
    text = _DIRECTIVE_TERM.sub(r"`\1`", " ".join(candidate.text.split()))
    return " ".join(_marked(sentence, candidate.passage.n) for sentence in split_sentences(text) or [text])


def _marked(text: str, n: int) -> str:
    if text.endswith(":"):
        return f"{text[:-1].rstrip()} [{n}]:"
    end = text[-1] if text[-1] in ".!?" else "."
    body = text[:-1] if text[-1] in ".!?" else text
    return f"{body} [{n}]{end}"
