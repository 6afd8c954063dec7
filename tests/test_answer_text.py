"""How extractive answers read: spacing around markers, captions, repeated sentences, code introductions."""

from __future__ import annotations

import dataclasses

from knowledge.answering.compose import _what_it_continues, compose
from knowledge.answering.render import render
from knowledge.answering.extractive import Candidate
from knowledge.answering.passages import SourcePassage
from knowledge.answering.units import units_of
from knowledge.parsing import parse_file
from tests.factories import text_candidates
from textcore.markers import renumber, strip_markers
from verification.checks import extract_claims
from verification.checks.guards import clean_text


def test_removing_a_marker_keeps_the_space_before_a_word_that_starts_with_a_dot() -> None:
    assert strip_markers("create a file named .github/workflows/ci.yml [1].") == \
        "create a file named .github/workflows/ci.yml."
    assert strip_markers("templates ending in .html, .htm [2] and the .. note:: directive [1].") == \
        "templates ending in .html, .htm and the .. note:: directive."
    assert renumber("a [3]. b [1]: c [5].", {3: 1, 1: 2}) == "a [1]. b [2]: c."
    assert clean_text("Files ending in .xhtml [1][9]. Next [9].", {9}, []) == "Files ending in .xhtml [1]. Next."


def test_bracketed_numbers_of_source_prose_are_no_markers_and_code_is_left_as_it_is() -> None:
    from textcore.markers import as_literal, parse_markers

    prose = "Keep d in the range [6, 8], or see note [3]."
    quoted = as_literal(prose)
    assert parse_markers(quoted + " [1]") == [1]
    assert renumber(quoted + " [2].", {2: 1}) == quoted + " [1]."
    assert quoted.replace("\u2060", "") == prose  # it reads the same
    code = "\n\n    sizes = [1, 2]\n    first = sizes[0]\n\nThe item items[0] comes first."
    assert as_literal(prose + code) == quoted + code  # code copied from an answer still runs


_candidates = text_candidates


def test_a_later_sentence_of_an_option_item_keeps_the_option_not_the_block_term() -> None:
    # Sphinx's theme options: the block defines the theme, each item one of its options.
    text = ("basic: This is a basically unstyled layout. There are these options:\n"
            "- nosidebar (true or false): Don't include the sidebar. Defaults to False.\n"
            "- sidebarwidth (int or str): Width of the sidebar in pixels. Defaults to 230 pixels.")
    shown = [u.text for u in units_of(text)]
    assert "nosidebar: Defaults to False." in shown
    assert "sidebarwidth: Defaults to 230 pixels." in shown
    assert "sidebarwidth (int or str): Width of the sidebar in pixels." in shown
    assert not any(t.startswith("basic: sidebarwidth") or t == "basic: Defaults to False." for t in shown)
    assert [u.term for u in units_of(text)][-1] == "sidebarwidth"


def test_a_list_is_no_definition_of_its_first_items_term() -> None:
    # Celery's introduction: the list's first item names a term; a later item without one is not its
    # definition ("- Python 2.7 or Python 3.5: Python 2.4 was …" read the list as one).
    text = ("- Python 2.7 or Python 3.5: Celery series 4.4 or earlier.\n- Python 2.6: Celery series 3.1 or earlier.\n"
            "- Python 2.4 was Celery series 2.2 or earlier.")
    shown = [u.text for u in units_of(text)]
    assert shown == ["Python 2.7 or Python 3.5: Celery series 4.4 or earlier.",
                     "Python 2.6: Celery series 3.1 or earlier.", "Python 2.4 was Celery series 2.2 or earlier."]


def test_a_paragraph_that_stops_before_a_list_is_its_lead_in() -> None:
    # Celery's introduction: "Celery version 5.2 runs on" and the list of Pythons under it; alone it became the
    # answer "Celery version 5.2 runs on [1]."
    text = ("Celery version 5.2 runs on\n\n- Python 3.7, 3.8, 3.9, 3.10\n- PyPy3.7, 3.8\n\n"
            "Celery 5.2.x requires Python 3.7 or newer.")
    units = units_of(text)
    assert [(u.kind, u.text) for u in units[:2]] == [("lead", "Celery version 5.2 runs on:"),
                                                     ("item", "Python 3.7, 3.8, 3.9, 3.10")]
    answer, _ = compose(_scored_lead(text))
    assert answer.startswith("Celery version 5.2 runs on [1]:") and "3.10" in answer, answer


def _scored_lead(text: str) -> list[Candidate]:
    candidates = text_candidates(text)
    for candidate in candidates:
        candidate.score = 1.0 if candidate.unit.kind == "lead" else 0.05
    return candidates


def test_a_file_name_or_a_stray_code_line_is_never_a_sentence_of_the_answer() -> None:
    # "6.0": a version note's number left alone on its line when a converter dropped "Changed in version".
    units = units_of("docs/source/conf.py\n\ninvoke(cli, args=['--help'])\n\n6.0\n\nThe default port is 8000.")
    quotable = {u.text: u.quotable for u in units}
    assert quotable == {"docs/source/conf.py": False, "invoke(cli, args=['--help'])": False, "6.0": False,
                        "The default port is 8000.": True}


def test_code_is_introduced_by_its_sentence_not_by_the_file_name_between_them() -> None:
    text = ("Add these lines at the top of the configuration file so autodoc finds the package.\n\n"
            "docs/source/conf.py\n\n    import sys\n    sys.path.insert(0, '..')")
    candidates = _candidates(text)
    code = next(c for c in candidates if c.unit.kind == "code")
    code.score = 5.0  # the code block is the best unit
    answer, _ = compose(candidates)
    assert answer.startswith("Add these lines at the top of the configuration file"), answer
    assert "docs/source/conf.py [1]" not in answer
    assert "```\nimport sys" in answer


def test_an_example_and_its_code_alone_are_no_answer() -> None:
    # Celery's rdb section: "Example usage:" and its code rank first, the sentence saying what it does next.
    text = ("Example usage:\n\n    from celery.contrib import rdb\n    rdb.set_trace()\n\n"
            "set_trace sets a break-point at the current location and creates a socket you can telnet into.")
    candidates = _candidates(text)
    for candidate in candidates:
        candidate.score = {"code": 5.0, "lead": 4.0, "window": 4.5}.get(candidate.unit.kind, 2.0)
    answer, chosen = compose(candidates)
    assert "set_trace sets a break-point" in answer and "rdb.set_trace()" in answer, answer
    # Too far below the example, the sentence stays out: the answer is the example as it was.
    for candidate in candidates:
        if candidate.unit.kind == "sentence":
            candidate.score = 0.5
    answer, _ = compose(candidates)
    assert "set_trace sets a break-point" not in answer and "rdb.set_trace()" in answer, answer


def test_a_sentence_two_sources_share_is_said_once() -> None:
    from knowledge.answering.compose import render, _without_repeats

    shared = "The signature must not be older than this value."
    first = _candidates(f"SESSION_LIFETIME sets how long a session lasts in seconds here. {shared}", n=1)
    second = _candidates(f"{shared} Sessions that are permanent use the lifetime as their expiry date.", n=2)
    # Both passages' sentences chosen (each passage's window expanded), in reading order.
    chosen = [c for c in first + second if c.unit.kind == "sentence"]
    answer = render(_without_repeats(chosen))
    assert answer.count("older than this value") == 1, answer
    assert answer.endswith("than this value [1]. Sessions that are permanent use the lifetime as their expiry date [2]."), \
        answer


SPHINX_CAPTION = """<html><body><main><h1>Deploying</h1>
<p>Create a workflow file in your repository with the following contents:</p>
<div class="literal-block-wrapper docutils container" id="id5">
<div class="code-block-caption"><span class="caption-text">.github/workflows/sphinx.yml</span>
<a class="headerlink" href="#id5" title="Permalink to this code">¶</a></div>
<div class="highlight-yaml notranslate"><div class="highlight"><pre>name: Sphinx build
on: push</pre></div></div></div>
</main></body></html>"""


def test_a_sphinx_code_caption_introduces_its_block() -> None:
    doc = parse_file(SPHINX_CAPTION.encode(), "deploying.html")
    text = "\n\n".join(b.text for b in doc.blocks)
    assert ".github/workflows/sphinx.yml:\n\n    name: Sphinx build" in text, text
    assert "¶" not in text


def test_a_sentence_about_this_flag_is_given_the_flag_its_section_is_about() -> None:
    from types import SimpleNamespace

    from knowledge.answering.compose import render

    # A chunk of two small sections: the first is cited under the second's heading, and keeps its own
    # heading as its first line.
    text = ("PRAGMA table_list\nThis pragma returns information about the tables and views in the schema.\n\n"
            "PRAGMA table_info\nThis pragma returns one row for each normal column in the named table.")
    hit = SimpleNamespace(text=text, heading_text="PRAGMA Statements > PRAGMA table_info")
    passage = SourcePassage(n=1, hits=[hit], score=1.0, text=text)
    units = [u for u in units_of(text) if u.text.startswith("This pragma")]
    assert [u.term for u in units] == ["", ""]
    first, second = (Candidate(passage, u) for u in units)
    assert render([first]) == ("table_list: This pragma returns information about the tables and views in the "
                                "schema [1].")
    assert render([second]) == "table_info: This pragma returns one row for each normal column in the named table [1]."
    # A sentence that names its subject, or follows one that did, is left as it is.
    assert render([second, second]).count("table_info") == 1


def test_a_how_to_answer_reads_on_through_the_next_commands() -> None:
    text = ("You can either clone the public repository:\n\n    $ git clone https://example.org/requests.git\n\n"
            "Or, download the tarball:\n\n    $ curl -OL https://example.org/requests/tarball/main\n\n"
            "You should see something like this:\n\n"
            "Once you have a copy of the source, install it into your site-packages easily:\n\n"
            "    $ cd requests\n    $ python -m pip install .")
    candidates = _candidates(text)
    lead = next(c for c in candidates if c.unit.kind == "lead")
    lead.score = 5.0  # the first lead-in is the best unit
    how_to, _ = compose(candidates, ["procedure"])
    assert "$ git clone" in how_to and "$ curl -OL" in how_to and "python -m pip install ." in how_to, how_to
    # A lead-in whose picture the answer cannot show is left out.
    assert "something like this" not in how_to
    # Any other question gets the command the best lead-in introduces, and no more.
    other, _ = compose(candidates, [])
    assert "$ git clone" in other and "$ curl" not in other, other


def test_the_passage_holding_the_asked_number_is_read_first() -> None:
    from knowledge.answering.compose import _fact_first

    overview = _candidates("Leave is available from the start of the year.", n=1)[0]
    table = _candidates("Length of service: under 3 years; Annual total: 20 days.", n=2)[0]
    asks = ["number", "count:days"]
    assert [c.passage.n for c in _fact_first([overview, table], asks)] == [2, 1]
    # Nothing moves when the first passage holds it, or when no quantity is asked for.
    assert [c.passage.n for c in _fact_first([table, overview], asks)] == [2, 1]
    assert [c.passage.n for c in _fact_first([overview, table], ["procedure"])] == [1, 2]


def test_a_how_to_answer_takes_the_list_the_best_unit_belongs_to_not_the_first_list_of_the_passage() -> None:
    text = ("Build targets:\n\n- make check runs the test suite.\n- make dist makes a tarball.\n\n"
            "Release builds are quiet. Debug builds enable address sanitizer by default. "
            "Use the --disable-sanitizers configure option to turn them off.")
    candidates = _candidates(text)
    best = next(c for c in candidates if c.unit.kind == "sentence" and "--disable-sanitizers" in c.text)
    best.score = 5.0
    how_to, _ = compose(candidates, ["procedure"])
    assert "--disable-sanitizers" in how_to, how_to
    assert "make dist" not in how_to, how_to
    # When the best unit is the lead-in of that list, or one of its items, the list's steps are the answer.
    lead = next(c for c in candidates if c.unit.kind == "lead")
    lead.score = 9.0
    steps, _ = compose(candidates, ["procedure"])
    assert "make check" in steps and "make dist" in steps, steps


def test_an_answer_about_a_named_option_may_read_on_past_the_sentence_naming_it_to_the_end_of_its_passage() -> None:
    from knowledge.answering.extractive import about_identifiers

    text = ("Generally you can invoke the command yourself.\n\n"
            "You can also call main but disable the standalone mode, so sys.exit is not called at the end.\n\n"
            "So you can do something like this:\n\n    command.main(['name'], standalone_mode=False)\n\n"
            "An unrelated closing remark about help pages.\n\nAnd another one.\n\nAnd a third.")
    candidates = _candidates(text)
    for c in candidates:
        c.features = {"identifier_match": 1.0 if "sys.exit" in c.text else 0.0}
    kept = {c.text.strip() for c in about_identifiers(candidates, ["sys.exit"]) if c.unit.kind != "window"}
    assert "So you can do something like this:" in kept
    assert "command.main(['name'], standalone_mode=False)" in kept
    # What follows it in its passage may still speak of it ("And a third."); what comes before it does not.
    assert "And a third." in kept and "Generally you can invoke the command yourself." not in kept


def test_a_how_to_answer_deep_in_a_long_list_holds_the_best_step() -> None:
    steps = "\n".join(f"- Step {n}: run task-{n} now." for n in range(1, 13))
    candidates = _candidates(f"Do the following:\n\n{steps}")
    best = next(c for c in candidates if c.unit.kind == "item" and "task-10 " in c.text)
    best.score = 5.0
    how_to, chosen = compose(candidates, ["procedure"])
    assert "task-10 " in how_to, how_to
    assert sum(1 for c in chosen if c.unit.kind == "item") <= 6


def test_every_sentence_of_a_table_row_carries_its_marker() -> None:
    # MkDocs' option table: a description cell of two sentences is one row, and both of its sentences are
    # claims of the answer, so each must name its source.
    text = ("| Name | Description | Default |\n| --- | --- | --- |\n"
            "| -b, --remote-branch | The remote branch to commit to for GitHub Pages. This overrides the value "
            "specified in config. | None |")
    (row,) = [c for c in _candidates(text) if c.unit.kind == "row"]
    answer, _ = compose([row])
    assert answer == ("Name: -b, --remote-branch; Description: The remote branch to commit to for GitHub Pages [1]. "
                      "This overrides the value specified in config; Default: None [1].")
    assert all(claim.citations == (1,) for claim in extract_claims(answer))


def test_a_table_without_column_names_reads_each_row_as_a_term_and_its_value() -> None:
    rst = ("Integration\n===========\n\n+---------+----------------+\n| Pyramid | pyramid_celery |\n"
           "+---------+----------------+\n| Flask   | not needed     |\n+---------+----------------+\n")
    (table,) = [b for b in parse_file(rst.encode(), "intro.rst").blocks if b.kind == "table"]
    assert [u.text for u in units_of(table.text) if u.kind == "row"] == ["Pyramid: pyramid_celery",
                                                                        "Flask: not needed"]


def test_a_bare_example_lead_in_comes_with_the_sentences_it_continues() -> None:
    # SQLite's FAQ: "Example:" alone says nothing; the sentences before it say what the example shows.
    text = ("The SQL standard specifies that single-quotes in strings are escaped by putting two single quotes in a "
            "row. SQL works like the Pascal programming language in this regard. Example:\n\n"
            "    INSERT INTO xyz VALUES('5 O''clock');\n\n(15) What is an SQLITE_SCHEMA error?")
    code_first = [dataclasses.replace(c, score=2.0) if c.unit.kind == "code" else c for c in _candidates(text)]
    answer, _ = compose(code_first)
    assert answer.startswith("The SQL standard specifies that single-quotes in strings are escaped by putting two "
                             "single quotes in a row [1]. SQL works like the Pascal programming language in this "
                             "regard [1]. Example [1]:\n```\nINSERT INTO xyz")
    # A file name before its code says what the code is: nothing is added before it.
    named = _candidates("Register the functions in the factory.\n\nflaskr/db.py:\n\n    def init_app(app):\n"
                        "        pass\n")
    lead, code = (next(c for c in named if c.unit.kind == kind) for kind in ("lead", "code"))
    assert _what_it_continues([lead, code], named) == [lead, code]


def test_an_answer_never_ends_on_a_lead_in_whose_code_is_not_there() -> None:
    # Click's docs: the passage ends on the lead-in; its example is in the next chunk.
    text = ("If you want to use the pager for a lot of text, you can pass a generator instead of a string. "
            "It shows the text page by page. Example:")
    units = [c for c in _candidates(text) if c.unit.kind != "window"]
    assert render(units) == ("If you want to use the pager for a lot of text, you can pass a generator instead of a "
                             "string [1]. It shows the text page by page [1].")
    stating = [c for c in units if c.unit.kind != "lead" or c.text != "Example:"]
    stating[-1] = dataclasses.replace(stating[-1], unit=dataclasses.replace(stating[-1].unit, kind="lead",
                                                                           text="It shows the text like this:"))
    assert render(stating).endswith("It shows the text like this [1].")


def test_a_settings_section_the_chunk_took_in_names_its_fields_and_sentences() -> None:
    """A chunk of several small settings sections shows each one's name as a bare line over its fields ("spoolsize"
    over "- Default: 15"). Its lines carry that name ("spoolsize: Default: 15"), so a default is never shown without
    whose default it is, and a short "Default: X" line with its name may answer; the type line stays a fragment. A
    paragraph whose first line is a caption over a sentence is not such a section, and ends the one before."""
    text = ("long\n- Default: false\n- Type: Boolean\n\nShow extended information.\n\n"
            "spoolsize\n- Default: 15\n- Type: Number\n\nThe most jobs a spool holds.\n\n"
            "Example\nRun the drain twice.")
    units = {u.text: u for u in units_of(text)}
    assert "spoolsize: Default: 15" in units and units["spoolsize: Default: 15"].quotable
    assert units["spoolsize: The most jobs a spool holds."].term == "spoolsize"
    assert units["long: Show extended information."].quotable
    assert not units["spoolsize: Type: Number"].quotable and not units["spoolsize"].quotable
    assert "Run the drain twice." in units and not any(t.startswith("spoolsize: Example") for t in units)


def test_a_passage_that_opens_with_a_settings_fields_is_named_by_its_own_section() -> None:
    """A passage whose text opens with a setting's fields ("Default: False") is that setting's section: its lines
    carry the section's name, which its heading path ends with; "debug mode" does not name DEBUG, a sentence that
    names it as written needs no prefix. A passage that opens with a sentence is not read so."""
    units = [u.text for u in units_of("Default: False\n\nA boolean that turns on debug mode.\n\n"
                                      "Never deploy with DEBUG on.", "DEBUG")]
    assert units == ["DEBUG: Default: False", "DEBUG: A boolean that turns on debug mode.", "Never deploy with DEBUG on."]
    assert [u.text for u in units_of("The directory spools live in.\n\nDefault: x", "SPOOL_DIR")] == [
        "The directory spools live in.", "Default: x"]


def test_a_definitions_default_line_with_its_term_may_answer() -> None:
    """"Default: None" under a definition's term is shown with the term ("SPOOL_HOST: Default: None") and may answer
    on its own; the same line with no name to carry stays a fragment."""
    units = {u.text: u for u in units_of("SPOOL_HOST: The host and port of the spool server.\nDefault: None")}
    assert units["SPOOL_HOST: Default: None"].quotable
    assert not units_of("Default: None")[0].quotable
