"""Identifier guard: codes, flags, channels and quoted strings must appear verbatim in the source."""

from __future__ import annotations

import re
from dataclasses import dataclass

URL_RE = re.compile(r"(?:https?://|www\.)[^\s<>()\[\]\"'|`]+", re.I)
EMAIL_RE = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")
_TOKEN_RE = re.compile(r"(?<![\w/.#@-])[A-Za-z0-9][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)*(?![\w-])")
_CHANNEL_RE = re.compile(r"(?<![\w&])#[a-z0-9][a-z0-9_-]*[a-z0-9]", re.I)
_QUOTE_RES = (
    re.compile(r"`([^`\n]{1,120})`"),
    re.compile(r"\"([^\"\n]{1,120})\""),
    re.compile(r"“([^”\n]{1,120})”"),
    re.compile(r"(?<![\w])'([^'\n]{2,80})'(?![\w])"),
)
# Suffixes that make "5pm", "16GB", "3rd" a quantity rather than a code.
_UNIT_SUFFIXES = frozenset("st nd rd th am pm k m gb mb kb tb h hr hrs min mins s d x bn ms".split())


@dataclass(frozen=True)
class Identifier:
    """A token that must be copied exactly: kind is code, quote, backtick, channel or email."""

    text: str
    kind: str
    case_sensitive: bool


def _is_code(token: str) -> bool:
    """True for code-like tokens: snake/CONSTANT_CASE, camelCase, letter+digit codes, EXP-204."""
    if "_" in token:
        return True
    if re.fullmatch(r"[vV]\d+", token):
        return False  # versions belong to the number guard
    if token[0].isdigit():
        m = re.fullmatch(r"\d+([A-Za-z]+)", token)
        if m:
            return m.group(1).lower() not in _UNIT_SUFFIXES
        return bool(re.search(r"[A-Za-z]", token)) and "-" in token and bool(re.search(r"[A-Z]", token))
    if "-" in token:
        parts = token.split("-")
        if any(ch.isdigit() for ch in token):
            return True
        return all(p.isupper() and len(p) >= 2 for p in parts)
    if re.search(r"\d", token):
        return True
    return bool(re.fullmatch(r"[a-z]+[A-Z][A-Za-z]*", token) or re.fullmatch(r"[A-Z][a-z]+[A-Z][A-Za-z]*", token))


def _masked(text: str) -> str:
    """Text with URLs and emails blanked so their parts are not read as codes."""
    for rx in (URL_RE, EMAIL_RE):
        text = rx.sub(lambda m: " " * len(m.group(0)), text)
    return text


def code_spans(text: str) -> list[tuple[int, int]]:
    """Spans of URLs, emails and code-like tokens (so the number guard skips their digits)."""
    spans = [m.span() for rx in (URL_RE, EMAIL_RE) for m in rx.finditer(text)]
    spans += [m.span() for m in _TOKEN_RE.finditer(_masked(text)) if _is_code(m.group(0))]
    return spans


def extract_identifiers(text: str) -> list[Identifier]:
    """Identifiers in a claim that the cited passage has to contain verbatim."""
    found: list[Identifier] = []
    masked = _masked(text)
    for rx in _QUOTE_RES:
        for m in rx.finditer(masked):
            inner = m.group(1).strip()
            if inner:
                backtick = rx is _QUOTE_RES[0]
                found.append(Identifier(inner, "backtick" if backtick else "quote", backtick))
    for m in _TOKEN_RE.finditer(masked):
        tok = m.group(0)
        if _is_code(tok):
            camel = bool(re.fullmatch(r"[A-Z][a-z]+[A-Z][A-Za-z]*", tok))
            found.append(Identifier(tok, "code", not camel))
    for m in _CHANNEL_RE.finditer(masked):
        found.append(Identifier(m.group(0), "channel", False))
    for m in EMAIL_RE.finditer(text):
        found.append(Identifier(m.group(0), "email", False))
    seen: set[tuple[str, str]] = set()
    unique = []
    for ident in found:
        if (ident.text, ident.kind) not in seen:
            seen.add((ident.text, ident.kind))
            unique.append(ident)
    return unique


def _norm_quotes(text: str) -> str:
    """Straight quotes and single spaces, so curly/straight differences do not matter."""
    text = text.replace("“", '"').replace("”", '"').replace("‘", "'").replace("’", "'")
    return re.sub(r"\s+", " ", text)


def appears(ident: Identifier, passage: str) -> bool:
    """True when the identifier occurs in the passage as a whole token (or phrase)."""
    hay = _norm_quotes(passage)
    needle = _norm_quotes(ident.text)
    flags = 0 if ident.case_sensitive else re.I
    if ident.kind in ("quote", "backtick") and not re.match(r"\w", needle[:1] or " "):
        return (needle in hay) if ident.case_sensitive else (needle.lower() in hay.lower())
    pattern = rf"(?<![A-Za-z0-9_]){re.escape(needle)}(?![A-Za-z0-9_])"
    return re.search(pattern, hay, flags) is not None


def _shape(token: str) -> str:
    """Character-class shape: "EXP-204" -> "AAA-999"; rival codes share a shape."""
    return re.sub(r"[a-z]", "a", re.sub(r"[A-Z]", "A", re.sub(r"\d", "9", token)))


@dataclass(frozen=True)
class IdentifierCheck:
    """Outcome of the identifier guard for one claim."""

    status: str  # "pass", "n/a", "missing", "conflict"
    detail: str


def check_identifiers(claim_text: str, passage_text: str) -> IdentifierCheck:
    """Codes and quoted strings in the claim must be found verbatim in the passage."""
    idents = extract_identifiers(claim_text)
    if not idents:
        return IdentifierCheck("n/a", "no identifiers")
    missing = [i for i in idents if not appears(i, passage_text)]
    if not missing:
        return IdentifierCheck("pass", f"{len(idents)} identifier(s) found verbatim")
    source_codes = [i.text for i in extract_identifiers(passage_text) if i.kind == "code"]
    for ident in missing:
        if ident.kind != "code":
            continue
        rivals = [c for c in source_codes if c != ident.text and _shape(c) == _shape(ident.text)]
        if rivals:
            return IdentifierCheck("conflict", f"claim says {ident.text!r}, source says {rivals[0]!r}")
    names = ", ".join(repr(i.text) for i in missing)
    return IdentifierCheck("missing", f"{names} not found verbatim in cited source")
