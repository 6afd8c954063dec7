"""Parsing the layout of real documentation: tables with and without a header row, code inside list items,
definitions, man pages and generator chrome (Sphinx viewcode links), and nested lists."""

from __future__ import annotations

import pytest

from knowledge.parsing import parse_file
from tests.factories import all_text
from textcore.sentences import is_code_block, paragraphs


def _paragraph_kinds(text: str) -> list[tuple[bool, str]]:
    """(is code, first line) of each paragraph of a block's text."""
    return [(is_code_block(text[a:b]), text[a:b].strip().split("\n")[0]) for a, b in paragraphs(text)]


def _paragraphs_of(source: str, filename: str) -> list[str]:
    """The paragraphs of a document the parser reads as one block."""
    (block,) = parse_file(source.encode(), filename).blocks
    return block.text.split("\n\n")


def test_a_man_page_example_keeps_its_lines_as_code_and_prose_stays_prose() -> None:
    # find(1): an example set deeper than the text around it; its lines must not run into one sentence.
    page = (
        "EXAMPLES\n"
        "       \u2022      Search for files which are writable by either their owner or\n"
        "              their group.\n\n"
        "                  $ find . -perm /220\n"
        "                  $ find . -perm /u+w,g+w\n\n"
        "              All three of these commands do the same thing.\n\n"
        "                  These indented lines are prose that the page happens to set\n"
        "                  deeper than the text before them.\n"
    )
    (block,) = parse_file(page.encode(), "find-1.txt").blocks
    assert _paragraph_kinds(block.text) == [
        (False, "\u2022 Search for files which are writable by either their owner or their group."),
        (True, "$ find . -perm /220"),
        (False, "All three of these commands do the same thing."),
        (False, "These indented lines are prose that the page happens to set deeper than the text before them."),
    ]
    assert "    $ find . -perm /220\n    $ find . -perm /u+w,g+w" in block.text


@pytest.mark.parametrize("cells, rows, header", [
    # plain cells whose first row names the columns: that row is the header
    ([["URL", "Method"], ["/users/", "GET"]], [["URL", "Method"], ["/users/", "GET"]], True),
    # a first row of data like the rest (SQLite's trigger table): no header, every row is data
    ([["INSERT", "NEW references are valid"], ["DELETE", "OLD references are valid"]],
     [["", ""], ["INSERT", "NEW references are valid"], ["DELETE", "OLD references are valid"]], False),
    # a bold first column is no header either
    ([["<b>?NNN</b>", "A question mark and a number"], ["<b>:AAAA</b>", "A colon and a name"]],
     [["", ""], ["?NNN", "A question mark and a number"], [":AAAA", "A colon and a name"]], False),
    # a bold first row over plain rows is
    ([["<b>Exploit mitigation</b>", "<b>Since</b>"], ["Stack clashing protection", "1.20.0 (2017-08-31)"]],
     [["Exploit mitigation", "Since"], ["Stack clashing protection", "1.20.0 (2017-08-31)"]], True),
])
def test_html_table_of_plain_cells_has_a_header_only_when_its_first_row_names_columns(cells, rows, header) -> None:
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in cells)
    doc = parse_file(f"<html><body><h1>T</h1><table>{body}</table></body></html>".encode(), "t.html")
    (table,) = [b for b in doc.blocks if b.kind == "table"]
    assert table.rows == rows
    assert any(table.rows[0]) == header


def test_rst_table_without_a_header_separator_has_no_header_row() -> None:
    rst = "Frameworks\n==========\n\n+---------+----------------+\n| Pyramid | pyramid_celery |\n" \
          "+---------+----------------+\n| Flask   | not needed     |\n+---------+----------------+\n"
    (table,) = [b for b in parse_file(rst.encode(), "intro.rst").blocks if b.kind == "table"]
    assert table.rows == [["", ""], ["Pyramid", "pyramid_celery"], ["Flask", "not needed"]]


@pytest.mark.parametrize("first, header", [
    ("| Variable | Result         |", ["Variable", "Result"]),          # column names without the rule
    ("| **Event**| **Meaning**    |", ["Event", "Meaning"]),            # a bold first row
    ("| %h       | worker1@%h     |", ["", ""]),                       # data
])
def test_rst_table_without_a_rule_has_a_header_when_its_first_row_names_columns(first, header) -> None:
    rule = "+----------+----------------+"
    rst = f"Names\n=====\n\n{rule}\n{first}\n{rule}\n| %n       | worker1        |\n{rule}\n"
    (table,) = [b for b in parse_file(rst.encode(), "workers.rst").blocks if b.kind == "table"]
    assert table.rows[0] == header
    assert table.rows[-1] == ["%n", "worker1"]


def test_sphinx_viewcode_links_are_not_part_of_an_api_signature() -> None:
    # Sphinx's viewcode extension puts "[source]" after a signature and "[docs]" on the source page.
    html = ('<html><body><h1>Coverage</h1><dl class="py class"><dt class="sig sig-object py" id="CoverageBuilder">'
            '<em class="property">class </em><span class="sig-prename descclassname">sphinx.ext.coverage.</span>'
            '<span class="sig-name descname">CoverageBuilder</span><a class="reference internal" '
            'href="../_modules/sphinx/ext/coverage.html#CoverageBuilder"><span class="viewcode-link">[source]</span>'
            '</a></dt><dd><p>To use this builder, activate the coverage extension in your configuration file.</p>'
            '</dd></dl><p>Back <a class="viewcode-back" href="../coverage.html">[docs]</a> to the page.</p>'
            '</body></html>')
    text = all_text(parse_file(html.encode(), "coverage.html"))
    assert "sphinx.ext.coverage.CoverageBuilder: To use this builder" in text
    assert "[source]" not in text and "[docs]" not in text


def test_html_code_block_inside_a_list_item_or_definition_is_a_paragraph_of_its_own() -> None:
    # Sphinx puts a literal block inside the <li> or <dd> it belongs to; the items after it are text, not code.
    html = ("<html><body><h1>Setup</h1><ul><li><p>Configure git.</p><div class='highlight'><pre>"
            "$ git config --global user.name 'you'\n$ git config --global user.email 'you@x'\n</pre></div></li>"
            "<li><p>Make sure you have an account.</p></li><li><p>Clone the repository.</p></li></ul>"
            "<dl><dt>SERVER_NAME</dt><dd><p>The host and port.</p><div class='highlight'><pre>127.0.0.1 dev.local"
            "</pre></div><p>Default: None</p></dd></dl></body></html>")
    (block,) = parse_file(html.encode(), "setup.html").blocks
    assert _paragraph_kinds(block.text) == [
        (False, "- Configure git."), (True, "$ git config --global user.name 'you'"),
        (False, "- Make sure you have an account."),
        (False, "SERVER_NAME: The host and port."), (True, "127.0.0.1 dev.local"), (False, "SERVER_NAME: Default: None"),
    ]


def test_rst_code_block_inside_a_list_item_or_definition_is_a_paragraph_of_its_own() -> None:
    rst = ("Setup\n=====\n\n#. Configure git.\n\n   .. code-block:: sh\n\n      git config a\n      git config b\n\n"
           "#. Make sure you have an account.\n#. Clone it.\n\nterm\n    Definition first.\n\n    ::\n\n"
           "        code in the definition\n\n    Then more.\n")
    (block,) = parse_file(rst.encode(), "setup.rst").blocks
    assert _paragraph_kinds(block.text) == [
        (False, "1. Configure git."), (True, "git config a"), (False, "2. Make sure you have an account."),
        (False, "term: Definition first."), (True, "code in the definition"), (False, "term: Then more."),
    ]
    assert "git config a" not in block.text.split("\n")[0]


def test_rst_nested_list_items_are_lines_of_their_own() -> None:
    rst = "Fields\n======\n\n- lockfileVersion\n\n  - 1: npm v5 and v6\n  - 2: npm v7 and v8\n\n- packages\n"
    (block,) = parse_file(rst.encode(), "lock.rst").blocks
    assert block.text == "- lockfileVersion\n  - 1: npm v5 and v6\n  - 2: npm v7 and v8\n- packages"


def test_rst_directive_options_are_options_not_the_directive_argument() -> None:
    """A Sphinx directive's options (":sorted:", ":type: int", ":columns: 2") are read as options: the glossary
    keeps one "term: definition" per entry, an object description's term is its name, a list stays a list."""
    rst = ("Words\n=====\n\n.. glossary::\n    :sorted:\n\n    spool\n        A queue of jobs kept on disk.\n\n"
           "    drain\n        Finish the jobs in hand and take no new ones.\n\n"
           ".. attribute:: spool_size\n    :type: int\n\n    The most jobs a spool holds.\n\n"
           ".. hlist::\n    :columns: 2\n\n    - printers\n    - plotters\n")
    assert _paragraphs_of(rst, "words.rst") == [
        "spool: A queue of jobs kept on disk.", "drain: Finish the jobs in hand and take no new ones.",
        "spool_size: The most jobs a spool holds.\nType: int", "- printers\n- plotters",
    ]


def test_rst_class_description_keeps_its_name_and_its_members_are_definitions_of_their_own() -> None:
    """In Sphinx sources ".. class:: Name(args)" describes a class (docutils' own "class" directive would drop the
    name); the methods and attributes described inside it are paragraphs of their own, each with its term, and
    a note inside one keeps its label."""
    rst = ("Queues\n======\n\n.. class:: Spool(path, size=10)\n\n   A queue of jobs kept on disk.\n\n"
           "   .. method:: put(job, block=True)\n\n      Put *job* into the spool.  Blocks when full.\n\n"
           "      .. note:: Not thread safe.\n\n   .. attribute:: maxsize\n\n      The most jobs the spool holds.\n")
    assert _paragraphs_of(rst, "queues.rst") == [
        "Spool(path, size=10): A queue of jobs kept on disk.",
        "put(job, block=True): Put job into the spool. Blocks when full.\nNote: Not thread safe.",
        "maxsize: The most jobs the spool holds.",
    ]


def test_txt_file_written_in_rest_is_read_as_rest_and_plain_text_stays_plain() -> None:
    """Sphinx projects often keep their sources as .txt: such a file is read as reStructuredText (no roles,
    directives or literal quotes left in the text, headings from its underlines); a plain .txt whose headings are
    underlined but that has no reST markup is read as plain text."""
    rest = ("=============\nUsing spools\n=============\n\n.. module:: spoolkit.spools\n\n"
            "Enabling spools\n===============\n\nSet :setting:`SPOOL_ENGINE` to ``\"spoolkit.db\"``:\n\n"
            ".. code-block:: python\n\n    SPOOL_ENGINE = \"spoolkit.db\"\n")
    (block,) = parse_file(rest.encode(), "spools.txt").blocks
    assert block.heading_path == ("Using spools", "Enabling spools")
    assert block.text == 'Set SPOOL_ENGINE to "spoolkit.db":\n\n    SPOOL_ENGINE = "spoolkit.db"'
    # Read as reST, "*Add Printers*" would lose its asterisks (emphasis); plain text keeps what it says.
    plain = "PRINTERS\n\nAdding a printer\n----------------\nOpen Self Service: run *Add Printers*.\n"
    (block,) = parse_file(plain.encode(), "printers.txt").blocks
    assert "Open Self Service: run *Add Printers*." in block.text


def test_myst_markdown_directives_roles_and_targets_are_read_not_left_as_markup() -> None:
    """MyST pages (the Markdown of Sphinx projects): a note fence is a labelled paragraph, not code; a code-block
    fence is code; an option fence is "term: definition"; a table of contents and autodoc are dropped; roles
    show their text; "(label)=" targets go; a code span that only looks like a role stays as it is."""
    md = ("# Basics\n\n(usage)=\n## Usage\n\nSee {doc}`the style <style/index>` and {ref}`config`.\n"
          "The key is `${pkg.name}@{pkg.version}` here.\n\n"
          "```{note}\nUsing `--check` exits with code 1.\n```\n\n"
          "```{code-block} toml\n:caption: pyproject.toml\n\n[tool.spool]\nline-length = 88\n```\n\n"
          ":::{warning}\nSpool is in beta.\n:::\n\n"
          "```{toctree}\n:hidden:\n\nusage\n```\n\n"
          "````{option} --fast\n```{versionadded} 22.1\n```\nSkip the safety checks.\n````\n")
    (block,) = parse_file(md.encode(), "basics.md").blocks
    assert block.heading_path == ("Basics", "Usage")
    assert block.text.split("\n\n") == [
        "See the style and config. The key is ${pkg.name}@{pkg.version} here.",
        "Note: Using --check exits with code 1.",
        "    [tool.spool]\n    line-length = 88",
        "Warning: Spool is in beta.",
        "--fast: New in version 22.1. Skip the safety checks.",
    ]


def test_asciidoc_manual_page_keeps_its_name_section_from_the_header() -> None:
    """AsciiDoc writes a manual page's NAME section in <div id="header">, before <div id="content">: it is
    content ("spool-drain - Finish the jobs in hand"), the footer is not."""
    html = ('<html><head><meta name="generator" content="AsciiDoc 10.2.0"></head><body class="manpage">'
            '<div id="header"><h1>spool-drain(1) Manual Page</h1><h2>NAME</h2><div class="sectionbody">'
            '<p>spool-drain - Finish the jobs in hand</p></div></div><div id="content"><div class="sect1">'
            '<h2 id="_options">OPTIONS</h2><div class="sectionbody"><div class="dlist"><dl>'
            '<dt class="hdlist1">-n</dt><dt class="hdlist1">--dry-run</dt><dd><p>Show what would be drained.</p>'
            '</dd></dl></div></div></div><div id="footer"><div id="footer-text">Last updated 2023-08-21</div>'
            '</div></div></body></html>')
    blocks = parse_file(html.encode(), "spool-drain.html").blocks
    assert [(b.heading_path[-1], b.text) for b in blocks] == [
        ("NAME", "spool-drain - Finish the jobs in hand"), ("OPTIONS", "-n, --dry-run: Show what would be drained."),
    ]


def test_rest_label_directives_keep_their_argument_and_pep_roles_read_as_sphinx_shows_them() -> None:
    """".. seealso:: Module :mod:`zipfile`" and ".. availability:: Unix." say what they say in their argument;
    :pep:`8` and MyST's {pep}`8` read "PEP 8"."""
    rst = ("Spools\n======\n\nSee :pep:`8`.\n\n.. availability:: Unix, not WASI.\n\n"
           ".. seealso:: Module :mod:`zipfile`\n")
    assert _paragraphs_of(rst, "spools.rst") == ["See PEP 8.", "Availability: Unix, not WASI.", "See also: Module zipfile"]
    (block,) = parse_file("# Spools\n\nSee {pep}`8` and {rfc}`2616`.\n".encode(), "spools.md").blocks
    assert block.text == "See PEP 8 and RFC 2616."


def test_rest_version_notes_read_whole_and_conditions_are_no_terms() -> None:
    """A version note whose explanation starts on the line after the version reads "Changed in version 3.8: The
    size …" (not "3.8 The: size"); Python's deprecated-removed names both versions; ".. only:: html" and
    ".. rst-class:: wide" are conditions and styles, not terms of a definition."""
    rst = ("Spools\n======\n\n.. versionchanged:: 3.8\n   The *size* argument defaults to 10.\n\n"
           ".. deprecated-removed:: 3.9 3.11\n   Use :func:`drain` instead.\n\n"
           ".. only:: html\n\n   Spools are kept on disk.\n\n.. rst-class:: wide\n\nPlain text.\n")
    assert _paragraphs_of(rst, "spools.rst") == [
        "Changed in version 3.8: The size argument defaults to 10.",
        "Deprecated since version 3.9, removed in version 3.11: Use drain instead.",
        "Spools are kept on disk.", "Plain text.",
    ]


def test_rest_object_description_signatures_continued_or_stacked_read_as_one_term() -> None:
    """".. function:: dump(obj, fp, \\" continued on the next line is one signature; two signatures on two lines
    are both named, joined with a comma; an argument list that goes on to the next line is one signature, its
    escapes ("\\*\\*options") read as the characters."""
    rst = ("Spools\n======\n\n.. function:: dump(obj, fp, *, skipkeys=False, \\\n"
           "                   check_circular=True)\n\n   Serialize *obj* to *fp*.\n\n"
           ".. method:: Spool.split(sep=None)\n            Spool.rsplit(sep=None)\n\n   Split the spool.\n\n"
           ".. method:: Spool.put(job, block=True,\n                      \\*\\*options)\n\n   Put a job.\n")
    assert _paragraphs_of(rst, "spools.rst") == [
        "dump(obj, fp, *, skipkeys=False, check_circular=True): Serialize obj to fp.",
        "Spool.split(sep=None), Spool.rsplit(sep=None): Split the spool.",
        "Spool.put(job, block=True, **options): Put a job.",
    ]


def test_rest_substitution_sphinx_fills_from_its_configuration_reads_as_its_name() -> None:
    """"|version|" and "|release|" are filled by Sphinx from conf.py; undefined here, they read as their name, not
    as markup."""
    rst = "Spools\n======\n\nShipped with Spoolkit |version| (release |release|).\n"
    (block,) = parse_file(rst.encode(), "spools.rst").blocks
    assert block.text == "Shipped with Spoolkit version (release release)."


def test_rest_titled_admonition_leads_with_its_title() -> None:
    """".. admonition:: Why drain?" keeps its title before its text, as a note keeps "Note:"."""
    rst = ("Spools\n======\n\n.. admonition:: Why drain?\n\n    Draining avoids lost jobs.\n\n"
           ".. admonition:: Disk space\n\n    Spools need a fast disk.\n\n.. note:: Not encrypted.\n")
    assert _paragraphs_of(rst, "spools.rst") == ["Why drain? Draining avoids lost jobs.", "Disk space: Spools need a fast disk.",
                                        "Note: Not encrypted."]


def test_rest_object_description_shows_its_type_and_default_options() -> None:
    """".. confval:: name" with ":type:" and ":default:" options: Sphinx shows the type and the default under the name,
    and so does the text ("Default: None" after the description, under the name's term)."""
    rst = ("Options\n=======\n\n.. confval:: spool_logo\n   :type: :code-py:`str`\n   :default: :code-py:`None`\n\n"
           "   The image shown on the spool page.\n")
    (block,) = parse_file(rst.encode(), "options.rst").blocks
    assert block.text == "spool_logo: The image shown on the spool page.\nType: str\nDefault: None"


def test_myst_list_table_is_a_table_and_glossary_entries_are_definitions() -> None:
    """A MyST list-table ("* - a" rows) is a table with its header row; a MyST glossary is one "term: definition"
    paragraph per entry, a definition that goes on over two lines read whole."""
    md = ("# Spools\n\n```{list-table}\n:header-rows: 1\n\n* - Setting\n  - Default\n* - spool_size\n  - 10\n```\n\n"
          "```{glossary}\nspool\n  A queue of jobs on disk.\ndrain\n  Finish the jobs in hand\n  and take no new ones.\n```\n")
    table, text = parse_file(md.encode(), "spools.md").blocks
    assert table.kind == "table" and table.rows == [["Setting", "Default"], ["spool_size", "10"]]
    assert text.text.split("\n\n") == ["spool: A queue of jobs on disk.",
                                       "drain: Finish the jobs in hand and take no new ones."]
