"""The Sphinx roles and directives docutils lacks, rendered by what they evidently are.

Sphinx sources use roles (:func:`x`, :setting:`X <Y>`, :ref:`label`) and directives (code-block,
versionadded, toctree, autodoc, project-specific ones) that plain docutils reports as errors, which
would leave `:func:` markup in the text or drop whole paragraphs. Unknown roles render as their text
and unknown directives by what they evidently are: code, a version note, a labelled note, an object
description (term + definition, with its type and default), a container of content, or nothing.
`install_fallbacks` makes docutils' lookups fall back to them.
"""

from __future__ import annotations

import re

from docutils import nodes
from docutils.parsers.rst import Directive, directives, roles

__all__ = ["VERSION_NOTES", "install_fallbacks", "role_text"]

_DROPPED = {"toctree", "index", "highlight", "currentmodule", "module", "literalinclude", "tabularcolumns",
            "graphviz", "digraph", "graph", "inheritance-diagram", "autosummary", "setting", "default-domain",
            "default-role", "sectionauthor", "moduleauthor", "codeauthor", "todo", "raw-html", "program"}
_CODE = {"code-block", "sourcecode", "productionlist", "doctest", "testcode", "testoutput", "code-cell",
         "ipython", "console"}
VERSION_NOTES = {"versionadded": "New in version", "versionchanged": "Changed in version",
             "deprecated": "Deprecated since version", "versionremoved": "Removed in version",
             "deprecated-removed": "Deprecated since version"}
# Directives whose argument is a condition or a style, not a term: their content is the page's own text.
_WRAPPERS = {"only", "ifconfig", "rst-class", "cssclass", "tabs", "tab-set", "div"}
_LABELS = {"seealso": "See also", "admonition": "", "availability": "Availability"}
# Directives docutils has under a name Sphinx uses for something else: in Sphinx sources ".. class:: Spool(path)"
# describes a class (docutils' own "class" only sets an HTML class on what follows, and drops the name).
_SPHINX_MEANING = {"class"}
# Options of an object description that state something (Sphinx shows them under the name), as it shows them.
_SHOWN_OPTIONS = {"type": "Type", "default": "Default", "value": "Value"}


def role_text(text: str) -> str:
    """What a Sphinx role shows: 'title <target>' -> title, '~a.b.c' -> c, '!x' -> x, 'a-label' -> a label."""
    text = text.strip()
    explicit = re.match(r"^(.*?)\s*<[^<>]+>$", text, re.S)
    if explicit and explicit.group(1).strip():
        return " ".join(explicit.group(1).split())
    text = text.lstrip("!")
    if text.startswith("~"):
        return text[1:].rsplit(".", 1)[-1]
    return text


def _generic_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    shown = role_text(text)
    if name in ("ref", "doc", "numref", "term") and not re.search(r"<[^<>]+>$", text.strip()):
        shown = re.sub(r"[-_]+", " ", shown.rsplit("/", 1)[-1])  # a bare label: the nearest readable form
    return [nodes.literal(rawtext, shown)], []


class _AnyOptions(dict):
    """Directive options we do not know are accepted as plain strings instead of raising errors."""

    def __missing__(self, key):
        return directives.unchanged

    def __bool__(self) -> bool:
        # docutils reads a directive's options (":sorted:", ":type: int") only when its option spec is
        # truthy; with an empty one they were read as the directive's argument, and the term of a glossary
        # or an object description became ":sorted:" over the whole glossary run together.
        return True


class _SphinxDirective(Directive):
    """Stands in for a directive docutils does not know, rendering it by what it evidently is."""

    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True
    option_spec = _AnyOptions()

    def run(self):
        name = self.name.split(":")[-1]
        if name in _DROPPED or name.startswith("auto"):
            return []
        if name in _CODE:
            text = "\n".join(self.content)
            return [nodes.literal_block(text, text)] if text.strip() else []
        container = nodes.container()
        if self.content:
            self.state.nested_parse(self.content, self.content_offset, container)
        argument = self.arguments[0] if self.arguments else ""
        if name in _WRAPPERS:
            return [container] if self.content else []
        if name in VERSION_NOTES:
            # The explanation may start on the line after the version (".. versionchanged:: 3.8\n   The *size* …").
            version, rest = (argument.split(None, 1) + [""])[:2]
            lead = f"{VERSION_NOTES[name]} {version}".strip()
            if name == "deprecated-removed":
                # ".. deprecated-removed:: 3.9 3.11": deprecated in the first version, removed in the second.
                removed, rest = (rest.split(None, 1) + [""])[:2]
                lead += f", removed in version {removed}" if removed else ""
            first = container.next_node(nodes.paragraph)
            if rest.strip():
                # The explanation may hold roles of its own (":sig:`KILL`"): parse it as inline text.
                inline, _messages = self.state.inline_text(" ".join(rest.split()), self.lineno)
                container.insert(0, nodes.paragraph("", f"{lead}: ", *inline))
            elif first is not None:
                first.insert(0, nodes.Text(f"{lead}: "))
            else:
                container.insert(0, nodes.paragraph(text=f"{lead}."))
            return [container]
        if name in _LABELS:
            if argument.strip():
                # ".. seealso:: Module :mod:`zipfile`", ".. availability:: Unix, not WASI.": the text is the argument.
                inline, _messages = self.state.inline_text(" ".join(argument.split()), self.lineno)
                container.insert(0, nodes.paragraph("", "", *inline))
            first = container.next_node(nodes.paragraph)
            if first is not None and _LABELS[name]:
                first.insert(0, nodes.Text(f"{_LABELS[name]}: "))
            return [container]
        if argument and self.content:
            # An object description (.. attribute:: name, .. signal:: x, .. option:: -v): term + definition.
            item = nodes.definition_list_item()
            item += nodes.term(text=_signatures(argument))
            definition = nodes.definition()
            definition.extend(container.children)
            for option, label in _SHOWN_OPTIONS.items():
                # ".. confval:: html_logo" with ":type: str" and ":default: None": Sphinx shows them under the name.
                value = str(self.options.get(option) or "").strip()
                if value:
                    inline, _messages = self.state.inline_text(" ".join(value.split()), self.lineno)
                    definition += nodes.paragraph("", f"{label}: ", *inline)
            item += definition
            return [nodes.definition_list("", item)]
        return [container] if self.content else []


def _signatures(argument: str) -> str:
    """An object description's name: a signature continued with a backslash read as one line, and several
    signatures ("str.split(sep=None)" on one line, "str.rsplit(sep=None)" on the next) joined with commas."""
    signatures: list[str] = []
    for line in re.sub(r"\\[ \t]*\n", " ", argument).split("\n"):
        if not line.strip():
            continue
        if signatures and signatures[-1].count("(") > signatures[-1].count(")"):
            signatures[-1] += " " + line.strip()  # the argument list goes on ("exchange=None,\n routing_key=None)")
        else:
            signatures.append(line.strip())
    # Escapes in a signature ("\*\*options") show the character.
    return ", ".join(re.sub(r"\\(.)", r"\1", " ".join(sig.split())) for sig in signatures)


def install_fallbacks() -> None:
    """Make docutils' role and directive lookups fall back to the generic renderers (once)."""
    if getattr(roles.role, "_verity_fallback", False):
        return
    original_role, original_directive = roles.role, directives.directive

    def role(role_name, language_module, lineno, reporter):
        found, messages = original_role(role_name, language_module, lineno, reporter)
        return (found, messages) if found is not None else (_generic_role, [])

    def directive(directive_name, language_module, document):
        if directive_name in _SPHINX_MEANING:
            return _SphinxDirective, []
        found, messages = original_directive(directive_name, language_module, document)
        return (found, messages) if found is not None else (_SphinxDirective, [])

    role._verity_fallback = True
    roles.role, directives.directive = role, directive
