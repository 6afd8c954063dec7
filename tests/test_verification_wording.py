"""How the checker reads answers worded freely about real documentation: plurals and singulars, names that open a
sentence, old Unix quotes, underscores in names, counts, antonyms said from the other end or negated in another
clause. Each case is taken from a real manual (SQLite, Click, Flask, GIMP, Sphinx, procps, GNU screen, npm),
reworded as an answer would be."""

from __future__ import annotations

import pytest

from verification.checks import Source, verify_answer
from verification.checks.text import root, stem


def test_a_count_pointing_back_is_compared_with_counts_with_and_without_their_noun() -> None:
    # SQLite's window functions: the passage counts "two groups" and says "two" with no noun after it; comparing
    # a claim's back-pointing count with both once raised a TypeError and lost the whole verdict.
    source = Source(1, "The example below uses ntile() to divide the six rows into two groups (the ntile(2) call) "
                       "and into four groups (the ntile(4) call). For ntile(4), there are two groups of two and two "
                       "groups of one. The larger groups of two appear first.")
    assert verify_answer("For ntile(2) the example divides the six rows into two groups [1].", [source]).faithful
    assert not verify_answer("For ntile(2) the example divides the five rows into two groups [1].",
                             [source]).faithful
    # A count hyphened to its noun describes the next noun: "the two-row groups" counts no rows.
    report = verify_answer("The two-row groups come first [1].", [source])
    assert report.claims[0].checks["numbers"].split(":")[0] in ("pass", "n/a")


def test_a_capitalised_plural_is_backed_by_its_singular() -> None:
    # A rare word opening a sentence reads as a name; in the plural it is still the passage's singular.
    source = Source(1, ".. c:struct:: name: Describes a C struct. .. c:union:: name: Describes a C union. "
                       ".. c:enum:: name: Describes a C enum.")
    assert verify_answer("Structs, unions and enums each have a directive of their own [1].", [source]).faithful
    assert not verify_answer("Classes, unions and enums each have a directive of their own [1].", [source]).faithful


def test_a_plural_is_read_through_its_most_common_singular() -> None:
    from textcore.words import singular

    # SQLite's FTS5 page says "Parenthesis may be used to group expressions"; an answer says it in the plural.
    assert [singular(w) for w in ("Parentheses", "Entries", "Notes", "Switches", "Browsers")] == [
        "Parenthesis", "Entry", "Note", "Switch", "Browser"]
    source = Source(1, "Parenthesis may be used to group expressions in order to modify operator precedence.")
    assert verify_answer("Parentheses group expressions to change operator precedence [1].", [source]).faithful


def test_an_everyday_word_opening_a_sentence_is_not_part_of_the_name_after_it() -> None:
    from textcore.identifiers import names

    # GIMP's Paths dialog: "pressing Shift when clicking on the button will add the new selection".
    source = Source(1, "Pressing Shift when clicking on the button will add the new selection to an already "
                       "existing one.")
    assert "Hold Shift" not in names("Hold Shift while you click the button.")
    assert verify_answer("Hold Shift while you click the button to add the new selection to the existing one [1].",
                         [source]).faithful
    assert names("Okta Verify sends a push.") == ["Okta Verify"]


def test_old_unix_quotes_are_two_quotes_not_one_backtick_span() -> None:
    from textcore.identifiers import identifiers

    # GNU screen's manual quotes names `like this'.
    source = Source(1, "Bits is any combination of access control bits. `Umask' is a synonym to `aclumask'.")
    answer = "`Umask' is just another name for `aclumask' [1]."
    assert [i.text for i in identifiers(answer)] == ["Umask", "aclumask"]
    assert verify_answer(answer, [source]).faithful
    assert not verify_answer(answer.replace("`aclumask'", "`aclchg'"), [source]).faithful


def test_a_converse_pair_may_say_the_relation_from_its_other_end() -> None:
    # SQLite's FTS5 tokenizers: "with diacritics removed before stemming".
    source = Source(1, "A porter tokenizer used to stem the output of the unicode61 tokenizer, with diacritics "
                       "removed before stemming.")
    assert verify_answer("The porter tokenizer stems the unicode61 output after diacritics are removed [1].",
                         [source]).faithful
    assert not verify_answer("The porter tokenizer stems the unicode61 output, with diacritics removed after "
                             "stemming [1].", [source]).faithful


def test_an_article_counts_one_of_its_noun() -> None:
    # Click's getchar: "reads a single character from the terminal buffer".
    source = Source(1, "For this, Click provides the getchar function which reads a single character from the "
                       "terminal buffer and returns it as a Unicode character.")
    assert verify_answer("getchar reads one character from the terminal buffer [1].", [source]).faithful
    assert not verify_answer("getchar reads two characters from the terminal buffer [1].", [source]).faithful


def test_a_count_of_part_of_what_was_named_points_back() -> None:
    # Click's error handling ("The latter are internally translated into a Abort") and FTS5's three functions.
    click = Source(1, "In there it handles all subclasses of ClickException as well as the standard EOFError and "
                      "KeyboardInterrupt exceptions. The latter are internally translated into a Abort.")
    assert verify_answer("The latter two get translated into an Abort internally [1].", [click]).faithful
    fts = Source(1, "FTS5 provides three built-in auxiliary functions: bm25(), highlight() and snippet().")
    assert verify_answer("Besides bm25(), the other two built-in auxiliary functions are highlight() and snippet() "
                         "[1].", [fts]).faithful
    assert not verify_answer("FTS5 has four built-in auxiliary functions [1].", [fts]).faithful


def test_a_negation_another_cited_sentence_says_word_for_word_is_no_conflict() -> None:
    # Flask's blueprint error handlers: the claim's words come from the second sentence, in another order.
    source = Source(1, "Handlers registered on the blueprint take precedence over those registered globally on the "
                       "application, assuming a blueprint is handling the request that raises the exception. "
                       "However, the blueprint cannot handle 404 routing errors because the 404 occurs at the "
                       "routing level before the blueprint can be determined.")
    answer = ("404 routing errors happen at the routing level before the blueprint can be determined, so a "
              "blueprint can't handle them [1].")
    assert verify_answer(answer, [source]).faithful
    assert not verify_answer("Handlers registered on the blueprint do not take precedence over those registered "
                             "globally on the application [1].", [source]).faithful


def test_an_inflected_pole_is_on_its_axis() -> None:
    from textcore.antonyms import WORD_AXES

    # procps' ps: "Set this to any value to hide kernel threads normally displayed with the -e option."
    assert WORD_AXES["displayed"] == WORD_AXES["shown"] and WORD_AXES["activated"] == WORD_AXES["enabled"]
    source = Source(1, "LIBPROC_HIDE_KERNEL: Set this to any value to hide kernel threads normally displayed with "
                       "the -e option.")
    answer = "Set LIBPROC_HIDE_KERNEL to any value and the kernel threads that -e would normally show are hidden [1]."
    assert verify_answer(answer, [source]).faithful


def test_a_negated_verb_does_not_flip_the_adjective_of_its_object() -> None:
    # Flask's contributing guide: "You can work on any issue that doesn't have an open PR linked to it".
    source = Source(1, "You can work on any issue that doesn't have an open PR linked to it or a maintainer "
                       "assigned to it.")
    assert verify_answer("You can work on any issue that has no open PR linked to it [1].", [source]).faithful
    assert not verify_answer("You can work on any issue that has a closed PR linked to it [1].", [source]).faithful


def test_handy_and_helpful_say_the_same() -> None:
    from verification.checks.text import stem

    assert stem("handy") == stem("helpful") == stem("useful") == stem("help")
    source = Source(1, "This is helpful in situations where documentation for a module is spread over multiple "
                       "files.")
    assert verify_answer("It's handy when a module's documentation is spread over several files [1].",
                         [source]).faithful


def test_a_plural_in_es_is_read_as_its_singular() -> None:
    from verification.checks.text import stem

    assert stem("aliases") == stem("alias") and stem("canvases") == stem("canvas")
    assert stem("releases") == stem("release") and stem("uses") == stem("use")


def test_keeping_a_thing_from_happening_negates_it() -> None:
    # SQLite's "Appropriate Uses": "because of the latency … performance will not be great".
    source = Source(1, "SQLite will work over a network filesystem, but because of the latency associated with most "
                    "network filesystems, performance will not be great.")
    answer = "SQLite works over a network filesystem, but latency keeps performance from being great [1]."
    assert verify_answer(answer, [source]).faithful
    assert not verify_answer("SQLite works over a network filesystem, and performance will be great [1].",
                             [source]).faithful


def test_what_a_negated_be_denies_and_what_a_negated_verb_has() -> None:
    # Flask's request context: "… if a context for that application is not already the top context".
    flask = Source(1, "When the request starts, a RequestContext is created and pushed, which creates and pushes an "
                      "AppContext first if a context for that application is not already the top context.")
    assert verify_answer("A RequestContext is pushed, and it first pushes an AppContext if a context for that "
                         "application isn't already on top [1].", [flask]).faithful
    # SQLite's STRICT tables: "as long as the database does not contain any STRICT tables".
    sqlite = Source(1, "A database created by SQLite 3.37.0 can still be read by version 3.0.0 as long as the "
                       "database does not contain any STRICT tables.")
    assert verify_answer("Version 3.0.0 can still read it, provided the database has no STRICT tables [1].",
                         [sqlite]).faithful


def test_and_after_a_clause_with_no_opens_a_clause_of_its_own() -> None:
    # SQLite's atomic commit: "The rollback will not occur and the database will be left in an inconsistent state."
    source = Source(1, "The next process to open the database will not know that it contains changes that need to be "
                       "rolled back. The rollback will not occur and the database will be left in an inconsistent "
                       "state.")
    assert verify_answer("So no rollback happens and the database is left inconsistent [1].", [source]).faithful


def test_a_negative_prefix_in_a_list_lead_in_negates_none_of_its_items() -> None:
    # SQLite's STRICT tables: "Everything else about a STRICT table works the same as it does in an ordinary
    # non-strict table:" then the list of what works the same.
    source = Source(1, "Everything else about a STRICT table works the same as it does in an ordinary non-strict "
                       "table:\n- CHECK constraints work the same.\n- The on-disk format for the table data is the "
                       "same.")
    assert verify_answer("The on-disk format for the table data is the same too [1].", [source]).faithful
    # A lead-in's own negation still reaches its items.
    never = Source(1, "These must never appear in logs:\n- passwords\n- session tokens")
    assert not verify_answer("Passwords may appear in logs [1].", [never]).faithful


# Markup read only where it marks: a name with underscores inside it and an expression with stars inside it keep
# them, bold around words goes. (source, answer, what the claim keeps, a bold sample and what it reads as)
MARKUP = {
    # Flask's from_prefixed_env: "separating the keys with double underscore (__)".
    "underscores inside a name": (
        "It is possible to set keys in nested dictionaries by separating the keys with double underscore (__).\n\n"
        "    $ export FLASK_MYAPI__credentials__username=user123",
        "Separate the keys with a double underscore (__), as in FLASK_MYAPI__credentials__username=user123 [1].",
        "FLASK_MYAPI__credentials__username", ("This is a __bold phrase__ [1].", "This is a bold phrase.")),
    # gzip's manual: "its timestamp is at least 1 and is less than 2**32".
    "stars inside an expression": (
        "-N --name: save the seconds part of the original modification timestamp if the original is a regular file "
        "and its timestamp is at least 1 and is less than 2**32; this is the default.",
        "gzip saves the timestamp's seconds if it is at least 1 and less than 2**32 [1].",
        "2**32", ("This is **really** it [1].", "This is really it.")),
}


@pytest.mark.parametrize("case", list(MARKUP))
def test_markup_inside_a_name_or_an_expression_is_not_bold(case: str) -> None:
    from verification.checks import extract_claims

    passage, answer, kept, (bold, plain) = MARKUP[case]
    assert kept in extract_claims(answer)[0].text
    assert verify_answer(answer, [Source(1, passage)]).faithful
    assert [c.text for c in extract_claims(bold)] == [plain]


def test_all_three_points_back_at_what_was_named() -> None:
    # "All three" points back at what was named, as "the three" does.
    report = verify_answer("The options are pagewidth, documentwidth and sidebarwidth [1]. All three take a CSS "
                           "length [1].", [Source(1, "pagewidth (CSS length): width of the page. documentwidth (CSS "
                                                     "length): width of the document. sidebarwidth (CSS length): "
                                                     "width of the sidebar.")])
    assert report.claims[1].checks["numbers"].startswith("n/a")


def test_a_file_path_is_an_identifier_and_a_slash_alone_makes_none() -> None:
    from textcore.identifiers import identifiers

    paths = [i.text for i in identifiers("Edit ~/.config/app.toml, /etc/foo.conf or docs/conf.py (see ./build). "
                                         "and/or TCP/IP 1/2 -o/--out-dir git+ssh://git@host/npm/cli#v6.0.0 "
                                         "https://example.org/a/b.html") if i.kind == "path"]
    assert paths == ["~/.config/app.toml", "/etc/foo.conf", "docs/conf.py", "./build"]


def test_a_word_of_the_same_family_counts_as_the_sources_word() -> None:
    # SQLite's backup page, Flask's method-override pattern and GIMP's Heal tool, reworded: "recovers" for
    # "recovery", "violates" for "violation", "smarter" for "more smart", "related" for "relative".
    sqlite = Source(1, "If a power failure or operating system failure occurs while copying the database file the "
                       "backup database may be corrupted following system recovery.")
    flask = Source(1, "In that case it’s possible to “proxy” HTTP methods through another HTTP method in total "
                      "violation of the protocol.")
    gimp = Source(1, "And indeed the Healing Tool is a close relative to the Clone Tool, but it is more smart to "
                     "remove small failures in images.")
    for answer, source in [
        ("When the power fails during the copy, the backup may be corrupt once the system recovers [1].", sqlite),
        ("Proxying a method through another one totally violates the protocol [1].", flask),
        ("Heal is closely related to Clone but smarter at removing small failures [1].", gimp),
    ]:
        report = verify_answer(answer, [source])
        assert report.faithful
        assert "absent" not in report.claims[0].reason, report.claims[0].reason
    # What the source does not say is still named as absent.
    report = verify_answer("The backup may be corrupt once the system recovers from its swap file [1].", [sqlite])
    assert "absent: swap" in report.claims[0].reason


def test_words_a_source_writes_apart_back_the_word_they_make_together() -> None:
    # rustdoc's book: "rustdoc adds hyper links to all types in the function signature".
    source = Source(1, "There is no benefit of explicitly writing it into the documentation, especially since "
                       "rustdoc adds hyper links to all types in the function signature.")
    report = verify_answer("rustdoc hyperlinks every type of the signature [1].", [source])
    assert report.faithful and "absent" not in report.claims[0].reason, report.claims[0].reason


def test_a_word_in_quotes_is_the_word() -> None:
    # Flask's upload pattern lists the extensions as Python strings; Sphinx quotes class names in curly quotes.
    flask = Source(1, "UPLOAD_FOLDER = '/path/to/the/uploads'\n"
                      "ALLOWED_EXTENSIONS = {'txt', 'pdf', 'png', 'jpg', 'jpeg', 'gif'}")
    assert verify_answer("ALLOWED_EXTENSIONS lists txt, pdf, png, jpg, jpeg and gif [1].", [flask]).faithful
    sphinx = Source(1, "‘sphinx.search.ja.MecabSplitter’: MeCab binding. To use this splitter, ‘mecab’ python "
                       "binding or dynamic link library (‘libmecab.so’ for linux, ‘libmecab.dll’ for windows) is "
                       "required.")
    assert verify_answer("MecabSplitter needs the mecab binding or libmecab.dll [1].", [sphinx]).faithful
    assert not verify_answer("MecabSplitter needs the mecab binding or libmecab.dll on macOS [1].", [sphinx]).faithful


def test_the_short_forms_of_technical_writing_are_their_long_forms() -> None:
    # npm's config page: "configuration values from the command line, environment variables, npmrc files …".
    source = Source(1, "npm gets its configuration values from the command line, environment variables, npmrc files "
                       "and the package.json file.")
    report = verify_answer("npm reads config from the command line, env variables, npmrc files and package.json [1].",
                           [source])
    assert report.faithful and "absent" not in report.claims[0].reason, report.claims[0].reason


def test_single_quotes_hug_what_they_quote() -> None:
    from textcore.identifiers import identifiers

    # GNU screen's XC capability: "The '\\' character quotes the special characters '\\', '%', and ','." Between
    # two quoted characters stands prose (", quote it with "), not a quote.
    answer = "To use a real '%', quote it with '\\', which likewise quotes '\\' and ',' [1]."
    quoted = [i.text for i in identifiers(answer) if i.kind == "quote"]
    assert not any(q.startswith((",", " ")) or q.endswith(" ") for q in quoted), quoted
    source = Source(1, "A quoting mechanism was added to make it possible to use a real '%'. The '\\' character "
                       "quotes the special characters '\\', '%', and ','.")
    assert verify_answer(answer, [source]).faithful
    assert [i.text for i in identifiers("Set it to 'none' or 'auto'.") if i.kind == "quote"] == ["none", "auto"]


FORMS_SOURCE = Source(1, "When the window is resized, the dialog shrinks to fit the neighboring panels. "
                         "Labeled buttons keep their color.")


@pytest.mark.parametrize("answer", [
    "Resizing the window shrank the dialog to fit the neighbouring panels [1].",
    "Buttons that are labelled keep their colour [1].",
])
def test_irregular_forms_and_british_spellings_are_the_same_words(answer: str) -> None:
    report = verify_answer(answer, [FORMS_SOURCE])
    assert report.faithful, [v.reason for v in report.claims]


def test_word_forms_fold_to_the_stem_of_their_base() -> None:
    from verification.checks.text import stem

    assert stem("shrunk") == stem("shrinks") and stem("overridden") == stem("overrides")
    assert stem("behaviour") == stem("behavior") and stem("centres") == stem("centers")
    # A form that is also a common word of another meaning is left alone: "bound" stays the noun of "upper bound".
    assert stem("bound") != stem("bind")


def test_undoing_a_directive_is_no_negation_of_doing_it() -> None:
    # Sphinx's C++ domain: "undo" reverses an action; its inflections are not "un" + "does" (a negated "does").
    source = Source(1, ".. cpp:namespace-pop:: Undo the previous cpp:namespace-push directive (not just pop a "
                       "scope).")
    for claim in ("It undoes the previous cpp:namespace-push directive [1].",
                  "Undoing the previous cpp:namespace-push directive is what it does [1]."):
        assert verify_answer(claim, [source]).faithful, claim
    assert not verify_answer("It does not undo the previous cpp:namespace-push directive [1].", [source]).faithful


def test_a_noun_in_sion_or_tion_and_its_verb_share_a_root() -> None:
    # i3's hacking guide: "my conclusion is that" said as "the author concludes".
    source = Source(1, 'Therefore, my conclusion is that the only proper way of fixing the "window gets opened on '
                       'the wrong workspace" problem is in the application itself.')
    assert verify_answer("The author concludes that the only proper fix for the window opened on the wrong "
                         "workspace is in the application itself [1].", [source]).faithful
    for noun, verb in (("conclusion", "concludes"), ("decision", "decide"), ("description", "described"),
                       ("reduction", "reduces"), ("inclusion", "included"), ("expansion", "expanding")):
        assert root(stem(noun)) == root(stem(verb)), (noun, verb)
    assert root(stem("description")) != root(stem("decide"))


def test_a_count_heading_a_series_is_not_one_of_its_items() -> None:
    # MkDocs' user guide: "three built-in themes, mkdocs and readthedocs" names two themes, not three items.
    source = Source(1, "MkDocs includes two built-in themes (mkdocs and readthedocs), as documented below. However, "
                       "many third party themes are available to choose from as well.")
    assert verify_answer("There are two built-in themes, mkdocs and readthedocs [1].", [source]).faithful
    assert not verify_answer("There are three built-in themes, mkdocs and readthedocs [1].", [source]).faithful
    # A count that heads a series of as many items is still the answer counting its own list.
    source = Source(1, "The builder accepts html, latex and man as its format.")
    assert verify_answer("There are three formats, html, latex and man [1].", [source]).faithful


def test_a_contrast_does_not_excuse_denying_what_it_affirms() -> None:
    # gzip's --rsyncable: "files that were changed in the archive instead of the entire archive" affirms the
    # changed files; the contrast sets aside the entire archive, not them.
    source = Source(1, "--rsyncable: When you synchronize a compressed file between two computers, this option allows "
                       "rsync to transfer only files that were changed in the archive instead of the entire archive.")
    assert not verify_answer("This option lets rsync transfer only files that were not changed in the archive [1].",
                             [source]).faithful
    assert verify_answer("This option lets rsync transfer only the changed files, not the entire archive [1].",
                         [source]).faithful
    # What a contrast sets aside may be denied ("rather than the app folder" / "not the app folder").
    source = Source(1, "The loader finds templates by the package name rather than the working directory.")
    assert verify_answer("The loader does not find templates by the working directory [1].", [source]).faithful


def test_a_count_of_a_noun_the_source_counts_otherwise_is_no_number_it_states_elsewhere() -> None:
    # zstd's manual: the "2" of "Note 2:" does not back "two compression threads" where the passage counts 1.
    source = Source(1, "Note 2: this mode is different from -T1, which spawns 1 compression thread in parallel with "
                       "I/O. Final compressed result is also slightly different from -T1.")
    assert not verify_answer("-T1 spawns two compression threads in parallel with I/O [1].", [source]).faithful
    assert verify_answer("-T1 spawns one compression thread in parallel with I/O [1].", [source]).faithful
    # SQLite's limits: the count said after its noun ("pages ... is 2147483646") is the same count.
    source = Source(1, "Each table and index requires at least one page in the database file. Since the maximum "
                       "number of pages in a database file is 2147483646, this is also the upper bound on tables.")
    assert verify_answer("The file holds at most 2147483646 pages, and each table needs at least one page [1].",
                         [source]).faithful
