"""The dashboard's charts as server-rendered SVG: pure functions from numbers to markup.

No JavaScript library and nothing fetched: a page carries its charts inline, so they work offline, print, and
can be counted by a test (each price is one `circle.point`, each non-empty bar segment one `rect.bar`). Every
text that reaches the markup (source names, outcomes, labels) is escaped here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import cycle

from markupsafe import Markup, escape

#: A wide chart (the product's prices) and a narrow one (two to a row on the overview), in SVG units: the browser
#: scales them to their box, so the narrow one keeps its text readable at half the page's width.
WIDE, NARROW, HEIGHT = 720, 480, 220
#: Room for the y axis' labels (left), the x axis' labels (bottom) and the legend (top).
LEFT, RIGHT, TOP, BOTTOM = 72, 12, 28, 24
#: Colours of series the dashboard knows by name (statuses and outcomes); others take the palette in turn.
NAMED_COLOURS = {
    "DONE": "#27ab83",
    "FOUND": "#27ab83",
    "DEAD": "#d64545",
    "BLOCKED": "#d64545",
    "NO_RESULTS": "#9aa5b1",
    "NO_MATCH": "#bcccdc",
    "RATE_LIMITED": "#f0b429",
    "DEFERRED": "#f7d070",
    "TIMEOUT": "#e67e22",
    "PARSE_FAIL": "#8e44ad",
    "ERROR": "#7b0e0e",
    "p50": "#2f6fde",
    "p95": "#d64545",
}
PALETTE = ("#2f6fde", "#e67e22", "#27ab83", "#8e44ad", "#d64545", "#0b7285", "#f0b429", "#616e7c")


@dataclass(frozen=True, slots=True)
class Plot:
    """The plotting area of a chart and the value range its y axis spans."""

    low: float
    high: float
    width: int = WIDE
    height: int = HEIGHT

    @property
    def inner_width(self) -> float:
        return self.width - LEFT - RIGHT

    @property
    def inner_height(self) -> float:
        return self.height - TOP - BOTTOM

    def y(self, value: float) -> float:
        span = self.high - self.low or 1
        return TOP + self.inner_height * (1 - (value - self.low) / span)


def colours(names: Sequence[str]) -> dict[str, str]:
    """Each series' colour: its own when the dashboard knows the name, else the next palette colour not taken."""
    taken = {NAMED_COLOURS[name] for name in names if name in NAMED_COLOURS}
    free = cycle([colour for colour in PALETTE if colour not in taken] or PALETTE)
    return {name: NAMED_COLOURS.get(name) or next(free) for name in names}


def nice_ceiling(value: float) -> float:
    """The smallest of 1, 2, 2.5 or 5 times a power of ten at or above `value` (at least 1): a y axis top."""
    if value <= 1:
        return 1
    power = 10 ** math.floor(math.log10(value))
    return next(step * power for step in (1, 2, 2.5, 5, 10) if step * power >= value)


def price_axis(lowest: float, highest: float) -> tuple[float, float]:
    """A y axis of four round steps around the prices, starting at a multiple of the step below `lowest` (not on
    it, so that no point lies on the axis, unless it is 0)."""
    step = nice_ceiling(max((highest - lowest) / 3, 1))

    def bottom(step: float) -> float:
        low = math.floor(lowest / step) * step
        return max(0.0, low - step) if low == lowest else low

    while bottom(step) + 4 * step < highest:
        step = nice_ceiling(step * 1.01)
    return bottom(step), bottom(step) + 4 * step


def _label_every(minutes: int) -> int:
    """Under which minutes a chart writes the time: each of a few, else those on the 5, 10, … (six labels or so)."""
    return 1 if minutes <= 6 else 5 * math.ceil(minutes / 30)


def count_top(value: float) -> int:
    """The top of a y axis of counts up to `value`: four whole steps of 1, 2, 3 or 5 times a power of ten."""
    quarter = max(value / 4, 1)
    power = 10 ** math.floor(math.log10(quarter))
    return 4 * math.ceil(next(step * power for step in (1, 2, 3, 5, 10) if step * power >= quarter))


def _number(value: float) -> str:
    return f"{value:,.0f}" if value == int(value) else f"{value:,.1f}"


def _frame(plot: Plot, label: str, names: Sequence[str], palette: Mapping[str, str]) -> list[str]:
    """The opening tag, the y axis' grid lines with their values, and the legend."""
    parts = [
        f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {plot.width} {plot.height}" '
        f'width="100%" role="img" aria-label="{escape(label)}">',
        f"<title>{escape(label)}</title>",
    ]
    for step in range(5):
        value = plot.low + (plot.high - plot.low) * step / 4
        y = plot.y(value)
        parts.append(
            f'<line class="grid" x1="{LEFT}" x2="{plot.width - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" stroke="#e4e7eb"/>'
            f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" font-size="11" fill="#616e7c">'
            f"{_number(value)}</text>"
        )
    x = LEFT
    for name in names:
        parts.append(
            f'<rect x="{x}" y="8" width="10" height="10" fill="{palette[name]}"/>'
            f'<text class="legend" x="{x + 14}" y="17" font-size="11" fill="#1f2933">{escape(name)}</text>'
        )
        x += 24 + 7 * len(name)
    return parts


def _x_label(x: float, text: str, anchor: str = "middle") -> str:
    return (
        f'<text x="{x:.1f}" y="{HEIGHT - 6}" text-anchor="{anchor}" font-size="11" fill="#616e7c">{escape(text)}</text>'
    )


def price_chart(
    series: Mapping[str, Sequence[tuple[datetime, int]]], *, target: int | None = None, label: str = "Lowest prices"
) -> Markup:
    """One line per source through its lowest price of each search (a `circle.point` each, oldest left), and the
    target price as a dashed horizontal line. Empty series are left out; with no point at all, a note."""
    drawn = {name: sorted(points) for name, points in sorted(series.items()) if points}
    if not drawn:
        return Markup('<p class="note">No price recorded yet.</p>')
    prices = [price for points in drawn.values() for _, price in points] + ([target] if target is not None else [])
    times = [at for points in drawn.values() for at, _ in points]
    plot = Plot(*price_axis(min(prices), max(prices)))
    first, last = min(times), max(times)
    span = (last - first).total_seconds()

    def x(at: datetime) -> float:
        share = (at - first).total_seconds() / span if span else 0.5
        return LEFT + plot.inner_width * share

    palette = colours(list(drawn))
    parts = _frame(plot, label, list(drawn), palette)
    if target is not None:
        y = plot.y(target)
        parts.append(
            f'<line class="target" x1="{LEFT}" x2="{plot.width - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" stroke="#102a43" '
            f'stroke-dasharray="6 4"><title>target price {_number(target)}</title></line>'
            f'<text x="{plot.width - RIGHT}" y="{y - 4:.1f}" text-anchor="end" font-size="11" fill="#102a43">'
            f"target {_number(target)}</text>"
        )
    for name, points in drawn.items():
        marks = [
            (x(at), plot.y(price), f"{escape(name)} {at:%Y-%m-%d %H:%M}: {_number(price)}") for at, price in points
        ]
        parts += _series(marks, palette[name], radius=3.5)
    parts += [_x_label(LEFT, f"{first:%Y-%m-%d %H:%M}", "start")]
    if span:
        parts.append(_x_label(plot.width - RIGHT, f"{last:%Y-%m-%d %H:%M}", "end"))
    parts.append("</svg>")
    return Markup("".join(parts))


def _series(marks: Sequence[tuple[float, float, str]], colour: str, *, radius: float) -> list[str]:
    """A line through (x, y) marks and a point at each, titled with its (escaped) `title` for a hover."""
    coordinates = " ".join(f"{x:.1f},{y:.1f}" for x, y, _ in marks)
    line = f'<polyline class="series" points="{coordinates}" fill="none" stroke="{colour}"/>'
    points = [
        f'<circle class="point" cx="{x:.1f}" cy="{y:.1f}" r="{radius}" fill="{colour}"><title>{title}</title></circle>'
        for x, y, title in marks
    ]
    return [line, *points]


def minute_bars(minutes: Sequence[datetime], stacks: Mapping[str, Sequence[int]], *, label: str) -> Markup:
    """Stacked bars, one per minute (oldest left): each series a `rect.bar` segment where it is not zero.

    `stacks` maps a series name to one count per minute.
    """
    names = [name for name, counts in stacks.items() if any(counts)]
    totals = [sum(stacks[name][index] for name in names) for index in range(len(minutes))]
    plot = Plot(low=0, high=count_top(max(totals, default=0)), width=NARROW)
    palette = colours(names)
    parts = _frame(plot, label, names, palette)
    slot = plot.inner_width / max(len(minutes), 1)
    for index, minute in enumerate(minutes):
        x, base = LEFT + slot * index, 0
        for name in names:
            count = stacks[name][index]
            if count:
                top, bottom = plot.y(base + count), plot.y(base)
                parts.append(
                    f'<rect class="bar" x="{x + slot * 0.1:.1f}" y="{top:.1f}" width="{slot * 0.8:.1f}" '
                    f'height="{bottom - top:.1f}" fill="{palette[name]}">'
                    f"<title>{minute:%H:%M} {escape(name)}: {count}</title></rect>"
                )
                base += count
        if minute.minute % _label_every(len(minutes)) == 0:
            parts.append(_x_label(x + slot / 2, f"{minute:%H:%M}"))
    if not names:
        parts.append(
            f'<text x="{LEFT + plot.inner_width / 2:.1f}" y="{TOP + plot.inner_height / 2:.1f}" text-anchor="middle" '
            f'font-size="12" fill="#616e7c">nothing in this window</text>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))


def minute_lines(minutes: Sequence[datetime], lines: Mapping[str, Sequence[float | None]], *, label: str) -> Markup:
    """One line per series over the minutes (a gap where a minute has no value), e.g. p50 and p95 durations."""
    values = [value for series in lines.values() for value in series if value is not None]
    plot = Plot(low=0, high=count_top(max(values, default=0)), width=NARROW)
    names = [name for name, series in lines.items() if any(value is not None for value in series)]
    palette = colours(names)
    parts = _frame(plot, label, names, palette)
    slot = plot.inner_width / max(len(minutes), 1)
    for name in names:
        for run in _runs(lines[name]):
            marks = [
                (LEFT + slot * (i + 0.5), plot.y(value), f"{minutes[i]:%H:%M} {escape(name)}: {_number(value)}")
                for i, value in run
            ]
            parts += _series(marks, palette[name], radius=2)
    parts += [
        _x_label(LEFT + slot * (i + 0.5), f"{minute:%H:%M}")
        for i, minute in enumerate(minutes)
        if minute.minute % _label_every(len(minutes)) == 0
    ]
    parts.append("</svg>")
    return Markup("".join(parts))


def _runs(values: Sequence[float | None]) -> list[list[tuple[int, float]]]:
    """The stretches of consecutive minutes that have a value, each as (index, value) pairs."""
    runs: list[list[tuple[int, float]]] = []
    current: list[tuple[int, float]] = []
    for index, value in enumerate(values):
        if value is None:
            if current:
                runs.append(current)
            current = []
        else:
            current.append((index, value))
    return [*runs, current] if current else runs
