"""PDF text cleanup: control-character stripping and rejoining wrapped lines into paragraphs."""

from __future__ import annotations

import re

from .base import BREAK_HYPHENS

# A list item: a bullet glyph, "1." / "(2)" or "a)" / "(b)" followed by a space.
_BULLET = re.compile(r"^\s*(?:[•◦▪‣∙·*\-–]|\(?\d{1,3}[.)]|\(?[a-z][.)])\s+")


# Control characters a PDF font maps a glyph to (a Symbol font's epsilon comes out as "\x0f"): invisible in an
# answer, so dropped. "\x02" stays: it marks a hyphen at a line break (see _join_lines).
_CONTROL = re.compile(r"[\x00\x01\x03-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe]")


def _clean_line(text: str) -> str:
    return " ".join(_CONTROL.sub("", text).split())


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
        elif out.endswith((*BREAK_HYPHENS, "\x02")) or (out.endswith("-") and line[:1].islower()
                                                         and out[-2:-1].isalpha()):
            out = out.rstrip("".join(BREAK_HYPHENS) + "\x02-") + line  # undo hyphenation across a line break
        elif _BULLET.match(line) or out[-1] in ".!?:;":
            out += "\n" + line
        else:
            out += " " + line
    return out.strip()
