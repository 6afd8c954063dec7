"""The readable units of a passage the offline writer may quote: sentences, list items, table rows
(rendered with their headers) and code blocks, each with what it needs to stand on its own.

A definition ("ENV: What environment the app runs in. Default: 'production'") keeps its term on
every sentence, and a settings section's lines keep the setting's name ("maxsockets: Default: 15"); a list's
lead-in is known to its items; version notes, figure captions, headings
and fragments are marked so the writer never answers with them alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from textcore.injection import addresses_assistant
from textcore.sentences import LIST_ITEM, TERM_MAX_WORDS, is_code_block, is_term, paragraphs, sentence_spans
from textcore.tables import row_text, split_row

_TABLE_SEPARATOR = re.compile(r"^\|?\s*:?-{2,}")
_VERSION_NOTE = re.compile(r"^(?:new|added|changed|deprecated|removed)\s+(?:in|since)\s+(?:version\s+)?v?[\d.]+"
                           r"[.:]?\s*$", re.I)
_CAPTION = re.compile(r"^(?:figure|fig\.|table|listing|example)\s+[\dA-Z][\d.]*[:.]", re.I)
# "term: definition" as the parsers write definition lists, option lists and admonitions.
_TERM = re.compile(r"^(?P<term>[^:\n]{1,80}?):[ \t]+(?=\S)")
# The type note after an option's name ("sidebarwidth (int or str)"): left out when the name is repeated.
_TYPE_NOTE = re.compile(r"\s*\([^()]*\)\s*$")
_WORD = re.compile(r"[A-Za-z0-9]")


@dataclass
class Unit:
    """One quotable piece of a passage."""

    text: str  # as it would appear in an answer (a definition's term put back in front)
    kind: str  # sentence | item | row | code | lead
    paragraph: int
    position: int  # order within the passage
    term: str = ""  # the definition term this unit belongs to, if any
    quotable: bool = True  # False for version notes, captions, fragments: never an answer alone
    parts: tuple["Unit", ...] = ()  # for a window: the two adjacent units it joins


def _row_units(lines: list[str]) -> list[str]:
    """Table rows as "Header: value; Header: value" (the first row is the header)."""
    header: list[str] | None = None
    out = []
    for line in lines:
        stripped = line.strip()
        if _TABLE_SEPARATOR.match(stripped):
            continue
        cells = split_row(stripped)
        if header is None:
            header = cells
            continue
        out.append(row_text(header, cells))
    return out


def _quotable(text: str) -> bool:
    body = text.strip()
    if _VERSION_NOTE.match(body) or _CAPTION.match(body):
        return False
    if not re.search(r"[A-Za-z]", body):
        return False  # a number alone ("6.0", a version note's number left on its line) states nothing
    if len(_WORD.findall(body)) < 8 and not re.search(r"\d", body):
        return False  # a fragment too short to state anything ("Example:", "See also")
    if len(body.split()) < 3 and not re.search(r"\d", body):
        return False  # a caption or a stray code line ("docs/source/conf.py", "invoke(cli, args=...)")
    return True


# A line standing alone at the head of a paragraph, over a setting's fields, with nothing that ends a sentence:
# the heading of a small section the chunk took in ("maxsockets" over "- Default: 15", "beat_scheduler" over
# "Default: \"celery.beat:PersistentScheduler\".").
_BARE_LINE = re.compile(r"^[^\s.:;!?,][^.:;!?]*$")
# A setting's field on a line of its own ("Default: False", "- Type: Boolean"): short, and only readable with the
# name of the setting it belongs to.
_FIELD_NAMES = r"default(?: value)?|type|values?"
_FIELD = re.compile(rf"^(?:{_FIELD_NAMES})\s*:\s*\S", re.I)
_FIELD_NAME = re.compile(rf"^(?:{_FIELD_NAMES})$", re.I)
_DEFAULT = re.compile(r"^default(?: value)?\s*:\s*\S", re.I)


def _is_field(line: str) -> bool:
    """A setting's field line, as a list item or not ("- Default: 15", "Default: False")."""
    return bool(_FIELD.match(LIST_ITEM.sub("", line.strip(), count=1)))


def _section_heading(block: str) -> tuple[str, bool]:
    """The bare line that opens a paragraph (see _BARE_LINE), if it has one, and whether a setting's fields
    follow it. Only over fields is it read as a setting's name: over a sentence it may be a caption or a label."""
    lines = [line.strip() for line in block.strip().split("\n")]
    if len(lines) < 2 or not lines[1] or LIST_ITEM.match(lines[0]) or is_code_block(block):
        return "", False
    first = lines[0]
    if not _BARE_LINE.match(first) or len(first.split()) > TERM_MAX_WORDS:
        return "", False
    return first, _is_field(lines[1])


def _says(text: str, name: str) -> bool:
    """The text names the setting itself: as written ("DEBUG"), or, for a lower-case name, as a word in any case
    ("depth" in "The depth to go"); "debug mode" does not name DEBUG."""
    if name in text:
        return True
    return name.islower() and re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text, re.I) is not None


def units_of(text: str, heading: str = "") -> list[Unit]:
    """The units of a passage's text, in reading order. A section the chunk took in from the document (its
    heading a line of its own) names what its lines are about: they carry that heading as their term
    ("maxsockets: Default: 15"), up to the next such heading. So does the passage's own section (`heading`, the
    last part of its heading path) when its text opens with a setting's fields ("Default: False")."""
    units: list[Unit] = []
    opening = text.lstrip().split("\n", 1)[0]
    section = heading if heading and _is_field(opening) and len(heading.split()) <= TERM_MAX_WORDS else ""
    spans_of = paragraphs(text)
    for number, (start, end) in enumerate(spans_of):
        block = text[start:end]
        # A paragraph that stops without its end stop right before a list ("Celery version 5.2 runs on" then
        # "- Python 3.7, 3.8 …") is the list's lead-in, said without its colon.
        then = text[spans_of[number + 1][0]:spans_of[number + 1][1]] if number + 1 < len(spans_of) else ""
        open_lead = bool(LIST_ITEM.match(then.lstrip())) and not LIST_ITEM.match(block.strip())
        bare, over_fields = _section_heading(block)
        name_line = bare if over_fields else ""
        if bare:
            # "Configuration > install-strategy": the section's own name. Another bare line starts a section of
            # another kind, which the setting's name no longer covers.
            section = bare.split(" > ")[-1] if over_fields else ""
        if is_code_block(block):
            units.append(Unit(block.strip("\n"), "code", number, len(units), quotable=False))
            continue
        lines = [line for line in block.split("\n") if line.strip()]
        if lines and all(line.strip().startswith("|") for line in lines):
            for row in _row_units(lines):
                units.append(Unit(row, "row", number, len(units)))
            continue
        term_match = _TERM.match(block.strip())
        term = term_match.group("term").strip() if term_match else ""
        if not is_term(term) or LIST_ITEM.match(block.strip()):
            term = ""  # a sentence with a colon, or a list whose first item names its own term: no definition
        if name_line or (section and _is_field(block)):
            term = section  # a setting's fields belong to the setting, not to a term "Default"
        spans = sentence_spans(block)
        # A list item that defines its own term ("- sidebarwidth (int or str): Width of the sidebar …") owns
        # the sentences that follow it up to the next item ("Defaults to 230 pixels."), not the block's term.
        item_term = ""
        for index, (a, b) in enumerate(spans):
            raw = block[a:b].strip()
            item = bool(LIST_ITEM.match(raw))
            body = LIST_ITEM.sub("", raw, count=1).strip() if item else raw
            if item:
                own = _TERM.match(body)
                named = _TYPE_NOTE.sub("", own.group("term")).strip() if own else ""
                item_term = named if is_term(named) else ""
            if not body or addresses_assistant(body):
                continue  # an order to the assistant inside a document is data, never an answer
            unit_term = item_term or term
            shown = body
            if unit_term and index > 0 and not (item and item_term) and unit_term.lower() not in body.lower():
                shown = f"{unit_term}: {body}"  # a later sentence of a definition keeps its term
            if section and not (index == 0 and name_line) and not _says(shown, section) and (
                    not term or term == section or (item and item_term)):
                shown = f"{section}: {shown}"  # a line of a section the chunk took in keeps that section's name
                unit_term = unit_term if item and item_term else section
            if open_lead and index == len(spans) - 1 and not re.search(r"[.!?:;,)\]]$", body):
                body, shown = f"{body}:", f"{shown}:"
            kind = "lead" if body.endswith(":") else ("item" if item else "sentence")
            # "maxsockets: Default: 15" says whose default it is; "Default: None" alone (its "term" the field) does not.
            named = section or (unit_term if unit_term and not _FIELD_NAME.match(unit_term) else "")
            named_default = bool(named) and bool(_DEFAULT.match(body))
            quotable = (_quotable(body) or named_default) and kind != "lead" \
                and not (index == 0 and (name_line or (term and body.rstrip(":") == term)))
            units.append(Unit(shown, kind, number, len(units), term=unit_term, quotable=quotable))
    return units


def windows(units: list[Unit]) -> list[Unit]:
    """Two adjacent units of one paragraph (or a lead-in and the code it introduces) as one candidate:
    the asked fact often sits in the sentence after the one that names the subject ("MAX_COOKIE_SIZE:
    Warn if cookie headers are larger than this many bytes. Defaults to 4093.")."""
    out = []
    for first, second in zip(units, units[1:]):
        same_paragraph = first.paragraph == second.paragraph
        introduces_code = first.kind == "lead" and second.kind == "code" and second.paragraph == first.paragraph + 1
        if not (same_paragraph or introduces_code) or first.kind in ("code", "row") or second.kind == "row":
            continue
        if not (first.quotable or first.kind == "lead") or not (second.quotable or second.kind == "code"):
            continue
        text = f"{first.text}\n{second.text}" if second.kind == "code" else f"{first.text} {second.text}"
        out.append(Unit(text, "window", first.paragraph, first.position, term=first.term, quotable=True,
                        parts=(first, second)))
    return out
