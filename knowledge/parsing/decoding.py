"""Byte-to-text decoding for text-like uploads, with a binary-junk guard."""

from __future__ import annotations

from .base import IngestionError

__all__ = ["decode_text", "looks_binary"]

# Control characters other than tab/newline/carriage return/form feed are rare in real text.
_ALLOWED_CONTROLS = {"\t", "\n", "\r", "\f", "\v"}
_MAX_CONTROL_RATIO = 0.02
_MAX_NUL_RATIO = 0.001


def looks_binary(text: str) -> bool:
    """True when decoded text has too many control/replacement characters to be a document."""
    if not text:
        return False
    sample = text[:200_000]
    bad = sum(
        1
        for ch in sample
        if (ch < " " and ch not in _ALLOWED_CONTROLS) or "\x7f" <= ch <= "\x9f" or ch == "\ufffd"
    )
    return bad / len(sample) > _MAX_CONTROL_RATIO


def _decode_utf16(data: bytes) -> str | None:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            return None
    return None


def decode_text(data: bytes, filename: str = "") -> str:
    """Decode bytes as UTF-8 (BOM-aware) falling back to cp1252/latin-1; reject binary junk."""
    name = filename or "The file"
    text = _decode_utf16(data)
    if text is None:
        # NUL bytes essentially never occur in 8-bit text files; they mark binary content.
        if data.count(b"\x00") > max(0, int(len(data[:200_000]) * _MAX_NUL_RATIO)):
            raise IngestionError(
                f"{name} contains binary data, not text; check that you uploaded the right file "
                "and that its extension matches its format."
            )
        for encoding in ("utf-8-sig", "cp1252", "latin-1"):
            try:
                text = data.decode(encoding)
                break
            except UnicodeDecodeError:
                continue
    assert text is not None  # latin-1 decodes any byte string
    if looks_binary(text):
        raise IngestionError(
            f"{name} looks like binary junk rather than text; check that you uploaded the right "
            "file and that its extension matches its format."
        )
    return text.replace("\r\n", "\n").replace("\r", "\n")
