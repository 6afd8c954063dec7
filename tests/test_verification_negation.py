"""The names guard and the reading of negations: who a claim names, and what it negates, against its sources."""

from __future__ import annotations

import pytest

from verification.checks import Source, verify_answer
from verification.checks.negation import clause_of, flips, tokens


def assert_reads(answer: str, sources: list[Source], faithful: bool) -> None:
    """The checker reads the answer as faithful to the sources, or not, as the case says; the reasons show why."""
    report = verify_answer(answer, sources)
    assert report.faithful is faithful, [(v.verdict, v.reason) for v in report.claims]


NAME_SOURCE = ("With manager approval, you may take PTO before it has accrued, down to a balance of minus 3 days. "
               "The outgoing primary writes a handoff note before 10:00 Pacific on Monday.")


@pytest.mark.parametrize("answer, faithful", [
    ("With manager approval, you may take PTO before it has accrued [1].", True),
    ("With People Operations approval, your manager may grant PTO before it has accrued [1].", False),
    ("The outgoing primary writes a handoff note before 10:00 Pacific on Monday [1].", True),
    ("The incoming primary writes a handoff note before 10:00 Pacific on Monday [1].", False),
    ("The outgoing primary writes the handoff note before 10:00 Pacific time on Monday [1].", True),
])
def test_names_absent_from_the_source_and_swapped_directions_are_caught(answer: str, faithful: bool) -> None:
    assert_reads(answer, [Source(n=1, text=NAME_SOURCE)], faithful)


@pytest.mark.parametrize("text, names", [
    ("Employees ask People Operations first.", ["People Operations"]),
    ("The Finance Controller's approval is needed.", ["Finance Controller"]),
    ("With manager approval you may borrow.", []),
    ("Okta Verify is required on Monday.", ["Okta Verify"]),
])
def test_claim_names(text: str, names: list[str]) -> None:
    from verification.checks.names import claim_names

    assert claim_names(text) == names


@pytest.mark.parametrize("text, names", [
    ("Using BSD-style options is fine.", ["BSD-style"]),
    ("Relatedly, Okta Verify works.", ["Okta Verify"]),
    # A noun made from a word ("Atomicity", "Replication") starting a sentence is no name either.
    ("Atomicity across all attached databases is guaranteed.", []),
    ("Replication to Okta Verify is off.", ["Okta Verify"]),
])
def test_a_capitalised_ordinary_word_does_not_start_a_name(text: str, names: list[str]) -> None:
    from verification.checks.names import claim_names

    assert claim_names(text) == names


HANDBOOK = Source(1, "Laptops are replaced every three years. The service desk keeps two spare laptops per office.",
                  title="Hardware Policy — Northwind IT Handbook")


@pytest.mark.parametrize("answer, faithful", [
    # The product or owner a passage never repeats is in its document's title.
    ("Northwind replaces laptops every three years [1].", True),
    ("Contoso replaces laptops every three years [1].", False),
])
def test_the_document_title_is_context_for_names(answer: str, faithful: bool) -> None:
    assert_reads(answer, [HANDBOOK], faithful)


def test_an_acronym_in_the_plural_counts_as_the_acronym() -> None:
    from verification.checks.names import check_names

    assert check_names("Clients send POSTs to the proxy.", "The proxy accepts POST requests.").status == "pass"
    assert check_names("Clients send PUTs to the proxy.", "The proxy accepts POST requests.").status == "missing"


@pytest.mark.parametrize("claim, source, status", [
    # "no" before a word negates that word only, on either side.
    ("With rubber-banding there is no \"first item\" target to align the layers on.",
     "Note that now there is no target \"first item\" the selected layers can be aligned on.", "pass"),
    # A negative prefix negates its own word, not the verb after it.
    ("Unpublishing removes a package version from the registry and deletes its entry.",
     "This removes a package version from the registry, deleting its entry.", "pass"),
    # A negation that moved within its clause says the same.
    ("It works for options that are reasonably unlikely to cause harm.",
     "It works for options that are reasonably likely to not cause too much harm.", "pass"),
    # The source negates the same word in another clause.
    ("make -n prints the commands that would be executed without executing them.",
     "Print the commands that would be executed, but do not execute them.", "pass"),
    # "skip" negates like "do not".
    ("The --no-toc flag skips creating a table of contents file.",
     "--no-toc: Do not create a table of contents file.", "pass"),
    # A negation far from an antonym word negates its own verb: "does not exist ... static folder".
    ("Blueprint static folders are not searched when a file is missing from the application static folder.",
     "Blueprint static folders are not searched if the file does not exist in the application static folder.",
     "pass"),
    # Still caught: the same statement with its negation flipped.
    ("The nightly job does not delete backups older than 30 days.",
     "The nightly job deletes backups older than 30 days.", "conflict"),
])
def test_polarity_reads_negation_scope(claim: str, source: str, status: str) -> None:
    from verification.checks.polarity import check_polarity
    from verification.checks.types import fitted_thresholds

    th = fitted_thresholds()
    result = check_polarity(claim, [source], th.polarity_min_shared, th.polarity_max_gap, th.polarity_alignment,
                            th.polarity_context, th.polarity_clause_share)
    assert result.status == status, result.detail


@pytest.mark.parametrize("claim, conflict", [
    ("You will not get an answer from a maintainer within two days at most.", True),
    ("Within two days at most you will get an answer from a maintainer.", False),
])
def test_clauses_are_compared_when_the_claim_is_reworded(claim: str, conflict: bool) -> None:
    """A reworded claim has no word-for-word counterpart; its clause's counterpart in the source
    (most of its specific words) still says whether it is negated."""
    source = "A maintainer of the project will answer your report within two days at most."
    assert _clauses_conflict(claim, source) is conflict


def _clauses_conflict(claim: str, source: str) -> bool:
    from verification.checks.negation import tokens
    from verification.checks.polarity import _clause_conflict

    return bool(_clause_conflict(tokens(claim), [tokens(source)], 0.6))


@pytest.mark.parametrize("claim, conflict", [
    # A negation reaches over the things it coordinates: "never ... or a form library".
    ("The framework will never have a database layer or a form library.", False),
    ("The framework will never have a database layer but it has a form library.", True),
    # A conjunct with a verb of its own is a clause of its own.
    ("The framework will not have a database layer and it is a form library.", True),
])
def test_a_negation_reaches_over_coordinated_objects(claim: str, conflict: bool) -> None:
    source = "The framework will not have a database layer. It will not have a form library."
    assert _clauses_conflict(claim, source) is conflict


def test_after_a_comma_and_opens_a_clause_of_its_own() -> None:
    # GIMP's Clone tool: "you will not be able to paint with the Clone tool: the tool cursor tells you this".
    source = "Until you have set the source, you will not be able to paint: the tool cursor tells you this."
    assert not _clauses_conflict("Until the source is set you can't paint, and the tool cursor tells you this.",
                                 source)
    assert _clauses_conflict("Until the source is set you can't paint, and the tool cursor never tells you this.",
                             source)


def test_in_the_absence_of_a_thing_there_is_none() -> None:
    # Sphinx's LaTeX tables: "In absence of the tabularcolumns directive, … Sphinx uses tabulary".
    source = Source(1, "In absence of the tabularcolumns directive, and for a table with at most 30 rows, Sphinx "
                       "uses tabulary and the J column-type for every column.")
    assert verify_answer("If there's no tabularcolumns directive and the table has at most 30 rows, Sphinx uses "
                         "tabulary for every column [1].", [source]).faithful


def test_leaving_a_thing_out_omits_it() -> None:
    from verification.checks.negation import tokens

    # npm's workspaces: "will cause npm to operate only on the specified workspaces, and not on the root project".
    assert "omit" in [t.key for t in tokens("npm acts only on those workspaces and leaves the root project out.")]
    assert not _clauses_conflict("npm acts on the workspaces and leaves the root project out.",
                                 "npm operates on the specified workspaces, and not on the root project.")


@pytest.mark.parametrize("answer, faithful", [
    ("No, not with the prefork pool: there the signal is dispatched in the parent process [1].", True),
    ("Not for the whole file: the size reported applies to the last member only [1].", True),
    ("With the prefork pool the signal is not dispatched in the parent process [1].", False),
])
def test_a_not_qualifier_before_a_colon_answers_the_question(answer: str, faithful: bool) -> None:
    source = Source(1, "Using the prefork pool this signal is dispatched in the parent process. If a file "
                       "consists of several members, the size reported applies to the last member only.")
    assert_reads(answer, [source], faithful)


@pytest.mark.parametrize("source, faithful", [
    # "Laptops are replaced, phones are not": the negated clause ends on its negation and borrows the
    # predicate of the clause before it.
    ("Laptops are replaced by the service desk every three years, phones are not (the carrier handles them).",
     True),
    ("Laptops are replaced by the service desk every three years, phones as well (the carrier helps).", False),
])
def test_a_clause_ending_on_its_negation_negates_the_clause_before(source: str, faithful: bool) -> None:
    assert_reads("Phones are not replaced by the service desk every three years [1].", [Source(1, source)], faithful)


def test_a_lower_case_part_of_a_hyphenated_name_names_nothing() -> None:
    from verification.checks.names import check_names

    source = "Each node moves to the centre of its Voronoi cell."
    assert check_names("A Voronoi-based heuristic moves each node.", source).status == "pass"
    assert check_names("A Delaunay-based heuristic moves each node.", source).status == "missing"


@pytest.mark.parametrize("answer, faithful", [
    # "will not be able to remove" negates "remove" as "cannot remove" does.
    ("The agent cannot remove every secret from the logs [1].", True),
    ("The agent can remove every secret from the logs [1].", False),
])
def test_not_being_able_to_is_a_negation_of_the_verb(answer: str, faithful: bool) -> None:
    source = Source(1, "Note that the agent will not be able to remove every secret from the logs.")
    assert_reads(answer, [source], faithful)


@pytest.mark.parametrize("answer, faithful", [
    # A lead-in sums up the list that follows; its items carry the facts and are checked.
    ("Getting a badge takes a little paperwork [1]:\n1. Fill in the access form [1].\n"
     "2. Bring photo ID to reception [1].", True),
    # The guards still bear on it: a code the source never names is flagged.
    ("Getting a BADGE-7 pass takes a little paperwork [1]:\n1. Fill in the access form [1].\n"
     "2. Bring photo ID to reception [1].", False),
    # Without a list after it, the sentence is an ordinary claim.
    ("Getting a badge takes a little paperwork [1].", False),
])
def test_a_lead_in_to_a_list_is_checked_by_its_items(answer: str, faithful: bool) -> None:
    source = Source(1, "To request building access, fill in the access form. Then bring photo ID to reception.")
    assert_reads(answer, [source], faithful)


def test_the_question_is_context_for_names() -> None:
    """The product a user asks about needs no source to be named: "How does Fabrikam pick a name?" answered
    "Fabrikam picks the first long name [1]" from a page that never repeats the product's name."""
    source = Source(1, "Otherwise, the first name with a two dash prefix is used.")
    answer = "Fabrikam picks the first name with a two dash prefix [1]."
    assert not verify_answer(answer, [source]).faithful
    assert verify_answer(answer, [source], question="How does Fabrikam pick an option's name?").faithful
    # A name neither the question nor the source holds is still flagged.
    assert not verify_answer(answer, [source], question="How does Contoso pick an option's name?").faithful


@pytest.mark.parametrize("claim, status", [
    # An option written with a placeholder for its number stands for every value of it.
    ("Use -T0 to detect the number of cores.", "pass"),
    ("Use --threads=4 for four threads.", "pass"),
    ("Use -X0 to detect the number of cores.", "missing"),
])
def test_an_option_written_with_a_placeholder_stands_for_its_values(claim: str, status: str) -> None:
    from verification.checks.identifiers import check_identifiers

    source = ("-T#, --threads=#: Compress using # working threads. If OMIT_TRIGGERS is defined, triggers are "
              "left out of the build.")
    assert check_identifiers(claim, source).status == status



@pytest.mark.parametrize("answer, faithful", [
    # The negation moves to the other item of an "only X, not Y" contrast: the same statement.
    ("The region of the mirror only changes which download host is used, not the package list [1].", True),
    ("No, the mirror's region only alters the download host, not the package list [1].", True),
    # Dropped outright, it is caught.
    ("The mirror's region changes the package list, and also the download host [1].", False),
])
def test_a_negation_moved_to_the_other_item_of_a_contrast_says_the_same(answer: str, faithful: bool) -> None:
    source = Source(n=1, text="The mirror's region does not change the package list, only the download host.")
    assert_reads(answer, [source], faithful)


def test_naming_both_poles_of_an_antonym_takes_neither_side() -> None:
    # SQLite's FTS5 page: "Implicit AND operators are never inserted after or before an expression enclosed in
    # parenthesis." An answer that says "before or after" says the same.
    source = Source(1, "Implicit AND operators are never inserted after or before an expression enclosed in "
                       "parenthesis.")
    report = verify_answer("Implicit AND operators are never inserted before or after an expression enclosed in "
                           "parentheses [1].", [source])
    assert report.faithful, report.claims[0].reason
    assert not verify_answer("Implicit AND operators are inserted before or after an expression enclosed in "
                             "parentheses [1].", [source]).faithful


def test_a_negative_prefixed_word_before_its_noun_does_not_negate_the_clause() -> None:
    # Flask's request-context page and SQLite's VACUUM page: "unhandled exceptions are not converted",
    # "the unused disk space is added to an internal free-list". The prefix describes the noun; the clause says
    # what it says with or without it.
    flask = Source(1, "In debug mode, unhandled exceptions are not converted to a 500 response and instead are "
                      "propagated to the WSGI server.")
    sqlite = Source(1, "When content is deleted from an SQLite database, the unused disk space is added to an "
                       "internal free-list and is reused the next time data is inserted.")
    assert verify_answer("With debug mode on, such exceptions are not converted into a 500 response [1].",
                         [flask]).faithful
    assert not verify_answer("With debug mode on, such exceptions are converted into a 500 response [1].",
                             [flask]).faithful
    assert verify_answer("After a delete, the freed disk space goes on an internal free-list [1].", [sqlite]).faithful


PHRASE_SOURCE = ("Refunds are issued for annual plans, but not for monthly plans. The refund window is 30 days. "
                 "The price of the plan and its start date have no effect on the refund window.")


@pytest.mark.parametrize("answer, faithful", [
    # A "not" before a preposition or an article denies one phrase against another, not a verb.
    ("Refunds are issued for annual plans, except for monthly plans [1].", True),
    ("The refund window is 30 days, and neither the price of the plan nor its start date changes it [1].", True),
    # A negation of the verb is still read as one.
    ("Refunds are not issued for annual plans [1].", False),
    ("The refund window is not 30 days for monthly plans [1].", False),
])
def test_a_negation_that_denies_a_phrase_is_not_a_negated_verb(answer: str, faithful: bool) -> None:
    assert_reads(answer, [Source(n=1, text=PHRASE_SOURCE)], faithful)


AXIS_SOURCE = ("Uploads cannot go to a network share, so the target has to be a local folder given without a "
               "trailing slash. The linter does not stop on import errors when a module is missing; it reports "
               "them and goes on. The mirror does not create index entries for the copied pages. The user cache "
               "is not read in global mode.")


@pytest.mark.parametrize("answer, faithful", [
    # The same pole words, negated as often: only where a negation reaches differs, and that is no antonym.
    ("Since the uploader doesn't support network shares, the target must be a local folder, written without a "
     "trailing slash [1].", True),
    ("When a module is missing, import errors don't stop the linter: it reports them and goes on [1].", True),
    ("The mirror creates no index entries for the copied pages [1].", True),
    # The other pole, or a negation taken away, still contradicts.
    ("Since the uploader doesn't support network shares, the target must be a local folder, written without a "
     "leading slash [1].", False),
    ("The user cache is read in global mode [1].", False),
    ("The mirror creates index entries for the copied pages [1].", False),
])
def test_an_antonym_conflict_needs_the_pole_words_to_differ(answer: str, faithful: bool) -> None:
    assert_reads(answer, [Source(n=1, text=AXIS_SOURCE)], faithful)


IF_NOT_SOURCE = ("The server listens on port 8080 if not already set in the config file. Most, if not all, plugins "
                 "load at start-up. Uploads of large video files are rejected if not allowed by the workspace admin.")


@pytest.mark.parametrize("answer, faithful", [
    # "if not set" is a condition with its verb left out: "if it is not set".
    ("When the config file doesn't already set a port, the server listens on 8080 [1].", True),
    ("When the config file already sets a port, the server listens on 8080 [1].", False),
    ("Uploads of large video files are rejected if allowed by the workspace admin [1].", False),
    # "most, if not all" ranks a quantity: it negates nothing.
    ("Most, if not all, plugins load at start-up [1].", True),
    ("Most plugins, if not all of them, load at start-up [1].", True),
])
def test_if_not_before_a_verb_is_a_negated_condition(answer: str, faithful: bool) -> None:
    assert_reads(answer, [Source(n=1, text=IF_NOT_SOURCE)], faithful)


@pytest.mark.parametrize("sentence, negated", [
    ("In safe mode, a startup handler will not be used.", True),
    ("By default, the cache is not shared.", True),
    ("By default, the cache is shared.", False),
    # A subordinate clause before the comma is a clause of its own: its words do not take the main verb's "not".
    ("When the queue fills, the loader does not read the cache.", False),
])
def test_a_fronted_phrase_is_read_with_the_clause_it_opens(sentence: str, negated: bool) -> None:
    # "In safe mode," says where the clause after it holds: the phrase is no clause of its own, so a claim that
    # says "it isn't used in safe mode" is compared with the negated clause, not with a bare "in safe mode".
    toks = list(tokens(sentence))
    start, end = clause_of(toks, next(i for i, t in enumerate(toks) if t.content))
    assert bool(flips(toks[start:end])) is negated, [t.surface for t in toks[start:end]]
