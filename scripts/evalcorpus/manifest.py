"""The manifest that pins every file: checking a corpus against it, (re)building and subsetting, writing it."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from .build import assign_splits, build, package_pins
from .core import CorpusError, cache_root, log, sha256

ROOT = Path(__file__).resolve().parent.parent.parent
MANIFEST = ROOT / "fixtures" / "eval" / "real" / "manifest.json"


def corpus_dir(manifest: dict) -> Path:
    return cache_root() / f"corpus-{manifest['version']}"


def load_manifest() -> dict:
    if not MANIFEST.exists():
        raise CorpusError(f"{MANIFEST} is missing; run with --write-manifest")
    return json.loads(MANIFEST.read_text())


def verify(corpus: Path, manifest: dict) -> list[str]:
    """Files that are missing or differ from the manifest."""
    problems = []
    for record in manifest["files"]:
        target = corpus / record["path"]
        if not target.exists():
            problems.append(f"{record['path']}: missing")
        elif sha256(target.read_bytes()) != record["sha256"]:
            problems.append(f"{record['path']}: checksum differs")
    return problems


def ensure_corpus() -> Path:
    """The checked corpus folder, built when missing or different."""
    manifest = load_manifest()
    corpus = corpus_dir(manifest)
    if corpus.exists() and not verify(corpus, manifest):
        return corpus
    log(f"Building the evaluation corpus in {corpus} …")
    staging = corpus.with_name(corpus.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    build(staging, manifest)
    problems = verify(staging, manifest)
    if problems:
        shown = "; ".join(problems[:5])
        raise CorpusError(f"{len(problems)} file(s) differ from {MANIFEST.name}: {shown}")
    extra = {str(p.relative_to(staging)) for p in staging.rglob("*") if p.is_file()} - {
        r["path"] for r in manifest["files"]}
    for path in extra:
        (staging / path).unlink()
    shutil.rmtree(corpus, ignore_errors=True)
    staging.rename(corpus)
    return corpus


def ensure_subset(corpus: Path, manifest: dict) -> Path:
    """A folder holding only the documents of the fixed test subset (what `make test` ingests)."""
    subset = corpus.with_name(corpus.name + "-subset")
    wanted = [r for r in manifest["files"] if r.get("subset")]
    if subset.exists() and not verify(subset, {"files": wanted}):
        present = {str(p.relative_to(subset)) for p in subset.rglob("*") if p.is_file()}
        if present == {r["path"] for r in wanted}:
            return subset
    shutil.rmtree(subset, ignore_errors=True)
    for record in wanted:
        target = subset / record["path"]
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(corpus / record["path"], target)
    return subset


def write_manifest(subset_paths: set[str]) -> None:
    """(Maintainers) build from the pinned packages and record checksums and the split."""
    previous = json.loads(MANIFEST.read_text()) if MANIFEST.exists() else {}
    version = int(previous.get("version", 0)) + 1
    with tempfile.TemporaryDirectory() as tmp:
        records = build(Path(tmp), None)
    old_splits = {r["path"]: r["split"] for r in previous.get("files", [])}
    assign_splits(records)
    for record in records:
        # A document keeps its split once assigned: moving it would leak test questions into dev.
        record["split"] = old_splits.get(record["path"], record["split"])
        record["subset"] = record["path"] in subset_paths
    manifest = {"version": version, "packages": package_pins(), "files": records}
    MANIFEST.parent.mkdir(parents=True, exist_ok=True)
    MANIFEST.write_text(json.dumps(manifest, indent=1) + "\n")
    log(f"wrote {MANIFEST} (version {version}, {len(records)} files)")
