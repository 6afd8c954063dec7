"""Reading PDF pages: lines with font size and weight from pypdfium2, ruled tables from pdfplumber,
and second-opinion text from pdfplumber or pypdf when pdfium loses the spaces between words."""

from __future__ import annotations

import ctypes
import io
import logging
import re
from dataclasses import dataclass

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw

from .base import IngestionError

log = logging.getLogger(__name__)

_LONG_RUN = re.compile(r"[^\W\d_]+")


@dataclass
class _Line:
    text: str
    top: float | None = None
    size: float | None = None  # median font size of the line's characters, when known
    bold: bool = False
    mono: bool = False  # set in a monospaced font: a line of code


# Monospaced fonts as PDFs name them (Courier, Nimbus Mono, DejaVu Sans Mono, TeX's typewriter cmtt/lmtt,
# Inconsolata, Consolas, Menlo); the font flags' fixed-pitch bit is seldom set by the programs that make PDFs.
_MONO_FONT = re.compile(r"mono|nimbusmon|courier|typewriter|consol|menlo|inconsolata|(?:^|[+_-])(?:cm|lm|sf|ec|tx)tt", re.I)
# Share of a line's characters that must be monospaced: a word of code inside a sentence does not make code.
_MONO_SHARE = 0.8


# Bold fonts as PDFs name them ("Times-Bold", "NimbusSanL-Bold", Nimbus Roman's "NimbusRomNo9L-Medi"). The
# weight pdfium reports is often missing (0, -1) or wrong (Times-Roman at 695), so a named font decides.
_BOLD_FONT = re.compile(r"bold|black|heavy|demi|-medi(?:um)?(?:\b|ital|_)", re.I)


def _bold(fonts: list[str], weights: list[int]) -> bool:
    """Most of a line's characters are bold: by font name where the font is named, else by weight."""
    votes = [bool(_BOLD_FONT.search(f)) if f else w >= 600 for f, w in zip(fonts, weights)]
    return sum(votes) > len(votes) / 2


def _mono(fonts: list[str]) -> bool:
    return bool(fonts) and sum(1 for f in fonts if _MONO_FONT.search(f)) >= _MONO_SHARE * len(fonts)


def _open_pdfium(data: bytes, filename: str) -> pdfium.PdfDocument:
    try:
        return pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        reason = str(exc).lower()
        if "password" in reason or "security" in reason:
            raise IngestionError(
                f"{filename} is password-protected; upload an unencrypted copy "
                "(for example, print it to a new PDF without a password)."
            ) from exc
        raise IngestionError(
            f"{filename} is damaged or not a valid PDF and could not be opened; "
            "re-export or re-download it and upload again."
        ) from exc


def _lost_spaces(text: str) -> bool:
    """True when many 'words' are suspiciously long letter runs (the extractor lost the spaces)."""
    tokens = _LONG_RUN.findall(text)
    if len(tokens) < 5:
        return False
    long_tokens = sum(1 for t in tokens if len(t) >= 20)
    return long_tokens / len(tokens) > 0.3


# pdfplumber joins characters closer than x_tolerance (3 pt) into one word: on tightly set pages (LaTeX
# manuals) that glues whole lines ("Theversionnumbersworklikethis"). There the gap is measured against
# the font size instead.
_TIGHT = {"x_tolerance_ratio": 0.15}
_GLUED_RUN = 18  # letters: longer runs are words run together ("heightandwidthininches"), bar a few real ones


def _glued(text: str) -> bool:
    """True when more than 2 % of the letter runs, and three different ones at least, are long enough to be
    words run together (a long real word, however often repeated, counts once)."""
    tokens = _LONG_RUN.findall(text)
    long = [t for t in tokens if len(t) >= _GLUED_RUN]
    return len(set(long)) >= 3 and len(long) / len(tokens) > 0.02


def word_gaps(plumber_page) -> dict:
    """pdfplumber's extraction settings for this page: its defaults, or a gap relative to the font size
    when the defaults run words together."""
    try:
        return _TIGHT if _glued(plumber_page.extract_text() or "") else {}
    except Exception:  # noqa: BLE001 - a page pdfplumber cannot read keeps its defaults
        return {}


def _fallback_page_text(data: bytes, index: int, plumber_pdf) -> str:
    """Second-opinion extraction for one page: pdfplumber, then pypdf."""
    if plumber_pdf is not None:
        try:
            page = plumber_pdf.pages[index]
            text = page.extract_text(**word_gaps(page)) or ""
            if text.strip() and not _lost_spaces(text):
                return text
        except Exception:  # noqa: BLE001 - fallback extractor; any failure means "try the next one"
            log.debug("pdfplumber fallback failed on page %s", index + 1, exc_info=True)
    try:
        import pypdf

        reader = pypdf.PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            reader.decrypt("")
        return reader.pages[index].extract_text() or ""
    except Exception:  # noqa: BLE001
        log.debug("pypdf fallback failed on page %s", index + 1, exc_info=True)
        return ""


def _pdfium_lines(textpage: pdfium.PdfTextPage) -> list[_Line]:
    """Lines of a page with their font size and weight (pdfium reports these per character)."""
    text = textpage.get_text_range()
    with_fonts = len(text) == textpage.count_chars()  # offsets only line up without surrogates
    name, flags = ctypes.create_string_buffer(128), ctypes.c_int(0)
    lines: list[_Line] = []
    for match in re.finditer(r"([^\r\n]*)(\r\n|\r|\n|$)", text):
        if match.start() == match.end():
            break  # end of text
        line = match.group(1)
        size, bold, mono = None, False, False
        if with_fonts and line.strip():
            sizes, weights, fonts = [], [], []
            for i in range(match.start(1), match.end(1)):
                if not text[i].isspace():
                    sizes.append(pdfium_raw.FPDFText_GetFontSize(textpage.raw, i))
                    weights.append(pdfium_raw.FPDFText_GetFontWeight(textpage.raw, i))
                    pdfium_raw.FPDFText_GetFontInfo(textpage.raw, i, name, len(name), ctypes.byref(flags))
                    fonts.append(name.value.decode("latin-1"))
            sizes.sort()
            size = round(sizes[len(sizes) // 2], 1)
            bold = _bold(fonts, weights)
            mono = _mono(fonts)
        lines.append(_Line(line, size=size, bold=bold, mono=mono))
    return lines


def _page_has_paths(page: pdfium.PdfPage) -> bool:
    """Cheap pre-check: ruled tables need path objects, so skip pdfplumber when there are none."""
    try:
        for _ in page.get_objects(filter=[pdfium_raw.FPDF_PAGEOBJ_PATH], max_depth=3):
            return True
    except Exception:  # noqa: BLE001
        return True
    return False


def _inside(obj: dict, bbox: tuple[float, float, float, float], tol: float = 1.5) -> bool:
    x0, top, x1, bottom = bbox
    return (obj["x0"] >= x0 - tol and obj["x1"] <= x1 + tol
            and obj["top"] >= top - tol and obj["bottom"] <= bottom + tol)


def _tables_and_lines(plumber_page) -> tuple[list[tuple[float, list[list[str | None]]]], list[_Line]]:
    """Find tables on a page and the text lines that are not inside any table."""
    tables = []
    found = plumber_page.find_tables()
    gaps = word_gaps(plumber_page) if found else {}  # the page's text is read only when it holds a table
    for table in found:
        rows = table.extract(**gaps)
        # A "table" with one row or one column is usually a boxed paragraph, not data.
        if len(rows) < 2 or max((len(r) for r in rows), default=0) < 2:
            continue
        tables.append((table.bbox, rows))
    if not tables:
        return [], []
    lines: list[_Line] = []
    for line in plumber_page.extract_text_lines(return_chars=True, **gaps):
        chars = [c for c in line.get("chars", []) if c.get("text", "").strip()]
        if chars and any(all(_inside(c, bbox) for c in chars) for bbox, _ in tables):
            continue
        sizes = sorted(c.get("size", 0.0) for c in chars) or [0.0]
        fonts = [c.get("fontname", "") for c in chars]
        bold = _bold(fonts, [0] * len(fonts))
        lines.append(_Line(line["text"], line["top"], round(sizes[len(sizes) // 2], 1) or None, bold,
                           _mono(fonts)))
    return [(bbox[1], rows) for bbox, rows in tables], lines
