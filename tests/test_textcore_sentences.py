"""The one sentence splitter (textcore.sentences), used by chunking, the answer writer and the checker."""

from __future__ import annotations

import pytest

from textcore.sentences import split_sentences

@pytest.mark.parametrize("text, expected", [
    ("One. Two. Three.", ["One.", "Two.", "Three."]),
    ("Is it? Yes! Good.", ["Is it?", "Yes!", "Good."]),
    ("Bring documents, e.g. Passports. Then wait.", ["Bring documents, e.g. Passports.", "Then wait."]),
    ("Use the portal, i.e. Workday, for requests.", ["Use the portal, i.e. Workday, for requests."]),
    ("The rate is 3.5 percent. It rises in May.", ["The rate is 3.5 percent.", "It rises in May."]),
    ("Upgrade to v2.4.1 now. Older versions fail.", ["Upgrade to v2.4.1 now.", "Older versions fail."]),
    ("Ask Dr. Smith or Mr. Jones. They know.", ["Ask Dr. Smith or Mr. Jones.", "They know."]),
    ("Contact J. R. Tolkien today.", ["Contact J. R. Tolkien today."]),
    ("Offices in the U.S. Are open.", ["Offices in the U.S. Are open."]),  # ambiguous; keep together
    ('He said "Stop." Then left.', ['He said "Stop."', "Then left."]),
    ("Costs rose (see below). Next year too.", ["Costs rose (see below).", "Next year too."]),
    ("1. Install the app. 2. Sign in.", ["1. Install the app.", "2. Sign in."]),
    ("Lower case after period. and more", ["Lower case after period. and more"]),
    ("See section No. 4 for details.", ["See section No. 4 for details."]),
    ("Pens, paper, etc. Are supplied.", ["Pens, paper, etc.", "Are supplied."]),
    ("No terminal punctuation", ["No terminal punctuation"]),
    # A synopsis' repetition mark before another placeholder ends no sentence; before a sentence it does.
    ("It is run as make [OPTION]... [TARGET]... [1]. Next.", ["It is run as make [OPTION]... [TARGET]... [1].",
                                                           "Next."]),
    ("Run cmd <FILE>... [OPTION] to copy.", ["Run cmd <FILE>... [OPTION] to copy."]),
    ("Run ls [FILE]... It lists files.", ["Run ls [FILE]...", "It lists files."]),
    ("", []),
])
def test_split_sentences(text: str, expected: list[str]) -> None:
    assert split_sentences(text) == expected




@pytest.mark.parametrize("text, expected", [
    # Parsers unwrap hard-wrapped lines; a line break after a complete sentence or before a list item
    # starts a new unit, a wrapped line (ending in a connector or followed by lower case) does not.
    ("Set the\nDEBUG flag to True.", ["Set the\nDEBUG flag to True."]),
    ("Default: 'production'\nDeprecated since version 2.2: Removed in 2.3.",
     ["Default: 'production'", "Deprecated since version 2.2: Removed in 2.3."]),
    ("The boolean can be one of:\n- yes\n- no", ["The boolean can be one of:", "- yes", "- no"]),
    ("It runs daily\nat 4am.", ["It runs daily\nat 4am."]),
    # Markers belong to the sentence they follow, whatever their form.
    ("Open the app [1]. Tap Settings [2][3].", ["Open the app [1].", "Tap Settings [2][3]."]),
    ("Open the app. [1] Tap Settings.", ["Open the app. [1]", "Tap Settings."]),
    ("A fact [1, 2]. Another [1-3].", ["A fact [1, 2].", "Another [1-3]."]),
    # A code block is one unit, indentation kept.
    ("Run this:\n\n    $ flask run\n    $ flask shell\n\nThen open it.",
     ["Run this:", "    $ flask run\n    $ flask shell", "Then open it."]),
    ("Step one is done. 10. Next.", ["Step one is done.", "10. Next."]),
    ("Use example.com and a.b.c for tests.", ["Use example.com and a.b.c for tests."]),
    # A name of code opens a sentence in lower case: an option, a camelCase, snake_case or called name.
    ("-A selects all processes. -a selects fewer.", ["-A selects all processes.", "-a selects fewer."]),
    ("Both say the same. xPhraseFirst may be faster.", ["Both say the same.", "xPhraseFirst may be faster."]),
    ("It is optional. epub_title defaults to it. load() returns it.",
     ["It is optional.", "epub_title defaults to it.", "load() returns it."]),
    ("Send logs, e.g. stderr_log to a file.", ["Send logs, e.g. stderr_log to a file."]),
    # A full stop right after a citation marker ends the sentence the marker cites, whatever follows.
    ("It keeps the file [1]. npm removes it [2].", ["It keeps the file [1].", "npm removes it [2]."]),
])
def test_line_breaks_markers_and_code(text: str, expected: list[str]) -> None:
    assert split_sentences(text) == expected


def test_a_code_block_with_blank_lines_is_one_paragraph() -> None:
    from textcore.sentences import paragraphs

    text = "Run these:\n\n    # step one\n    make build\n\n    # step two\n    make install\n\nThen restart."
    assert [text[a:b] for a, b in paragraphs(text)] == [
        "Run these:", "    # step one\n    make build\n\n    # step two\n    make install", "Then restart."]


def test_a_label_over_code_without_a_blank_line_is_a_paragraph_of_its_own() -> None:
    """A merged chunk keeps a small section's name as a line over its code ("Synopsis" over the command): the
    code stays a code block, its first line not read as the end of a sentence."""
    from knowledge.answering.units import units_of
    from textcore.sentences import paragraphs

    text = "Synopsis\n    npm adduser\n\n    alias: add-user\n\nNote: This command is unaware of workspaces."
    assert [text[a:b] for a, b in paragraphs(text)] == [
        "Synopsis", "    npm adduser\n\n    alias: add-user", "Note: This command is unaware of workspaces."]
    assert [(u.kind, u.text) for u in units_of(text) if "npm adduser" in u.text] == [
        ("code", "    npm adduser\n\n    alias: add-user")]


def test_a_sentence_with_a_colon_is_no_term_for_the_sentences_after_it() -> None:
    """"Plans come in three tiers: …" leads in with a verb: the sentences after it are not its definition and
    do not carry it in front ("Plans come in three tiers: Upgrades take effect …" would say something else).
    A definition's term still does ("sidebarwidth (int or str): Defaults to 230 pixels.")."""
    from knowledge.answering.units import units_of
    from textcore.sentences import is_term

    text = "Plans have three tiers: free, team, and enterprise. Upgrades take effect at once. They are prorated."
    assert [u.text for u in units_of(text)] == [
        "Plans have three tiers: free, team, and enterprise.", "Upgrades take effect at once.", "They are prorated."]
    defined = units_of("sidebarwidth (int or str): Width of the sidebar. Defaults to 230 pixels.")
    assert [u.text for u in defined] == ["sidebarwidth (int or str): Width of the sidebar.",
                                         "sidebarwidth (int or str): Defaults to 230 pixels."]
    assert is_term("History brush") and is_term("Default") and not is_term("You can use")
    assert not is_term("one two three four five six seven eight nine")


def test_a_word_in_quotes_is_the_word() -> None:
    """An apostrophe within a word stays ("don't", "rock'n'roll"); one that closes a quote ("'txt'", "‘mecab’") or
    a plural's possessive ("the nodes' centres") is no part of the word, for the answer path as for the checker."""
    from textcore.words import content_words, words

    assert words("Set 'txt' and ‘mecab’ for the nodes' centres, don't wait.") == [
        "Set", "txt", "and", "mecab", "for", "the", "nodes", "centres", "don't", "wait"]
    assert content_words("rock'n'roll 'quoted phrase'") == ["rock'n'roll", "quoted", "phrase"]
