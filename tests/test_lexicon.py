"""Term statistics follow the collections as they are created and filled, without a wait."""

from __future__ import annotations

import math

import pytest
from django.core.management import call_command

from knowledge.lexicon import term_stats
from knowledge.models import Collection

pytestmark = pytest.mark.django_db


def _ingest(folder, name: str, text: str) -> Collection:
    folder.mkdir()
    (folder / "policy.md").write_text(text)
    call_command("ingest", str(folder), "--sync", "--collection", name, "--public", verbosity=0)
    return Collection.objects.get(name=name)


def test_a_collection_filled_a_moment_after_another_was_searched_has_its_words_counted(tmp_path):
    first = _ingest(tmp_path / "a", "Bicycles", "# Parking\n\nBicycles go in the basement cage on level B1.\n")
    assert term_stats([first.pk]).df.get("basement") == 1
    # Within the few seconds the stamps are kept: the new collection must not count as empty.
    second = _ingest(tmp_path / "b", "Travel", "# Meals\n\nMeals are covered by a daily per-diem allowance.\n")
    stats = term_stats([second.pk])
    assert stats.total >= 1 and stats.df.get("allow") == 1, stats
    both = term_stats([first.pk, second.pk])
    assert both.total == term_stats([first.pk]).total + stats.total and both.df.get("basement") == 1


def test_an_empty_collection_counts_nothing_and_is_counted_once_filled(tmp_path, monkeypatch):
    empty = Collection.objects.create(name="Handbook")
    assert term_stats([empty.pk]).total == 0
    filled = _ingest(tmp_path / "c", "Handbook", "# Lockers\n\nCyclists may book a shower locker at reception.\n")
    assert filled.pk == empty.pk
    # Filled since it was last seen: counted once the stamps are read again (every few seconds; here at once).
    import knowledge.lexicon as lexicon

    monkeypatch.setattr(lexicon, "_RECHECK_S", 0.0)
    assert term_stats([empty.pk]).df.get("locker") == 1


def test_idf_over_a_handful_of_chunks_leans_to_one_weight_for_every_word():
    from knowledge.lexicon import FEW_CHUNKS, TermStats

    tiny = TermStats(total=1, avg_length=10.0, df={"locker": 1})
    # BM25's own idf over one chunk: a word of the chunk 0.29, any other word 1.39 (nearly five times more).
    assert tiny.idf("cost") / tiny.idf("locker") < 1.3
    large = TermStats(total=FEW_CHUNKS * 4, avg_length=10.0, df={"locker": 1})
    assert large.idf("locker") == pytest.approx(math.log(1 + (FEW_CHUNKS * 4 - 0.5) / 1.5))
    assert large.idf("cost") > large.idf("locker")


def test_light_verbs_and_chat_words_are_not_what_a_question_asks_about():
    from knowledge.lexicon import query_lexemes

    lexemes = query_lexemes("wat do i have to make click show instead of the default thru its help output")
    assert "make" not in lexemes and "instead" not in lexemes and "wat" not in lexemes and "thru" not in lexemes
    assert {"click", "show", "default", "help", "output"} <= set(lexemes)
    # When the asker's trouble happened is not what the passages must say.
    assert set(query_lexemes("lost my laptop this morning, or was it yesterday?")) == {"lost", "laptop"}
    # Apologies and chat words say how the asker talks, not what the passages must hold.
    assert set(query_lexemes("sorry if dumb but im tired lol, cant find the threshold tool anywhere, whats up")) == {
        "find", "threshold", "tool"}
    # Greetings and hedges ("yo", "hiya", "dunno", "do you reckon") too.
    assert set(query_lexemes("yo, hiya! dunno, do you reckon drop index wipes the disk?")) == {
        "drop", "index", "wipe", "disk"}


def test_chat_shorthand_is_read_as_the_words_it_stands_for():
    from knowledge.query import normalize

    assert normalize("quick q: push blobs w/ the json serializer, pls") == \
        "quick question: push blobs with the json serializer, please"
    assert normalize("can u explain b/c ur docs say w/o a key") == "can you explain because your docs say without a key"
    # Capitals and options are not shorthand: "Q" names a key, "-u" an option.
    assert normalize("Press the Q key, then ls -u") == "Press the Q key, then ls -u"


def test_shorthand_is_read_as_the_word_a_manual_spells_out():
    from knowledge.query import analyze

    query = analyze("which env var sets the max number of conns?")
    assert query.expanded == ("which env (environment) var (variable) sets the max (maximum) number of conns "
                              "(connections)?")
    # An option's name is no shorthand, and a company glossary wins over the built-in one.
    assert analyze("what does --max-args do").expansions == {}
    assert analyze("is the db backed up", {"db": "Deskly booking"}).expansions == {"db": "Deskly booking"}


def test_a_misspelled_word_is_read_as_the_word_the_collections_use():
    from knowledge.lexicon import TermStats
    from knowledge.retrieval import respelled

    stats = TermStats(total=1000, avg_length=50.0, df={"connect": 40, "compress": 12, "broad": 30, "npm": 300})
    assert respelled(["conect", "compres", "npm"], stats) == ["connect", "compress", "npm"]
    # An English word the collections lack, a short name and a named identifier stay as they are.
    assert respelled(["abroad", "pnpm", "connectx"], stats, ["connectx"]) == ["abroad", "pnpm", "connectx"]


def test_chat_contractions_without_an_apostrophe_are_read_as_negations():
    from knowledge.query import analyze

    assert analyze("it doesnt seem to work, whats wrong").expanded == "it does not seem to work, what is wrong"
    # "cant" and "wont" are words of their own ("a cant", "as is his wont"): left as typed.
    assert analyze("i dont know, it wont say").expanded == "i do not know, it wont say"
