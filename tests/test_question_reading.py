"""How a question is read: what kind of fact it asks, what a chat message asks apart from the story around it,
and which of its words count as missing for refusal."""

from __future__ import annotations


def test_an_abbreviation_and_its_glossary_expansion_are_one_term_for_refusal() -> None:
    from knowledge.answering.evidence import _without_answered_alternatives

    words = {"ci": ["CI"], "continu": ["continuous"], "integr": ["integration"], "audit": ["audit"]}
    expansions = {"CI": "continuous integration"}
    # The passages say "CI": the spelled-out words are not missing.
    assert _without_answered_alternatives(["continu", "integr"], {"ci", "audit"}, words, expansions) == []
    # They say "continuous integration": "CI" is not missing either.
    assert _without_answered_alternatives(["ci", "integr"], {"continu", "audit"}, words, expansions) == []
    # Neither: the term is missing once, as the abbreviation.
    assert _without_answered_alternatives(["ci", "continu", "integr", "audit"], set(), words, expansions) == \
        ["ci", "audit"]


def test_a_hyphened_word_is_one_term_for_refusal() -> None:
    from knowledge.answering.evidence import _without_compounds

    # PostgreSQL reads "single-module" whole and in parts.
    words = {"turn": ["turn"], "single-modul": ["single-module"], "singl": ["single"], "modul": ["module"],
             "app": ["app"]}
    terms = list(words)
    # The passages write "single module": the whole word is not missing.
    assert _without_compounds(["turn", "single-modul"], terms, words) == ["turn"]
    # They write "module" only: it is missing once, whole.
    assert _without_compounds(["turn", "single-modul", "singl"], terms, words) == ["turn", "single-modul"]
    # An option's leading hyphen makes no parts.
    assert _without_compounds(["-2018"], ["-2018", "2018"], {"-2018": ["-2018"], "2018": ["2018"]}) == ["-2018"]


def test_a_version_or_a_count_of_a_named_thing_is_the_asked_fact() -> None:
    from knowledge.answering.evidence import holds_asked_kind
    from knowledge.query import asked_fact_kinds

    assert asked_fact_kinds("In which SQLite release was the INDEXED BY clause introduced?") == ["version"]
    assert "count:hours" in asked_fact_kinds("Within how many hours of publishing can I unpublish a package?")
    assert not any(k.startswith("count:") for k in asked_fact_kinds("How many ways are there to do it?"))
    # A passage about the clause that gives no release does not answer "in which release".
    assert not holds_asked_kind(["version"], "The INDEXED BY clause is not a hinting mechanism.")
    assert holds_asked_kind(["version"], "INDEXED BY was added in 3.6.4.")
    # "how many hours" is not answered by any digit.
    asks = asked_fact_kinds("Within how many hours of publishing can I unpublish a package?")
    assert not holds_asked_kind(asks, "Version 1.0.2 cannot be published again after it is unpublished.")
    assert holds_asked_kind(asks, "You can unpublish within 72 hours of publishing.")


def test_a_measure_asks_for_a_number_and_an_exception_or_an_image_for_a_name() -> None:
    from knowledge.query import asked_fact_kinds

    assert "number" in asked_fact_kinds("Which port does the remote debugger listen on?")
    assert "number" in asked_fact_kinds("What default width does the sidebar have?")
    assert "number" not in asked_fact_kinds("Which theme does the tutorial use?")
    assert "name" in asked_fact_kinds("What exception is raised when the upload is too large?")
    assert "name" in asked_fact_kinds("Which Docker image is meant for PDF builds?")
    assert "name" not in asked_fact_kinds("Why is the upload refused?")
    assert "number" not in asked_fact_kinds("Which log level does the --dd flag stand for?")
    # "number" names the answer's kind: the digits answer it.
    from knowledge.query import answer_type_lexemes
    assert "number" in asked_fact_kinds("What is the IT hotline number?")
    assert answer_type_lexemes(asked_fact_kinds("What is the IT hotline number?")) == {"number"}
    assert answer_type_lexemes(asked_fact_kinds("Why is the upload refused?")) == frozenset()
    # Far from the question word, "number" is something the asker does, not what is asked.
    assert "number" not in asked_fact_kinds("What does the build do if I don't give it a number?")
    assert "number" in asked_fact_kinds("What's the max number of connections per host?")
    # The counted thing is the head of its noun phrase.
    assert "count:log|files" in asked_fact_kinds("How many npm debug log files are kept before old ones go?")
    # "Out of the box" in a yes/no question asks whether a thing is built in, not which value is the default.
    assert "default" not in asked_fact_kinds("hi! does requests decode brotli responses out of the box??")
    assert "default" in asked_fact_kinds("What's the airbrush rate set to out of the box?")
    assert "default" in asked_fact_kinds("Is the default port 5000?")
    # What happens when a thing is not given asks, most of the time, for its default: a sentence about the
    # default is preferred, though the passages need not say "default" ("unset" is no fact they must hold).
    assert "unset" in asked_fact_kinds("What window frame does it use when no frame is specified?")
    assert "unset" in asked_fact_kinds("If a foreign key doesn't specify an ON DELETE action, what happens?")
    assert "unset" in asked_fact_kinds("what prefix does flask look for if i dont pass one?")
    assert "unset" in asked_fact_kinds("Which port is used without setting --port?")
    assert "unset" not in asked_fact_kinds("How do I make the group run even when no subcommand is given?")
    assert "unset" not in asked_fact_kinds("Does zstd delete the file if I do not pass --rm?")
    assert asked_fact_kinds("What is the default timeout if I don't set one?") == ["default"]
    # "what's" asks what "what is" asks.
    assert asked_fact_kinds("What's the Homebrew package name for Sphinx?") == ["name"]
    assert asked_fact_kinds("whats the timeout for workers??") == ["number"]
    assert asked_fact_kinds("What’s the limit?") == asked_fact_kinds("What is the limit?")



def test_a_chat_message_is_read_as_what_it_asks_and_the_story_around_it() -> None:
    from knowledge.query import analyze, ask_and_story

    ask, story = ask_and_story("our nightly export keeps timing out on the big tables 😩 how do i raise the limit??")
    assert ask == "how do i raise the limit??"
    assert story == "our nightly export keeps timing out on the big tables 😩"
    # A comma before a question word breaks the message too; greetings and what happened are the story.
    assert ask_and_story("hi, the wiki page is gone, where is the onboarding checklist now?") == (
        "where is the onboarding checklist now?", "hi, the wiki page is gone,")
    # A clause that sets the scene belongs to the question it leads into.
    assert ask_and_story("When a badge is lost abroad, who do I call first?") == (
        "When a badge is lost abroad, who do I call first?", "")
    assert ask_and_story("After a reset: which password rules apply?")[1] == ""
    # One part, or parts that all ask, are all question.
    assert ask_and_story("Do laptops get encrypted? Which tool does it?")[1] == ""
    assert analyze("What is the travel per diem?").story == ""
    assert analyze("flew to Berlin on Monday 🙂 what's the per diem there?").story == "flew to Berlin on Monday 🙂"


def test_the_asked_kind_reads_scene_setting_clauses_compound_nouns_and_spelled_quantities() -> None:
    from knowledge.answering.evidence import holds_asked_kind
    from knowledge.query import asked_fact_kinds

    # A leading "when" clause sets the scene; the question after it asks for something else.
    assert "date" not in asked_fact_kinds("When I save a brush preset, which folder is it stored in?")
    assert "date" in asked_fact_kinds("When does the nightly backup run?")
    assert "date" in asked_fact_kinds("When rotating keys, when does the old key stop working?")
    # Adjectives before the counted thing are skipped; a compound noun is counted by either word.
    assert "count:temporary|files" in asked_fact_kinds("How many distinct kinds of temporary files are there?")
    asks = asked_fact_kinds("By default, how many database pages can the cache hold?")
    assert "count:database|pages" in asks
    assert holds_asked_kind(["count:database|pages"], "The cache holds 500 pages by default.")
    assert holds_asked_kind(["count:characters"], "It writes up to 64k characters at a time.")
    # A quantity in words answers "how far ahead"; "one" as a pronoun does not answer "by what percentage".
    assert holds_asked_kind(["number"], "Packagers are notified at least a week ahead.")
    assert holds_asked_kind(["number"], "SQLite uses nine distinct kinds of temporary file.")
    assert not holds_asked_kind(["number"], "One is to run the program inside a profiler.")
    # A bound is asked: a number that is no bound does not answer "what is the maximum".
    assert "maximum" in asked_fact_kinds("What is the maximum size of an attachment?")
    assert "minimum" in asked_fact_kinds("Which Python version does it need at least?")
    assert "minimum" not in asked_fact_kinds("Retry after 5 min?")
    assert not holds_asked_kind(["number", "maximum"], "Attachments are scanned within 30 seconds.")
    assert holds_asked_kind(["number", "maximum"], "Attachments are limited to 25 MB.")
    assert holds_asked_kind(["number", "maximum"], "You can attach up to 10 files.")
    assert not holds_asked_kind(["number", "minimum", "version"], "Version 3.7 added the flag.")
    assert holds_asked_kind(["number", "minimum", "version"], "It requires Python 3.7 or newer.")
    # The counted thing may stand three words after its number ("nine distinct types of temporary files").
    assert holds_asked_kind(["count:temporary|files"], "The engine uses nine distinct types of temporary files.")
    assert not holds_asked_kind(["count:temporary|files"], "Nine of the settings concern how the engine keeps "
                                                            "its temporary files.")
