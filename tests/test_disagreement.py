"""Sources that give one fact two different numbers: the answer quotes both and says they disagree."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from knowledge.answering import AskOptions, answer_question
from knowledge.models import Collection
from verification.checks import verify_answer
from verification.checks.types import Source

pytestmark = pytest.mark.django_db

POLICY = """# Travel policy

## Meals

The daily meal allowance is $55 for every day of travel. Receipts are not needed for meals within the allowance.

## Hotels

Hotel rooms are booked through the travel desk at least a week ahead.
"""

FAQ = """# Travel questions and answers

## Meals

The daily meal allowance is {amount} for every day of travel. Alcohol is never covered.

## Trains

Standard class is booked for every train journey under four hours.
"""


def _ask(tmp_path, faq_amount: str, *, faq_header: str = "") -> str:
    folder = tmp_path / "travel"
    folder.mkdir()
    (folder / "travel-policy.md").write_text(POLICY)
    (folder / "travel-faq.md").write_text(faq_header + FAQ.format(amount=faq_amount))
    call_command("ingest", str(folder), "--sync", "--collection", "Travel", "--public", verbosity=0)
    collection = Collection.objects.get(name="Travel")
    result = answer_question("What is the daily meal allowance?",
                             AskOptions(use_cache=False, store=False, collection_ids=[collection.pk]))
    assert not result.refused, result.answer
    return result.answer


def test_two_documents_that_give_different_amounts_are_both_quoted_and_said_to_disagree(tmp_path):
    answer = _ask(tmp_path, "$60")
    assert "$55" in answer and "$60" in answer, answer
    assert answer.rstrip().endswith("The sources disagree on this ($55 and $60): check which one applies.") or \
        answer.rstrip().endswith("The sources disagree on this ($60 and $55): check which one applies."), answer
    assert "[1]" in answer and "[2]" in answer, answer


def test_documents_that_agree_need_no_such_line(tmp_path):
    answer = _ask(tmp_path, "$55")
    assert "$55" in answer and "disagree" not in answer, answer


def test_a_newer_version_does_not_disagree_it_replaces(tmp_path):
    answer = _ask(tmp_path, "$60", faq_header="---\ntitle: Travel questions and answers\n"
                                              "supersedes: travel-policy.md\n---\n\n")
    assert "$60" in answer and "disagree" not in answer, answer


def test_the_line_about_the_sources_is_not_a_claim_the_checker_flags():
    sources = [Source(1, "The daily meal allowance is $55 for every day of travel."),
               Source(2, "The daily meal allowance is $60 for every day of travel.")]
    answer = ("The daily meal allowance is $55 for every day of travel [1]. The daily meal allowance is $60 for "
              "every day of travel [2].\n\nThe sources disagree on this ($55 and $60): check which one applies.")
    report = verify_answer(answer, sources)
    assert report.faithful, [(v.claim.text, v.verdict, v.reason) for v in report.claims]


def test_a_restatement_that_leaves_a_number_out_does_not_disagree():
    from knowledge.answering import disagreement
    from knowledge.answering.extractive import Candidate
    from knowledge.answering.passages import SourcePassage
    from knowledge.answering.units import Unit
    from knowledge.retrieval import Hit

    def unit(document_id: int, text: str, score: float) -> Candidate:
        hit = Hit(chunk_id=document_id, document_id=document_id, collection_id=1, order=0, text=text,
                  heading_text="", anchor="", page=None, search_vector="", source=f"d{document_id}.md", title="",
                  collection="", updated_at=None)
        return Candidate(SourcePassage(document_id, [hit], score, text), Unit(text, "sentence", 0, 0), score)

    detailed = unit(1, "If port 5000 is in use, the server fails with OSError: [Errno 98] when it starts.", 0.9)
    shorter = unit(2, "If port 5000 is in use, the server fails with an OSError when it starts.", 0.8)
    other_port = unit(3, "If port 8000 is in use, the server fails with OSError: [Errno 98] when it starts.", 0.7)
    assert disagreement.find([detailed], [detailed, shorter]) is None
    found = disagreement.find([detailed], [detailed, shorter, other_port])
    assert found is not None and found.other is other_port and found.values == ("5000", "8000")
