"""Fenced code blocks in an answer are quoted verbatim from a source; the claim checker reads prose.

The answer writer puts a code block right after the sentence that introduces it ("Run this [2]:").
Before checking, blocks are taken out; after, each goes back after its sentence if that sentence
survived, and only if the block is in the cited passage word for word (whitespace aside).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from textcore.markers import parse_markers

_FENCED = re.compile(r"\n?```[^\n]*\n(.*?)\n```\n?", re.S)


@dataclass
class CodeBlock:
    """A fenced block and the line it followed."""

    code: str
    after: str  # the text of the line before the block ("" when it opened the answer)


def take_out(text: str) -> tuple[str, list[CodeBlock]]:
    """(prose without the blocks, the blocks in order)."""
    blocks: list[CodeBlock] = []

    def remove(match: re.Match[str]) -> str:
        before = text[:match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        blocks.append(CodeBlock(match.group(1), before.strip()))
        return "\n"

    prose = _FENCED.sub(remove, text)
    return re.sub(r"\n{3,}", "\n\n", prose).strip(), blocks


def _squash(text: str) -> str:
    return " ".join(text.split())


def put_back(prose: str, blocks: list[CodeBlock], sources: dict[int, str]) -> str:
    """Blocks reinserted after their line, when that line is still there and the block is verbatim in a
    passage the line cites."""
    out = prose
    for block in blocks:
        if not block.after or block.after not in out:
            continue
        cited = parse_markers(block.after)
        if not any(_squash(block.code) in _squash(sources.get(n, "")) for n in cited):
            continue
        position = out.index(block.after) + len(block.after)
        out = f"{out[:position]}\n```\n{block.code}\n```\n{out[position:].lstrip(chr(10))}"
    return out.strip()
