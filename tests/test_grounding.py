"""Grounding of questions: each kind of meaning-changing difference blocks reuse; wording does not."""

from __future__ import annotations

import re

import pytest

from knowledge.grounding import compatible, entity_key, fold, ground

DIFFERENT = [
    ("error code", "What does error E4012 mean?", "What does error E4013 mean?"),
    ("form id", "Which expense form is EXP-204 for?", "Which expense form is EXP-207 for?"),
    ("setting", "What is the default value of todo_include_todos?", "What is the default value of todo_link_only?"),
    ("env var", "How do I set NW_ENV locally?", "How do I set NW_REGION locally?"),
    ("option", "What does git reset --hard do?", "What does git reset --soft do?"),
    ("function", "What does click.confirm() do?", "What does click.prompt() do?"),
    ("version", "What is the default html_theme in Sphinx 5.3?", "What is the default html_theme in Sphinx 7.2?"),
    ("v-version", "What changed in checkout-service v2.3?", "What changed in checkout-service v2.4?"),
    ("money", "Who signs off on a $3,000 expense report?", "Who signs off on a $30,000 expense report?"),
    ("thousands", "How many quotes for a $40k contract?", "How many quotes for a $4k contract?"),
    ("unit", "How do I set a 30 second timeout?", "How do I set a 30 minute timeout?"),
    ("number word", "With a prefetch multiplier of one, how many tasks?", "With a prefetch multiplier of four, how many tasks?"),
    ("enable/disable", "How do I enable autoescaping?", "How do I disable autoescaping?"),
    ("turn on/off", "How do I turn on colored output?", "How do I turn off colored output?"),
    ("add/remove", "How do I add a remote in git?", "How do I remove a remote in git?"),
    ("True/False", "What does gather(return_exceptions=True) do?", "What does gather(return_exceptions=False) do?"),
    ("prefix opposite", "How do I lock my screen?", "How do I unlock my screen?"),
    ("negation", "Which expenses need a receipt?", "Which expenses don't need a receipt?"),
    ("reversal", "How do I convert numeric to factor in R?", "How do I convert factor to numeric in R?"),
    ("reversal into", "How do I merge main into my feature branch?", "How do I merge my feature branch into main?"),
    ("object swap", "How do I delete a branch in git?", "How do I delete a tag in git?"),
    ("object swap at end", "Which queue do I use to get access to a shared drive?",
     "Which queue do I use to get access to a printer?"),
]

SAME = [
    ("casual", "What does error E4012 mean?", "hey, customer got E4012 at checkout — what is that?"),
    ("reordered", "Does Celery 5.3 support Python 3.8?", "Is Python 3.8 supported by Celery 5.3?"),
    ("synonym in a class", "How do I turn on colored output in sphinx-build?", "How do I enable colored output in sphinx-build?"),
    ("lower-case acronym", "How do I import a CSV file into SQLite?", "what's the easiest way to import a csv into sqlite?"),
    ("same direction", "How do I redirect HTTP to HTTPS in Flask?", "How can Flask redirect HTTP requests to HTTPS?"),
    ("both negated", "What should I do when the VPN doesn't connect?", "vpn won't connect again, what do i do?"),
    ("money written twice", "How many quotes for a $40k annual contract?", "buying a $40k/yr contract, how many quotes?"),
]


@pytest.mark.parametrize("kind,stored,asked", DIFFERENT, ids=[row[0] for row in DIFFERENT])
def test_a_difference_in_meaning_blocks_reuse(kind, stored, asked):
    ok, why = compatible(ground(stored), ground(asked))
    assert not ok and why
    assert not compatible(ground(asked), ground(stored))[0]  # symmetric


@pytest.mark.parametrize("kind,stored,asked", SAME, ids=[row[0] for row in SAME])
def test_rewording_keeps_reuse(kind, stored, asked):
    assert compatible(ground(stored), ground(asked)) == (True, "")


def test_admin_patterns_add_entities():
    patterns = [("other", re.compile(r"\bPRJ[a-z]+\b"))]
    assert not compatible(ground("Who owns PRJalpha?", patterns), ground("Who owns PRJbeta?", patterns))[0]
    assert ("other", "prjalpha") in ground("Who owns PRJalpha?", patterns).entities


def test_grounding_round_trips_through_json_and_keys_on_entities():
    g = ground("What does git reset --hard HEAD~1 do in 2.4?", topics=["git"])
    assert type(g).from_dict(g.to_dict()) == g
    assert entity_key(g) == entity_key(ground("git reset --hard HEAD~1, version 2.4: what happens?"))


@pytest.mark.parametrize("word,folded", [("branches", "branch"), ("policies", "policy"),
                                         ("searchable", "search"), ("class", "class")])
def test_fold(word, folded):
    assert fold(word) == folded
