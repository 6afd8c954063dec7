"""Composing the extractive answer from scored units: which units go in, in what order, and how they read.

The best unit, then a few nearly as good, in reading order; a lead-in brings its list or code, code
comes with the sentence that introduces it, a how-to question gets its steps, the asked kind of fact
joins when missing, and a repeated sentence is said once. The steps and the code of a how-to answer are read
in knowledge/answering/howto.py; `render` (knowledge/answering/render.py) writes them out.
"""

from __future__ import annotations

import dataclasses

from knowledge import fitted
from knowledge.answering.evidence import asked_facts, holds_asked_kind
from knowledge.answering.extractive import (Candidate, introduction, label_of, nearly_as_good, overlaps,
                                            unit_positions)
from knowledge.answering.howto import MAX_STEPS, code_read_on, code_that_shows_how, next_steps, steps
from knowledge.answering.passages import SHORT_LEAD_WORDS
from knowledge.answering.render import bare_lead, render

def _list_after(lead: Candidate, candidates: list[Candidate]) -> list[Candidate]:
    """What a lead-in ("The boolean can be one of:", "Run this command:") introduces: its list items,
    or the code block right after it."""
    same = sorted((c for c in candidates if c.passage.n == lead.passage.n and c.position > lead.position
                   and c.unit.kind != "window"), key=lambda c: c.position)
    if same and same[0].position == lead.position + 1 and same[0].unit.kind == "code":
        return [same[0]]
    # A paragraph of its own right after it is what it introduces when it is no list: an inline list ("API,
    # TOKEN, KEY, SECRET") or code a converted document left as plain text.
    if same and same[0].position == lead.position + 1 and same[0].unit.kind == "sentence" \
            and same[0].unit.paragraph > lead.unit.paragraph:
        return [same[0]]
    # "… with autoexception as follows:" / "docs/source/usage.rst:" / code: a label of its own between them. A
    # file name says where the code goes and stays; a bare word ("Example:") repeats what the lead-in said.
    if len(same) > 1 and same[0].position == lead.position + 1 and same[0].unit.kind == "lead" \
            and len(same[0].text.split()) <= SHORT_LEAD_WORDS and same[1].position == lead.position + 2 \
            and same[1].unit.kind == "code":
        return same[1:2] if bare_lead(same[0]) else same[:2]
    run: list[Candidate] = []
    for candidate in same:
        if candidate.unit.kind != "item" or candidate.position != (run[-1].position if run else lead.position) + 1:
            break
        run.append(candidate)
    return run[:MAX_STEPS]


def _what_it_continues(chosen: list[Candidate], candidates: list[Candidate]) -> list[Candidate]:
    """An answer that opens with a bare lead-in gets the sentences that lead-in continues, first: the one or two
    before it in its paragraph, else the last sentence of the paragraph before ("…through a pager." /
    "Example:"). They say what the example is an example of, and often hold the asked fact."""
    lead = chosen[0] if chosen else None
    if lead is None or lead.unit.kind != "lead" or not bare_lead(lead):
        return chosen
    before = sorted((c for c in candidates if c.passage.n == lead.passage.n and c.position < lead.position
                     and c.unit.kind in ("sentence", "item")), key=lambda c: c.position)
    # A code block is a paragraph of its own, so "Which will give:" after code finds nothing before it.
    same = [c for c in before if c.unit.paragraph == lead.unit.paragraph][-2:] \
        or [c for c in before if c.unit.paragraph == lead.unit.paragraph - 1][-1:]
    return [c for c in same if c.unit.quotable and not any(overlaps(c, o) for o in chosen)] + chosen


def compose(candidates: list[Candidate], asks_for: list[str] | None = None) -> tuple[str, list[Candidate]]:
    """The best unit, then up to two more nearly as good, in reading order, each with its [n]; a
    lead-in brings the list or code it introduces, code comes with the sentence that introduces it,
    and a how-to question gets the best passage's steps in order."""
    ranked = sorted(candidates, key=lambda c: c.score, reverse=True)
    if not ranked:
        return "", []
    top = ranked[0]
    how_to = bool(asks_for) and "procedure" in asks_for and len(asks_for) == 1
    if top.unit.kind == "lead":
        follow = _list_after(top, candidates)
        if follow:
            chosen = _what_it_continues([top] + follow, candidates)
            chosen += next_steps(chosen, candidates) if how_to else []
            chosen = _with_what_else_answers(chosen, ranked, top, asks_for or [], how_to)
            return render(chosen), chosen
    if top.unit.kind == "code":
        intro = introduction(top, candidates) or label_of(top, candidates)
        if intro is not None:
            chosen = _what_it_continues([intro, top], candidates)
            chosen += next_steps(chosen, candidates) if how_to else []
            chosen = _with_a_statement(chosen, ranked, how_to)
            chosen = _with_what_else_answers(chosen, ranked, top, asks_for or [], how_to)
            return render(chosen), chosen
    quotable = [c for c in ranked if c.unit.quotable]
    if not quotable:
        return "", []
    best = quotable[0]
    if best.unit.kind == "window" and best.unit.parts[0].kind == "lead" and best.unit.parts[1].kind == "code":
        chosen = _what_it_continues(_expand([best]), candidates)
        chosen += next_steps(chosen, candidates) if how_to else []
        chosen = _with_a_statement(chosen, ranked, how_to)
        return render(chosen), chosen
    if asks_for and "procedure" in asks_for and len(asks_for) == 1:
        run = steps(best, candidates)
        if len(run) > 1:
            run += code_that_shows_how(run, ranked, best, candidates)
            return render(run), run
    chosen = [best]
    for candidate in quotable[1:]:
        if len(_covered(chosen)) >= fitted.COMPOSE["max_units"]:
            break
        if not nearly_as_good(candidate, best) or candidate.coverage < fitted.COMPOSE["min_coverage"]:
            continue
        if _reads_on(candidate, chosen):
            chosen.append(candidate)  # a window that goes on from a chosen unit brings its other unit
            continue
        if any(overlaps(candidate, c) or _near_duplicate(candidate.text, c.text) for c in chosen):
            continue
        chosen.append(candidate)
    chosen = _with_what_leads_introduce(_asked_rows(_expand(chosen)), candidates)
    chosen += _asked_kind(chosen, quotable, asks_for or [], best)
    if "procedure" in (asks_for or []):
        chosen += code_read_on(chosen, candidates)
        chosen += code_that_shows_how(chosen, ranked, best, candidates)
    chosen.sort(key=lambda c: (c.passage.n != best.passage.n, c.passage.n, c.position))
    chosen = _without_repeats(chosen)
    return render(_fact_first(chosen, asks_for or [])), chosen


def _with_what_else_answers(chosen: list[Candidate], ranked: list[Candidate], top: Candidate, asks_for: list[str],
                            how_to: bool) -> list[Candidate]:
    """An answer built around a lead-in or code block also says the best statement nearly as good as it (by the
    same shares, and within the same count of statements, as the other units of an answer), and the asked kind
    of fact when it lacks it; a how-to answer keeps to its steps (one without steps, only code and the sentence
    before it, says the best statement too)."""
    if how_to and any(c.unit.kind == "item" for c in chosen):
        return chosen
    quotable = [c for c in ranked if c.unit.quotable and _states(c)]
    said = sum(1 for c in chosen if _states(c))
    extra: list[Candidate] = []
    for candidate in quotable:
        if not nearly_as_good(candidate, top) or said + (len(candidate.unit.parts) or 1) > fitted.COMPOSE["max_units"]:
            continue
        if any(overlaps(candidate, c) or _near_duplicate(candidate.text, c.text) for c in chosen):
            continue
        extra = _expand([candidate])
        break
    extra += _asked_kind(chosen + extra, quotable, asks_for, top)
    if not extra:
        return chosen
    out = chosen + [c for c in extra if not any(overlaps(c, o) for o in chosen)]
    return sorted(out, key=lambda c: (c.passage.n != top.passage.n, c.passage.n, c.position))


# A row whose first cell holds at least this share of the best row's distinctive question words is asked
# about too ("the standard physical card? and for a department head card?").
_ROW_KEY_SHARE = 0.5


def _asked_rows(chosen: list[Candidate]) -> list[Candidate]:
    """Of the rows of one table, only those the question asks about. A row's first cell names what the row
    is about ("Rating: 4", "Card type: Standard physical card"); the question's words found in some first
    cells but not all ("4", "standard physical", not "card") pick the rows whose first cell holds them (at
    least half as much as the best row does). Without such words, the rows that hold most of the question's
    words anywhere ("meal per diem in New York"); rows that match equally all stay."""
    rows: dict[int, list[Candidate]] = {}
    for candidate in chosen:
        if candidate.unit.kind == "row":
            rows.setdefault(candidate.passage.n, []).append(candidate)
    drop: set[int] = set()
    for table in rows.values():
        if len(table) < 2:
            continue
        everywhere = set.intersection(*(set(c.row_key) for c in table))
        keys = {id(c): sum(w for t, w in c.row_key.items() if t not in everywhere) for c in table}
        best_key = max(keys.values())
        if best_key > 0:
            drop |= {id(c) for c in table if keys[id(c)] < _ROW_KEY_SHARE * best_key}
            continue
        best = max(round(c.coverage, 6) for c in table)
        drop |= {id(c) for c in table if round(c.coverage, 6) < best}
    return [c for c in chosen if id(c) not in drop]


_STATEMENTS = ("sentence", "item", "row")


def _states(candidate: Candidate) -> bool:
    """A unit that says something: a quotable sentence, list item or table row (not a lead-in or code)."""
    parts = candidate.unit.parts or (candidate.unit,)
    return any(p.kind in _STATEMENTS and p.quotable for p in parts)


def _with_a_statement(chosen: list[Candidate], ranked: list[Candidate], how_to: bool) -> list[Candidate]:
    """An answer that is only a lead-in and its code ("For example: <code>") says nothing the question asked
    about; outside a how-to, the best unit that states something (nearly as good) comes with it, first."""
    if how_to or any(_states(c) for c in chosen):
        return chosen
    for candidate in ranked:
        if candidate.score < fitted.COMPOSE["same_passage"] * ranked[0].score:
            break
        if _states(candidate) and not any(overlaps(candidate, c) for c in chosen):
            out = _expand([candidate]) + chosen
            return sorted(out, key=lambda c: (c.passage.n != out[0].passage.n, c.passage.n, c.position))
    return chosen


def _fact_first(chosen: list[Candidate], asks_for: list[str]) -> list[Candidate]:
    """The passage whose units hold the asked kind of fact (the number, the default, the version) is read
    first when the best passage's units do not hold it; each passage's units keep their order."""
    if not asked_facts(asks_for):
        return chosen
    groups: dict[int, list[Candidate]] = {}
    for candidate in chosen:
        groups.setdefault(candidate.passage.n, []).append(candidate)
    order = list(groups)
    holding = [n for n in order if holds_asked_kind(asks_for, " ".join(c.text for c in groups[n]))]
    if not holding or holding[0] == order[0]:
        return chosen
    order.remove(holding[0])
    return [c for n in [holding[0], *order] for c in groups[n]]


def _without_repeats(chosen: list[Candidate]) -> list[Candidate]:
    """A sentence said twice is said once. The same sentence in two sections (a shared warning) is said where
    it first comes. Of two that differ in a few words, the one that scored higher stays, where it stands: the
    words they differ in are the ones that answer ("… called run …, then the variable is WEB_RUN_RELOAD" and
    "… called run-server …, then the variable is WEB_RUN_SERVER_HOST")."""
    said = [c for c in chosen if c.unit.kind in ("sentence", "item")]
    dropped: set[int] = set()
    for i, a in enumerate(said):
        for b in said[i + 1:]:
            if id(a) in dropped or id(b) in dropped or not _near_duplicate(a.text, b.text):
                continue
            same = a.text.split() == b.text.split()
            dropped.add(id(a) if b.score > a.score and not same else id(b))
    return [c for c in chosen if id(c) not in dropped]


# The share of the best unit's score a unit holding the asked kind of fact needs to join an answer that
# lacks it (chosen on dev between 0.3 and 0.5: asked fact 0.593 / 0.589, answered 0.845 / 0.838; then, with the
# kind_about refusal feature, between 0.1, 0.2 and 0.3 on the 1,060 dev questions: asked fact 477 / 477 / 474,
# answered 0.861 / 0.859 / 0.855, unanswerable refused 0.847 / 0.857 / 0.857).
_ASKED_KIND_RATIO = 0.2


def _asked_kind(chosen: list[Candidate], quotable: list[Candidate], asks_for: list[str],
                best: Candidate) -> list[Candidate]:
    """When the question asks for a number, a date or a default and the chosen units give none, the best
    unit that does (nearly as relevant) joins the answer."""
    if holds_asked_kind(asks_for, " ".join(c.text for c in chosen)):
        return []
    for candidate in quotable:
        if candidate.score < _ASKED_KIND_RATIO * best.score:
            break
        if holds_asked_kind(asks_for, candidate.text) and not any(overlaps(candidate, c) for c in chosen):
            return _expand([candidate])
    return []


def _with_what_leads_introduce(chosen: list[Candidate], candidates: list[Candidate]) -> list[Candidate]:
    """A chosen lead-in ("to enable it you can either:") never ends an answer: its list items or code
    block come with it, as when the lead-in is the best unit."""
    out = list(chosen)
    for candidate in chosen:
        if candidate.unit.kind != "lead":
            continue
        for follow in _list_after(candidate, candidates):
            if not any(o.passage.n == follow.passage.n and o.position == follow.position for o in out):
                out.append(follow)
    return out


def _covered(chosen: list[Candidate]) -> set[tuple[int, int]]:
    """The (passage, position) of every unit the chosen candidates hold."""
    return {(c.passage.n, p) for c in chosen for p in unit_positions(c)}


def _reads_on(window: Candidate, chosen: list[Candidate]) -> bool:
    """A window (two units side by side) that shares one unit with the answer and adds the other: nearly as good
    as the best, it scored for the pair ("To delete all points, click Reset. To delete one point, ...")."""
    if window.unit.kind != "window":
        return False
    mine = {(window.passage.n, p) for p in unit_positions(window)}
    return len(mine & _covered(chosen)) == 1


def _expand(chosen: list[Candidate]) -> list[Candidate]:
    """Windows replaced by their two units (each rendered in its own way)."""
    out: list[Candidate] = []
    for candidate in chosen:
        parts = candidate.unit.parts or (candidate.unit,)
        for unit in parts:
            if not any(o.passage.n == candidate.passage.n and o.position == unit.position for o in out):
                out.append(dataclasses.replace(candidate, unit=unit))
    return out


def _near_duplicate(a: str, b: str) -> bool:
    wa, wb = set(a.lower().split()), set(b.lower().split())
    return bool(wa and wb) and len(wa & wb) / min(len(wa), len(wb)) > 0.8
