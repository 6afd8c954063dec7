"""Identifier guard: codes, flags, channels and quoted strings must appear verbatim in the source."""

from __future__ import annotations

import re
from dataclasses import dataclass

from textcore.identifiers import EMAIL_RE, URL_RE, Identifier, code_spans, described_code, identifiers

__all__ = ["EMAIL_RE", "URL_RE", "Identifier", "IdentifierCheck", "appears", "check_identifiers", "code_spans",
           "extract_identifiers"]


def extract_identifiers(text: str) -> list[Identifier]:
    """Identifiers in a claim that the cited passage has to contain verbatim (URLs have their own guard)."""
    return [i for i in identifiers(text) if i.kind != "url"]


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
    if re.search(pattern, hay, flags):
        return True
    # A quoted command line is read with its URLs left out (the URL guard checks them): the passage's line is
    # compared the same way.
    if ident.kind in ("quote", "backtick") and re.search(pattern, _norm_quotes(URL_RE.sub(" ", passage)), flags):
        return True
    # A call named with empty brackets ("app.config.update()") is the call the passage makes with arguments
    # ("app.config.update(FOO_BAR='baz')").
    if needle.endswith("()") and re.search(rf"(?<![A-Za-z0-9_.]){re.escape(needle[:-2])}\(", hay, flags):
        return True
    # A qualified member ("app.test_request_context(...)", "File.is_documentation_page()") is the one the
    # passage names without its qualifier ("test_request_context()", "is_documentation_page() -> bool"), as
    # API references title their entries; a member qualified there by something else is not.
    member = _MEMBER.fullmatch(needle)
    if member and ("_" in member.group(1) or member.group(2)):
        name = re.escape(member.group(1))
        if re.search(rf"(?<![A-Za-z0-9_.]){name}" + (r"\(" if member.group(2) else r"(?![A-Za-z0-9_])"), hay, flags):
            return True
    # An option written with a placeholder for its number ("-T#", "--threads=N") stands for every value:
    # "-T0" and "--threads=4" are that option.
    if needle.startswith("-") and re.search(r"\d", needle):
        for placeholder in ("#", "N", "n", "NUM"):
            general = re.sub(r"\d+", placeholder, needle)
            if re.search(rf"(?<![A-Za-z0-9_]){re.escape(general)}(?![A-Za-z0-9_])", hay, flags):
                return True
    # A code with an everyday word hyphened on ("Base64-encoded", "UTF-8-based") is that code, described.
    code = described_code(needle)
    if code and appears(Identifier(code, ident.kind, ident.case_sensitive), passage):
        return True
    # Lost spaces glue a word to a dot-file name ("to.gitignore", "the.dump"), in the claim as in the
    # passage: a lower-case word before the first dot is read as a separate word.
    glued = _GLUED.fullmatch(needle)
    return bool(glued) and re.search(rf"\.{re.escape(glued.group(1))}(?![A-Za-z0-9_])", hay, flags) is not None


_MEMBER = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\.([A-Za-z_]\w*)(\((?:\.\.\.|…)?\))?")
_GLUED = re.compile(r"[a-z]+(?:-[a-z]+)*\.([A-Za-z][\w.-]*)")


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
    # An acronym the passage spells out or leaves implicit ("CSRF", "CLI") is a word for the support
    # score to weigh, not a code that must be copied.
    missing = [i for i in idents if i.kind != "acronym" and not appears(i, passage_text)]
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
