"""Converting picked files as a knowledge owner would: man pages to text with groff, reST to DOCX with pandoc."""

from __future__ import annotations

import gzip
import os
import subprocess
import tempfile
from pathlib import Path

from .core import CorpusError
from .sources import Pick

MAN_DATE_EPOCH = "1672531200"  # 2023-01-01, about when the pinned packages were built


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


def convert(pick: Pick, relative: str, data: bytes) -> tuple[str, bytes]:
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
