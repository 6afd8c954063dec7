"""How the checker reads real documentation passages: negations said in other words, an option's other spellings,
synonyms, table rows and the context of names (versions and counts: test_verification_counts.py). Each case is taken
from a real manual (Sphinx, Celery, Flask, Click, xargs), reworded as an answer would be."""

from __future__ import annotations

import pytest

from verification.checks import Source, verify_answer


def test_an_inflected_synonym_folds_into_the_stem_of_its_canonical_word() -> None:
    from verification.checks.text import stem

    # "alters" loses its "s" before the synonym table is read; it must still meet "change" and "changes".
    assert {stem(w) for w in ("alters", "alter", "modified", "change", "changes")} == {stem("change")}
    assert stem("prohibits") == stem("forbid")


def test_a_whether_clause_asks_and_negates_nothing() -> None:
    # Celery's prefetch limit: "without regard for whether the messages fit" restates "not respecting that
    # the messages may not fit"; the clause asks, so its missing "not" is no flipped statement.
    source = Source(1, "If it is zero, the worker will keep consuming messages, not respecting that there may be "
                       "other available worker nodes that may be able to process them sooner, or that the "
                       "messages may not even fit in memory.")
    answer = ("At zero the worker just keeps consuming messages, without regard for other worker nodes that could "
              "process them sooner or for whether the messages even fit in memory [1].")
    assert verify_answer(answer, [source]).faithful
    # Stated outright, the same words do flip the source.
    assert not verify_answer("At zero the worker keeps consuming messages, and the messages even fit in memory [1].",
                             [source]).faithful


def test_advice_against_a_thing_and_leaving_it_out_are_negations() -> None:
    # Flask's configuration reference and Click's groups, reworded.
    debug = Source(1, "This is set with the FLASK_DEBUG environment variable. Do not enable debug mode when "
                      "deploying in production.")
    assert verify_answer("It warns against enabling debug mode when deploying in production [1].", [debug]).faithful
    assert not verify_answer("It recommends enabling debug mode when deploying in production [1].", [debug]).faithful
    group = Source(1, "By default, a group is not invoked unless a subcommand is passed. In fact, not providing a "
                      "command automatically passes --help by default.")
    said = ("By default the group is not invoked unless a subcommand is passed, and leaving out the command "
            "automatically passes --help [1].")
    assert verify_answer(said, [group]).faithful
    assert not verify_answer(said.replace("leaving out", "providing"), [group]).faithful


def test_an_option_named_by_another_of_its_spellings_is_in_its_own_place() -> None:
    # xargs(1): each long option carries its short spellings in brackets; an answer may use either.
    source = Source(1, "The options --max-lines (-L, -l), --replace (-I, -i) and --max-args (-n) are mutually exclusive. "
                       "If some of them are specified together, then xargs will generally use the option specified last.")
    assert verify_answer("--max-lines, --replace and --max-args are mutually exclusive [1].", [source]).faithful
    assert verify_answer("-L, -I and -n are mutually exclusive [1].", [source]).faithful
    from verification.checks.context import _aliases

    _, alias = _aliases(("-T, --no-toc: Do not create a table of contents file.", "use --a, --b and --c"))
    assert alias == {"@--no-toc": "@-t"}  # a list of long options is no set of spellings


def test_a_bracketed_range_in_the_source_is_content_not_a_citation() -> None:
    # zstd(1): "[1-19]" is the range of levels, not a citation marker of the answer.
    source = Source(1, "-#: selects # compression level [1-19] (default: 3)\n\n"
                       "--ultra: unlocks high compression levels 20+ (maximum 22), using a lot more memory.")
    answer = "zstd takes levels 1 to 19, 3 by default, and --ultra opens levels up to 22 [1]."
    assert verify_answer(answer, [source]).faithful
    assert not verify_answer(answer.replace("19,", "17,"), [source]).faithful


def test_a_clause_is_compared_with_its_counterpart_in_any_cited_sentence() -> None:
    # Flask's class-based views: the answer's "if you don't set decorators" is the source's last sentence, not
    # the one that shares most of the answer's words ("Set View.decorators to a list of decorators to apply").
    source = Source(1, "The view class itself is not the view function. View decorators need to be applied to the view "
                       "function returned by as_view, not the class itself. Set View.decorators to a list of "
                       "decorators to apply.\n\n    class UserList(View):\n        decorators = [cache(minutes=2), "
                       "login_required]\n\n    app.add_url_rule('/users/', view_func=UserList.as_view())\n\nIf you didn\u2019t "
                       "set decorators, you could apply them manually instead.")
    answer = ("If you don't set decorators, you can apply them by hand to the result of as_view before passing it to "
              "add_url_rule [1].")
    assert verify_answer(answer, [source]).faithful
    assert not verify_answer("The view class itself is the view function [1].", [source]).faithful


def test_a_capitalised_plural_starting_a_sentence_is_an_ordinary_word() -> None:
    from textcore.identifiers import names

    # Flask's configuration reference: "Browsers" opens two definitions; as rare as its plural reads, the
    # singular "browser" is everyday English, so it is no name that "True" could have taken the place of.
    source = Source(1, "SESSION_COOKIE_NAME: The name of the session cookie. Can be changed in case you already "
                       "have a cookie with the same name.\nDefault: 'session'\n\nSESSION_COOKIE_HTTPONLY: Browsers "
                       "will not allow JavaScript access to cookies marked as “HTTP only” for security.\nDefault: "
                       "True\n\nSESSION_COOKIE_SECURE: Browsers will only send cookies with requests over HTTPS if "
                       "the cookie is marked “secure”. The application must be served over HTTPS for this to make "
                       "sense.\nDefault: False")
    answer = ("SESSION_COOKIE_NAME defaults to 'session' [1]. SESSION_COOKIE_HTTPONLY defaults to True, while "
              "SESSION_COOKIE_SECURE defaults to False [1].")
    assert verify_answer(answer, [source]).faithful
    assert "Browsers" not in names("SESSION_COOKIE_HTTPONLY: Browsers will not allow it.")
    assert names("Okta Verify sends a push.") == ["Okta Verify"]
    assert names("Then the Celery worker retries.") == ["Celery"]


# Each reading: a passage, a faithful reworded answer the reading lets pass, and a corrupted one still caught.
# Sphinx's deployment page numbers the steps of its CI job.
_CI_STEPS = ("This contains a GitLab CI workflow with one job of several steps:\n1. Install the necessary dependencies.\n"
             "2. Build the HTML documentation using Sphinx.\n3. Move the output to a known artifacts location.")

READINGS = {
    # Sphinx's deployment page numbers the steps of its CI job; an answer counts them and lists them after a
    # colon, items of any length set apart by commas: the count is the answer's own.
    "a count of the items listed after a colon": (
        _CI_STEPS,
        "The job has three steps: installing the dependencies, building the HTML documentation with Sphinx, and "
        "moving the output to a known artifacts location [1].", ("three", "four")),
    # The same count in digits counts the answer's own list as well; a changed count no longer matches it.
    "a count in digits of the items listed after a colon": (
        _CI_STEPS,
        "It's a workflow with one job of 3 steps: installing the needed dependencies, building the HTML docs with "
        "Sphinx, and moving the output to a known artifacts location [1].", ("3 steps", "4 steps")),
    # SQLite's FTS5 page lists four more kinds of search and never says "four": the list states the count.
    "a spelled count of what a source lists": (
        "As well as searching for all rows that contain a term, FTS5 allows the user to search for rows that "
        "contain:\n- any terms that begin with a specified prefix,\n- \"phrases\",\n- sets of terms that appear "
        "within a specified proximity of each other, or\n- boolean combinations of any of the above.",
        "Besides single terms, FTS5 can search for four more kinds of things [1].", ("four", "five")),
    # npm's configuration files differ by the folder their path starts from: a path is copied exactly.
    "a file path is an identifier": (
        "Per-user config file\n$HOME/.npmrc (or the userconfig param, if set in the environment or on the command "
        "line)\n\nGlobal config file\n$PREFIX/etc/npmrc (or the globalconfig param, if set above)",
        "The per-user file is $HOME/.npmrc, or the userconfig param if set [1].", ("$HOME/.npmrc", "$PREFIX/.npmrc")),
    # "45-degree" is the number 45 with its unit, checked as a number, not a code to find verbatim.
    "a number hyphened to its unit is a quantity": (
        "Holding Shift while dragging snaps the guide to 45 degrees increments.",
        "Hold Shift while you drag and the guide snaps in 45-degree increments [1].", ("45-degree", "30-degree")),
    "a negative-prefixed word said twice negates once": (
        "To learn how the scheduler handles unassigned tasks, see the unassigned tasks page.",
        "The unassigned tasks page explains how the scheduler handles unassigned tasks [1].",
        ("unassigned", "assigned")),
    # "When no cache is configured:" says when the items hold; they are not negated by it.
    "a negation in a lead-in's condition does not reach its items": (
        "When no cache is configured:\n\n- Requests go straight to the backend.\n"
        "- Responses are kept in memory for one request.",
        "If you haven't set up a cache, requests go straight to the backend [1].",
        ("requests go", "requests never go")),
    "a code described with a hyphened word is that code": (
        "Attachments are sent as Base32 text, which is about 60% larger than the raw bytes.",
        "Attachments go out Base32-encoded, so they are about 60% larger than the raw bytes [1].",
        ("Base32", "Base64")),
    # "only when P" says "not unless P", and "only once P" says "not until P".
    "only when is not unless": (
        "When cooling is enabled, the fan spins only when the sensor reads above 40 degrees.",
        "With cooling on, the fan won't spin unless the sensor reads above 40 degrees [1].",
        ("won't spin", "will spin")),
    "only once is not until": (
        "No summary is written until the job has finished.",
        "A summary is written only once the job has finished [1].", ("only once", "once")),
    # "and the upload job finishes when …" has a verb of its own: the negation before "and" stays in its clause.
    "a conjunct with its own subordinate clause keeps its own polarity": (
        "The archiver does not compress the files. The upload job finishes when the last part is stored.",
        "The archiver doesn't compress the files, and the upload job finishes when the last part is stored [1].",
        ("job finishes", "job never finishes")),
    # "your" opens a noun phrase as "the" does: the object after "or" shares the verb's negation.
    "a possessive opens a coordinated object": (
        "Settings saved in one profile will not affect other profiles or the system's defaults.",
        "Settings you save in one profile won't affect other profiles or your system's defaults [1].",
        ("won't affect", "will affect")),
    # "barely changes" says "almost does not change", as "almost unchanged" does.
    "barely and hardly negate": (
        "The configuration format has stayed almost unchanged since version 2.",
        "The configuration format has barely changed since version 2 [1].", ("barely changed", "changed a lot")),
    # "Yep, Celery ships it": a name does not run across a comma, so "Yep" is no part of a name.
    "a name does not run across a comma": (
        "Celery ships the plugin in a disabled state.",
        "Yep, Celery ships the plugin disabled [1].", ("Celery", "Kombu")),
    # A claim that joins two sentences may take one pole from each ("written" from the first, "read" from the
    # second): the first sentence states the claim's pole.
    "an antonym the passage states elsewhere is no flip": (
        "When writing data to a tape, the tool pads it with zeroes. When the data is read, the restore tool "
        "detects the trailing zeroes after the data and warns about them by default.",
        "Data written to a tape is padded with zeroes, so the restore tool detects the trailing zeroes after the "
        "data and warns about them by default [1].", ("warns about them", "never warns about them")),
    # "If no path or --config option is provided": "no" covers both, and "is provided" is said of both.
    "no before a coordination negates both": (
        "If no path or --config option is provided, the tool reads its settings from the current folder.",
        "Without a path or the --config option, the tool reads its settings from the current folder [1].",
        ("Without a path", "With a path")),
    # "lib@2.4.1" states the version 2.4.1, though the number guard does not read numbers inside a code.
    "a version written in a package spec is stated": (
        "Running update installs lib@2.4.1 because that is the newest release the app allows.",
        "Update installs 2.4.1, because that is the newest release the app allows [1].", ("2.4.1", "2.5.0")),
    # The quoted command is read without its URL (the URL guard checks it); the passage's line is read the same way.
    "a quoted command is compared without its URL": (
        "To watch packages belonging to the user alice, run:\n\n    $ hookctl add ~alice https://example.com/ "
        "secret-token",
        "To watch alice's packages, run `hookctl add ~alice https://example.com/ secret-token` [1].",
        ("~alice https", "~bob https")),
    # Python's None printed as a value is no "none": "Do not ignore result" stays one negation.
    "None as a value is no negation": (
        "Results are stored unless told otherwise:\n\n    >>> result.get()\n    None\n\n"
        "    >>> # Do not ignore the result (default)",
        "By default the result is not ignored [1].", ("is not ignored", "is ignored")),
    # "a USING or ON clause" is one noun phrase: the "or" between two keywords does not start a clause.
    "two keywords joined by or are one phrase": (
        "A USING or ON clause may not be added to a join that specifies the NATURAL keyword.",
        "You can't add a USING or ON clause to a join that uses NATURAL [1].", ("can't add", "can add")),
    # "Bootstep.__init__" is a Python name, not "init" in bold.
    "a dunder name is not bold": (
        "Every bootstep receives the value as a keyword argument to Bootstep.__init__.",
        "The value reaches each bootstep as a keyword argument of Bootstep.__init__ [1].",
        ("Bootstep.__init__", "Bootstep.__call__")),
    # "either on or off" names both poles of on / off: it takes no side for the firewall.
    "two poles joined by or take no side": (
        "Leave the firewall off for the first 10 minutes while the installer runs.",
        "The installer expects the firewall either on or off; keep it off for the first 10 minutes while it runs [1].",
        ("10 minutes", "20 minutes")),
    # "instead of X" sets X aside, as "does not use X" does; the contrast turned round (the passage's X put in
    # place of what it uses) still contradicts it.
    "a contrast sets aside what follows it": (
        "Flask does not use the current working directory to find templates. It uses the package name.",
        "Flask finds templates through the package name instead of the current working directory [1].",
        ("package name instead of the current working directory",
         "current working directory instead of the package name")),
    # "without it" opening a clause points back at what was said: "otherwise", a condition that negates no verb.
    "without it opening a clause is otherwise": (
        "Call setup() first. Otherwise the worker does not accept signed messages.",
        "Call setup() first; without it the worker won't accept signed messages [1].", ("won't accept", "will accept")),
    # "as" before a subject opens a clause of its own ("as it is not moving" == "because it is not moving").
    "as before a subject opens a clause": (
        "The pen leaves no mark while the pointer stands still.",
        "The pen does not leave a mark as it is not moving [1].", ("does not leave", "leaves")),
    # "on the queue" is a preposition before its noun phrase, not the pole of "keeps the queue off".
    # Sphinx's autodoc events: an antonym is flipped by the negations of its own clause only.
    "an antonym is flipped only by the negations of its own clause": (
        "signature – function signature, as a string, or None if introspection didn’t succeed and signature "
        "wasn’t specified in the directive.",
        "signature is None when introspection failed and no signature was given in the directive [1].",
        ("failed", "succeeded")),
    # Flask's "Notes On Proxies": the lead-in's first clause says "you don't have to care"; only its last clause,
    # which introduces the list, reaches the items, and the item says "cannot" on its own.
    "only the last clause of a list lead-in reaches its items": (
        "Most of the time you don't have to care about that, but there are some exceptions where it is good to know "
        "that this object is actually a proxy:\n- The proxy objects cannot fake their type as the actual object "
        "types.",
        "A proxy can't fake its type as the actual object type [1].", ("can't", "can")),
    "on before a noun phrase is a preposition": (
        "The scheduler keeps the queue off until startup finishes; then it runs the jobs in the queue.",
        "Once startup finishes, the scheduler runs the jobs on the queue [1].", ("runs the jobs", "never runs the jobs")),
}


@pytest.mark.parametrize("reading", list(READINGS))
def test_a_reading_passes_the_faithful_answer_and_still_catches_the_corrupted_one(reading: str) -> None:
    passage, answer, (said, corrupted) = READINGS[reading]
    source = Source(1, passage)
    assert verify_answer(answer, [source]).faithful
    assert not verify_answer(answer.replace(said, corrupted), [source]).faithful


# MkDocs' gh-deploy options, as the parsers write a table.
GH_DEPLOY_OPTIONS = Source(1, "Options:\n\n| Name | Description | Default |\n| --- | --- | --- |\n"
                              "| -m, --message | A commit message to use. Commit {sha} is available as an expansion. "
                              "| None |\n| -b, --remote-branch | The remote branch to commit to. This overrides the "
                              "config. | gh-pages |\n| -r, --remote-name | The remote name to push to. | origin |\n")


def test_a_claim_from_a_table_row_is_read_against_that_row() -> None:
    # The writer reads a row as "Header: value; …" and may quote the second sentence of a cell with the cells
    # after it; the checker reads the source's rows the same way, not as pipes.
    source = GH_DEPLOY_OPTIONS
    assert verify_answer("Commit {sha} is available as an expansion; Default: None [1].", [source]).faithful
    assert verify_answer("Name: -b, --remote-branch; Description: The remote branch to commit to [1]. "
                         "This overrides the config; Default: gh-pages [1].", [source]).faithful
    assert not verify_answer("This overrides the config; Default: 42 [1].", [source]).faithful


def test_a_claim_that_joins_two_rows_of_a_table_is_caught() -> None:
    # Each value in the claim is in the table, but not in the claimed option's row.
    source = GH_DEPLOY_OPTIONS
    assert verify_answer("Name: -r, --remote-name; Description: The remote name to push to; Default: origin [1].",
                         [source]).faithful
    mixed = verify_answer("Name: -r, --remote-name; Description: The remote name to push to; Default: gh-pages [1].",
                          [source])
    assert not mixed.faithful and "table rows mixed" in mixed.claims[0].reason
    assert not verify_answer("Name: -b, --remote-branch; Description: A commit message to use [1].", [source]).faithful
    # A table without column names pairs a term with its value.
    integrations = Source(1, "| | |\n| --- | --- |\n| Pyramid | pyramid_celery |\n| Flask | not needed |\n")
    assert verify_answer("Pyramid: pyramid_celery [1].", [integrations]).faithful
    assert not verify_answer("Pyramid: not needed [1].", [integrations]).faithful


def test_a_rival_named_in_the_same_source_sentence_must_agree_more_to_be_an_exchange() -> None:
    # rustc's linker-plugin LTO page sets its variables line by line; GIMP's paintbrush page lists its options in
    # one sentence. A claim rewording such a sentence shares words with every name in it; only a rival that
    # agrees markedly (cut-off `context_min_rival_shared`) says one name took another's place.
    rustc = Source(1, "If you have dependencies using the cc crate, you will need to set these environment variables:"
                      "\n\n    set CC=clang-cl\n    set CXX=clang-cl\n"
                      "    set CFLAGS=/clang:-flto=thin /clang:-fuse-ld=lld-link\n"
                      "    REM Needed because msvc's lib.exe crashes on LLVM LTO .obj files\n    set AR=llvm-lib")
    gimp = Source(1, "Mode; Opacity; Brush; Size; Aspect Ratio; Angle; Spacing; Hardness; Dynamics; Dynamics Options; "
                     "Force; Apply Jitter; Smooth Stroke; Lock brush size to view; Incremental: See the Common Paint "
                     "Tool Options for a description of tool options that apply to many or all paint tools.")
    assert verify_answer("The AR setting is needed because msvc's lib.exe crashes on LLVM LTO .obj files [1].",
                         [rustc]).faithful
    assert verify_answer("Options such as Mode, Opacity, Brush, Size and Dynamics are covered in the Common Paint "
                         "Tool Options [1].", [gimp]).faithful
    report = verify_answer("AR is set to clang-cl [1].", [rustc])
    assert not report.faithful and "out of place" in report.claims[0].reason
