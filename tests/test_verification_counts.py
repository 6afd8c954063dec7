"""How the checker reads the numbers of real documentation passages: versions, counts the answer backs with its own
list, counts that point back, and numbers backed by any sentence that says the claim. Each case is taken from a real
manual (Sphinx, Requests, SQLite, GIMP), reworded as an answer would be."""

from __future__ import annotations

from verification.checks import Source, verify_answer


def test_a_version_at_the_end_of_a_sentence_is_one_version() -> None:
    from verification.checks import extract_numbers

    keys = [m.key for m in extract_numbers("It was raised to 30 minutes in 3.8.17. Then <1.2.0.")]
    assert "v3.8.17" in keys and "v1.2.0" in keys and "3.8" not in keys


def test_a_count_the_answer_backs_with_its_own_list_needs_no_source() -> None:
    from verification.checks.enumerations import enumeration_counts

    source = Source(1, "By default the flags are ELLIPSIS, IGNORE_EXCEPTION_DETAIL and DONT_ACCEPT_TRUE_FOR_1.")
    listed = ("By default three options are on [1]:\n- ELLIPSIS [1].\n- IGNORE_EXCEPTION_DETAIL [1].\n"
              "- DONT_ACCEPT_TRUE_FOR_1 [1].")
    assert verify_answer(listed, [source]).faithful
    # The count must match the list: four is a changed number.
    assert not verify_answer(listed.replace("three", "four"), [source]).faithful
    assert enumeration_counts(["It sets A, B and C [1].", "Pick A and B [1]."]) == [frozenset({3}), frozenset()]
    # A colon introduces a list too: two items joined by "and", items set apart by semicolons, items with an
    # aside in brackets.
    assert enumeration_counts(["Only two are honoured: the fast path and the slow path [1]."]) == [frozenset({2})]
    assert enumeration_counts(["It takes three modes: plain, the default; rich, with colour; and raw [1]."]) == [
        frozenset({3})]
    assert 4 in enumeration_counts(["One of four values: lazy (the default), eager, strict or off [1]."])[0]
    # "and" ends a series; it does not open one of its items: a clause joined by ", and" and an "or" pair
    # inside it are no series of three.
    assert enumeration_counts(["It lands in the working directory, and -o or --out-dir picks another [1]."]) == [
        frozenset()]
    policy = Source(1, "Badges are issued by Security. Lost badges are replaced by Facilities or by Security.")
    assert verify_answer("Two teams replace lost badges: Facilities and Security [1].", [policy]).faithful
    assert not verify_answer("Three teams replace lost badges: Facilities and Security [1].", [policy]).faithful


def test_a_version_note_next_to_the_statement_backs_it() -> None:
    # Sphinx's configuration reference: each option's "New in version" note is a sentence of its own.
    source = Source(1, "nitpicky If true, Sphinx will warn about all references where the target cannot be found. "
                       "Default is False. You can activate this mode temporarily using the -n command-line switch. "
                       "New in version 1.0. nitpick_ignore A list of (type, target) tuples (by default empty) that "
                       "should be ignored when generating warnings in \u201cnitpicky mode\u201d. Note that type should "
                       "include the domain name if present. Example entries would be ('py:func', 'int') or "
                       "('envvar', 'LD_LIBRARY_PATH'). New in version 1.1.", title="Configuration")
    answer = ("Individual (type, target) pairs such as ('py:func', 'int') can be exempted through nitpick_ignore, "
              "available since version 1.1 [1].")
    assert verify_answer(answer, [source]).faithful
    assert not verify_answer(answer.replace("1.1", "1.4"), [source]).faithful


def test_a_release_said_without_the_word_version_is_that_version() -> None:
    from verification.checks import check_numbers

    source = "autosummary_generate_overwrite: If true, existing files are overwritten. New in version 3.0."
    assert check_numbers("It was added in 3.0", source).status == "pass"
    assert check_numbers("It was added in 3.1", source).status != "pass"
    # A version backs the release only: "3 days" is not "version 3.0".
    assert check_numbers("It takes 3 days", "New in version 3.0.").status != "pass"


def test_one_after_a_unit_word_is_a_pronoun_not_a_count() -> None:
    from verification.checks import extract_numbers

    # SQLite's DROP TABLE: "the one in aux" names a table; the "time" before it is not its unit.
    said = "Running it again drops the one in main, and a third time the one in aux."
    assert [m.key for m in extract_numbers(said)] == []
    assert [m.key for m in extract_numbers("It retries one time.")] == ["1"]


def test_a_count_after_the_or_those_points_back_and_is_not_a_fact_to_back() -> None:
    from verification.checks import extract_numbers

    # GIMP's Curves dialog: the source says "both ends", the answer "the two end points".
    source = Source(1, "To delete all points (apart from both ends that can't be deleted), click the Reset Channel "
                       "button. To delete only one point, move it beyond any adjacent point horizontally.")
    answer = "The Reset Channel button clears all the points in one go, but the two end points are never deleted [1]."
    assert verify_answer(answer, [source]).faithful
    assert [m.key for m in extract_numbers("So -D is the same as passing it for those three lints.")] == []
    # A count with a unit stays a quantity; a count without a determiner stays a count.
    assert [m.key for m in extract_numbers("It lasts the two weeks after hiring.")] == ["2"]
    assert [m.key for m in extract_numbers("There are two approaches.")] == ["2"]


def test_a_count_that_points_back_still_contradicts_a_source_that_counts_the_same_noun_otherwise() -> None:
    source = Source(1, "The release is signed off by a board of four maintainers. Each release needs a vote: "
                       "the four maintainers vote within 48 hours, and a tie is broken by the release manager.")
    assert verify_answer("A tie between the four maintainers is broken by the release manager [1].", [source]).faithful
    recounted = verify_answer("A tie between the three maintainers is broken by the release manager [1].", [source])
    assert not recounted.faithful
    assert "counts 3 maintain" in recounted.claims[0].reason
    # Counted nouns the source does not count stay free: the count points back, it states no fact.
    assert verify_answer("The release manager breaks a tie between the two camps [1].", [source]).faithful


def test_a_number_is_backed_by_any_sentence_that_says_the_claim_as_well_as_the_best_one() -> None:
    # Requests' list of past CVEs: two items share the claim's words; the one that comes first is not the one
    # with its version.
    source = Source(1, "- Fixed in 2.20.0 - CVE 2018-18074\n- Fixed in 2.6.0\n"
                       "- CVE 2015-2296, reported by Matthew Daley of BugFuzz.\n- Fixed in 2.3.0")
    assert verify_answer("- Fixed in 2.6.0 [1].\n- Fixed in 2.3.0 [1].", [source]).faithful
    assert not verify_answer("- Fixed in 2.6.0 [1].\n- Fixed in 2.4.0 [1].", [source]).faithful
