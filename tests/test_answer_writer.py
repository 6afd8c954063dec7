"""How the extractive writer chooses its units: which of two near-duplicates stays, what a list item, a lead-in or a
code block brings with it, and what an answer about a named identifier may quote."""

from __future__ import annotations

import pytest

from knowledge.answering.compose import compose
from tests.factories import scored
from tests.factories import text_candidates as _candidates


def test_of_two_sentences_that_differ_in_the_answering_words_the_better_one_stays() -> None:
    from knowledge.answering.compose import _without_repeats

    # Two parallel examples, alike in all but the words that answer: the one that scored higher is kept.
    text = ("With a prefix of APP and a command named sync, the host option is read from APP_SYNC_HOST. "
            "Nested commands add their own names in between. "
            "With a prefix of APP and a command named sync-all, the host option is read from APP_SYNC_ALL_HOST.")
    sentences = [c for c in _candidates(text) if c.unit.kind == "sentence"]
    sentences[0].score, sentences[2].score = 0.3, 0.7
    kept = [c.text for c in _without_repeats(sentences)]
    assert kept == [sentences[1].text, sentences[2].text]
    sentences[0].score, sentences[2].score = 0.7, 0.3
    assert [c.text for c in _without_repeats(sentences)] == [sentences[0].text, sentences[1].text]


def test_a_list_item_keeps_its_second_sentence_in_the_steps_and_on_its_line() -> None:
    # A build guide's list: the item's second sentence says how to turn the default off.
    text = ("The build has these defaults:\n"
            "- Debug builds enable assertions by default. Pass --disable-assertions to configure to turn them off.\n"
            "- Release builds strip symbols unless --keep-symbols is given.")
    candidates = _candidates(text)
    for candidate in candidates:
        if candidate.unit.kind == "window" and "--disable-assertions" in candidate.text:
            candidate.score = 5.0
    answer, chosen = compose(candidates, ["procedure"])
    assert "- Debug builds enable assertions by default [1]. Pass --disable-assertions to configure to turn them off [1]." \
        in answer, answer
    assert "\n- Release builds strip symbols" in answer, answer


@pytest.mark.parametrize("label, shown", [("Example:", False), ("config/startup.sh:", True)])
def test_a_lead_in_brings_its_code_past_a_label_of_its_own(label: str, shown: bool) -> None:
    text = (f"With a driver older than 470.2, start the window manager with the fallback flag like so:\n\n{label}\n\n"
            "    exec wm --fallback-outputs\n\nNewer drivers need no flag.")
    candidates = scored(_candidates(text), lambda c: 5.0 if c.text.endswith("like so:") else 0.1)
    answer, _ = compose(candidates)
    assert answer.startswith("With a driver older than 470.2, start the window manager with the fallback flag like so [1]:")
    assert "exec wm --fallback-outputs" in answer, answer
    assert (label.rstrip(":") in answer) is shown, answer


def test_an_answer_built_around_code_also_says_the_statement_nearly_as_good_as_it() -> None:
    # A testing guide: the example test ranks first, the sentence naming the argument close behind.
    text = ("The following test checks that the logout view sends a redirect response.\n\n    def test_logout(client):\n        response = client.get('/logout')\n"
            "        assert response.status_code == 302\n\n"
            "By passing follow_through=True to a request method, the client keeps requesting until a page is returned.")
    candidates = _candidates(text)
    for candidate in candidates:
        candidate.score = {"code": 1.0, "window": 0.05}.get(candidate.unit.kind, 0.6 if "follow_through" in candidate.text
                                                            else 0.5)
    answer, _ = compose(candidates)
    assert "def test_logout" in answer and "follow_through=True" in answer, answer
    # Far below the code, it stays out.
    for candidate in candidates:
        if "follow_through" in candidate.text:
            candidate.score = 0.2
    assert "follow_through" not in compose(candidates)[0]


def test_a_code_block_that_names_the_asked_identifier_keeps_the_sentence_that_introduces_it() -> None:
    from knowledge.answering.extractive import about_identifiers

    # The question names build_index(); only the code names it, the sentence before says what to do.
    text = ("The search index is built when the application starts.\n\n"
            "Wrap the call in a context block, and everything in it can reach the settings.\n\n"
            "    with app.settings_context():\n        build_index()\n\n"
            "Anything else that needs the settings belongs in a command.\n\n"
            "Commands run with the settings already loaded.\n\n"
            "Older releases loaded them lazily.")
    candidates = [c for c in _candidates(text) if c.unit.kind != "window"]
    for candidate in candidates:
        candidate.features = {"identifier_match": 1.0 if "build_index" in candidate.text else 0.0}
    kept = {c.text.split()[0] for c in about_identifiers(candidates, ["build_index"])}
    assert kept == {"Wrap", "with", "Anything", "Commands", "Older"}, kept


def test_a_how_to_answer_reads_on_to_the_code_that_shows_how() -> None:
    # A coverage guide: the chosen sentences say what to do; the lead-in and code after them show it.
    text = ("After a run, a file named default.prof is left in the working directory. It is often better to name "
            "the file yourself. Set the PROF_FILE variable to change it:\n\n    $ PROF_FILE=run-%p.prof ./app\n\n"
            "The %p pattern is replaced by the process ID.")
    candidates = scored(_candidates(text),
                        lambda c: 1.0 if c.unit.kind == "window" and c.text.startswith("After a run") else 0.01)
    asked, _ = compose(candidates, ["procedure", "default"])
    assert asked.endswith("Set the PROF_FILE variable to change it [1]:\n```\n$ PROF_FILE=run-%p.prof ./app\n```"), asked
    plain, _ = compose(candidates, ["default"])
    assert "PROF_FILE" not in plain, plain  # a question that does not ask how gets no code


def test_how_to_steps_read_on_from_a_code_block_start_at_what_introduces_it() -> None:
    # A flag's section: a lead-in, the example, then what the flag does (the best unit). The steps read on
    # from the code; without its lead-in the code would open the answer with no sentence to cite it.
    text = ("Using this flag looks like this:\n\n    $ builder src/main.conf --stamp-version 1.3.7\n\n"
            "When the builder receives this flag, it prints the version into the page footer. "
            "Use it to tell the builds of several releases apart.")
    candidates = scored(_candidates(text), lambda c: 2.0 if c.text.startswith("When the builder") else 0.1)
    answer, _ = compose(candidates, ["procedure"])
    assert answer.startswith("Using this flag looks like this [1]:\n```\n$ builder src/main.conf --stamp-version"), answer


def test_a_window_that_goes_on_from_the_chosen_one_brings_its_other_sentence() -> None:
    # The best pair of sentences and a nearly-as-good pair that shares its second sentence: the pair read on
    # from the answer, so its third sentence (which says how to delete one point) joins it.
    text = ("Points can be moved with the spin buttons. To delete all points, click the Reset Channel button. "
            "To delete one point, drag it onto an adjacent point. Curves also apply to the alpha channel.")
    pairs = {(0, 1): 0.9, (1, 2): 0.6}
    candidates = scored(_candidates(text), lambda c: pairs.get(tuple(p.position for p in c.unit.parts), 0.05))
    answer, _ = compose(candidates, [])
    assert "To delete one point, drag it onto an adjacent point [1]." in answer, answer
    assert "Curves also apply" not in answer, answer


def test_a_how_to_answer_shows_the_command_nearly_as_good_as_its_best_sentence() -> None:
    # The best passage explains the situation; another one introduces the command that does it.
    explains = _candidates("Running a script in every workspace fails when one of them does not define it. "
                           "Workspaces are listed in the root manifest.", n=1)
    shows = _candidates("Scripts run in the order the workspaces are listed.\n\n"
                        "By running the command with the --if-present flag, the tool skips workspaces missing it.\n\n"
                        "    tool run test --workspaces --if-present\n\n"
                        "Other flags are described in the reference.", n=2)
    candidates = scored([c for c in explains + shows if c.unit.kind != "window"],
                        lambda c: 0.9 if c.text.startswith("Running a script") else 0.8 if c.unit.kind == "code" else 0.05)
    answer, _ = compose(candidates, ["procedure"])
    assert "the tool skips workspaces missing it [2]." in answer, answer
    assert "```\ntool run test --workspaces --if-present\n```" in answer, answer


def test_a_code_block_no_sentence_introduces_is_led_by_the_label_over_it() -> None:
    # A merged chunk: a small section's name ("Synopsis") over its code, then the next section's text.
    text = ("Synopsis\n    tool adduser\n\n    alias: add-user\n\n"
            "Description\nCreate a new user in the registry and save the credentials.")
    candidates = scored([c for c in _candidates(text) if c.unit.kind != "window"],
                        lambda c: 0.9 if c.unit.kind == "code" else 0.1)
    answer, _ = compose(candidates, [])
    assert answer.startswith("Synopsis [1]:\n```\ntool adduser\n\nalias: add-user\n```"), answer


def test_of_several_named_identifiers_the_rarest_one_says_what_the_question_is_about() -> None:
    from knowledge.answering.extractive import about_identifiers
    from knowledge.lexicon import TermStats

    # "Which function do I define in conf.py to use sphinx.ext.linkcode?": every set-up section names conf.py,
    # only the extension's own text names sphinx.ext.linkcode.
    text = ("Open conf.py in the source directory.\n\n"
            "Add the extension to the extensions list in conf.py.\n\n"
            "The sphinx.ext.linkcode extension calls a linkcode_resolve function.\n\n"
            "It returns the URL of the source code.")
    candidates = [c for c in _candidates(text) if c.unit.kind != "window"]
    for candidate in candidates:
        candidate.features = {"identifier_match": 1.0 if "conf.py" in candidate.text or "linkcode" in candidate.text
                              else 0.0}
    stats = TermStats(total=5000, avg_length=80.0, df={"conf.py": 900, "sphinx.ext.linkcode": 3})
    asked = ["conf.py", "sphinx.ext.linkcode"]
    kept = {c.text.split()[0] for c in about_identifiers(candidates, asked, stats)}
    assert kept == {"The", "It"}, kept
    # Without document frequencies every unit naming either one may answer.
    assert {c.text.split()[0] for c in about_identifiers(candidates, asked)} == {"Open", "Add", "The", "It"}


def test_a_unit_names_an_identifier_only_as_a_whole() -> None:
    from knowledge.answering.extractive import names_identifier

    # "-p" is a short option of its own: "--package" and "-pb" do not name it, "-p," and "(-p)" do.
    assert names_identifier("the -p argument is a shorthand for --parseable.", "", "-p")
    assert names_identifier("pass it as (-p) or --parseable", "", "-p")
    assert not names_identifier("$ npm exec foo bar --package=@npmcli/foo", "", "-p")
    assert not names_identifier("use -pb to print both", "", "-p")
    # A longer name that holds it is another name; the section heading may name it too.
    assert not names_identifier("set session_cookie_name to change it.", "", "session_cookie")
    assert names_identifier("the cookie is renamed.", "configuration > session_cookie", "session_cookie")
    assert names_identifier("call app.config.from_prefixed_env() first.", "", "app.config")


def test_a_unit_holding_the_question_words_is_read_by_meaning_though_a_better_passage_ranks_first() -> None:
    """Only the best units by words are embedded and rescored; a unit of a later passage that holds nearly all
    of the question's words is embedded too, instead of being scaled down with the rest."""
    from knowledge.answering.extractive import rescore_densely
    from knowledge.embedding import get_embedder

    overview = " ".join(f"Objects of kind {i} in the framework are global objects, but not of the usual kind."
                        for i in range(10))
    candidates = [c for c in _candidates(overview, n=1) if c.unit.kind != "window"]
    later = [c for c in _candidates("Context locals are implemented using contextvars and LocalProxy.", n=2)
             if c.unit.kind != "window"]
    for c in candidates:
        c.score, c.features = 0.3, {"coverage": 0.4, "coverage_rel": 0.85, "passage_top": 1.0}
    for c in later:
        c.score, c.features = 0.05, {"coverage": 0.46, "coverage_rel": 0.98}
    embedder = get_embedder()
    query = embedder.embed(["What are context locals implemented with?"], kind="query")[0]
    rescore_densely(candidates + later, embedder.embed, query)
    assert len(candidates) > 8 and "unit_dense" not in candidates[-1].features  # the ninth best is not read
    assert "unit_dense" in later[0].features
    assert later[0].score != 0.05 * 0.5


def test_an_identifier_named_only_where_nothing_can_be_quoted_restricts_nothing() -> None:
    from knowledge.answering.extractive import about_identifiers

    # "-vvv" is named only by the example's arguments, a line too short to quote: the sentences before it answer.
    text = ("Sometimes an option should count how often it was given, which is what count=True does.\n\n"
            "The verbosity level then grows with every extra v on the command line.\n\n"
            "invoke(log, args=['-vvv'])")
    candidates = [c for c in _candidates(text) if c.unit.kind != "window"]
    for candidate in candidates:
        candidate.features = {"identifier_match": 1.0 if "-vvv" in candidate.text else 0.0}
    kept = about_identifiers(candidates, ["-vvv"])
    assert any(c.unit.quotable for c in kept), [c.text for c in kept]
    assert len(kept) == len(candidates)


def test_a_lead_in_brings_the_paragraph_it_introduces_when_that_is_no_list() -> None:
    # An inline list (or code a converted document left as plain text) stands as a paragraph of its own.
    text = ("The configuration can be printed for debugging.\n\n"
            "A configuration setting will be censored if the name contains any of these sub-strings:\n\n"
            "API, TOKEN, KEY, SECRET, PASS, SIGNATURE, DATABASE\n\n"
            "The censored values are shown as stars.")
    candidates = scored(_candidates(text), lambda c: 1.0 if c.unit.kind == "lead" else 0.1)
    answer, _ = compose(candidates, ["name"])
    assert answer.startswith("A configuration setting will be censored if the name contains any of these "
                             "sub-strings [1]:"), answer
    assert "SIGNATURE, DATABASE" in answer, answer
