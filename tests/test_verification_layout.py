"""The checker reads passages in the parser's layout: definition lists ("TERM: text" lines with "Default: …"
under them), code blocks on lines of their own, and examples a claim quotes from them. Cases written for
these rules, not taken from the evaluation sets."""

from __future__ import annotations

from verification.checks import Source, check_numbers, verify_answer

SETTINGS = Source(1, (
    "The worker reads these settings:\n\n"
    "QUEUE_BACKEND: A mapping of environments to the store where jobs wait.\n"
    "Default is to use 'redis' for 'production' and 'memory' for 'tests'.\n"
    "New in version 2.4.\n\n"
    "QUEUE_RETRY_DELAY: Seconds the worker waits between two tries of a job.\n"
    "Default: 10"
), title="Worker settings")


def test_a_term_owns_the_lines_of_its_definition() -> None:
    # "New in version 2.4." stands two lines under the term, beside other entities ('production'): the claim
    # still puts QUEUE_BACKEND where the document does.
    for answer in ("'memory' for 'tests', with QUEUE_BACKEND itself new in version 2.4 [1].",
                   "'tests' use 'memory', and QUEUE_BACKEND appeared in version 2.4 [1]."):
        report = verify_answer(answer, [SETTINGS])
        assert report.faithful, report.claims[0].reason


def test_a_swapped_term_is_still_caught() -> None:
    report = verify_answer("QUEUE_BACKEND is how many seconds the worker waits between two tries of a job [1].",
                           [SETTINGS])
    assert not report.faithful


ENGINES = Source(1, (
    "You can name the versions of the runtime your package works on:\n\n"
    "    {\n      \"engines\": {\n        \"runtime\": \">=4.2.0 <9\"\n      }\n    }\n\n"
    "You can also name the versions of the installer that can install it:\n\n"
    "    {\n      \"engines\": {\n        \"installer\": \"~1.3.5\"\n      }\n    }\n\n"
    "Unless engine-strict is set, this field is advisory only and produces warnings on install."
), title="package.json — engines")


def test_a_quoted_example_is_backed_where_it_stands() -> None:
    answer = ('Unless engine-strict is set, the engines field, for example "runtime": ">=4.2.0 <9", is advisory '
              "only and produces warnings on install [1].")
    report = verify_answer(answer, [ENGINES])
    assert report.faithful, report.claims[0].reason


def test_a_changed_number_in_a_quoted_example_is_caught() -> None:
    answer = ('Unless engine-strict is set, the engines field, for example "runtime": ">=4.3.0 <9", is advisory '
              "only and produces warnings on install [1].")
    assert not verify_answer(answer, [ENGINES]).faithful


EDITION = Source(1, (
    "Using this flag looks like this:\n\n"
    "    $ docgen src/lib.rs --edition 2021\n\n"
    "This flag makes docgen read your code as the given edition. It builds doc tests with that edition too. "
    "As with the compiler, the default edition is 2015 (the first edition)."
), title="docgen --edition")


def test_a_number_the_claim_states_is_no_rival_to_its_other_numbers() -> None:
    report = verify_answer("Like the compiler, docgen uses the 2015 edition, the first one, unless --edition (say "
                           "--edition 2021) says otherwise [1].", [EDITION])
    assert report.faithful, report.claims[0].reason
    assert not verify_answer("Like the compiler, docgen uses the 2018 edition, the first one, unless --edition "
                             "says otherwise [1].", [EDITION]).faithful


def test_the_number_guard_takes_no_rival_the_claim_states() -> None:
    claim = "docgen uses the 2015 edition unless --edition 2021 says otherwise."
    # Read against the aligned sentence alone, 2021 is not there; 2015 is, but the claim says 2015 too.
    assert check_numbers(claim, "The default edition is 2015.").status == "missing"
    assert check_numbers("docgen uses the 2018 edition.", "The default edition is 2015.").status == "conflict"


def test_a_call_named_with_empty_brackets_is_the_call_the_passage_makes() -> None:
    source = Source(1, "Set the values, then start the worker:\n\n    worker.config.update(\n        QUEUE='jobs',\n    )\n"
                       "    worker.start()", title="Worker")
    assert verify_answer("Set QUEUE through worker.config.update() and then call worker.start() [1].",
                         [source]).faithful
    assert not verify_answer("Set QUEUE through worker.config.replace() and then call worker.start() [1].",
                             [source]).faithful


def test_no_before_a_noun_negates_the_claim() -> None:
    source = Source(1, "No WRITE lock is taken until either the page buffer fills up and must be flushed to disk or "
                       "until the batch ends.", title="Locking")
    assert verify_answer("No WRITE lock is taken until either the page buffer fills up and must be flushed to disk "
                         "or the batch ends [1].", [source]).faithful
    assert verify_answer("No, a WRITE lock is not taken until the page buffer fills up and must be flushed to disk "
                         "or the batch ends [1].", [source]).faithful
    assert not verify_answer("A WRITE lock is taken until either the page buffer fills up and must be flushed to "
                             "disk or the batch ends [1].", [source]).faithful


def test_the_question_may_name_the_file_the_answer_says_back() -> None:
    source = Source(1, "To include other files, such as the static and templates directories, "
                       "include_package_data is set.", title="Project setup")
    answer = "In setup.py, include_package_data is set so the static and templates directories get included [1]."
    assert verify_answer(answer, [source], question="Why does setup.py set include_package_data?").faithful
    assert not verify_answer(answer, [source], question="Why is include_package_data set?").faithful



COOKIES = Source(1, (
    "SESSION_TTL: If session.persistent is true, the cookie expires this number of seconds in the future. "
    "Can either be a datetime.timedelta or an int.\n"
    "The default cookie implementation checks that the signature is not older than this value.\n"
    "Default: timedelta(days=31) (2678400 seconds)\n\n"
    "REFRESH_EACH_REQUEST: Whether the cookie is sent with every response when session.persistent is true.\n"
    "Default: True\n\n"
    "FILE_MAX_AGE: When serving files, set the cache control max age to this number of seconds. Can be a "
    "datetime.timedelta or an int. Override it per file with get_max_age() on the application.\n"
    "Default: None"), title="Session settings")


def test_a_later_sentence_of_a_definition_shown_with_its_term_is_a_quote() -> None:
    # Answers show a definition's later sentence with its term in front (knowledge.answering.units). The term
    # and the sentence both stand in the source, in that order: nothing in it took another entity's place,
    # though the words around datetime.timedelta there are nearer session.persistent than the term.
    report = verify_answer("SESSION_TTL: Can either be a datetime.timedelta or an int [1].", [COOKIES])
    assert report.faithful, report.claims[0].reason
    # The sentence must be the source's: a term put before a changed sentence is no quote.
    report = verify_answer("SESSION_TTL: Cannot be a datetime.timedelta or an int [1].", [COOKIES])
    assert not report.faithful


OPTIONS = Source(1, (
    "cache_skip_private: Skip objects whose name starts with an underscore. False by default. New in version 1.1.\n\n"
    "cache_show_stale: Print entries that are older than the source to standard output also. False by default. "
    "New in version 3.1.\n\n"
    "cache_dir: The directory the entries are written to. New in version 2.0."
), title="Cache settings")


def test_an_entrys_version_is_read_in_its_own_entry() -> None:
    # The claim's sentence aligns with a window that begins in the entry before ("... New in version 1.1.
    # cache_show_stale: Print ..."): the version the claim gives is the one of the entry it names.
    answer = ("Neither is on by default: cache_skip_private skips objects whose name starts with an underscore and "
              "came in version 1.1 [1]. cache_show_stale, which also prints entries older than the source to "
              "standard output, is False by default too and is new in version 3.1 [1].")
    report = verify_answer(answer, [OPTIONS])
    assert report.faithful, [v.reason for v in report.claims]


def test_an_entry_given_its_neighbours_version_is_caught() -> None:
    answer = ("cache_show_stale, which also prints entries older than the source to standard output, is False by "
              "default and is new in version 1.1 [1].")
    report = verify_answer(answer, [OPTIONS])
    assert not report.faithful
    assert "number" in report.claims[0].reason, report.claims[0].reason
