"""The dashboard's charts as the SVG functions draw them (service/ui/charts.py): points, lines, bars, their
axes, and escaped text."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from service.ui.charts import count_top, minute_bars, minute_lines, nice_ceiling, price_axis, price_chart

T0 = datetime(2026, 12, 1, 3, 0, tzinfo=UTC)


def test_a_price_chart_has_one_point_per_price_a_line_per_source_and_the_target_line():
    series = {
        "coupang": [(T0, 1_000), (T0 + timedelta(hours=1), 900), (T0 + timedelta(hours=2), 950)],
        "naver": [(T0 + timedelta(hours=1), 1_100)],
        "empty": [],
    }
    svg = str(price_chart(series, target=920))

    assert svg.startswith("<svg")
    assert svg.endswith("</svg>")
    assert svg.count('class="point"') == 4
    assert svg.count('class="series"') == 2
    assert svg.count('class="target"') == 1
    assert ">empty<" not in svg  # a source without a price is not in the legend


def test_a_price_chart_puts_cheaper_prices_lower_and_later_searches_further_right():
    svg = str(price_chart({"coupang": [(T0 + timedelta(hours=1), 900), (T0, 1_000)]}))
    (first_x, first_y), (second_x, second_y) = [
        (float(x), float(y)) for x, y in re.findall(r'class="point" cx="([\d.]+)" cy="([\d.]+)"', svg)
    ]
    assert first_x < second_x  # oldest left, whatever the order given
    assert second_y > first_y  # 900 is drawn below 1,000 (SVG's y grows downwards)


def test_text_in_a_chart_is_escaped():
    svg = str(price_chart({"<script>alert(1)</script>": [(T0, 5)]}, label="<b>x</b>"))
    assert "<script>" not in svg
    assert "<b>" not in svg
    assert "&lt;script&gt;" in svg


def test_a_chart_without_prices_says_so():
    assert "No price recorded yet" in str(price_chart({"coupang": []}, target=1))


def test_minute_bars_stack_one_segment_per_non_zero_count():
    minutes = [T0 + timedelta(minutes=n) for n in range(3)]
    svg = str(minute_bars(minutes, {"DONE": [2, 0, 1], "DEAD": [1, 0, 0], "never": [0, 0, 0]}, label="ended"))
    assert svg.count('class="bar"') == 3
    assert ">never<" not in svg
    assert "03:00 DONE: 2" in svg
    assert "nothing in this window" in str(minute_bars(minutes, {"DONE": [0, 0, 0]}, label="ended"))


def test_minute_lines_break_where_a_minute_has_no_value():
    minutes = [T0 + timedelta(minutes=n) for n in range(4)]
    svg = str(minute_lines(minutes, {"p50": [10.0, None, 30.0, 40.0], "p95": [None] * 4}, label="ms"))
    assert svg.count('class="series"') == 2  # [0] and [2, 3]
    assert svg.count('class="point"') == 3
    assert ">p95<" not in svg


@pytest.mark.parametrize(("value", "top"), [(0, 1), (1, 1), (3, 5), (7, 10), (11, 20), (240, 250), (2600, 5000)])
def test_a_y_axis_ends_at_a_round_number(value: float, top: float):
    assert nice_ceiling(value) == top


@pytest.mark.parametrize(("value", "top"), [(0, 4), (1, 4), (5, 8), (11, 12), (30, 40), (81, 120), (2_000, 2_000)])
def test_a_count_axis_has_four_whole_steps(value: int, top: int):
    assert count_top(value) == top
    assert top % 4 == 0


@pytest.mark.parametrize(
    ("lowest", "highest", "axis"), [(980, 1_210, (900, 1_300)), (5, 5, (4, 8)), (239_000, 251_500, (235_000, 255_000))]
)
def test_a_price_axis_spans_the_prices_in_four_round_steps(lowest: int, highest: int, axis: tuple[int, int]):
    assert price_axis(lowest, highest) == axis
