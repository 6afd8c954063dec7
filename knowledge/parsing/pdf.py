"""PDF parsing: page text via pypdfium2, tables via pdfplumber, with quality fallbacks."""

from __future__ import annotations

import io
import logging
import re
from collections import Counter
from dataclasses import dataclass

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw

from .base import Block, IngestionError, ParsedDocument, table_block

__all__ = ["parse_pdf"]

log = logging.getLogger(__name__)

_BULLET = re.compile(r"^\s*(?:[•◦▪‣∙·*\-–]|\(?\d{1,3}[.)]|\(?[a-z][.)])\s+")
_NUMBERED_HEADING = re.compile(r"^(?:(?i:section|part|chapter|article|appendix)\s+\S+|\d{1,2}(?:\.\d{1,2})*\.?)\s+[A-Z]")
# A table-of-contents line: a title, dot leaders and a page number.
_DOT_LEADER = re.compile(r"(?:\.\s?){4,}\s*[0-9ivxlc]+\s*$", re.I)
_PAGE_NUMBER = re.compile(r"^(?:page\s+)?\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?$", re.I)
_LONG_RUN = re.compile(r"[^\W\d_]+")
_SMALL_WORDS = {"a", "an", "and", "as", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to", "with", "vs", "via", "per"}


@dataclass
class _Line:
    text: str
    top: float | None = None
    size: float | None = None  # median font size of the line's characters, when known
    bold: bool = False


def _pdf_date(value: str | None) -> str | None:
    """Convert a PDF date (D:YYYYMMDDHHmmSS...) to an ISO date string."""
    if not value:
        return None
    m = re.match(r"(?:D:)?(\d{4})(\d{2})?(\d{2})?", value.strip())
    if not m:
        return None
    year, month, day = m.group(1), m.group(2) or "01", m.group(3) or "01"
    if not ("01" <= month <= "12" and "01" <= day <= "31"):
        return None
    return f"{year}-{month}-{day}"


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


def _fallback_page_text(data: bytes, index: int, plumber_pdf) -> str:
    """Second-opinion extraction for one page: pdfplumber, then pypdf."""
    if plumber_pdf is not None:
        try:
            text = plumber_pdf.pages[index].extract_text() or ""
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
    lines: list[_Line] = []
    for match in re.finditer(r"([^\r\n]*)(\r\n|\r|\n|$)", text):
        if match.start() == match.end():
            break  # end of text
        line = match.group(1)
        size, bold = None, False
        if with_fonts and line.strip():
            sizes, weights = [], []
            for i in range(match.start(1), match.end(1)):
                if not text[i].isspace():
                    sizes.append(pdfium_raw.FPDFText_GetFontSize(textpage.raw, i))
                    weights.append(pdfium_raw.FPDFText_GetFontWeight(textpage.raw, i))
            sizes.sort()
            size = round(sizes[len(sizes) // 2], 1)
            bold = sum(1 for w in weights if w >= 600) > len(weights) / 2
        lines.append(_Line(line, size=size, bold=bold))
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
    for table in plumber_page.find_tables():
        rows = table.extract()
        # A "table" with one row or one column is usually a boxed paragraph, not data.
        if len(rows) < 2 or max((len(r) for r in rows), default=0) < 2:
            continue
        tables.append((table.bbox, rows))
    if not tables:
        return [], []
    lines: list[_Line] = []
    for line in plumber_page.extract_text_lines(return_chars=True):
        chars = [c for c in line.get("chars", []) if c.get("text", "").strip()]
        if chars and any(all(_inside(c, bbox) for c in chars) for bbox, _ in tables):
            continue
        sizes = sorted(c.get("size", 0.0) for c in chars) or [0.0]
        bold = sum(1 for c in chars if "bold" in c.get("fontname", "").lower()) > len(chars) / 2
        lines.append(_Line(line["text"], line["top"], round(sizes[len(sizes) // 2], 1) or None, bold))
    return [(bbox[1], rows) for bbox, rows in tables], lines


def _looks_like_heading(line: str, prev_ended: bool) -> bool:
    """Best-effort: a short standalone line, no final punctuation, Title Case or numbered."""
    text = line.strip()
    if not prev_ended or not (3 <= len(text) <= 80) or text[-1] in ".,;:!?" or _BULLET.match(text):
        return False
    words = text.split()
    if len(words) > 10 or not any(ch.isalpha() for ch in text) or ": " in text:
        return False
    if _NUMBERED_HEADING.match(text) and len(words) >= 2:
        return True
    letters = [w for w in words if w[0].isalpha()]
    if not letters:
        return False
    if text.isupper() and len(text) >= 4:
        return True
    capitalised = [w for w in letters if w[0].isupper() or w.lower() in _SMALL_WORDS]
    return letters[0][0].isupper() and len(capitalised) == len(letters) and len(letters) >= 2


def _clean_line(text: str) -> str:
    return " ".join(text.replace("\x00", "").replace("\ufffe", "").split())


def _join_lines(lines: list[str]) -> str:
    """Rejoin wrapped lines into paragraphs; keep list items and sentence-ending lines separate."""
    out = ""
    for raw in lines:
        line = raw.strip()
        if not line:
            if out and not out.endswith("\n\n"):
                out = out.rstrip("\n") + "\n\n"
            continue
        if not out or out.endswith("\n"):
            out += line
        elif out.endswith(("\u00ad", "\x02")) or (out.endswith("-") and line[:1].islower() and out[-2:-1].isalpha()):
            out = out.rstrip("\u00ad\x02-") + line  # undo hyphenation across a line break
        elif _BULLET.match(line) or out[-1] in ".!?:;":
            out += "\n" + line
        else:
            out += " " + line
    return out.strip()


class _PageBuilder:
    """Turns the ordered lines and tables of pages into heading-scoped Blocks."""

    def __init__(self, title: str, pages: list[list[tuple[float, object]]],
                 outline: list[tuple[int, str, int]] | None = None) -> None:
        self.title = title
        self.stack: list[tuple[int, str]] = []
        self.blocks: list[Block] = []
        # With an outline (bookmarks), sections come from it and font sizes are not guessed at.
        self.outline: dict[int, list[tuple[int, str]]] = {}
        for level, text, index in outline or []:
            self.outline.setdefault(index + 1, []).append((level, text))
        lines = [it for items in pages for _, it in items if isinstance(it, _Line) and it.text.strip()]
        weights: Counter[float] = Counter()
        for line in lines:
            if line.size:
                weights[line.size] += len(line.text)
        self.body = weights.most_common(1)[0][0] if weights else None
        sizes = sorted({ln.size for ln in lines if ln.size and self._big(ln)}, reverse=True)
        self.levels = {size: rank for rank, size in enumerate(sizes)}
        self.running = _running_lines(pages)
        # A document whose big-font headings are numbered ("2.1 Node Shapes") numbers all of them:
        # an unnumbered big line there is a figure label, not a heading.
        big = [ln.text.strip() for ln in lines if self._big(ln)]
        self.numbered = sum(1 for t in big if _NUMBERED_HEADING.match(t)) >= 3

    def _big(self, line: _Line) -> bool:
        return bool(self.body and line.size and line.size >= self.body * 1.12)

    def heading_level(self, line: _Line, text: str, prev_ended: bool) -> int | None:
        """Level of a heading line (0 = largest), or None for body text."""
        if self.outline:
            return None
        if self.numbered and not _NUMBERED_HEADING.match(text):
            return None
        if self.body is None or line.size is None:
            return len(self.levels) if _looks_like_heading(text, prev_ended) else None
        if not any(ch.isalpha() for ch in text) or text.endswith((".", ",", ";")) or len(text) > 120:
            return None
        if self._big(line):
            return self.levels.get(line.size, 0)
        if line.bold and line.size >= self.body * 0.95 and prev_ended and len(text) <= 80:
            return len(self.levels)  # a bold body-size line is the smallest heading level
        return None

    @property
    def path(self) -> tuple[str, ...]:
        return (self.title,) + tuple(text for _, text in self.stack if text != self.title)

    def running_title(self, line: str) -> bool:
        """The document title with a page number before or after it: a running header."""
        low, title = line.lower(), self.title.lower()
        for rest in ((low[len(title):] if low.startswith(title) else None),
                     (low[: -len(title)] if low.endswith(title) else None)):
            if rest is not None and (not rest.strip() or _PAGE_NUMBER.match(rest.strip())
                                     or re.fullmatch(r"[ivxlc]+", rest.strip())):
                return True
        return False

    def enter(self, level: int, text: str) -> None:
        """Open a section at this level (closing deeper and equal ones)."""
        while self.stack and self.stack[-1][0] >= level:
            self.stack.pop()
        self.stack.append((level, text))

    def add_page(self, page_no: int, items: list[tuple[float, object]]) -> None:
        """items: (top, _Line | rows) in reading order."""
        if _is_contents_page([_clean_line(it.text) for _, it in items if isinstance(it, _Line)]):
            return
        pending: list[str] = []
        prev_ended = True
        entries = list(self.outline.get(page_no, []))
        line_keys = {_key(_clean_line(it.text)) for _, it in items if isinstance(it, _Line)}
        # Bookmarks whose title is not a line of the page start where the page starts.
        while entries and _key(entries[0][1]) not in line_keys:
            self.enter(*entries.pop(0))

        def flush() -> None:
            text = _join_lines(pending)
            if text:
                self.blocks.append(Block("text", text, self.path, page=page_no, anchor=f"page-{page_no}"))
            pending.clear()

        for position, (_, item) in enumerate(items):
            if not isinstance(item, _Line):
                flush()
                block = table_block(item, self.path, page=page_no, anchor=f"page-{page_no}")  # type: ignore[arg-type]
                if block:
                    self.blocks.append(block)
                prev_ended = True
                continue
            line = _clean_line(item.text)
            if not line:
                pending.append("")
                prev_ended = True
                continue
            if self.running_title(line) or _PAGE_NUMBER.match(line) or _normal(line) in self.running \
                    or _DOT_LEADER.search(line):
                continue  # running headers, footers, page numbers and contents lines add nothing
            if entries and _key(line) == _key(entries[0][1]):
                flush()
                self.enter(*entries.pop(0))
                while entries and _key(entries[0][1]) not in line_keys:
                    self.enter(*entries.pop(0))
                prev_ended = True
                continue
            if (self.body and item.size and item.size < self.body * 0.9 and len(line) < 100
                    and (position <= 1 or position >= len(items) - 2)):
                continue  # small print at the very top or bottom of a page is a header/footer
            level = self.heading_level(item, line, prev_ended)
            if level is not None:
                flush()
                low, title = line.lower(), self.title.lower()
                if page_no == 1 and not self.blocks and not self.stack and (title in low or low in title):
                    self.stack.append((-1, self.title))  # the cover heading is the title itself
                    continue
                while self.stack and self.stack[-1][0] >= level:
                    self.stack.pop()
                self.stack.append((level, line))
                prev_ended = True
                continue
            pending.append(line)
            prev_ended = line[-1] in ".!?:;" or bool(_BULLET.match(line))
        flush()


def _is_contents_page(lines: list[str]) -> bool:
    """A table-of-contents page: most lines end in page numbers that only go up."""
    numbered = [int(m.group(1)) for line in lines if (m := re.search(r"\s(\d{1,4})$", line))]
    if len(numbered) < 5 or len(numbered) < 0.6 * len([ln for ln in lines if ln]):
        return False
    rising = sum(1 for a, b in zip(numbered, numbered[1:]) if b >= a)
    return rising >= 0.8 * (len(numbered) - 1)


_ROMAN_EDGE = re.compile(r"(?:^[ivxlc]+\b|\b[ivxlc]+$)")


def _normal(line: str) -> str:
    """A line with its page numbers (arabic or roman) masked, to spot running headers and footers."""
    text = re.sub(r"\d+", "#", " ".join(line.lower().split()))
    return _ROMAN_EDGE.sub("#", text)


def _running_lines(pages: list[list[tuple[float, object]]]) -> set[str]:
    """Lines repeated at the top or bottom of most pages (running headers and footers)."""
    if len(pages) < 2:
        return set()
    counts: Counter[str] = Counter()
    for items in pages:
        texts = [it.text for _, it in items if isinstance(it, _Line) and it.text.strip()]
        counts.update({_normal(t) for t in texts[:2] + texts[-2:] if len(t) < 100})
    return {text for text, n in counts.items() if n >= 2 and n >= len(pages) / 2}


def _outline(pdf: pdfium.PdfDocument) -> list[tuple[int, str, int]]:
    """(level, title, page index) of the PDF's bookmarks, in order; empty when it has none."""
    entries: list[tuple[int, str, int]] = []
    try:
        for bookmark in pdf.get_toc(max_depth=6):
            dest = bookmark.get_dest()
            title = " ".join((bookmark.get_title() or "").split())
            index = dest.get_index() if dest is not None else None
            if title and index is not None:
                entries.append((bookmark.level, title, index))
    except Exception:  # noqa: BLE001 - a broken outline only means no outline
        log.debug("could not read the PDF outline", exc_info=True)
        return []
    return entries


def _key(text: str) -> str:
    """Comparable form of a heading: letters and digits only, section numbers dropped."""
    text = re.sub(r"^(?:(?:chapter|appendix|section|part)\s+)?[0-9A-Z]{1,3}(?:\.[0-9]+)*\.?\s+", "", text.strip(),
                  flags=re.I)
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def _metadata(pdf: pdfium.PdfDocument) -> dict:
    try:
        info = pdf.get_metadata_dict(skip_empty=True)
    except Exception:  # noqa: BLE001 - metadata is optional
        return {}
    meta: dict = {}
    if info.get("Author"):
        meta["author"] = info["Author"].strip()
    if (created := _pdf_date(info.get("CreationDate"))):
        meta["created"] = created
    if (modified := _pdf_date(info.get("ModDate"))):
        meta["modified"] = modified
    if info.get("Title"):
        meta["title"] = re.sub(r"^Microsoft (?:Word|PowerPoint) - ", "", info["Title"].strip())
    return meta


def _fallback_title(filename: str) -> str:
    stem = re.sub(r"\.[A-Za-z0-9]+$", "", filename.rsplit("/", 1)[-1])
    return re.sub(r"[_-]+", " ", stem).strip() or "Untitled document"


def parse_pdf(data: bytes, filename: str) -> ParsedDocument:
    """Parse PDF bytes into blocks: one text run per heading per page, tables kept whole."""
    if b"%PDF-" not in data[:1024]:
        raise IngestionError(
            f"{filename} is not a valid PDF (it has no PDF header); check the file and its extension."
        )
    pdf = _open_pdfium(data, filename)
    plumber_pdf = None
    try:
        try:
            import pdfplumber

            plumber_pdf = pdfplumber.open(io.BytesIO(data))
        except Exception:  # noqa: BLE001 - tables are best effort; text still comes from pdfium
            log.info("pdfplumber could not open %s; tables will not be detected", filename)
        meta = _metadata(pdf)
        outline = _outline(pdf)
        page_texts: list[list[tuple[float, object]]] = []
        for index in range(len(pdf)):
            page = pdf[index]
            try:
                items: list[tuple[float, object]] = []
                if plumber_pdf is not None and _page_has_paths(page):
                    try:
                        tables, lines = _tables_and_lines(plumber_pdf.pages[index])
                    except Exception:  # noqa: BLE001
                        log.debug("table detection failed on page %s", index + 1, exc_info=True)
                        tables, lines = [], []
                    if tables:
                        items = sorted([(ln.top or 0.0, ln) for ln in lines] + tables, key=lambda it: it[0])
                if not items:
                    textpage = page.get_textpage()
                    lines = _pdfium_lines(textpage)
                    textpage.close()
                    if _lost_spaces("\n".join(ln.text for ln in lines)):
                        text = _fallback_page_text(data, index, plumber_pdf)
                        lines = [_Line(line) for line in re.split(r"\r\n|\r|\n", text)]
                    items = [(0.0, ln) for ln in lines]
                page_texts.append(items)
            finally:
                page.close()
    finally:
        if plumber_pdf is not None:
            plumber_pdf.close()
        pdf.close()

    has_text = any(
        (isinstance(item, _Line) and item.text.strip()) or not isinstance(item, _Line)
        for items in page_texts for _, item in items
    )
    if not has_text:
        raise IngestionError(
            f"{filename} has no extractable text (it is probably a scanned image); "
            "run OCR on it or upload a text-based PDF."
        )

    title = meta.pop("title", "") or _first_title_line(page_texts) or _fallback_title(filename)
    builder = _PageBuilder(title, page_texts, outline)
    for number, items in enumerate(page_texts, start=1):
        builder.add_page(number, items)
    if not builder.blocks:
        raise IngestionError(f"{filename} has no extractable text; upload a text-based PDF.")
    return ParsedDocument(title=title, blocks=builder.blocks, metadata=meta)


def _first_title_line(page_texts: list[list[tuple[float, object]]]) -> str:
    """A title from page one: its largest-font opening line, or a heading-like first line."""
    if not page_texts:
        return ""
    opening = [it for _, it in page_texts[0] if isinstance(it, _Line) and _clean_line(it.text)][:5]
    sized = [ln for ln in opening if ln.size]
    if sized:
        biggest = max(sized, key=lambda ln: ln.size or 0.0)
        others = sorted(ln.size or 0.0 for ln in sized)
        if (biggest.size or 0.0) > others[len(others) // 2] and len(biggest.text) <= 120:
            return _clean_line(biggest.text)
    if opening and _looks_like_heading(_clean_line(opening[0].text), True):
        return _clean_line(opening[0].text)
    return ""
