"""Slack block formatting: pure, table-driven."""

from __future__ import annotations

import json

import pytest

from bot import blocks
from knowledge.answering.result import AnswerResult, Citation


def make_result(answer: str = "Employees get 16 weeks of paid parental leave [1].", **fields) -> AnswerResult:
    defaults = dict(question="q", answer=answer, refused=False, confidence=0.82, answer_id=7, citations=[
        Citation(n=1, source="hr/parental-leave.md#leave-entitlement", title="Parental Leave Policy › Leave entitlement",
                 url="https://docs.example.com/hr/parental-leave#leave-entitlement", chunk_id=3, quote="16 weeks",
                 collection="General", updated_at="2025-01-14T10:00:00+00:00")])
    defaults.update(fields)
    return AnswerResult(**defaults)


def all_text(message: list[dict]) -> str:
    return json.dumps(message, ensure_ascii=False)


@pytest.mark.parametrize("raw, expected", [
    ("a & b", "a &amp; b"),
    ("<script>", "&lt;script&gt;"),
    ("<!channel> ping", "&lt;!channel&gt; ping"),
    ("<https://evil.example|click>", "&lt;https://evil.example|click&gt;"),
    ("plain [1] text", "plain [1] text"),
])
def test_escape(raw, expected):
    assert blocks.escape(raw) == expected


@pytest.mark.parametrize("url, title, expected", [
    ("https://x.example/a", "Policy", "<https://x.example/a|Policy>"),
    ("https://x.example/a?b=1&c=2", "R&D <guide>", "<https://x.example/a?b=1&amp;c=2|R&amp;D &lt;guide&gt;>"),
    ("https://x.example/a b|c>d", "T", "<https://x.example/a%20b%7Cc%3Ed|T>"),
    ("https://x.example/", "a|b", "<https://x.example/|a¦b>"),
    ("hr/parental-leave.md", "Parental", "Parental"),  # not a URL: no link, just the title
    ("javascript:alert(1)", "x", "x"),
    ("", "", ""),
])
def test_link(url, title, expected):
    assert blocks.link(url, title) == expected


@pytest.mark.parametrize("text, limit, pieces", [
    ("short", 3000, 1),
    ("word " * 1000, 3000, 2),
    ("x" * 7000, 3000, 3),
    ("para one.\n\n" + "y" * 2995, 3000, 2),
])
def test_split_text_respects_the_limit(text, limit, pieces):
    parts = blocks.split_text(text, limit)
    assert len(parts) == pieces
    assert all(len(p) <= limit for p in parts)
    assert "".join(parts).replace(" ", "").replace("\n", "") == text.replace(" ", "").replace("\n", "")


def test_split_never_cuts_an_escape():
    text = "a" * 2998 + "&amp;" + "b" * 10
    parts = blocks.split_text(text, 3000)
    assert parts[0].endswith("a") and parts[1].startswith("&amp;")


@pytest.mark.parametrize("confidence, label", [(0.95, "high"), (0.75, "high"), (0.6, "medium"), (0.2, "low")])
def test_confidence_label(confidence, label):
    assert blocks.confidence_label(confidence) == label


def test_answer_has_text_sources_confidence_and_buttons():
    message = blocks.answer_blocks(make_result(), question_id=3)
    text = all_text(message)
    assert "16 weeks of paid parental leave [1]" in text
    assert "<https://docs.example.com/hr/parental-leave#leave-entitlement|Parental Leave Policy › Leave entitlement>" in text
    assert "General" in text and "updated 2025-01-14" in text
    assert "Confidence: *high* (82%)" in text
    actions = [b for b in message if b["type"] == "actions"][0]
    assert [e["action_id"] for e in actions["elements"]] == list(blocks.ANSWER_ACTIONS)
    assert {e["value"] for e in actions["elements"]} == {"7:3"}
    assert blocks.VERIFIED_BADGE not in text


@pytest.mark.parametrize("fields, present, absent", [
    ({"status": "verified"}, [blocks.VERIFIED_BADGE], [":warning:"]),
    ({"confidence": 0.3, "warning": "Low confidence (30%): check the sources below."},
     [":warning: Low confidence (30%)", "*low*"], [blocks.VERIFIED_BADGE]),
    ({"refused": True, "citations": [], "answer": "I couldn't find this in the knowledge base, so I won't guess."},
     ["won't guess", "Not answered", blocks.ACTION_EXPERT], ["Sources", blocks.ACTION_HELPFUL]),
    ({"cache": "similar"}, ["reused an earlier answer"], []),
    ({"note": "Cohere timed out. Showing the best matching passages instead."}, ["Cohere timed out"], []),
])
def test_answer_variants(fields, present, absent):
    text = all_text(blocks.answer_blocks(make_result(**fields)))
    for fragment in present:
        assert fragment in text
    for fragment in absent:
        assert fragment not in text


def test_answer_text_cannot_forge_links_or_pings():
    message = blocks.answer_blocks(make_result(answer="Ask <!here> or see <https://evil.example|the policy> & more [1]."))
    body = message[0]["text"]["text"]
    assert body == "Ask &lt;!here&gt; or see &lt;https://evil.example|the policy&gt; &amp; more [1]."


def test_titles_with_special_characters_keep_links_intact():
    cite = Citation(n=2, source="s", title="Q&A <draft> | v2", url="https://x.example/q?a=1&b=2", chunk_id=1, quote="")
    text = all_text(blocks.answer_blocks(make_result(citations=[cite])))
    assert "[2] <https://x.example/q?a=1&amp;b=2|Q&amp;A &lt;draft&gt; ¦ v2>" in text


def test_long_answers_are_split_within_slack_limits():
    long = " ".join(f"Sentence number {i} is about leave [1]." for i in range(6000))  # ~250k chars
    message = blocks.answer_blocks(make_result(answer=long), site_url="https://verity.example")
    assert len(message) <= blocks.MAX_BLOCKS
    for block in message:
        if block["type"] == "section":
            assert len(block["text"]["text"]) <= blocks.SECTION_LIMIT
    text = all_text(message)
    assert "too long for Slack" in text and "https://verity.example/admin/knowledge/answer/7/change/" in text
    assert message[-1]["type"] == "actions"  # the buttons survive truncation


def test_many_citations_split_into_sections():
    cites = [Citation(n=i, source=f"s{i}", title="T" * 200, url=f"https://x.example/{i}", chunk_id=i, quote="")
             for i in range(1, 40)]
    message = blocks.answer_blocks(make_result(citations=cites))
    sources = [b for b in message if b["type"] == "section" and "[1] <" in b["text"]["text"] or
               b["type"] == "section" and "[39] <" in b["text"]["text"]]
    assert sources and all(len(b["text"]["text"]) <= blocks.SECTION_LIMIT for b in message if b["type"] == "section")


def test_share_button_only_when_asked():
    assert blocks.ACTION_SHARE in all_text(blocks.answer_blocks(make_result(), share=True))
    assert blocks.ACTION_SHARE not in all_text(blocks.answer_blocks(make_result()))


def test_apology_has_retry():
    message = blocks.apology_blocks(42)
    assert "Retry" in message[0]["text"]["text"]
    button = message[1]["elements"][0]
    assert (button["action_id"], button["value"]) == (blocks.ACTION_RETRY, "42")


@pytest.mark.parametrize("value, parsed", [("7:3", (7, 3)), ("7:", (7, None)), (":3", (None, 3)), ("", (None, None)),
                                           ("x:y", (None, None))])
def test_action_values_round_trip(value, parsed):
    assert blocks.parse_action_value(value) == parsed


def test_unhelpful_modal_carries_its_ids():
    view = blocks.unhelpful_modal(7, 3, "C1")
    assert view["callback_id"] == blocks.UNHELPFUL_MODAL
    assert json.loads(view["private_metadata"]) == {"answer_id": 7, "question_id": 3, "channel_id": "C1"}
    assert view["blocks"][1]["block_id"] == "reason"


def test_expert_request_mentions_valid_ids_only():
    message = blocks.expert_request_blocks(question="Why <b>?", answer="Because [1].", asker_id="U1",
                                           link_url="https://v.example/a/1", mentions=["U2", "<!channel>"])
    text = all_text(message)
    assert "<@U1>" in text and "<@U2>" in text and "!channel" not in text
    assert "Why &lt;b&gt;?" in text and "<https://v.example/a/1|Open in the review console>" in text


@pytest.mark.parametrize("row, shows", [
    (blocks.HomeRow("Parental leave?", "answered", "verified", confidence=0.9), "✅ verified · high confidence"),
    (blocks.HomeRow("Parental leave?", "answered", "needs_review", confidence=0.4), "waiting for a reviewer"),
    (blocks.HomeRow("Mars office?", "answered", "auto", refused=True), "not in the knowledge base"),
    (blocks.HomeRow("x", "failed"), "failed"),
    (blocks.HomeRow("x", "queued"), "in progress"),
])
def test_home_view_rows(row, shows):
    view = blocks.home_view([row])
    assert view["type"] == "home" and shows in all_text(view)


def test_home_view_empty():
    assert "No questions yet" in all_text(blocks.home_view([]))
