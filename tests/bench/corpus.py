"""Synthetic but realistic benchmark corpora built from the sample knowledge base."""

from __future__ import annotations

import re
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "corpus"
TEXT_SUFFIXES = {".md", ".html", ".txt", ".rst"}
_NUMBER = re.compile(r"\b\d+\b")
REGIONS = ["Austin", "Dublin", "Lisbon", "Toronto", "Osaka", "Nairobi", "Berlin", "Sydney", "Denver", "Oslo",
           "Seoul", "Lima", "Cairo", "Perth", "Quito", "Riga"]


def _variant(text: str, copy: int) -> str:
    """The same document as another office's version: different numbers, a region line per paragraph."""
    region = REGIONS[copy % len(REGIONS)]
    text = _NUMBER.sub(lambda m: str(int(m.group(0)) + copy) if len(m.group(0)) < 5 else m.group(0), text)
    return text.replace("Northwind Labs", f"Northwind Labs {region}")


def build_mixed_corpus(target: Path, documents: int = 220) -> int:
    """Write at least `documents` files (md, html, txt, rst copies with changed content, plus PDF and
    DOCX files generated from Markdown) under target; returns the number written."""
    from docx import Document as Docx
    from fpdf import FPDF

    sources = sorted(p for p in CORPUS.rglob("*") if p.suffix in TEXT_SUFFIXES)
    markdown = [p for p in sources if p.suffix == ".md"]
    written = copy = 0
    while written < documents:
        copy += 1
        for path in sources:
            out = target / f"office-{copy:02d}" / path.relative_to(CORPUS)
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(_variant(path.read_text(encoding="utf-8", errors="replace"), copy), encoding="utf-8")
            written += 1
        for path in markdown[: max(2, len(markdown) // 3)]:
            text = _variant(path.read_text(encoding="utf-8"), copy)
            lines = [re.sub(r"[*_`#|]", "", line).strip() for line in text.splitlines()]
            lines = [line.encode("latin-1", "replace").decode("latin-1") for line in lines if line]
            pdf = FPDF()
            pdf.add_page()
            pdf.set_font("Helvetica", size=10)
            for line in lines:
                pdf.multi_cell(0, 5, line, new_x="LMARGIN", new_y="NEXT")
            out = target / f"office-{copy:02d}" / "pdf" / (path.stem + ".pdf")
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(bytes(pdf.output()))
            doc = Docx()
            for line in lines:
                doc.add_paragraph(line)
            doc.save(target / f"office-{copy:02d}" / "pdf" / (path.stem + ".docx"))
            written += 2
    return written
