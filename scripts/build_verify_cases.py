"""Build the planted-error verification cases from the faithful answers about the real corpus.

Input: fixtures/eval/real/verify/faithful-*.jsonl (faithful answers, many reworded, each carrying
the passages it cites) and fixtures/eval/real/manifest.json (the dev/test split, by document). Each
source gets its document's title as Verity's parser reads it (the answer path hands the checker that
title with every passage), so the cached corpus must be there (`python scripts/eval_corpus.py`).
Output: fixtures/eval/real/verify/{dev,test}.jsonl in the `verify-answers` case format plus
`faithful`, `corruption`, `doc`, `base` (the faithful case it came from) and `target` (the corrupted
sentence, markers stripped, so claim-level fitting knows which claim is wrong).

Every faithful answer is kept; each corruption type is planted into the answers where it applies, and
at most CAP_PER_TYPE cases of a type are kept per split (chosen by a hash of the id, not by the
checker). Distractor passages for wrong citations come from another document of the same split.
Deterministic: the same inputs give byte-identical files.

Run: python scripts/build_verify_cases.py
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from textcore.identifiers import identifiers  # noqa: E402
from textcore.titles import passage_context  # noqa: E402
from textcore.markers import MARKER_RE, parse_markers, strip_markers  # noqa: E402
from textcore.sentences import sentence_spans  # noqa: E402
from textcore.words import content_words, specificity  # noqa: E402

HERE = ROOT / "fixtures" / "eval" / "real"
OUT = HERE / "verify"
CAP_PER_TYPE = 80
TYPES = ("number", "entity_swap", "negation", "unsupported_addition", "wrong_citation", "fabricated_url",
         "out_of_range_citation")

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


def plant_entity_swap(base: Case) -> Case | None:
    answer = base["answer"]
    passage = " ".join(s["text"] for s in base["sources"])
    pool = _entities(passage)
    seed = _h(base["id"], "entity")
    for span in _claims(answer):
        body = answer[span[0]:_body_end(answer, span)]
        here = [e for e in _entities(body) if re.search(rf"(?<![\w-]){re.escape(e)}(?![\w-])", body)]
        # Swapped pairing: two names of one kind in one sentence trade places.
        for a in here:
            for b in here:
                if a < b and _kind(a) == _kind(b) and a not in b and b not in a and seed % 2 == 0:
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
    m = re.search(rf"(?<![\w-]){re.escape(e)}(?![\w-])", body)
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


def build(faithful: list[Case], split_of: dict[str, str]) -> dict[str, list[Case]]:
    """Faithful and planted cases per split."""
    out: dict[str, list[Case]] = {"dev": [], "test": []}
    by_split: dict[str, list[Case]] = {"dev": [], "test": []}
    for case in faithful:
        by_split[split_of[case["doc"]]].append(case)
    for split, cases in by_split.items():
        planted: dict[str, list[Case]] = {t: [] for t in TYPES}
        plants: dict[str, Callable[[Case], Case | None]] = {
            "number": plant_number, "entity_swap": plant_entity_swap, "negation": plant_negation,
            "unsupported_addition": lambda c: plant_addition(c, cases),
            "wrong_citation": lambda c: plant_wrong_citation(c, cases),
            "fabricated_url": plant_url, "out_of_range_citation": plant_out_of_range,
        }
        for case in cases:
            out[split].append({"id": case["id"], "base": case["id"], "doc": case["doc"], "question": case["question"],
                               "answer": case["answer"], "sources": case["sources"], "faithful": True,
                               "corruption": None, "reworded": bool(case.get("reworded"))})
            for kind, plant in plants.items():
                made = plant(case)
                if made is not None and made["answer"] != case["answer"]:
                    planted[kind].append(made)
        for kind in TYPES:
            chosen = sorted(planted[kind], key=lambda c: _h(c["id"], "cap"))[:CAP_PER_TYPE]
            out[split] += sorted(chosen, key=lambda c: c["id"])
    return out


_WORD = re.compile(r"\w+")


def in_parser_layout(text: str, parsed_text: str) -> str:
    """The stretch of the parser's text that holds the same words as `text`, with the parser's line breaks
    and punctuation ("DEBUG: Whether …\nDefault: False" where a copy had flattened it to "DEBUG Whether …
    Default: False"); `text` itself when its words are not found there in that order."""
    if text in parsed_text:
        return text
    want = [w.lower() for w in _WORD.findall(text)]
    if not want:
        return text
    spans = [(m.start(), m.end(), m.group(0).lower()) for m in _WORD.finditer(parsed_text)]
    have = [w for _, _, w in spans]
    for i in range(len(have) - len(want) + 1):
        if have[i] == want[0] and have[i : i + len(want)] == want:
            start, end = spans[i][0], spans[i + len(want) - 1][1]
            # Punctuation that opens or closes the copy ("-c --stdout", "… in memory.") stays with it.
            head = re.search(r"[^\w\s]*$", parsed_text[:start]).group(0)
            tail = re.match(r"[^\w\s]*", parsed_text[end:]).group(0)
            return parsed_text[start - len(head) : end + len(tail)]
    return text


def with_titles(faithful: list[Case], corpus: Path) -> None:
    """Give every source the context the answer path hands the checker with each passage: its document's
    title and its section's heading path ("Testing with Celery — pytest > Fixtures > celery_worker"), as
    Verity's parser reads them, and the parser's layout of its text (`in_parser_layout`), in place (each
    document parsed once)."""
    from knowledge.parsing import parse_file

    parsed: dict[str, Any] = {}
    for case in faithful:
        for source in case["sources"]:
            path, _, anchor = source["source"].partition("#")
            if path not in parsed:
                parsed[path] = parse_file((corpus / path).read_bytes(), path.rsplit("/", 1)[-1])
            doc = parsed[path]
            source["text"] = in_parser_layout(source["text"], "\n\n".join(b.text for b in doc.blocks))
            head = source["text"][:60]
            block = next((b for b in doc.blocks if b.anchor == anchor and head in b.text), None) or next(
                (b for b in doc.blocks if head in b.text), None)
            source["title"] = passage_context(doc.title, " > ".join(block.heading_path) if block else "")


def main() -> int:
    faithful = [json.loads(line) for path in sorted(OUT.glob("faithful-*.jsonl"))
                for line in path.read_text().splitlines() if line.strip()]
    sys.path.insert(0, str(ROOT / "scripts"))
    from evalcorpus.manifest import ensure_corpus

    with_titles(faithful, ensure_corpus())
    split_of = {f["path"]: f["split"] for f in json.loads((HERE / "manifest.json").read_text())["files"]}
    for split, cases in build(faithful, split_of).items():
        path = OUT / f"{split}.jsonl"
        path.write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases))
        counts: dict[str, int] = {}
        for c in cases:
            counts[c["corruption"] or "faithful"] = counts.get(c["corruption"] or "faithful", 0) + 1
        print(f"{path.relative_to(ROOT)}: {len(cases)} cases {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
