#!/usr/bin/env python3
"""Split the real-documentation questions into dev and test by document (see fixtures/eval/real/README.md).

    python scripts/build_eval_splits.py

Reads fixtures/eval/real/questions/*.jsonl and the manifest; writes dev.jsonl, test.jsonl and
test-subset.jsonl (the test questions whose documents are all in the `make test` subset) next to
them. A question's split is that of its expected documents (or its near miss's topic document, and the
documents found to answer it after all, `answered_in`); an out-of-scope question is placed by a hash
of its id. A question whose documents sit in both splits is dropped with a warning (it would leak one
into the other).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

REAL = Path(__file__).resolve().parent.parent / "fixtures" / "eval" / "real"


def split_of(item: dict, splits: dict[str, str]) -> str | None:
    docs = {source.split("#", 1)[0] for source in item.get("expected_sources") or []}
    if not docs and item.get("topic_source"):
        docs = {item["topic_source"].split("#", 1)[0]}
    if not docs:
        return "test" if int(hashlib.sha1(item["id"].encode()).hexdigest(), 16) % 2 else "dev"
    # A near miss written from one document may be answered by another one (`answered_in`): it belongs to
    # both documents' splits, so one in the other split leaves it out, as a question spanning both would be.
    docs |= {source.split("#", 1)[0] for source in item.get("answered_in") or []}
    found = {splits.get(doc) for doc in docs}
    if None in found:
        raise SystemExit(f"{item['id']}: unknown document in {sorted(docs)}")
    return found.pop() if len(found) == 1 else None


def main() -> int:
    manifest = json.loads((REAL / "manifest.json").read_text())
    splits = {record["path"]: record["split"] for record in manifest["files"]}
    subset = {record["path"] for record in manifest["files"] if record.get("subset")}
    out: dict[str, list[dict]] = {"dev": [], "test": [], "test-subset": []}
    for path in sorted((REAL / "questions").glob("*.jsonl")):
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if not line.strip():
                continue
            item = json.loads(line)
            split = split_of(item, splits)
            if split is None:
                print(f"{path.name}:{number}: {item['id']} spans both splits; left out", file=sys.stderr)
                continue
            out[split].append(item)
            docs = {s.split("#", 1)[0] for s in item.get("expected_sources") or []} or (
                {item["topic_source"].split("#", 1)[0]} if item.get("topic_source") else set())
            in_subset = docs <= subset if docs else int(hashlib.sha1(item["id"].encode()).hexdigest(), 16) % 3 == 0
            if split == "test" and in_subset:
                out["test-subset"].append(item)
    for name, items in out.items():
        (REAL / f"{name}.jsonl").write_text("".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items))
        answerable = sum(1 for item in items if item.get("answerable"))
        print(f"{name}: {len(items)} questions ({answerable} answerable, {len(items) - answerable} unanswerable)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
