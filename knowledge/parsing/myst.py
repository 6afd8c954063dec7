"""MyST, the Markdown dialect of Sphinx projects: its directives, roles and targets turned into plain Markdown.

A MyST page writes Sphinx directives as fences (```` ```{note} ````, ``:::{warning}``, ```` ```{code-block} toml ````),
roles as ``{doc}`the style <style/index>` `` and label targets as ``(label)=`` lines. Read as CommonMark, a note
becomes a code block, roles and targets stay in the text as markup. Here a note or a version note becomes a
labelled paragraph, a code directive a code fence, an object description (```` ```{option} --check ````) a
"term: definition" paragraph, a table of contents or an autodoc directive nothing, and a role its text.
"""

from __future__ import annotations

import re

from .sphinx_directives import VERSION_NOTES, role_text

__all__ = ["myst_to_markdown"]

_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,}|:{3,})\{(?P<name>[A-Za-z][\w:.+-]*)\}[ \t]*(?P<arg>.*?)\s*$")
# A role, or an inline code span (left as it is: "`${package.version}`" holds no role).
_ROLE_OR_CODE = re.compile(r"(?<![\w$])\{(?P<name>[A-Za-z][\w:.+-]*)\}`(?P<role>[^`\n]+)`|(?P<ticks>`+)[^`\n].*?(?P=ticks)")
# Roles shown with a prefix: {pep}`8` is "PEP 8".
_PREFIXED = {"pep": "PEP", "rfc": "RFC"}
_TARGET = re.compile(r"^[ \t]*\([^()\s][^()]*\)=[ \t]*$")
_COMMENT = re.compile(r"^%(?!%)")
_CODE_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
_OPTION = re.compile(r"^[ \t]*:[\w-]+:(?:[ \t].*)?$")

_CODE = {"code-block", "code", "sourcecode", "code-cell", "doctest", "testcode", "testoutput", "productionlist"}
_LABELS = {"note": "Note", "warning": "Warning", "tip": "Tip", "important": "Important", "caution": "Caution",
           "attention": "Attention", "danger": "Danger", "error": "Error", "hint": "Hint", "seealso": "See also"}
_DROPPED = {"toctree", "contents", "include", "literalinclude", "index", "mermaid", "graphviz", "raw", "image",
            "highlight", "currentmodule", "module", "autosummary", "todo", "tableofcontents"}
# Containers whose content is the page's own text (sphinx-design tabs, cards, dropdowns; "only" conditions).
_CONTAINERS = {"tab-set", "tab-item", "card", "grid", "grid-item", "grid-item-card", "dropdown", "container",
               "div", "sidebar", "topic", "rubric", "figure", "table", "list-table", "margin", "epigraph", "only"}


def is_myst(text: str) -> bool:
    """Whether the Markdown uses MyST directives or roles."""
    return any(_OPEN.match(line) for line in text.splitlines()) or any(
        m.group("role") for m in _ROLE_OR_CODE.finditer(text))


def myst_to_markdown(text: str) -> str:
    """The page with its MyST constructs as plain Markdown; a page without them comes back unchanged."""
    if not is_myst(text):
        return text
    lines = _directives(text.split("\n"))
    out: list[str] = []
    fence: str | None = None
    for line in lines:
        opening = _CODE_FENCE.match(line)
        if fence is None and opening:
            fence = opening.group(1)
        elif fence is not None and _closes(line, fence):
            fence = None
        elif fence is None:
            if _TARGET.match(line) or _COMMENT.match(line):
                continue
            line = _ROLE_OR_CODE.sub(_shown, line)
        out.append(line)
    return "\n".join(out)


def _shown(m: re.Match[str]) -> str:
    """What a role shows (a code span stays as it is)."""
    if not m.group("role"):
        return m.group(0)
    prefix = _PREFIXED.get(m.group("name").split(":")[-1].lower())
    return f"{prefix} {m.group('role').strip()}" if prefix else role_text(m.group("role"))


def _closes(line: str, fence: str) -> bool:
    """The line closes a fence opened with `fence`: only the fence's character, at least as many times."""
    bare = line.strip()
    return bool(bare) and set(bare) == {fence[0]} and len(bare) >= len(fence)


def _closing(lines: list[str], start: int, fence: str) -> int:
    """The index of the line that closes a directive opened with `fence` before `start`, or len(lines)."""
    return next((i for i in range(start, len(lines)) if _closes(lines[i], fence)), len(lines))


def _body(content: list[str]) -> tuple[list[str], dict[str, str]]:
    """A directive's content without its options (":linenos:", ":caption: x", or a "---" YAML block), and the
    options."""
    options: dict[str, str] = {}
    i = 0
    if content and content[0].strip() == "---":
        end = next((k for k in range(1, len(content)) if content[k].strip() == "---"), None)
        if end is not None:
            for line in content[1:end]:
                key, _, value = line.strip().partition(":")
                options[key.strip().lower()] = value.strip()
            i = end + 1
    while i < len(content) and _OPTION.match(content[i]):
        key, _, value = content[i].strip()[1:].partition(":")
        options[key.lower()] = value.strip()
        i += 1
    while i < len(content) and not content[i].strip():
        i += 1
    return content[i:], options


def _labelled(label: str, body: list[str]) -> list[str]:
    """The body with "Label: " before its first line of text (or as a line of its own before a list or code)."""
    if not label:
        return body
    for k, line in enumerate(body):
        if not line.strip():
            continue
        if re.match(r"^\s*(?:[-*+]\s|\d+[.)]\s|`{3}|~{3}|#|\||>)", line):
            return body[:k] + [f"{label}:", ""] + body[k:]
        return body[:k] + [f"{line[:len(line) - len(line.lstrip())]}{label}: {line.lstrip()}"] + body[k + 1:]
    return [f"{label}."]


def _directives(lines: list[str]) -> list[str]:
    """The lines with every directive fence replaced by what it stands for (nested ones too)."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        m = _OPEN.match(lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        end = _closing(lines, i + 1, m.group("fence"))
        indent, name, arg = m.group("indent"), m.group("name").split(":")[-1].lower(), m.group("arg")
        body, options = _body(lines[i + 1:end])
        i = end + 1
        out.extend(_render(name, arg, body, options, indent))
    return out


def _render(name: str, arg: str, body: list[str], options: dict[str, str], indent: str) -> list[str]:
    """What one directive stands for, as Markdown lines."""
    if name == "list-table":
        return _list_table(arg, body, options)
    if name == "glossary":
        return _glossary(body)
    if name in _CODE:
        language = arg.split()[0] if arg else ""
        return [f"{indent}```{language}", *body, f"{indent}```", ""] if any(line.strip() for line in body) else []
    if name == "eval-rst":
        return _rst_lines(body)
    if name in _DROPPED or name.startswith("auto"):
        return []
    inner = _directives(body)
    if name in VERSION_NOTES:
        version, _, rest = arg.partition(" ")
        label = f"{VERSION_NOTES[name]} {version}".strip()
        if name == "deprecated-removed":
            removed, _, rest = rest.strip().partition(" ")
            label += f", removed in version {removed}" if removed else ""
        if rest.strip():
            return [f"{indent}{label}: {rest.strip()}", "", *inner, ""]
        # A bare version note runs on into the text after it, as Sphinx shows it above that text.
        return _labelled(label, inner) if any(line.strip() for line in inner) else [f"{indent}{label}."]
    if name in _LABELS or name == "admonition":
        label = arg if name == "admonition" else _LABELS[name]
        if name == "seealso" and arg:
            inner = [arg, "", *inner]
        return ["", *_labelled(label, inner), ""]
    if name in _CONTAINERS:
        titled = arg and name not in ("figure", "list-table", "table", "only")
        return ["", *([arg, ""] if titled else []), *inner, ""]
    if arg and any(line.strip() for line in inner):
        # An object description (```{option} --check```, ```{confval} line-length```): term + definition.
        return ["", *_labelled(arg, inner), ""]
    return ["", *inner, ""]


_ROW = re.compile(r"^[*-]\s+-\s+(.*)$")
_CELL = re.compile(r"^\s+-\s+(.*)$")


def _list_table(title: str, body: list[str], options: dict[str, str]) -> list[str]:
    """A list-table ("* - a" starts a row, "  - b" adds a cell) as a pipe table, its header rows marked as such."""
    rows: list[list[str]] = []
    for line in body:
        row, cell = _ROW.match(line), _CELL.match(line)
        if row:
            rows.append([row.group(1).strip()])
        elif cell and rows:
            rows[-1].append(cell.group(1).strip())
        elif line.strip() and rows and rows[-1]:
            rows[-1][-1] += " " + line.strip()  # a cell's text goes on on the next line
    if not rows:
        return []
    width = max(len(r) for r in rows)
    rows = [r + [""] * (width - len(r)) for r in rows]
    header = rows[0] if options.get("header-rows", "0").strip() not in ("", "0") else [""] * width
    data = rows[1:] if header != [""] * width else rows
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * width] + ["| " + " | ".join(r) + " |" for r in data]
    return ["", *([title, ""] if title else []), *lines, ""]


def _glossary(body: list[str]) -> list[str]:
    """A glossary's entries ("term" at the margin, its definition indented under it) as "term: definition"."""
    out: list[str] = []
    terms: list[str] = []
    definition: list[str] = []

    def flush() -> None:
        if terms and definition:
            out.extend(["", f"{', '.join(terms)}: {' '.join(definition)}", ""])
        terms.clear()
        definition.clear()

    for line in body:
        if not line.strip():
            continue
        if line[:1].isspace():
            definition.append(line.strip())
        else:
            if definition:
                flush()
            terms.append(line.strip())
    flush()
    return out


def _rst_lines(body: list[str]) -> list[str]:
    """An ```{eval-rst}``` block read as reStructuredText, its paragraphs as Markdown lines."""
    from .base import IngestionError
    from .rst import parse_rst

    source = "\n".join(body)
    try:
        parsed = parse_rst(source, "eval-rst")
    except IngestionError:  # an embedded block with nothing of its own to index (only autodoc, say)
        return []
    if parsed is None:
        return []
    out: list[str] = []
    for block in parsed.blocks:
        for paragraph in block.text.split("\n\n"):
            out.extend(["", *paragraph.split("\n"), ""])
    return out
