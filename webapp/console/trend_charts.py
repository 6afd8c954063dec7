"""The dashboard's trend charts: question activity (knowledge.activity) drawn with webapp.console.charts."""

from __future__ import annotations

from datetime import date, datetime

from knowledge.activity import Bucket, Ranked, Trends
from webapp.console import charts
from webapp.console.charts import Chart, Series

# Outcome colours match the console's badges: answered ok-green, refused muted, cached info-blue, error red.
OUTCOME_SERIES = (("answered", "Answered", "#2b8a3e"), ("refused", "Refused", "#9aa1b1"),
                  ("cached", "Cached", "#1971c2"), ("error", "Error", "#c92a2a"))
P50_COLOR, P95_COLOR, FLAG_COLOR = "#3b5bdb", "#e8590c", "#c92a2a"


def axis_label(at: date | datetime) -> str:
    """Short x-axis text: "14:00" for an hour, "3 Nov" for a day."""
    return f"{at:%H:%M}" if isinstance(at, datetime) else f"{at.day} {at:%b}"


def tip_label(at: date | datetime) -> str:
    """Tooltip and table text: the weekday too, so a reader can tell weekends apart."""
    return f"{at:%a} {at.day} {at:%b %H:%M}" if isinstance(at, datetime) else f"{at:%a} {at.day} {at:%b %Y}"


def duration(ms: float) -> str:
    """840 -> '840 ms'; 1234 -> '1.23 s'."""
    return f"{ms:.0f} ms" if ms < 1000 else f"{ms / 1000:.3g} s"


def share(value: float | None) -> str:
    return "—" if value is None else f"{value:.0%}"


def build(trends: Trends) -> dict[str, list[Chart]]:
    """Chart groups for the dashboard: "series" (per hour or day) and "ranked" (top-N lists)."""
    buckets = trends.buckets
    labels, tips = [axis_label(b.at) for b in buckets], [tip_label(b.at) for b in buckets]
    unit = trends.window.period.unit
    ranked = [c for c in (_stages(trends.stages), _ranked("topics", "Top topics", trends.topics, "Topic"),
                          _ranked("entities", "Top entities", trends.entities, "Entity"),
                          _ranked("documents", "Most cited documents", trends.documents, "Document"))
              if c is not None]
    return {"series": [_volume(buckets, labels, tips, unit, trends), _outcomes(buckets, labels, tips, unit),
                       _latency(buckets, labels, tips, unit), _flagged(buckets, labels, tips, unit)],
            "ranked": ranked}


def _volume(buckets: list[Bucket], labels, tips, unit: str, trends: Trends) -> Chart:
    title = f"Questions per {unit}"
    busiest = max(buckets, key=lambda b: b.total, default=None)
    summary = f"{trends.total} questions over the last {trends.window.period.label}."
    if busiest and busiest.total:
        summary += f" Busiest {unit}: {tip_label(busiest.at)} with {busiest.total}."
    svg = charts.bar_chart("chart-volume", title, labels, [b.total for b in buckets], fmt=lambda v: f"{v:g}",
                           summary=summary, tips=tips, integer=True)
    return charts.chart("volume", title, svg, summary, [unit.title(), "Questions"],
                        [[t, str(b.total)] for t, b in zip(tips, buckets)])


def _outcomes(buckets: list[Bucket], labels, tips, unit: str) -> Chart:
    title = f"Answered, refused and cached per {unit}"
    shown = [(name, label, color) for name, label, color in OUTCOME_SERIES
             if name != "error" or any(b.error for b in buckets)]
    series = [Series(label, [b.share(name) for b in buckets], color) for name, label, color in shown]
    asked = sum(b.total for b in buckets)
    overall = ", ".join(f"{label.lower()} {sum(getattr(b, name) for b in buckets) / asked:.0%}"
                        for name, label, _ in shown) if asked else "no questions"
    summary = f"Share of each {unit}'s questions by outcome; over the whole period: {overall}."
    svg = charts.stacked_share_chart("chart-outcomes", title, labels, series, [b.total for b in buckets],
                                     summary=summary, tips=tips)
    return charts.chart("outcomes", title, svg, summary, [unit.title(), "Questions", *(label for _, label, _ in shown)],
                        [[t, str(b.total), *(share(b.share(name)) for name, _, _ in shown)]
                         for t, b in zip(tips, buckets)])


def _latency(buckets: list[Bucket], labels, tips, unit: str) -> Chart:
    title = f"Answer time per {unit} (p50 and p95)"
    measured = [b for b in buckets if b.p95_ms is not None]
    worst = max(measured, key=lambda b: b.p95_ms, default=None)
    summary = "Median (p50) and 95th percentile (p95) of the whole question path's time."
    summary += (f" Slowest p95: {duration(worst.p95_ms)} on {tip_label(worst.at)}." if worst else
                " Nothing was measured in this period.")
    series = [Series("p50", [b.p50_ms for b in buckets], P50_COLOR), Series("p95", [b.p95_ms for b in buckets],
                                                                              P95_COLOR)]
    svg = charts.line_chart("chart-latency", title, labels, series, fmt=duration, summary=summary, tips=tips)
    return charts.chart("latency", title, svg, summary, [unit.title(), "p50", "p95"],
                        [[t, _maybe(b.p50_ms, duration), _maybe(b.p95_ms, duration)] for t, b in zip(tips, buckets)])


def _flagged(buckets: list[Bucket], labels, tips, unit: str) -> Chart:
    title = f"Flagged rate per {unit}"
    flagged, asked = sum(b.flagged for b in buckets), sum(b.total for b in buckets)
    summary = (f"Share of each {unit}'s questions whose answer is flagged, by a reviewer or by a user awaiting "
               f"review. Over the whole period: {flagged} of {asked}")
    summary += f" ({flagged / asked:.0%})." if asked else "."
    svg = charts.bar_chart("chart-flagged", title, labels, [b.share("flagged") for b in buckets],
                           fmt=lambda v: f"{v:.0%}", summary=summary, color=FLAG_COLOR, tips=tips)
    return charts.chart("flagged", title, svg, summary, [unit.title(), "Flagged", "Rate"],
                        [[t, f"{b.flagged} of {b.total}", share(b.share("flagged"))] for t, b in zip(tips, buckets)])


def _stages(stages: list[Ranked]) -> Chart | None:
    if not stages:
        return None
    title = "Slowest stages (median)"
    summary = "Median time of each recorded stage of the question path, slowest first: " + \
              "; ".join(f"{s.label} {duration(s.value)}" for s in stages) + "."
    svg = charts.ranked_bar_chart("chart-stages", title, [(s.label, s.value) for s in stages], fmt=duration,
                                  summary=summary, color="#e8590c")
    return charts.chart("stages", title, svg, summary, ["Stage", "Median", "Measured"],
                        [[s.label, duration(s.value), s.detail] for s in stages])


def _ranked(key: str, title: str, items: list[Ranked], column: str) -> Chart | None:
    """Questions per topic, entity or document, most first."""
    if not items:
        return None
    summary = f"{title}, by questions, most first: " + "; ".join(f"{i.label} ({i.value:g})" for i in items) + "."
    svg = charts.ranked_bar_chart(f"chart-{key}", title, [(i.label, i.value) for i in items],
                                  fmt=lambda v: f"{v:g}", summary=summary)
    return charts.chart(key, title, svg, summary, [column, "Detail", "Questions"],
                        [[i.label, i.detail, f"{i.value:g}"] for i in items])


def _maybe(value: float | None, fmt) -> str:
    return "—" if value is None else fmt(value)
