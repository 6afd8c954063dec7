"""The question path end to end on the sample corpus, against the real database and embedder."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from knowledge.answering import AskOptions, answer_question
from knowledge.answering.providers import default_providers
from knowledge.ingestion import ingest_document, register_upload
from knowledge.models import Answer, Collection, KnowledgeGap, QueryLog
from knowledge.providers import build_completer, build_hosted_generator
from tests.factories import make_collection, make_user
from tests.servers.fake_openai import FakeOpenAI, Response

pytestmark = pytest.mark.django_db


def ask(question: str, **options) -> object:
    options.setdefault("use_cache", False)
    return answer_question(question, AskOptions(**options))


def ask_one_document(name: str, filename: str, text: bytes, question: str) -> object:
    """Ingest one document into a public collection of its own and ask about it there."""
    collection = make_collection(name, is_public=True)
    document, _ = register_upload(collection, filename, text)
    ingest_document(document.pk)
    return ask(question, collection_ids=[collection.pk])


class RecordingGenerator:
    """A generator seam that records calls and answers from passage [1]."""

    name = "recording"

    def __init__(self) -> None:
        self.calls: list[str] = []

    def generate(self, question, passages, *, model=None):
        from knowledge.providers.base import Generation, Usage

        self.calls.append(question)
        return Generation(text=passages[0].text.split(". ")[0] + " [1].", provider="recording", model="m",
                          usage=Usage(10, 5, 0.0))


def test_answers_with_citations_to_the_right_document(corpus_db):
    result = ask("How many weeks of paid parental leave do employees get?")
    assert not result.refused, result.evidence
    assert "[1]" in result.answer
    assert result.citations and result.citations[0].source.startswith("hr/parental-leave.md")
    assert result.citations[0].url.endswith(f"#{result.citations[0].source.split('#')[1]}")
    assert 0 < result.confidence <= 1
    for stage in ("understand", "embed", "retrieve", "rerank", "assess", "verify", "total"):
        assert stage in result.timings_ms
    log = QueryLog.objects.get(pk=result.log_id)
    assert log.outcome == "answered" and log.retrieved and log.timings_ms["total"] > 0


def test_words_of_the_askers_story_are_weighed_apart_from_what_is_asked(corpus_db):
    plain = ask("How many weeks of paid parental leave do employees get?").evidence
    told = ask("my sister-in-law just had twins in Lisbon 🎉 how many weeks of paid parental leave do "
               "employees get?").evidence
    # The story's words (sister-in-law, twins, Lisbon) are in no passage: they are listed as missing, and they
    # count as the story's, not as missing words of the question.
    assert {"lisbon", "sister-in-law"} <= set(told["missing_terms"])
    assert told["features"]["missing_story_count"] > 0
    assert told["features"]["missing_specific_count"] == plain["features"]["missing_specific_count"]
    assert plain["features"]["missing_story_count"] == 0


def test_exact_identifier_lookup(corpus_db):
    result = ask("What does error E4012 mean?")
    assert not result.refused
    assert any(c.source.startswith("engineering/error-codes.md") for c in result.citations)


def test_a_table_answer_gives_only_the_rows_asked_about(corpus_db):
    # The corporate card's limits table has a row per card type; the question names one of them.
    card = ask("What is the single transaction limit for a standard physical card?")
    assert "$2,500" in card.answer and "Department head" not in card.answer, card.answer
    # A row named by the number in its first cell ("Rating: 4"), though other rows share more words.
    rating = ask("what does a rating of 4 mean in performance reviews?")
    assert "Exceeds expectations" in rating.answer and "Rating: 1;" not in rating.answer, rating.answer
    # A follow-up read with the question before it asks about two rows: both are given.
    both = ask("What is the single transaction limit on a standard physical corporate card? and for a department "
               "head card?")
    assert "$2,500" in both.answer and "$10,000" in both.answer and "Virtual" not in both.answer, both.answer


def test_a_named_codes_section_answers_only_when_it_holds_the_asked_kind_of_fact():
    from knowledge.answering.evidence import identifier_lookup

    found = {"identifier_on_top": 1.0, "missing_specific": 0.0, "fact_missing": 0.0}
    assert identifier_lookup(found)
    # "What priority does a task get by default?" over the section on priorities, which gives no default:
    # the refusal model decides, as for any near miss.
    assert not identifier_lookup({**found, "fact_missing": 1.0})
    assert not identifier_lookup({**found, "missing_specific": 0.3})


def test_an_answer_without_the_asked_kind_of_fact_loses_confidence():
    # Whatever the fit: the evidence strength falls when the passages lack the asked number or default,
    # and confidence reads the strength.
    from knowledge import fitted
    from knowledge.answering.evidence import confidence_features
    from knowledge.scoring import probability

    features = {"top_score": 0.5, "coverage": 0.9, "answer_coverage": 0.6, "answer_coverage_in_section": 0.7,
                "focus_coverage": 0.6, "best_unit": 0.5, "best_unit_dense": 0.6, "dense_top": 0.7,
                "question_terms": 0.4, "fact_missing": 0.0, "kind_about": 0.7}
    lacking = {**features, "fact_missing": 1.0, "kind_about": 0.0}
    with_fact = probability(fitted.CONFIDENCE, confidence_features(features, probability(fitted.REFUSAL, features), 1.0))
    without = probability(fitted.CONFIDENCE, confidence_features(lacking, probability(fitted.REFUSAL, lacking), 1.0))
    assert without < with_fact - 0.1


def test_the_sentence_that_states_the_asked_number_must_be_about_the_question():
    """kind_about: how much the chosen unit holding the asked kind of fact is about the question, by its words
    (section heading included) or by its meaning, whichever reads higher."""
    from knowledge.answering.evidence import _kind_about
    from knowledge.answering.extractive import Candidate
    from knowledge.answering.units import Unit

    def unit(text: str, coverage: float, dense: float, heading: float = 0.0) -> Candidate:
        return Candidate(None, Unit(text, "sentence", 0, 0), coverage=coverage,
                         features={"unit_dense": dense, "heading_coverage": heading})

    about = unit("Each page holds at most 40 columns.", 0.3, 0.35)
    other = unit("A table lists the columns of a query result.", 0.8, 0.7)
    limit = unit("Exports are limited to 100 rows.", 0.1, 0.2)
    # Nothing is asked of a kind: nothing to weigh.
    assert _kind_about(["procedure"], [other, limit]) == 1.0
    # A number is asked and no chosen sentence gives one.
    assert _kind_about(["number"], [other]) == 0.0
    # The only number sits in a sentence about something else: low, however good the other sentence is.
    assert _kind_about(["number"], [other, limit]) == pytest.approx(0.2)
    # Words or meaning, whichever reads higher; the heading's words count for the sentence under it.
    assert _kind_about(["number"], [other, about, limit]) == pytest.approx(0.35)
    assert _kind_about(["number"], [unit("The fee is 12 dollars.", 0.3, 0.2, heading=0.4)]) == pytest.approx(0.7)


def test_refusal_makes_no_generation_call_and_records_a_gap(corpus_db):
    providers = default_providers()
    providers.generator = RecordingGenerator()
    result = answer_question("What is the airline miles conversion rate for the Mars office cafeteria?",
                             AskOptions(use_cache=False), providers)
    assert result.refused and result.citations == []
    assert "knowledge base" in result.answer
    assert providers.generator.calls == []
    gap = KnowledgeGap.objects.get()
    assert "mars office" in gap.normalized_question and gap.times_asked == 1
    answer_question("What is the airline miles conversion rate for the Mars office cafeteria?",
                    AskOptions(use_cache=False), providers)
    gap.refresh_from_db()
    assert gap.times_asked == 2


def test_personal_data_is_redacted_before_logging(corpus_db):
    result = ask("My email is dana@example.com and my card is 4111 1111 1111 1111, what is the MFA policy?")
    log = QueryLog.objects.get(pk=result.log_id)
    assert "dana@example.com" not in log.question and "4111" not in log.question
    assert "dana@example.com" not in Answer.objects.get(pk=result.answer_id).question_text


def test_answers_only_cite_collections_the_asker_may_read(corpus_db):
    private = make_collection("Secret HR", is_public=False)
    document, _ = register_upload(private, "secret/bonus.md",
                                  b"# Bonus pool\n\nThe 2025 executive bonus pool is 4.2 million USD, paid in March.\n")
    ingest_document(document.pk)
    outsider = make_user()
    denied = ask("How big is the 2025 executive bonus pool?", user=outsider)
    assert all(not c.source.startswith("secret/") for c in denied.citations)
    insider = make_user()
    private.readers.add(insider)
    allowed = ask("How big is the 2025 executive bonus pool?", user=insider)
    assert any(c.source.startswith("secret/") for c in allowed.citations)


def test_cache_serves_verified_answers_and_never_flagged_ones(corpus_db):
    question = "How many weeks of paid parental leave do employees get?"
    first = answer_question(question, AskOptions())
    answer = Answer.objects.get(pk=first.answer_id)
    answer.status = Answer.Status.VERIFIED
    answer.save()
    again = answer_question(question.upper() + "  ", AskOptions())
    assert again.cache == "exact" and again.answer_id == answer.pk and again.verified
    similar = answer_question("how many weeks paid parental leave for employees?", AskOptions())
    assert similar.cache in ("similar", "exact") and similar.answer_id == answer.pk
    answer.status = Answer.Status.FLAGGED
    answer.save()
    after_flag = answer_question(question, AskOptions())
    assert after_flag.cache == "miss" and after_flag.answer_id != answer.pk


def test_changed_source_makes_cached_answers_stale(corpus_db):
    collection = make_collection()
    document, _ = register_upload(collection, "desk.md", b"# Desk booking\n\nHot desks are booked in the Deskly app up to 14 days ahead.\n")
    ingest_document(document.pk)
    first = answer_question("How far ahead can hot desks be booked in Deskly?", AskOptions())
    assert not first.refused and first.citations[0].source.startswith("desk.md")
    document, _ = register_upload(collection, "desk.md", b"# Desk booking\n\nHot desks are booked in the Deskly app up to 30 days ahead.\n")
    ingest_document(document.pk)
    assert Answer.objects.get(pk=first.answer_id).stale
    second = answer_question("How far ahead can hot desks be booked in Deskly?", AskOptions())
    assert second.cache == "miss" and "30 days" in second.answer


def test_openai_compatible_provider_through_the_real_sdk(corpus_db):
    with FakeOpenAI() as server:
        config = {"api_key": "sk-test", "base_url": server.base_url, "cheap_model": "small", "strong_model": "big",
                  "timeout_s": 5, "max_retries": 0}
        providers = default_providers()
        providers.generator = build_hosted_generator("openai", config)
        providers.completer = build_completer("openai", config)
        result = answer_question("How many weeks of paid parental leave do employees get?",
                                 AskOptions(use_cache=False), providers)
        assert result.provider == "openai" and result.model == "small"
        assert not result.refused and result.citations
        messages = server.bodies("/chat/completions")[0]["messages"]
        system, user = messages[0]["content"], messages[-1]["content"]
        # Sources travel as delimited data in the user turn, never as instructions in the system message.
        assert "[1]" in user and "parental" in user.lower() and "parental" not in system.lower()


def test_provider_outage_degrades_to_the_extractive_answer_with_a_note(corpus_db):
    with FakeOpenAI() as server:
        server.error(500, "upstream exploded", times=5)
        config = {"api_key": "sk-test", "base_url": server.base_url, "timeout_s": 5, "max_retries": 0}
        providers = default_providers()
        providers.generator = build_hosted_generator("openai", config)
        result = answer_question("How many weeks of paid parental leave do employees get?",
                                 AskOptions(use_cache=False), providers)
        assert result.provider == "extractive" and not result.refused and result.citations
        assert "500" in result.note or "error" in result.note.lower()


def test_provider_timeout_degrades_too(corpus_db):
    with FakeOpenAI() as server:
        server.enqueue(Response(200, json={}, delay_s=3))
        config = {"api_key": "sk-test", "base_url": server.base_url, "timeout_s": 0.5, "max_retries": 0}
        providers = default_providers()
        providers.generator = build_hosted_generator("openai", config)
        result = answer_question("What does error E4012 mean?", AskOptions(use_cache=False), providers)
        assert result.provider == "extractive" and result.note and not result.refused


def test_follow_up_uses_the_thread(corpus_db):
    result = ask("and for part-time employees?",
                 thread_context=["How many weeks of paid parental leave do employees get?"])
    assert result.standalone_question.startswith("How many weeks")
    assert any(c.source.startswith("hr/parental-leave.md") for c in result.citations)


def test_ask_command_json_shape(corpus_db):
    out = io.StringIO()
    call_command("ask", "What does error E4012 mean?", "--json", stdout=out)
    data = json.loads(out.getvalue())
    assert {"answer", "refused", "confidence", "citations", "cache", "verification", "timings_ms"} <= set(data)
    assert {"n", "source", "title", "url", "chunk_id", "quote"} <= set(data["citations"][0])


def test_hyde_and_multi_query_use_the_completer_and_survive_its_failure(corpus_db):
    def script(body):
        system = body["messages"][0]["content"]
        if "hypothetical" in system.lower() or "short passage" in system.lower():
            return Response(200, json=FakeOpenAI.chat_completion(
                body, "Primary caregivers receive 16 weeks of fully paid parental leave."))
        if "two different ways" in system:
            return Response(200, json=FakeOpenAI.chat_completion(
                body, "paid leave weeks for the main caregiver after a birth\nbaby leave length for primary carers"))
        return None

    with FakeOpenAI() as server:
        server.script(script)
        config = {"api_key": "sk-test", "base_url": server.base_url, "timeout_s": 5, "max_retries": 0}
        providers = default_providers()
        providers.completer = build_completer("openai", config)
        providers.hyde = providers.multi_query = True
        result = answer_question("How many weeks of paid parental leave do employees get?",
                                 AskOptions(use_cache=False), providers)
        assert {"hyde_generate", "multi_query_generate"} <= set(result.timings_ms)
        assert len(server.bodies("/chat/completions")) == 2
        assert result.citations[0].source.startswith("hr/parental-leave.md")
        server.script(None)
        server.error(503, "overloaded", times=10)
        degraded = answer_question("How many weeks of paid parental leave do employees get?",
                                   AskOptions(use_cache=False), providers)
        assert not degraded.refused and degraded.citations[0].source.startswith("hr/parental-leave.md")


@pytest.mark.django_db
def test_a_database_behind_the_code_asks_for_migrate_in_one_line(corpus_db):
    from django.core.management.base import CommandError
    from django.db import connection

    from knowledge.management.commands._schema import schema_up_to_date

    with pytest.raises(CommandError, match=r"older than this code .*manage.py migrate"):
        with schema_up_to_date(), connection.cursor() as cursor:
            cursor.execute("SELECT no_such_column FROM knowledge_document")


def test_a_lead_in_brings_its_whole_list(corpus_db):
    """"You can either:" never ends an answer after its first option: every item it introduces comes."""
    result = ask_one_document("Printing", "printing.md", (
        b"# Printing\n\n## Enabling the office printer\n\n"
        b"The office printer ships with printing turned off, so to enable printing on your laptop you can either:\n\n"
        b"- install the Printly desktop client from the software portal\n"
        b"- add the queue printly-3rd-floor in your system printer settings\n"
        b"- or send documents to print@example.com from your work mailbox\n"),
        "The office printer ships with printing off, how do I enable printing on my laptop?")
    assert not result.refused, result.answer
    for item in ("Printly desktop client", "printly-3rd-floor", "print@example.com"):
        assert item in result.answer, result.answer


def test_a_how_to_answered_by_code_also_says_the_statement_that_answers(corpus_db):
    """A how-to answer built around a code block and the sentence before it, with no steps to keep to, also says
    the best statement nearly as good as the code: here the one that names what to pass."""
    result = ask_one_document("Test client", "testing.md", (
        b"# Testing the app\n\n## Following redirects\n\n"
        b"By default, the client does not make additional requests if the response is a redirect. "
        b"By passing chase_redirects=True to a request method, the client will follow the redirect and make "
        b"requests until a non-redirect response is returned.\n\n"
        b"Each response has a request attribute which records the request that produced that response.\n\n"
        b"    def test_logout_redirect(client):\n"
        b"        response = client.get('/logout')\n"
        b"        # Check that there was one redirect response.\n"
        b"        assert len(response.history) == 1\n"
        b"        # Check that the second request was to the index page.\n"
        b"        assert response.request.path == '/index'\n"),
        "my test client just hands me back the 302 and never goes to the next page, how do i make it follow the "
        "redirect??")
    assert not result.refused, result.answer
    assert "By passing chase_redirects=True to a request method" in result.answer, result.answer


def test_a_number_question_gets_the_sentence_with_the_number(corpus_db):
    """When the best sentences name the subject but not the figure asked for, the sentence that gives it
    joins the answer."""
    result = ask_one_document("Lockers", "lockers.md", (
        b"# Office lockers\n\n## Locker rental\n\n"
        b"Office lockers are rented through the facilities desk and are assigned to one employee at a time. "
        b"Lockers on the second floor are reserved for staff who work in the lab and hold personal equipment. "
        b"The monthly locker rental fee is 12 dollars, deducted from payroll.\n"),
        "How much does an office locker rental cost per month?")
    assert not result.refused, result.answer
    assert "12 dollars" in result.answer, result.answer


def test_a_passage_that_ends_on_a_lead_in_gets_the_code_the_next_chunk_opens_with(settings):
    from knowledge.answering.passages import build_passages
    from knowledge.models import Chunk
    from knowledge.retrieval import load_hits

    settings.VERITY_CHUNK_MAX_TOKENS, settings.VERITY_CHUNK_TARGET_TOKENS = 64, 48
    collection = make_collection("Build guide")
    filler = " ".join(f"Step {i} of the release checklist is reviewed by the duty engineer." for i in range(4))
    code = "".join(f"    git push mirror-{i} v2.4.0 --follow-tags --signed=if-asked\n" for i in range(5))
    text = (f"# Releasing\n\n{filler}\n\nTag the release and push the tag to every mirror as follows:\n\n"
            f"{code}\nThe release job starts on its own.\n").encode()
    document, _ = register_upload(collection, "release.md", text)
    ingest_document(document.pk)
    chunks = list(Chunk.objects.filter(document=document).order_by("order"))
    (lead,) = [c for c in chunks if c.text.rstrip().endswith("as follows:")]
    assert "git push" not in lead.text  # the chunk boundary falls between the lead-in and its code

    (passage,) = build_passages(load_hits([lead.pk]))
    # The code block opens the next chunk, cut between its lines with its indentation kept.
    assert chunks[chunks.index(lead) + 1].text.startswith("    git push mirror-0")
    assert "as follows:\n\n    git push mirror-0 v2.4.0 --follow-tags --signed=if-asked" in passage.text, passage.text
    assert "The release job" not in passage.text  # only what the lead-in introduces
    (other,) = build_passages(load_hits([chunks[0].pk]))
    assert other.text == chunks[0].text  # a passage that ends on a full stop stays as it is


def test_bracketed_numbers_of_a_source_stay_in_the_answer_as_text(corpus_db):
    """A range written in brackets ("[50, 2000]") looks like a citation marker; quoted in an answer it was
    renumbered with the markers and became "[1]"."""
    from textcore.markers import parse_markers

    result = ask_one_document("Sync tool", "sync.md", (
        b"# Sync tool\n\n## Retry delay\n\n"
        b"The sync tool waits between two attempts to reach the server. "
        b"The retry delay is given in milliseconds and must be in the range [50, 2000].\n"),
        "What range must the sync tool's retry delay be in?")
    assert not result.refused, result.answer
    assert "50, 2000]" in result.answer, result.answer
    assert parse_markers(result.answer) == [1], result.answer
    assert result.verification["final_faithful"], result.verification
