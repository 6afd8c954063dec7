"""How-to answers: the steps of the best passage in order, and the code that shows how.

A question that asks how is answered by the list the best unit belongs to, or by the best passage read on from
it; an answer that says what to do also shows the command that does it. `compose` (knowledge/answering/compose.py)
calls these.
"""

from __future__ import annotations

import dataclasses

from knowledge.answering.extractive import Candidate, introduction, nearly_as_good, overlaps, unit_positions
from knowledge.answering.render import continues_item

MAX_STEPS = 6


def steps(best: Candidate, candidates: list[Candidate]) -> list[Candidate]:
    """For a how-to question: the list the best unit belongs to (or leads into) in order, from its lead-in;
    else the best passage's units read on from the best one."""
    if best.unit.kind == "window":
        best = dataclasses.replace(best, unit=best.unit.parts[0])
    same = sorted((c for c in candidates if c.passage.n == best.passage.n and c.unit.kind != "window"),
                  key=lambda c: c.position)
    run = _list_of(best, same)
    if len(run) >= 2:
        first = run[0].position
        lead = next((c for c in reversed(same) if c.position < first and c.unit.kind in ("lead", "sentence")),
                    None)
        at = next((i for i, c in enumerate(run) if c.position == best.position), 0)
        # The steps from the list's start, or, deep in a long list, the ones around the best unit.
        run = run[:MAX_STEPS] if at < MAX_STEPS else run[at - MAX_STEPS // 2:at + MAX_STEPS // 2]
        return ([lead] if lead is not None and lead.unit.paragraph == run[0].unit.paragraph else []) + run
    start = max(0, min(best.position, 1) if best.position <= 2 else best.position - 1)
    picked, length = [], 0
    for candidate in same:
        if candidate.position < start or not (candidate.unit.quotable or candidate.unit.kind in ("lead", "code")):
            continue
        if len(picked) >= MAX_STEPS or length > 900:
            break
        picked.append(candidate)
        length += len(candidate.text)
    if picked and picked[0].unit.kind == "code":
        # Read on from a code block, the steps start at what introduces it ("Using this flag looks like this:"):
        # code that opens an answer has no sentence to cite it, and goes.
        intro = introduction(picked[0], candidates)
        picked = ([intro] if intro is not None else []) + picked
    return picked or [best]


# A list is the best unit's own when the best unit is one of its items or comes at most this many units
# before its first item (its lead-in, or the sentence before the lead-in).
_LIST_REACH = 2


def _list_of(best: Candidate, same: list[Candidate]) -> list[Candidate]:
    """The run of list items (one paragraph) that holds the best unit or follows it closely; [] if none: a
    list elsewhere in the passage answers something else."""
    runs: list[list[Candidate]] = []
    for c in same:
        if c.unit.kind == "sentence" and c.unit.quotable and runs and continues_item(runs[-1][-1], c):
            runs[-1].append(c)  # an item's second sentence ("Use the --disable-sanitizers option …")
            continue
        if c.unit.kind != "item":
            continue
        if runs and runs[-1][-1].unit.paragraph == c.unit.paragraph:
            runs[-1].append(c)
        else:
            runs.append([c])
    return next((r for r in runs if r[0].position - _LIST_REACH <= best.position <= r[-1].position), [])


def next_steps(chosen: list[Candidate], candidates: list[Candidate]) -> list[Candidate]:
    """For a how-to question answered by a command: the passage's next steps, read on in order while they
    are sentences, lead-ins and code ("Or, download the tarball: …", "Once you have a copy, install it: …"),
    up to MAX_STEPS units in all and about 900 characters; a lead-in comes with the code or list it
    introduces or not at all."""
    last = chosen[-1]
    same = sorted((c for c in candidates if c.passage.n == last.passage.n and c.position > last.position
                   and c.unit.kind != "window"), key=lambda c: c.position)
    out: list[Candidate] = []
    length = sum(len(c.text) for c in chosen)
    position = last.position
    for candidate in same:
        if candidate.position != position + 1 or len(chosen) + len(out) >= MAX_STEPS:
            break
        if not (candidate.unit.quotable or candidate.unit.kind in ("lead", "code")):
            break
        position = candidate.position
        nxt = next((c for c in same if c.position == position + 1), None)
        if candidate.unit.kind == "lead" and (nxt is None or nxt.unit.kind not in ("code", "item")):
            continue  # "You should see something like this:" introduces a picture the answer cannot show
        length += len(candidate.text)
        if length > 900:
            break
        out.append(candidate)
    while out and out[-1].unit.kind == "lead":
        out.pop()
    return out


def code_that_shows_how(chosen: list[Candidate], ranked: list[Candidate], best: Candidate,
                         candidates: list[Candidate]) -> list[Candidate]:
    """For a question that asks how: a code block nearly as good as the best unit, with the sentence that
    introduces it ("By running the command with the --if-present flag, npm will ignore workspaces missing
    target script." / `npm run test --workspaces --if-present`): the command is the how. (Only when the answer
    showed no code yet: dev answers holding the hint 508 of 739; always, one block at most: 509.)"""
    for candidate in ranked:
        if not nearly_as_good(candidate, best):
            break
        if candidate.unit.kind != "code" or any(overlaps(candidate, c) for c in chosen):
            continue
        intro = introduction(candidate, candidates)
        if intro is not None:
            return [c for c in (intro, candidate) if not any(overlaps(c, o) for o in chosen)]
    return []


def code_read_on(chosen: list[Candidate], candidates: list[Candidate]) -> list[Candidate]:
    """For a question that asks how: the code block that reads on from the best passage's last chosen unit, with
    the lead-in before it ("It's often preferable to set a specific file name or path." / "You can change the
    output file using the environment variable LLVM_PROFILE_FILE:" / code), which shows how."""
    n = chosen[0].passage.n if chosen else None
    last = max((p for c in chosen if c.passage.n == n for p in unit_positions(c)), default=None)
    if last is None or any(c.unit.kind == "code" for c in chosen):
        return []
    at = {c.position: c for c in candidates if c.passage.n == n and c.unit.kind != "window"}
    following, after = at.get(last + 1), at.get(last + 2)
    if following is not None and following.unit.kind == "code":
        return [following]
    if following is not None and following.unit.kind == "lead" and after is not None and after.unit.kind == "code":
        return [following, after]
    return []
