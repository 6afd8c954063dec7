"""Planting errors into faithful answers: one function per corruption type, each deterministic (every
choice is seeded by a hash of the case id). Used by scripts/build_verify_cases.py."""

from __future__ import annotations

import hashlib
import re
from typing import Any

from textcore.identifiers import identifiers
from textcore.markers import MARKER_RE, parse_markers, strip_markers
from textcore.sentences import sentence_spans
from textcore.words import content_words, specificity

Case = dict[str, Any]


def _h(*parts: Any) -> int:
    """A stable integer hash of parts (the seed of every choice)."""
    return int(hashlib.sha256("\x1f".join(map(str, parts)).encode()).hexdigest()[:12], 16)


def _claims(answer: str) -> list[tuple[int, int]]:
    """Spans of the answer's sentences that carry a citation marker (the checkable claims)."""
    return [(s, e) for s, e in sentence_spans(answer) if parse_markers(answer[s:e])]


def _body_end(answer: str, span: tuple[int, int]) -> int:
    """End of the sentence text before its end punctuation and markers."""
    s, e = span
    m = re.search(r"[.!?]?(?:\s*\[\d+(?:\s*[,;\-–]\s*\d+)*\])+\s*[.!?]?\s*$", answer[s:e])
    return s + m.start() if m else e


def _replace(answer: str, start: int, end: int, new: str) -> str:
    return answer[:start] + new + answer[end:]


def _case(base: Case, kind: str, answer: str, target_span: tuple[int, int], **extra: Any) -> Case:
    sources = extra.pop("sources", base["sources"])
    return {"id": f"{base['id']}-{kind}", "base": base["id"], "doc": base["doc"], "question": base["question"],
            "answer": answer, "sources": sources, "faithful": False, "corruption": kind,
            "target": strip_markers(answer[target_span[0]:target_span[1]]), **extra}


def _new_span(answer: str, start: int) -> tuple[int, int]:
    """The sentence span of the new answer that contains position start."""
    for s, e in sentence_spans(answer):
        if s <= start < e:
            return s, e
    return start, len(answer)


# ---- changed number / date / version ------------------------------------------------------------
_NUMBER = re.compile(r"(?<![\w.\-/#])(\d+(?:\.\d+)*)(?![\w]|\.\d)")
_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
_WORD_NUMBER = re.compile(r"\b(" + "|".join(_WORDS[1:]) + r")\b", re.I)


def _changed(value: str, seed: int) -> str:
    parts = value.split(".")
    last = int(parts[-1])
    if len(parts) == 1 and 1900 <= last <= 2100:
        step = 1 + seed % 3
    elif len(parts) == 1 and last >= 10:
        step = max(1, last // (2 + seed % 3))
    else:
        step = 1 + seed % 2
    new = last - step if seed % 4 == 0 and last - step >= 0 else last + step
    return ".".join(parts[:-1] + [str(new)])


def plant_number(base: Case) -> Case | None:
    answer = base["answer"]
    options = []
    for span in _claims(answer):
        # Citation markers inside the sentence ("[1][1]") are not facts: changing one is a citation case.
        body = MARKER_RE.sub(lambda m: " " * len(m.group(0)), answer[span[0]:_body_end(answer, span)])
        options += [(span, m, "digit") for m in _NUMBER.finditer(body)]
        options += [(span, m, "word") for m in _WORD_NUMBER.finditer(body)]
    if not options:
        return None
    span, m, kind = options[_h(base["id"], "number") % len(options)]
    start, end = span[0] + m.start(1), span[0] + m.end(1)
    if kind == "digit":
        new = _changed(m.group(1), _h(base["id"], "step"))
    else:
        i = _WORDS.index(m.group(1).lower())
        new = _WORDS[i + 1 if i + 1 < len(_WORDS) else i - 1]
        new = new.capitalize() if m.group(1)[0].isupper() else new
    out = _replace(answer, start, end, new)
    return _case(base, "number", out, _new_span(out, start), planted=f"{m.group(1)} -> {new}")


# ---- entity swap --------------------------------------------------------------------------------
_NAME = re.compile(r"(?<=[a-z,;:] )[A-Z][a-z]+[A-Za-z]*(?: [A-Z][A-Za-z]+)*")


def _entities(text: str) -> list[str]:
    """Names a passage or claim holds: codes, options, acronyms, quoted strings, capitalised names."""
    out = [i.text for i in identifiers(text) if i.kind in ("code", "option", "acronym", "backtick", "quote")
           and len(i.text) <= 40]
    # A capitalised word is a name only when it is not an everyday English word ("Remove", "Note").
    out += [m.group(0) for m in _NAME.finditer(text) if " " in m.group(0) or specificity(m.group(0)) >= 0.5]
    return list(dict.fromkeys(e for e in out if len(e) >= 2))


def _kind(entity: str) -> str:
    if entity.startswith("-"):
        return "option"
    if re.fullmatch(r"[A-Z][A-Z0-9_]+", entity):
        return "upper"
    if re.search(r"[_.()]|[a-z][A-Z]", entity):
        return "code"
    return "name" if entity[0].isupper() else "other"


def _bounded(entity: str) -> str:
    """A pattern for the entity as a whole word or code (not inside a longer one)."""
    return rf"(?<![\w-]){re.escape(entity)}(?![\w-])"


# What may stand between two names listed side by side: quotes, emphasis, a comma, "and", "or", a slash, or nothing.
_LIST_JOIN = r"""[\s"'`“”‘’*]*(?:,?\s*(?:and|or)|,|/)?[\s"'`“”‘’*]*"""


def _listed_together(body: str, a: str, b: str) -> bool:
    """Two names side by side, in a list ("'false' and 'true'", "A, B", "A/B") or in one phrase ("DROP VIEW",
    "REST API"): trading their places reorders the list, and the answer still says what it said, or garbles
    one phrase, which is no swapped pairing of two things the passage names."""
    return any(re.search(_bounded(x) + _LIST_JOIN + _bounded(y), body) for x, y in ((a, b), (b, a)))


def plant_entity_swap(base: Case) -> Case | None:
    answer = base["answer"]
    passage = " ".join(s["text"] for s in base["sources"])
    pool = _entities(passage)
    seed = _h(base["id"], "entity")
    for span in _claims(answer):
        body = answer[span[0]:_body_end(answer, span)]
        here = [e for e in _entities(body) if re.search(_bounded(e), body)]
        # Swapped pairing: two names of one kind in one sentence trade places.
        for a in here:
            for b in here:
                if (a < b and _kind(a) == _kind(b) and a not in b and b not in a and seed % 2 == 0
                        and not _listed_together(body, a, b)):
                    swapped = re.sub(rf"(?<![\w-])({re.escape(a)}|{re.escape(b)})(?![\w-])",
                                     lambda m: b if m.group(0) == a else a, body)
                    out = _replace(answer, span[0], span[0] + len(body), swapped)
                    return _case(base, "entity_swap", out, _new_span(out, span[0]), planted=f"{a} <-> {b}")
    options = []
    for span in _claims(answer):
        body = answer[span[0]:_body_end(answer, span)]
        for e in _entities(body):
            rivals = [r for r in pool if r != e and _kind(r) == _kind(e) and r.lower() not in body.lower()
                      and e.lower() not in r.lower() and r.lower() not in e.lower()]
            if rivals:
                options.append((span, e, rivals))
    if not options:
        return None
    span, e, rivals = options[seed % len(options)]
    rival = rivals[_h(base["id"], e) % len(rivals)]
    body = answer[span[0]:_body_end(answer, span)]
    m = re.search(_bounded(e), body)
    if not m:
        return None
    out = _replace(answer, span[0] + m.start(), span[0] + m.end(), rival)
    return _case(base, "entity_swap", out, _new_span(out, span[0]), planted=f"{e} -> {rival}")


# ---- negation / antonym -------------------------------------------------------------------------
_ANTONYMS = [("enabled", "disabled"), ("enable", "disable"), ("enables", "disables"), ("true", "false"),
             ("before", "after"), ("minimum", "maximum"), ("increase", "decrease"), ("increases", "decreases"),
             ("always", "never"), ("required", "optional"), ("first", "last"), ("start", "stop"),
             ("allowed", "forbidden"), ("allows", "forbids"), ("faster", "slower"), ("larger", "smaller"),
             ("more", "fewer"), ("higher", "lower"), ("include", "exclude"), ("includes", "excludes"),
             ("inside", "outside"), ("automatically", "manually"), ("visible", "hidden"), ("open", "closed"),
             ("add", "remove"), ("adds", "removes"), ("added", "removed"), ("read", "write"),
             ("input", "output"), ("local", "remote"), ("public", "private"), ("safe", "unsafe"),
             ("success", "failure"), ("succeeds", "fails"), ("ignored", "used"), ("supported", "unsupported"),
             ("synchronous", "asynchronous"), ("absolute", "relative"), ("upper", "lower"), ("on", "off")]
_ANTONYM = {a: b for x, y in _ANTONYMS for a, b in ((x, y), (y, x))}
_AUX = re.compile(r"\b(is|are|was|were|can|must|should|will|does|do|may|has|have)\b(?! not\b| no\b|n't)")
_NEGATED = re.compile(r"\b(is|are|was|were|can|must|should|will|does|do|may) not\b|\b(cannot|doesn't|don't|isn't|"
                      r"aren't|won't|never)\b")
_UNNEGATE = {"cannot": "can", "doesn't": "does", "don't": "do", "isn't": "is", "aren't": "are", "won't": "will",
             "never": "always"}


def plant_negation(base: Case) -> Case | None:
    answer = base["answer"]
    options = []
    for span in _claims(answer):
        body = answer[span[0]:_body_end(answer, span)]
        options += [(span, m.start(), m.end(), m.group(0)[: -len(" not")] if m.group(1) else
                     _UNNEGATE[m.group(2)], "un-negate") for m in _NEGATED.finditer(body)]
        options += [(span, m.start(), m.end(), m.group(1) + " not", "negate") for m in _AUX.finditer(body)]
        for m in re.finditer(r"\b[a-z]+\b", body):
            if m.group(0) in _ANTONYM and m.group(0) not in ("on", "off", "read", "more", "open"):
                options.append((span, m.start(), m.end(), _ANTONYM[m.group(0)], "antonym"))
    if not options:
        return None
    # Antonyms and removed negations first when there are any (harder than an inserted "not").
    strong = [o for o in options if o[4] != "negate"]
    seed = _h(base["id"], "negation")
    pick = strong if strong and seed % 3 else options
    span, s, e, new, how = pick[seed % len(pick)]
    old = answer[span[0] + s:span[0] + e]
    out = _replace(answer, span[0] + s, span[0] + e, new)
    return _case(base, "negation", out, _new_span(out, span[0]), planted=f"{how}: {old} -> {new}")


# ---- unsupported addition -----------------------------------------------------------------------
def plant_addition(base: Case, donors: list[Case]) -> Case | None:
    """A fact from another document's answer, added to this answer under one of its own citations."""
    answer = base["answer"]
    claims = _claims(answer)
    if not claims:
        return None
    seed = _h(base["id"], "addition")
    same_pkg = [d for d in donors if d["doc"].split("/")[0] == base["doc"].split("/")[0] and d["doc"] != base["doc"]]
    pool = same_pkg or [d for d in donors if d["doc"] != base["doc"]]
    own = set(content_words(" ".join(s["text"] for s in base["sources"])))
    for attempt in range(6):
        donor = pool[_h(seed, attempt) % len(pool)]
        spans = _claims(donor["answer"])
        if not spans:
            continue
        ds, de = spans[_h(seed, attempt, "s") % len(spans)]
        fact = strip_markers(donor["answer"][ds:_body_end(donor["answer"], (ds, de))]).rstrip(".!? ")
        novel = [w for w in set(content_words(fact)) if w not in own]
        if len(novel) < 2 or len(fact) > 220:
            continue
        span = claims[seed % len(claims)]
        n = parse_markers(answer[span[0]:span[1]])[0]
        if seed % 2:  # a whole new sentence after the claim, citing the same source
            insert = f" {fact[0].upper()}{fact[1:]} [{n}]."
            out = answer[:span[1]] + insert + answer[span[1]:]
            return _case(base, "unsupported_addition", out, _new_span(out, span[1] + 1), donor=donor["id"])
        end = _body_end(answer, span)  # a clause joined to the claim
        joined = f", and {fact[0].lower() if not fact[:2].isupper() else fact[0]}{fact[1:]}"
        out = answer[:end] + joined + answer[end:]
        return _case(base, "unsupported_addition", out, _new_span(out, span[0]), donor=donor["id"])
    return None


# ---- wrong citation -----------------------------------------------------------------------------
def _coverage(claim: str, text: str) -> float:
    words = set(content_words(claim))
    return len(words & set(content_words(text))) / len(words) if words else 1.0


def plant_wrong_citation(base: Case, donors: list[Case]) -> Case | None:
    """One claim's marker pointed at a passage that does not hold it (another cited one or a distractor)."""
    answer = base["answer"]
    claims = _claims(answer)
    if not claims:
        return None
    seed = _h(base["id"], "wrong")
    sources = [dict(s) for s in base["sources"]]
    span = claims[seed % len(claims)]
    cited = parse_markers(answer[span[0]:span[1]])
    claim = strip_markers(answer[span[0]:span[1]])
    others = [s for s in sources if s["n"] not in cited and _coverage(claim, s["text"]) < 0.5]
    if not others:
        pool = [d for d in donors if d["doc"] != base["doc"]]
        same_pkg = [d for d in pool if d["doc"].split("/")[0] == base["doc"].split("/")[0]] or pool
        donor = same_pkg[seed % len(same_pkg)]
        extra = dict(donor["sources"][0])
        extra["n"] = len(sources) + 1
        if _coverage(claim, extra["text"]) >= 0.5:
            return None
        sources.append(extra)
        others = [extra]
    target = others[_h(seed, "t") % len(others)]["n"]
    seg = answer[span[0]:span[1]]
    new_seg = MARKER_RE.sub(lambda m: f"[{target}]", seg, count=1)
    new_seg = re.sub(r"(\[\d+\])(?:\s*\[\d+(?:\s*[,;\-–]\s*\d+)*\])+", r"\1", new_seg)
    out = _replace(answer, span[0], span[1], new_seg)
    return _case(base, "wrong_citation", out, (span[0], span[0] + len(new_seg)), sources=sources,
                 planted=f"{cited} -> [{target}]")


# ---- fabricated URL -----------------------------------------------------------------------------
_HOSTS = {"flask": "flask.palletsprojects.com/en/2.2.x", "requests": "requests.readthedocs.io/en/latest",
          "sphinx": "www.sphinx-doc.org/en/master", "celery": "docs.celeryq.dev/en/stable",
          "click": "click.palletsprojects.com/en/8.1.x", "mkdocs": "www.mkdocs.org", "rust": "doc.rust-lang.org",
          "gimp": "docs.gimp.org/2.10/en", "nut": "networkupstools.org/docs", "i3": "i3wm.org/docs",
          "bash": "www.gnu.org/software/bash/manual", "sqlite": "www.sqlite.org", "go": "go.dev/doc",
          "graphviz": "graphviz.org/docs", "npm": "docs.npmjs.com/cli/v10", "man": "man7.org/linux/man-pages"}


def plant_url(base: Case) -> Case | None:
    answer = base["answer"]
    claims = _claims(answer)
    if not claims:
        return None
    seed = _h(base["id"], "url")
    span = claims[seed % len(claims)]
    words = [w for w in content_words(answer[span[0]:span[1]]) if len(w) > 3][:3] or ["guide"]
    host = _HOSTS.get(base["doc"].split("/")[0], "docs.example.org")
    url = f"https://{host}/{'-'.join(words)}{'.html' if seed % 2 else '/'}"
    end = _body_end(answer, span)
    insert = f" (see {url})" if seed % 3 else f"; details are at {url}"
    out = answer[:end] + insert + answer[end:]
    return _case(base, "fabricated_url", out, _new_span(out, span[0]), planted=url)


# ---- out-of-range citation ----------------------------------------------------------------------
def plant_out_of_range(base: Case) -> Case | None:
    answer = base["answer"]
    markers = list(MARKER_RE.finditer(answer))
    if not markers:
        return None
    seed = _h(base["id"], "range")
    m = markers[seed % len(markers)]
    bad = len(base["sources"]) + 1 + seed % 3
    out = _replace(answer, m.start(), m.end(), f"[{bad}]")
    return _case(base, "out_of_range_citation", out, _new_span(out, m.start()), planted=f"[{bad}]")
