"""The SVG chart builder: well-formed XML, one mark per value, tooltips, text alternatives, escaping."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from webapp.console import charts
from webapp.console.charts import Series

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def with_class(root: ET.Element, tag: str, css: str) -> list[ET.Element]:
    return [e for e in root.iter(f"{SVG}{tag}") if css in (e.get("class") or "").split()]


def titles(elements) -> list[str]:
    return [e.find(f"{SVG}title").text for e in elements]


@pytest.mark.parametrize("top, integer, expected", [
    (0, False, [0.0, 1.0]),
    (7, False, [0.0, 2.0, 4.0, 6.0, 8.0]),
    (1, True, [0.0, 1.0]),
    (3, True, [0.0, 1.0, 2.0, 3.0]),
    (0.37, False, [0.0, 0.1, 0.2, 0.3, 0.4]),
    (1234, False, [0.0, 500.0, 1000.0, 1500.0]),
    (float("nan"), False, [0.0, 1.0]),
])
def test_axis_ticks_are_round_and_cover_the_top(top, integer, expected):
    assert charts.nice_ticks(top, integer=integer) == expected


def test_bar_chart_has_a_bar_and_a_tooltip_per_value():
    labels = ["1 Mar", "2 Mar", "3 Mar"]
    root = parse(charts.bar_chart("c1", "Questions per day", labels, [4, 0, 2], tips=["Sat 1", "Sun 2", "Mon 3"],
                                  summary="6 questions."))
    bars = with_class(root, "rect", "bar")
    assert len(bars) == 3
    assert titles(bars) == ["Sat 1: 4", "Sun 2: 0", "Mon 3: 2"]
    heights = [float(b.get("height")) for b in bars]
    assert heights[1] == 0 and heights[0] == pytest.approx(2 * heights[2])


def test_bar_chart_is_described_for_screen_readers():
    root = parse(charts.bar_chart("vol", "Questions per day", ["a"], [1], summary="1 question."))
    assert root.get("role") == "img"
    assert root.get("aria-labelledby") == "vol-title vol-desc"
    assert root.find(f"{SVG}title").get("id") == "vol-title"
    assert root.find(f"{SVG}title").text == "Questions per day"
    assert root.find(f"{SVG}desc").text == "1 question."


def test_missing_values_draw_an_empty_slot_that_says_so():
    root = parse(charts.bar_chart("c", "Flagged rate", ["a", "b"], [0.5, None], fmt=lambda v: f"{v:.0%}"))
    assert titles(with_class(root, "rect", "bar")) == ["a: 50%", "b: no questions"]


def test_text_is_escaped_not_injected():
    label = '<script>alert("x")</script> & co'
    svg = charts.ranked_bar_chart("r", "Top <topics>", [(label, 3)])
    root = parse(svg)
    assert "<script>" not in svg
    assert label in titles(with_class(root, "g", "rank"))[0]
    assert root.find(f"{SVG}title").text == "Top <topics>"


def test_stacked_shares_fill_the_column_and_skip_empty_columns():
    series = [Series("Answered", [0.5, None, 1.0], "#0a0"), Series("Refused", [0.5, None, 0.0], "#999")]
    root = parse(charts.stacked_share_chart("s", "Outcomes", ["a", "b", "c"], series, [4, 0, 2]))
    stacks = with_class(root, "g", "stack")
    assert len(stacks) == 3
    segments = [with_class(stack, "rect", "segment") for stack in stacks]
    assert [len(s) for s in segments] == [2, 0, 1]
    full = sum(float(r.get("height")) for r in segments[0])
    assert float(segments[2][0].get("height")) == pytest.approx(full)
    assert stacks[1].find(f"{SVG}title").text == "b: no questions"
    assert titles(segments[0]) == ["a: Answered 50% of 4", "a: Refused 50% of 4"]


def test_line_chart_has_a_point_per_value_and_breaks_at_gaps():
    series = [Series("p50", [100, 200, None, 150, 120]), Series("p95", [300, None, None, None, 400])]
    root = parse(charts.line_chart("l", "Latency", list("abcde"), series, fmt=lambda v: f"{v:g} ms"))
    points = with_class(root, "circle", "point")
    assert len(points) == 6
    assert "a: p50 100 ms" in titles(points)
    # p50 runs a–b and d–e; p95 has no two neighbouring values, so no line at all.
    assert len(list(root.iter(f"{SVG}polyline"))) == 2


def test_x_axis_labels_thin_out_but_keep_the_last():
    labels = [f"d{i}" for i in range(30)]
    root = parse(charts.bar_chart("x", "t", labels, [1] * 30))
    shown = [t.text for t in root.find(f"{SVG}g[@class='axis x-axis']")]
    assert shown[-1] == "d29"
    assert len(shown) <= charts.MAX_X_LABELS


def test_ranked_chart_grows_with_its_rows():
    three = parse(charts.ranked_bar_chart("r", "t", [("a", 3), ("b", 2), ("c", 1)]))
    one = parse(charts.ranked_bar_chart("r", "t", [("a", 3)]))
    assert len(with_class(three, "rect", "bar")) == 3
    assert float(three.get("viewBox").split()[3]) > float(one.get("viewBox").split()[3])
