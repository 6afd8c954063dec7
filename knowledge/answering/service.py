"""`answer_question`: the one question path used by the bot, the API, the console and the CLI."""

from __future__ import annotations

import dataclasses
import logging
import re
import time
from dataclasses import dataclass, field

from django.conf import settings

from knowledge.answering import cache as answer_cache
from knowledge.answering import compose as composing
from knowledge.answering import evidence as evidence_mod
from knowledge.answering import disagreement, extractive, graph, store
from knowledge.answering.currency import demote_superseded, successors
from knowledge.answering.passages import SourcePassage, build_passages, section_url
from knowledge.answering.providers import AnsweringProviders, default_providers
from knowledge.answering.result import AnswerResult, Citation
from knowledge.embedding import cached_embed
from knowledge.lexicon import term_stats
from knowledge.models import Answer, Collection, GlossaryTerm
from knowledge.query import analyze
from knowledge.redaction import redact
from knowledge.retrieval import retrieve
from textcore.markers import parse_markers, renumber, strip_markers
from textcore.sentences import split_sentences

log = logging.getLogger(__name__)

_FOLLOW_UP = re.compile(r"^(and|also|what about|how about|but|so|then|ok|okay)\b|\b(it|that|this|they|them|those|"
                        r"these|there|he|she|its|their)\b", re.I)
REFUSAL_TEXT = ("I couldn't find this in the knowledge base, so I won't guess. I searched {searched}. "
                "The question has been logged as a knowledge gap for the document owners.")
WARNING_TEXT = "Low confidence ({score:.0%}): check the sources below. A reviewer has been asked to look at this answer."
FLAG_CARRIED_TEXT = ("An earlier answer to this question was flagged ({reason}). This answer is waiting for a reviewer: "
                     "check the sources below.")
FLAG_PENDING_TEXT = "Someone flagged this answer; a reviewer is checking it. Check the sources below."
# A refusal carries no citation markers; its opening tells it apart from a question in a thread.
_REFUSAL_OPENING = REFUSAL_TEXT.partition(".")[0]
# How much of a Slack thread or a conversation a follow-up reads: the last three question/answer pairs.
CONTEXT_TURNS = 6


# A question is a sentence or a short paragraph; anything longer is a pasted document, not a question.
MIN_QUESTION_CHARS = 3
MAX_QUESTION_CHARS = 2000


class QuestionError(ValueError):
    """A question that cannot be asked as given (empty, or far too long); the message says what to do."""


def check_question(question: str) -> str:
    """The question, stripped; QuestionError when it is empty, too short or too long."""
    text = (question or "").strip()
    if len(text) < MIN_QUESTION_CHARS:
        raise QuestionError(f"Ask a full question (at least {MIN_QUESTION_CHARS} characters).")
    if len(text) > MAX_QUESTION_CHARS:
        raise QuestionError(f"The question is {len(text):,} characters long; keep it under "
                            f"{MAX_QUESTION_CHARS:,} (ask about one thing at a time).")
    return text


@dataclass
class AskOptions:
    """Who asks, from where, and what may be used."""

    user: object = None
    collection_ids: list[int] | None = None
    # Set by a shared space (a Slack channel): exactly these collections, whatever the asker may read,
    # because everyone in the channel sees the answer.
    channel_collection_ids: list[int] | None = None
    thread_context: list[str] = field(default_factory=list)
    channel: str = "cli"
    external_user: str = ""
    thread: str = ""
    use_cache: bool = True
    store: bool = True


class Timer:
    """Collects per-stage timings in milliseconds."""

    def __init__(self) -> None:
        self.timings: dict[str, float] = {}
        self._started = time.perf_counter()

    def stage(self, name: str, since: float) -> float:
        now = time.perf_counter()
        self.timings[name] = round((now - since) * 1000, 2)
        return now

    def total(self) -> dict[str, float]:
        self.timings["total"] = round((time.perf_counter() - self._started) * 1000, 2)
        return self.timings


def glossary() -> dict[str, str]:
    """The admin-editable abbreviation glossary."""
    return dict(GlossaryTerm.objects.values_list("term", "expansion"))


def standalone_question(question: str, thread_context: list[str], providers: AnsweringProviders) -> str:
    """Turn a follow-up into a question that stands on its own, using the thread's earlier turns."""
    asked = " ".join(question.lower().split())
    # The thread as Slack returns it may hold this very message again; it is not an earlier turn.
    previous = [turn for turn in thread_context if turn.strip() and " ".join(turn.lower().split()) != asked][-3:]
    if not previous:
        return question
    if providers.completer is not None:
        rewritten = providers.rewrite_follow_up(question, previous)
        if rewritten:
            return rewritten
    if len(question.split()) <= 12 or _FOLLOW_UP.search(question):
        # Without a model, the follow-up completes the last question asked, not the last answer given.
        asked_before = [turn for turn in previous if not _is_answer(turn)] or previous
        return f"{asked_before[-1]} {question}"
    return question


def _is_answer(turn: str) -> bool:
    """An earlier turn the answer path wrote: answers carry citation markers, refusals open with their own words."""
    return bool(parse_markers(turn)) or turn.strip().startswith(_REFUSAL_OPENING)


def allowed_collections(options: AskOptions) -> list[int]:
    """Collections the asker may read (or the channel may show), narrowed to the ones requested."""
    if options.channel_collection_ids is not None:
        readable = set(options.channel_collection_ids)
    else:
        readable = set(Collection.objects.readable_by(options.user).values_list("pk", flat=True))
    if options.collection_ids is not None:
        readable &= set(options.collection_ids)
    return sorted(readable)


@dataclass
class Gathered:
    """Retrieval and evidence for one question, before any generation."""

    lexemes: list[str]
    hits: list
    passages: list[SourcePassage]
    draft: str
    chosen: list
    evidence: evidence_mod.Evidence
    best_unit: float = 0.0
    # Another document states the answer's fact with a different number (neither supersedes the other).
    disagreement: disagreement.Disagreement | None = None


def gather(query, vector, collection_ids: list[int], providers: AnsweringProviders, timer: Timer) -> Gathered:
    """Retrieve, rerank, build passages, draft the extractive answer and assess the evidence."""
    started = time.perf_counter()
    search_text = providers.expand_query(query, timer)
    if search_text is not None:
        vector = providers.embedder.embed([search_text], kind="query")[0]
        started = timer.stage("hyde", started)
    candidates = retrieve(query, vector, collection_ids)
    timer.timings.update({f"retrieve_{k}": v for k, v in candidates.timings_ms.items()})
    for variant in providers.query_variants(query, timer):
        # Multi-query: each paraphrase retrieves on its own; rankings add up in the fused score.
        extra = retrieve(analyze(variant), providers.embedder.embed([variant], kind="query")[0], collection_ids)
        known = {hit.chunk_id: hit for hit in candidates.hits}
        for hit in extra.hits:
            if hit.chunk_id in known:
                known[hit.chunk_id].fused += hit.fused
            else:
                candidates.hits.append(hit)
        candidates.hits.sort(key=lambda h: h.fused, reverse=True)
    started = timer.stage("retrieve", started)
    stats = term_stats(collection_ids)
    hits = providers.reranker.rerank(query.expanded, candidates.lexemes, candidates.hits, stats)
    newer = successors(collection_ids)  # one look-up a question: demotion and disagreement both read it
    hits = demote_superseded(hits, newer)
    started = timer.stage("rerank", started)
    passages = build_passages(hits[:8], limit=5)
    scored = extractive.score_candidates(candidates.lexemes, passages, stats, query.asks_for, query.identifiers,
                                         embed=cached_embed(providers.embedder), query_vector=vector)
    scored = extractive.about_identifiers(scored, query.strict_identifiers, stats)
    draft, chosen = composing.compose(scored, query.asks_for)
    conflict = disagreement.find(chosen, scored, newer)
    if conflict is not None and conflict.other not in chosen:
        # Both sides go in, each with its citation: the asker sees the two statements side by side.
        chosen = chosen + [conflict.other]
        draft = f"{draft} {composing.render([conflict.other])}"
    best_unit = max((c.score for c in scored), default=0.0)
    evidence = evidence_mod.assess(query, candidates.lexemes, passages, stats, chosen, best_unit)
    timer.stage("assess", started)
    return Gathered(candidates.lexemes, hits, passages, draft, chosen, evidence, best_unit, conflict)


def find_passages(question: str, options: AskOptions | None = None,
                  providers: AnsweringProviders | None = None) -> list[dict]:
    """The ranked chunks the question path would cite, without generating or storing anything."""
    options = options or AskOptions()
    providers = providers or default_providers()
    query = analyze(redact(question).text, glossary())
    vector = providers.embedder.embed([query.expanded], kind="query")[0]
    return _retrieved(gather(query, vector, allowed_collections(options), providers, Timer()).hits[:20])


def answer_question(question: str, options: AskOptions | None = None,
                    providers: AnsweringProviders | None = None) -> AnswerResult:
    """Answer from the knowledge base with citations and confidence, or refuse; store and log it."""
    options = options or AskOptions()
    providers = providers or default_providers()
    timer = Timer()
    started = time.perf_counter()
    redacted = redact(question).text
    context = [redact(turn).text for turn in options.thread_context]
    standalone = standalone_question(redacted, context, providers)
    query = analyze(standalone, glossary())
    collection_ids = allowed_collections(options)
    started = timer.stage("understand", started)
    vector = providers.embedder.embed([query.expanded], kind="query")[0]
    started = timer.stage("embed", started)
    asked = graph.understand(query.normalized, query.cache_key, vector)

    if options.use_cache:
        # A follow-up completed from its thread ("<last question> and for part-time employees?") is nearly
        # the last question in words but not in meaning: only the very same follow-up may reuse an answer.
        hit = answer_cache.lookup(asked, collection_ids, exact_only=standalone != redacted)
        started = timer.stage("cache", started)
        if hit is not None:
            return _serve_cached(hit, asked, redacted, standalone, options, timer)

    found = gather(query, vector, collection_ids, providers, timer)
    passages, evidence, hits = found.passages, found.evidence, found.hits
    started = time.perf_counter()

    result = AnswerResult(question=redacted, answer="", refused=False, confidence=0.0,
                          standalone_question=standalone if standalone != redacted else "",
                          evidence=evidence.to_dict(), retrieved=_retrieved(hits[:20]))
    usage: dict = {}
    if evidence.decision == "refuse":
        result.refused = True
        result.answer = REFUSAL_TEXT.format(searched=_searched(passages, len(collection_ids)))
        result.closest = _closest(passages)
        result.confidence = round(evidence.strength * 0.5, 3)
        result.provider = "none"
    else:
        text, used, usage, note = providers.generate(standalone, passages, found.draft, timer)
        result.note = note
        result.provider, result.model = used
        text, passages = number_by_first_use(text, passages)
        verified_text, report = providers.verify(text, passages, standalone, timer)
        result.answer, passages = number_by_first_use(verified_text, passages)
        result.verification = report
        result.citations = _citations(result.answer, passages)
        verification_score = report.get("score") if report else None
        result.confidence = evidence_mod.confidence(evidence, found.best_unit, verification_score)
        if found.disagreement is not None and _states_both(result.answer, found.disagreement):
            result.answer = f"{result.answer}\n\n{found.disagreement.sentence()}"
        if not result.answer.strip() or not result.citations:
            result.refused = True
            result.answer = REFUSAL_TEXT.format(searched=_searched(passages, len(collection_ids)))
            result.closest = _closest(passages)
            result.citations = []
        elif result.confidence < settings.VERITY_ANSWER_MIN_CONFIDENCE:
            result.warning = WARNING_TEXT.format(score=result.confidence)
            result.status = Answer.Status.NEEDS_REVIEW
        if not result.refused:
            _carry_flag(result, asked, collection_ids)
    timer.stage("compose", started)
    result.timings_ms = timer.total()
    if options.store:
        _store(result, asked, collection_ids, options, usage, passages)
    return result


def _states_both(answer: str, conflict: disagreement.Disagreement) -> bool:
    """True when the checked answer still gives both values (the checker may have removed one side)."""
    plain = answer.replace(",", "")
    return all(value.replace(",", "") in plain for value in conflict.values)


def _carry_flag(result: AnswerResult, asked: graph.AskedQuestion, collection_ids: list[int]) -> None:
    """A new answer to a question whose answer a reviewer flagged waits for review, showing why it was flagged."""
    flagged = answer_cache.flagged_predecessor(asked, collection_ids)
    if flagged is None:
        return
    note = flagged.review_note.strip()
    result.flag_reason = note.splitlines()[-1] if note else "no reason given"
    result.status = Answer.Status.NEEDS_REVIEW
    result.warning = FLAG_CARRIED_TEXT.format(reason=result.flag_reason)


def _store(result: AnswerResult, asked: graph.AskedQuestion, collection_ids: list[int], options: AskOptions,
           usage: dict, passages: list[SourcePassage]) -> None:
    started = time.perf_counter()
    answer = store.save_answer(result, asked.normalized, asked.vector, collection_ids, usage)
    result.answer_id = answer.pk
    graph.record_citations(answer)
    graph.record_question(asked, answer, origin=True, cache="miss", asker=options.user,
                          external_user=options.external_user, channel=options.channel, thread=options.thread)
    if result.refused:
        store.record_gap(result.question, asked, collection_ids,
                         [{"source": p.source_ref, "score": round(p.score, 3)} for p in passages[:3]])
    outcome = "refused" if result.refused else "answered"
    result.timings_ms["store"] = round((time.perf_counter() - started) * 1000, 2)
    result.log_id = store.save_log(result, channel=options.channel, user=options.user,
                                   external_user=options.external_user, outcome=outcome, usage=usage).pk


def _serve_cached(hit: answer_cache.CacheHit, asked: graph.AskedQuestion, question: str, standalone: str,
                  options: AskOptions, timer: Timer) -> AnswerResult:
    answer, level = hit.answer, hit.level
    result = AnswerResult(
        question=question, answer=answer.text, refused=answer.refused, confidence=answer.confidence,
        citations=[Citation(chunk_ids=[c.get("chunk_id")], **{k: c.get(k, "") for k in
                                                              ("n", "source", "title", "url", "chunk_id", "quote",
                                                               "collection", "updated_at")})
                   for c in answer.citations],
        cache=level, status=answer.status, verification=answer.verification, provider=answer.provider,
        model=answer.model, answer_id=answer.pk, standalone_question=standalone if standalone != question else "",
        badge=answer.badge(), flag_reason=answer.flag_reason,
    )
    if answer.flag_pending:
        result.warning = FLAG_PENDING_TEXT
    elif answer.status == Answer.Status.NEEDS_REVIEW:
        result.warning = WARNING_TEXT.format(score=answer.confidence)
    result.timings_ms = timer.total()
    if options.store:
        graph.record_question(asked, answer, origin=False, cache=level, asker=options.user,
                              external_user=options.external_user, channel=options.channel, thread=options.thread)
        result.log_id = store.save_log(result, channel=options.channel, user=options.user,
                                       external_user=options.external_user, outcome="cached", usage={}).pk
    return result


def number_by_first_use(text: str, passages: list[SourcePassage]) -> tuple[str, list[SourcePassage]]:
    """Markers renumbered 1..k in order of first use, passages renumbered to match (uncited ones after)."""
    by_n = {p.n: p for p in passages}
    used = [n for n in parse_markers(text) if n in by_n]
    order = used + [p.n for p in passages if p.n not in used]
    mapping = {old: new for new, old in enumerate(order, start=1)}
    if all(old == new for old, new in mapping.items()):
        return text, passages
    renumbered = sorted((dataclasses.replace(by_n[old], n=new) for old, new in mapping.items()), key=lambda p: p.n)
    return renumber(text, mapping), renumbered


def _citations(answer: str, passages: list[SourcePassage]) -> list[Citation]:
    """Citations for the [n] markers the answer uses, in order of first use."""
    by_n = {p.n: p for p in passages}
    used = [n for n in parse_markers(answer) if n in by_n]
    citing = _first_citing(answer)
    citations = []
    for passage in (by_n[n] for n in used):
        first = passage.first
        # The section of the first sentence citing the passage: a chunk may hold short sections of its own.
        hit, anchor = passage.section_of(citing[passage.n]) if passage.n in citing else (first, first.anchor)
        citations.append(Citation(
            n=passage.n, source=f"{hit.source}#{anchor}" if anchor else hit.source, title=passage.title,
            url=section_url(hit, anchor), chunk_id=first.chunk_id,
            quote=passage.text[:400], collection=first.collection,
            updated_at=first.updated_at.date().isoformat() if first.updated_at else "", chunk_ids=passage.chunk_ids,
        ))
    return citations


def _first_citing(answer: str) -> dict[int, str]:
    """For each passage number, the first sentence of the answer that cites it (markers removed)."""
    out: dict[int, str] = {}
    for sentence in split_sentences(answer):
        for n in parse_markers(sentence):
            out.setdefault(n, strip_markers(sentence))
    return out


def _retrieved(hits) -> list[dict]:
    return [{"chunk_id": h.chunk_id, "source": h.citation_source, "sections": h.section_sources,
             "score": round(h.score, 4), "fused": round(h.fused, 5), "retrievers": h.retrievers} for h in hits]


def _closest(passages: list[SourcePassage]) -> list[dict]:
    """The documents a refusal names as closest (the same three `_searched` lists), with their links."""
    seen: dict[str, dict] = {}
    for passage in passages[:3]:
        seen.setdefault(passage.title, {"title": passage.title, "source": passage.source_ref, "url": passage.url})
    return list(seen.values())


def _searched(passages: list[SourcePassage], collections: int) -> str:
    where = f"{collections} collection{'s' if collections != 1 else ''}"
    if not passages:
        return where + " and found nothing related"
    closest = ", ".join(dict.fromkeys(p.title for p in passages[:3]))
    return f"{where}; the closest documents were {closest}, but they do not answer it"
