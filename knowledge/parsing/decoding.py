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


# East Asian legacy encodings, tried (strictly) after UTF-8 and before the Western fallbacks. A Western
# text almost never decodes strictly as one of these, and when it does the result is not mostly CJK.
_CJK_ENCODINGS = ("shift_jis", "euc_jp", "gb18030", "big5", "euc_kr")
_MIN_CJK_SHARE = 0.9


def _is_cjk(ch: str) -> bool:
    code = ord(ch)
    return (0x3000 <= code <= 0x30FF or 0x3400 <= code <= 0x4DBF or 0x4E00 <= code <= 0x9FFF
            or 0xAC00 <= code <= 0xD7AF or 0xFF00 <= code <= 0xFFEF or 0x1100 <= code <= 0x11FF)


def _mostly_cjk(text: str) -> bool:
    wide = [ch for ch in text if ord(ch) > 0x7F]
    return bool(wide) and sum(1 for ch in wide if _is_cjk(ch)) / len(wide) >= _MIN_CJK_SHARE


def _decode_strict(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    for encoding in _CJK_ENCODINGS:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        if _mostly_cjk(text) and not looks_binary(text):
            return text
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:
        return data.decode("latin-1")  # decodes any byte string


def decode_text(data: bytes, filename: str = "") -> str:
    """Decode bytes as UTF-8 (BOM-aware), then East Asian legacy encodings, then cp1252/latin-1; reject junk."""
    name = filename or "The file"
    text = _decode_utf16(data)
    if text is None:
        # NUL bytes essentially never occur in 8-bit text files; they mark binary content.
        if data.count(b"\x00") > max(0, int(len(data[:200_000]) * _MAX_NUL_RATIO)):
            raise IngestionError(
                f"{name} contains binary data, not text; check that you uploaded the right file "
                "and that its extension matches its format."
            )
        text = _decode_strict(data)
    assert text is not None  # latin-1 decodes any byte string
    if looks_binary(text):
        raise IngestionError(
            f"{name} looks like binary junk rather than text; check that you uploaded the right "
            "file and that its extension matches its format."
        )
    return text.replace("\r\n", "\n").replace("\r", "\n")
