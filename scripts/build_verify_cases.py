"""Build the planted-error verification cases from the faithful answers about the real corpus.

Input: fixtures/eval/real/verify/faithful-*.jsonl (faithful answers, many reworded, each carrying
the passages it cites) and fixtures/eval/real/manifest.json (the dev/test split, by document). Each
source gets its document's title as Verity's parser reads it (the answer path hands the checker that
title with every passage), so the cached corpus must be there (`python scripts/eval_corpus.py`).
Output: fixtures/eval/real/verify/{dev,test}.jsonl in the `verify-answers` case format plus
`faithful`, `corruption`, `doc`, `base` (the faithful case it came from) and `target` (the corrupted
sentence, markers stripped, so claim-level fitting knows which claim is wrong).

The test split is written once and then kept: which entities, numbers and words a case can have planted
depends on the text core's reading (textcore.identifiers), so a rebuild after a change there would plant other
errors into test answers and the test figures would stop being comparable. `--rebuild-test` rewrites it.

Every faithful answer is kept; each corruption type is planted (scripts/evalcorpus/plants.py) into the answers where it applies, and
at most CAP_PER_TYPE cases of a type are kept per split (chosen by a hash of the id, not by the
checker). Distractor passages for wrong citations come from another document of the same split.
Deterministic: the same inputs give byte-identical files.

Run: python scripts/build_verify_cases.py [--rebuild-test]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "scripts"))

from evalcorpus.plants import (  # noqa: E402
    Case, _h, plant_addition, plant_entity_swap, plant_negation, plant_number, plant_out_of_range, plant_url,
    plant_wrong_citation,
)
from textcore.titles import passage_context  # noqa: E402

HERE = ROOT / "fixtures" / "eval" / "real"
OUT = HERE / "verify"
CAP_PER_TYPE = 80
TYPES = ("number", "entity_swap", "negation", "unsupported_addition", "wrong_citation", "fabricated_url",
         "out_of_range_citation")


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

    parsed: dict[str, tuple[Any, str]] = {}  # path -> (parsed document, its blocks' text joined)
    for case in faithful:
        for source in case["sources"]:
            path, _, anchor = source["source"].partition("#")
            if path not in parsed:
                doc = parse_file((corpus / path).read_bytes(), path.rsplit("/", 1)[-1])
                parsed[path] = doc, "\n\n".join(b.text for b in doc.blocks)
            doc, full_text = parsed[path]
            source["text"] = in_parser_layout(source["text"], full_text)
            head = source["text"][:60]
            block = next((b for b in doc.blocks if b.anchor == anchor and head in b.text), None) or next(
                (b for b in doc.blocks if head in b.text), None)
            source["title"] = passage_context(doc.title, " > ".join(block.heading_path) if block else "")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rebuild-test", action="store_true",
                        help="also rewrite verify/test.jsonl (by default the test split stays as it is)")
    args = parser.parse_args()
    faithful = [json.loads(line) for path in sorted(OUT.glob("faithful-*.jsonl"))
                for line in path.read_text().splitlines() if line.strip()]
    from evalcorpus.manifest import ensure_corpus

    with_titles(faithful, ensure_corpus())
    split_of = {f["path"]: f["split"] for f in json.loads((HERE / "manifest.json").read_text())["files"]}
    for split, cases in build(faithful, split_of).items():
        path = OUT / f"{split}.jsonl"
        if split == "test" and path.exists() and not args.rebuild_test:
            print(f"{path.relative_to(ROOT)}: kept as it is (--rebuild-test rewrites it)")
            continue
        path.write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases))
        counts: dict[str, int] = {}
        for c in cases:
            counts[c["corruption"] or "faithful"] = counts.get(c["corruption"] or "faithful", 0) + 1
        print(f"{path.relative_to(ROOT)}: {len(cases)} cases {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
