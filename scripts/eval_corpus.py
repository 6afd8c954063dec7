#!/usr/bin/env python3
"""Fetch the real-documentation evaluation corpus: pinned packages, checksummed files, cached outside git.

    python scripts/eval_corpus.py              # fetch (or reuse) and check every file; print the corpus folder
    python scripts/eval_corpus.py --subset     # also print the folder of the small test subset `make test` uses
    python scripts/eval_corpus.py --write-manifest   # (maintainers) record checksums and the dev/test split

Every file is public documentation the project did not write, taken from Debian packages and the npm
registry at pinned versions (each download checked against its SHA-256) and from nowhere else. Some
files are converted on the way, as a knowledge owner would: man pages rendered to plain text with
groff, reST sources turned into DOCX with pandoc (from the `pypandoc-binary` wheel). The corpus is
written under $VERITY_EVAL_CACHE (default ~/.cache/verity/eval); `fixtures/eval/real/manifest.json`
pins the SHA-256 of every file and its split, so a changed file stops the run instead of silently
changing the evaluation.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# Run as a script or loaded by path (the real-corpus tests do), the package beside this file must import.
_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from evalcorpus.core import CorpusError, log  # noqa: E402
from evalcorpus.manifest import (  # noqa: E402,F401  (load_manifest, corpus_dir, verify: used by the tests)
    MANIFEST,
    corpus_dir,
    ensure_corpus,
    ensure_subset,
    load_manifest,
    verify,
    write_manifest,
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--subset", action="store_true", help="print the test-subset folder instead")
    parser.add_argument("--write-manifest", action="store_true")
    parser.add_argument("--subset-file", help="with --write-manifest: file listing the subset's paths")
    args = parser.parse_args()
    try:
        if args.write_manifest:
            keep = set(Path(args.subset_file).read_text().split()) if args.subset_file else {
                r["path"] for r in load_manifest()["files"] if r.get("subset")} if MANIFEST.exists() else set()
            write_manifest(keep)
            return 0
        corpus = ensure_corpus()
        print(ensure_subset(corpus, load_manifest()) if args.subset else corpus)
        return 0
    except CorpusError as exc:
        log(f"eval corpus: {exc}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
