"""Which documents of a collection supersede which: one document replaced by a newer one of its series.

Two kinds of evidence, the first winning where they disagree:
- an explicit statement, in the front matter (`supersedes:` / `superseded_by:`) or in the opening
  passages ("Supersedes: Remote Work Policy (2023)", "This version replaces the 2023 policy",
  "Superseded by …", "Status: Superseded (see the 2025 policy)"), naming another document of the
  same collection by its title or file name;
- a series: documents in one folder whose titles are the same once years and version numbers are
  left out ("Remote Work Policy (2023)" / "(2025)"), ordered by their effective date, else their
  updated date, else the year or version in the title. Each is superseded by the next one.

Nothing is stored: the relation is worked out from titles, metadata and opening passages when a
page shows it, so it follows every upload, replacement and deletion at once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import PurePosixPath

from knowledge.models import Chunk, Document
from textcore.words import STOPWORDS

# The opening passages where a document states what it replaces (header block, status line, preface).
LEAD_CHUNKS = 2
_LEAD_CHARS = 2000

_MONTHS = {name: i for i, name in enumerate(
    ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
     "november", "december"), start=1)}
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_DATE = re.compile(rf"(?P<iso>\d{{4}}-\d{{2}}-\d{{2}})|(?P<dmy>\d{{1,2}})\s+(?P<m1>{_MONTH})\s+(?P<y1>\d{{4}})|"
                   rf"(?P<m2>{_MONTH})\s+(?P<d2>\d{{1,2}}),?\s+(?P<y2>\d{{4}})|(?P<m3>{_MONTH})\s+(?P<y3>\d{{4}})", re.I)
_EFFECTIVE = re.compile(r"\beffective(?:\s+date)?\s*[:\-]?\s*(?:from\s+|on\s+|as\s+of\s+)?", re.I)
# Up to the end of the sentence (a period before a space or the end, not the one inside "1.4"), or the line.
_REF = r"(?:the\s+)?(?P<ref>[^\n]+?)(?=\.\s|\.$|\n|$)"
_NEWER_STATEMENTS = [re.compile(rf"\b(?:supersedes|replaces)\b\s*:?\s*{_REF}", re.I)]
_OLDER_STATEMENTS = [
    re.compile(r"\bsuperseded\b\s*[(:,\-–—]?\s*(?:see|by)\s+(?:the\s+)?(?P<ref>[^)\n]+?)(?=\)|\.\s|\.$|\n|$)", re.I),
    re.compile(rf"\b(?:replaced|superseded)\s+by\b\s*:?\s*{_REF}", re.I),
]
_TOKEN = re.compile(r"[a-z0-9]+")
_YEAR = re.compile(r"^(?:19|20)\d{2}$")
_VERSION = re.compile(r"\bv(?:ersion)?\s*(\d+(?:\.\d+)*)\b|\b(\d+\.\d+(?:\.\d+)*)\b", re.I)


@dataclass
class DocumentFacts:
    """What supersession is decided from: one document's title, file, metadata, dates and opening text."""

    id: int
    title: str
    source: str
    collection_id: int = 0
    metadata: dict = field(default_factory=dict)
    updated: date | None = None
    lead: str = ""


@dataclass
class Supersessions:
    """`newer[old_id] = new_id` and `older[new_id] = [old_id, …]` for the documents looked at."""

    newer: dict[int, int] = field(default_factory=dict)
    older: dict[int, list[int]] = field(default_factory=dict)

    def add(self, old: int, new: int) -> None:
        if old == new or old in self.newer:
            return
        self.newer[old] = new
        self.older.setdefault(new, []).append(old)


def parse_date(text: str) -> date | None:
    """The first date written in the text: 2025-03-01, 1 March 2025, March 1, 2025 or March 2025."""
    for match in _DATE.finditer(text or ""):
        try:
            if match["iso"]:
                return date.fromisoformat(match["iso"])
            if match["dmy"]:
                return date(int(match["y1"]), _month(match["m1"]), int(match["dmy"]))
            if match["m2"]:
                return date(int(match["y2"]), _month(match["m2"]), int(match["d2"]))
            return date(int(match["y3"]), _month(match["m3"]), 1)
        except (ValueError, KeyError):
            continue
    return None


def _month(word: str) -> int:
    prefix = word.lower().rstrip(".")[:3]
    return next(number for name, number in _MONTHS.items() if name.startswith(prefix))


def effective_date(facts: DocumentFacts) -> date | None:
    """The date the document says it takes effect (front matter, or an "Effective date:" line)."""
    for key in ("effective", "effective_date"):
        found = parse_date(str(facts.metadata.get(key, "")))
        if found:
            return found
    for match in _EFFECTIVE.finditer(facts.lead):
        found = _DATE.match(facts.lead, match.end())
        if found:
            return parse_date(found.group(0))
    return None


def statements(facts: DocumentFacts) -> tuple[list[str], list[str]]:
    """(what it says it supersedes, what it says supersedes it): references as written."""
    newer_than = [str(facts.metadata["supersedes"])] if facts.metadata.get("supersedes") else []
    older_than = [str(facts.metadata["superseded_by"])] if facts.metadata.get("superseded_by") else []
    lead = facts.lead[:_LEAD_CHARS]
    newer_than += [m["ref"] for pattern in _NEWER_STATEMENTS for m in pattern.finditer(lead)]
    older_than += [m["ref"] for pattern in _OLDER_STATEMENTS for m in pattern.finditer(lead)]
    return newer_than, older_than


def _tokens(text: str) -> set[str]:
    return {t for t in _TOKEN.findall(text.lower()) if t not in STOPWORDS}


def _name_tokens(facts: DocumentFacts) -> list[set[str]]:
    """The token sets a reference may name the document by: its title, and its file name."""
    stem = PurePosixPath(facts.source).stem
    return [names for names in (_tokens(facts.title), _tokens(stem)) if len(names) >= 2]


def resolve(reference: str, candidates: list[DocumentFacts], own_id: int) -> DocumentFacts | None:
    """The one other document the reference names (every word of its title or file name is in it)."""
    words = _tokens(reference)
    best: list[tuple[int, DocumentFacts]] = []
    for candidate in candidates:
        if candidate.id == own_id:
            continue
        matched = max((len(names) for names in _name_tokens(candidate) if names <= words), default=0)
        if matched:
            best.append((matched, candidate))
    best.sort(key=lambda pair: pair[0], reverse=True)
    if not best or (len(best) > 1 and best[0][0] == best[1][0]):
        return None  # nothing named, or two documents named equally well: no guess
    return best[0][1]


def series_key(facts: DocumentFacts) -> tuple[str, str]:
    """(folder, title without years and version numbers): documents of one series share it."""
    title = _VERSION.sub(" ", facts.title)
    words = [t for t in _TOKEN.findall(title.lower()) if not _YEAR.match(t) and t not in STOPWORDS]
    return str(PurePosixPath(facts.source).parent), " ".join(words)


def _title_order(facts: DocumentFacts) -> tuple:
    years = [int(t) for t in _TOKEN.findall(facts.title) if _YEAR.match(t)]
    versions = [tuple(int(p) for p in (m[1] or m[2]).split(".")) for m in _VERSION.finditer(facts.title)]
    return (max(years, default=0), max(versions, default=()))


def _order(facts: DocumentFacts) -> tuple | None:
    """When a document of a series came out: effective date, else updated date, else its title's year/version."""
    when = effective_date(facts) or facts.updated
    if when:
        return (when.toordinal(), _title_order(facts))
    titled = _title_order(facts)
    return (date(titled[0], 1, 1).toordinal(), titled) if titled[0] else ((0, titled) if titled[1] else None)


def detect(documents: list[DocumentFacts]) -> Supersessions:
    """Who supersedes whom among these documents (compared only within their own collection)."""
    found = Supersessions()
    by_collection: dict[int, list[DocumentFacts]] = {}
    for facts in documents:
        by_collection.setdefault(facts.collection_id, []).append(facts)
    for members in by_collection.values():
        explicit = _explicit(members)
        for old, new in explicit:
            found.add(old, new)
        involved = {i for pair in explicit for i in pair}
        for old, new in _series(members):
            if old not in involved and new not in involved:
                found.add(old, new)
    return found


def _explicit(members: list[DocumentFacts]) -> list[tuple[int, int]]:
    pairs: list[tuple[int, int]] = []
    for facts in members:
        newer_than, older_than = statements(facts)
        for reference in newer_than:
            target = resolve(reference, members, facts.id)
            if target is not None:
                pairs.append((target.id, facts.id))
        for reference in older_than:
            target = resolve(reference, members, facts.id)
            if target is not None:
                pairs.append((facts.id, target.id))
    claimed = set(pairs)
    # Two documents each claiming to replace the other cancel out rather than pick one.
    return list(dict.fromkeys(pair for pair in pairs if (pair[1], pair[0]) not in claimed))


def _series(members: list[DocumentFacts]) -> list[tuple[int, int]]:
    groups: dict[tuple[str, str], list[DocumentFacts]] = {}
    for facts in members:
        folder, key = series_key(facts)
        if key:
            groups.setdefault((folder, key), []).append(facts)
    pairs = []
    for group in groups.values():
        ordered = [(order, facts) for facts in group if (order := _order(facts)) is not None]
        if len(ordered) < 2 or len(ordered) != len(group):
            continue  # a member without a date or number: the order is unknown, so nothing is claimed
        ordered.sort(key=lambda pair: pair[0])
        for (before, old), (after, new) in zip(ordered, ordered[1:]):
            if before < after:
                pairs.append((old.id, new.id))
    return pairs


def in_collections(collection_ids) -> Supersessions:
    """Supersession among the documents of these collections, from their titles, metadata and openings."""
    ids = sorted(set(collection_ids))
    leads: dict[int, list[str]] = {}
    for document_id, text in (Chunk.objects.filter(collection_id__in=ids, order__lt=LEAD_CHUNKS)
                              .order_by("document_id", "order").values_list("document_id", "text")):
        leads.setdefault(document_id, []).append(text)
    rows = Document.objects.filter(collection_id__in=ids).values_list(
        "pk", "title", "source", "collection_id", "metadata", "document_date")
    return detect([DocumentFacts(id=pk, title=title or source, source=source, collection_id=collection,
                                 metadata=metadata if isinstance(metadata, dict) else {}, updated=updated,
                                 lead="\n\n".join(leads.get(pk, [])))
                   for pk, title, source, collection, metadata, updated in rows])
