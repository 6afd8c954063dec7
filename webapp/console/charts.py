"""Series to inline SVG charts: bars, stacked shares, lines with points, ranked horizontal bars.

Server-rendered so the console needs no script or outside asset. Every mark carries a <title> (the browser's
tooltip), the SVG has a title and a description for screen readers, and each Chart also keeps its numbers as
rows for a data table beside it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from html import escape

from django.utils.safestring import SafeString, mark_safe

WIDTH = 640
HEIGHT = 220
LEFT, RIGHT, TOP, BOTTOM = 52, 12, 28, 30
MAX_X_LABELS = 10
ROW_HEIGHT = 26
RANK_TOP = 4
LABEL_WIDTH = 200
VALUE_WIDTH = 80

INK = "#1d2330"
MUTED = "#6b7385"
GRID = "#e3e6ec"
BRAND = "#3b5bdb"


@dataclass(frozen=True)
class Series:
    """One named run of values (None = no value for that label), drawn in one colour."""

    name: str
    values: Sequence[float | None]
    color: str = BRAND


@dataclass
class Chart:
    """A rendered chart and the same numbers as a table, its text alternative."""

    key: str
    title: str
    svg: SafeString
    summary: str
    columns: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)


def _attr(value) -> str:
    return escape(str(value), quote=True)


def _num(value: float) -> str:
    """Coordinates with at most one decimal: short, stable output."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def nice_ticks(top: float, count: int = 4, *, integer: bool = False) -> list[float]:
    """Round axis ticks from 0 up to at least `top` (1, 2, 2.5 or 5 times a power of ten apart);
    whole numbers only when `integer` (counts)."""
    if not top or top <= 0 or not math.isfinite(top):
        return [0.0, 1.0]
    raw = top / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    if integer:
        step = max(1, math.ceil(step))
    ticks = [0.0]
    while ticks[-1] < top - 1e-9:
        ticks.append(round(ticks[-1] + step, 10))
    return ticks


def _open(chart_id: str, title: str, summary: str, height: float) -> list[str]:
    return [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart-svg" viewBox="0 0 {WIDTH} {_num(height)}" '
            f'role="img" aria-labelledby="{chart_id}-title {chart_id}-desc" '
            f'font-family="inherit" font-size="11">',
            f'<title id="{chart_id}-title">{escape(title)}</title>',
            f'<desc id="{chart_id}-desc">{escape(summary)}</desc>']


def _y_axis(ticks: list[float], y_of: Callable[[float], float], label: Callable[[float], str]) -> list[str]:
    parts = ['<g class="axis y-axis">']
    for tick in ticks:
        y = _num(y_of(tick))
        parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y}" y2="{y}" stroke="{GRID}"/>')
        parts.append(f'<text x="{LEFT - 6}" y="{y}" dy="0.32em" text-anchor="end" fill="{MUTED}">'
                     f'{escape(label(tick))}</text>')
    parts.append("</g>")
    return parts


def _x_axis(labels: Sequence[str], x_of: Callable[[int], float]) -> list[str]:
    step = max(1, math.ceil(len(labels) / MAX_X_LABELS))
    parts = ['<g class="axis x-axis">']
    baseline = HEIGHT - BOTTOM
    for i, text in enumerate(labels):
        # Counted back from the last label, which always shows: it is "now".
        if (len(labels) - 1 - i) % step:
            continue
        parts.append(f'<text x="{_num(x_of(i))}" y="{baseline + 16}" text-anchor="middle" fill="{MUTED}">'
                     f'{escape(text)}</text>')
    parts.append("</g>")
    return parts


def _legend(series: Sequence[Series]) -> list[str]:
    parts = ['<g class="legend">']
    x = WIDTH - RIGHT
    for s in reversed(series):
        width = 16 + 6.5 * len(s.name)
        x -= width + 10
        parts.append(f'<rect x="{_num(x)}" y="6" width="10" height="10" rx="2" fill="{_attr(s.color)}"/>'
                     f'<text x="{_num(x + 14)}" y="15" fill="{INK}">{escape(s.name)}</text>')
    parts.append("</g>")
    return parts


def _slots(n: int) -> tuple[Callable[[int], float], float]:
    """Centre x of slot i and the slot width, for n equal slots across the plot."""
    slot = (WIDTH - LEFT - RIGHT) / max(n, 1)
    return (lambda i: LEFT + slot * (i + 0.5)), slot


def _scale(ticks: list[float]) -> Callable[[float], float]:
    top, bottom = TOP, HEIGHT - BOTTOM
    return lambda v: bottom - (bottom - top) * (v / ticks[-1])


def bar_chart(key: str, title: str, labels: Sequence[str], values: Sequence[float | None], *,
              fmt: Callable[[float], str] = lambda v: f"{v:g}", summary: str = "", color: str = BRAND,
              tips: Sequence[str] | None = None, integer: bool = False) -> str:
    """One bar per label; a None value draws an empty slot whose tooltip says there was nothing.
    `tips` name each slot in its tooltip (the labels when not given); `integer` keeps the axis to whole numbers."""
    ticks = nice_ticks(max((v for v in values if v is not None), default=0), integer=integer)
    y_of, (x_of, slot) = _scale(ticks), _slots(len(labels))
    parts = _open(key, title, summary, HEIGHT) + _y_axis(ticks, y_of, fmt)
    bar_width = max(slot * 0.7, 1)
    for i, (label, value) in enumerate(zip(tips or labels, values)):
        top = y_of(value or 0)
        shown = "no questions" if value is None else fmt(value)
        parts.append(f'<rect class="bar" x="{_num(x_of(i) - bar_width / 2)}" y="{_num(top)}" '
                     f'width="{_num(bar_width)}" height="{_num(HEIGHT - BOTTOM - top)}" rx="2" fill="{_attr(color)}">'
                     f'<title>{escape(label)}: {escape(shown)}</title></rect>')
    parts += _x_axis(labels, x_of)
    parts.append("</svg>")
    return "".join(parts)


def stacked_share_chart(key: str, title: str, labels: Sequence[str], series: Sequence[Series],
                        totals: Sequence[int], *, summary: str = "", tips: Sequence[str] | None = None) -> str:
    """One column per label, its segments the series' shares (0–1) stacked to 100 %; empty labels stay empty."""
    ticks = [0.0, 0.25, 0.5, 0.75, 1.0]
    y_of, (x_of, slot) = _scale(ticks), _slots(len(labels))
    parts = _open(key, title, summary, HEIGHT) + _legend(series) + _y_axis(ticks, y_of, lambda v: f"{v:.0%}")
    bar_width = max(slot * 0.7, 1)
    for i, label in enumerate(tips or labels):
        parts.append(f'<g class="stack"><title>{escape(label)}: {escape(_share_text(series, i, totals[i]))}</title>')
        below = 0.0
        for s in series:
            share = s.values[i] or 0
            if share <= 0:
                continue
            y_top, y_bottom = y_of(below + share), y_of(below)
            parts.append(f'<rect class="bar segment" x="{_num(x_of(i) - bar_width / 2)}" y="{_num(y_top)}" '
                         f'width="{_num(bar_width)}" height="{_num(y_bottom - y_top)}" fill="{_attr(s.color)}">'
                         f'<title>{escape(label)}: {escape(s.name)} {share:.0%} of {totals[i]}</title></rect>')
            below += share
        parts.append("</g>")
    parts += _x_axis(labels, x_of)
    parts.append("</svg>")
    return "".join(parts)


def _share_text(series: Sequence[Series], i: int, total: int) -> str:
    if not total:
        return "no questions"
    return f"{total} questions; " + ", ".join(f"{s.name} {(s.values[i] or 0):.0%}" for s in series)


def line_chart(key: str, title: str, labels: Sequence[str], series: Sequence[Series], *,
               fmt: Callable[[float], str] = lambda v: f"{v:g}", summary: str = "",
               tips: Sequence[str] | None = None) -> str:
    """One line per series, a point per value; a None breaks the line (nothing was measured there)."""
    ticks = nice_ticks(max((v for s in series for v in s.values if v is not None), default=0))
    y_of, (x_of, _) = _scale(ticks), _slots(len(labels))
    parts = _open(key, title, summary, HEIGHT) + _legend(series) + _y_axis(ticks, y_of, fmt)
    for s in series:
        parts.append(f'<g class="line-series" fill="{_attr(s.color)}">')
        runs, run = [], []
        for i, value in enumerate(s.values):
            if value is None:
                runs, run = runs + [run] if run else runs, []
                continue
            run.append(f"{_num(x_of(i))},{_num(y_of(value))}")
        runs += [run] if run else []
        for points in runs:
            if len(points) > 1:
                parts.append(f'<polyline points="{" ".join(points)}" fill="none" stroke="{_attr(s.color)}" '
                             f'stroke-width="2" stroke-linejoin="round"/>')
        for i, (label, value) in enumerate(zip(tips or labels, s.values)):
            if value is not None:
                parts.append(f'<circle class="point" cx="{_num(x_of(i))}" cy="{_num(y_of(value))}" r="3.5">'
                             f'<title>{escape(label)}: {escape(s.name)} {escape(fmt(value))}</title></circle>')
        parts.append("</g>")
    parts += _x_axis(labels, x_of)
    parts.append("</svg>")
    return "".join(parts)


def ranked_bar_chart(key: str, title: str, items: Sequence[tuple[str, float]], *,
                     fmt: Callable[[float], str] = lambda v: f"{v:g}", summary: str = "",
                     color: str = BRAND) -> str:
    """Horizontal bars, largest first as given: a label, a bar as long as its share of the largest, its value."""
    height = RANK_TOP + ROW_HEIGHT * max(len(items), 1) + 6
    top_value = max((v for _, v in items), default=0) or 1
    span = WIDTH - LABEL_WIDTH - VALUE_WIDTH - RIGHT
    parts = _open(key, title, summary, height)
    for i, (label, value) in enumerate(items):
        y = RANK_TOP + ROW_HEIGHT * i
        length = max(span * value / top_value, 1)
        shown = label if len(label) <= 30 else label[:29] + "…"
        parts.append(f'<g class="rank"><title>{escape(label)}: {escape(fmt(value))}</title>'
                     f'<text x="{LABEL_WIDTH - 8}" y="{y + 13}" text-anchor="end" fill="{INK}">{escape(shown)}</text>'
                     f'<rect class="bar" x="{LABEL_WIDTH}" y="{y + 3}" width="{_num(length)}" '
                     f'height="{ROW_HEIGHT - 8}" '
                     f'rx="2" fill="{_attr(color)}"/>'
                     f'<text x="{_num(LABEL_WIDTH + length + 6)}" y="{y + 13}" fill="{MUTED}">'
                     f'{escape(fmt(value))}</text></g>')
    parts.append("</svg>")
    return "".join(parts)


def chart(key: str, title: str, svg: str, summary: str, columns: list[str], rows: list[list[str]]) -> Chart:
    """Wrap rendered SVG with its title, summary and data table."""
    return Chart(key=key, title=title, svg=mark_safe(svg), summary=summary, columns=columns, rows=rows)
