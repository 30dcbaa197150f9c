"""Pure units of watches: parsing schedules, the next run (catch-up, jitter, cron in a time zone), and the one
decision of whether a watch's result is delivered."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from bson import ObjectId

from infra.notify import Verdict, decide_delivery, seen_of
from schemas.schedule import Schedule, check_cron, jitter_fraction, parse_every, shortest_cron_gap
from schemas.watches import Notify

NOW = datetime(2026, 12, 1, 0, 0, 30, tzinfo=UTC)


@pytest.mark.parametrize(("text", "seconds"), [("90s", 90), ("15m", 900), ("6h", 21_600), ("1d", 86_400)])
def test_every_takes_s_m_h_and_d_units(text: str, seconds: int):
    assert parse_every(text) == seconds


@pytest.mark.parametrize("text", ["6", "h", "6 h", "6H", "1w", "-1h", "1.5h", "$gt", "999999999d"])
def test_every_refuses_anything_but_a_positive_number_and_a_unit(text: str):
    with pytest.raises(ValueError, match="must be"):
        parse_every(text)


@pytest.mark.parametrize(
    "expression", ["* * * *", "61 * * * *", "0 9 * * * *", "0 25 * * *", "a b c d e", "0 0 30 2 *"]
)
def test_malformed_cron_expressions_are_refused(expression: str):
    with pytest.raises(ValueError, match=r"five fields|not a cron expression"):
        check_cron(expression)


@pytest.mark.parametrize(
    ("expression", "seconds"),
    [
        ("* * * * *", 60),
        ("0-59 * * * *", 60),
        ("*/5 * * * *", 300),
        ("0,55 * * * *", 300),  # 0:55 -> 1:00
        ("59 0,1 * * *", 3_600),
        ("30 8-18 * * *", 3_600),
        ("0 9,17 * * *", 8 * 3_600),
        ("0 9 * * 1-5", 86_400),  # its day field only leaves days out
    ],
)
def test_the_shortest_gap_between_two_runs_of_a_cron_expression(expression: str, seconds: int):
    assert shortest_cron_gap(expression) == seconds


def test_a_scheduler_that_was_down_catches_up_with_one_run_not_one_per_missed_tick():
    anchor = NOW - timedelta(hours=6 * 10 + 1)  # ten periods missed
    schedule = Schedule(every=6 * 3600, anchor=anchor)
    following = schedule.next_run(NOW, fraction=0.0, max_jitter=0.0)
    assert NOW < following <= NOW + timedelta(hours=6)
    assert (following - anchor) % timedelta(hours=6) == timedelta(0)
    # The run after that one is one period on: the schedule keeps its ticks.
    assert schedule.next_run(following, fraction=0.0, max_jitter=0.0) == following + timedelta(hours=6)


def test_jitter_spreads_watches_over_at_most_the_cap_and_stays_fixed_per_watch():
    ids = [ObjectId() for _ in range(2000)]
    schedule = Schedule(every=6 * 3600, anchor=NOW)
    runs = [schedule.next_run(NOW, fraction=jitter_fraction(i), max_jitter=600) for i in ids]
    offsets = [(run - NOW - timedelta(hours=6)).total_seconds() for run in runs]
    assert all(0 <= offset < 600 for offset in offsets)
    # Spread, not bunched: every 60 s slice of the 600 s window holds some of them.
    assert {int(offset // 60) for offset in offsets} == set(range(10))
    assert jitter_fraction(ids[0]) == jitter_fraction(ids[0])


def test_the_run_after_a_new_watchs_first_is_one_period_on():
    schedule = Schedule(every=3600, anchor=NOW)
    assert schedule.next_run(NOW, fraction=0.5, max_jitter=600) == NOW + timedelta(hours=1, minutes=5)


def test_jitter_never_exceeds_a_short_interval():
    schedule = Schedule(every=60, anchor=NOW)
    later = NOW + timedelta(minutes=10, seconds=1)
    following = schedule.next_run(later, fraction=0.99, max_jitter=600)
    assert timedelta(0) < following - later <= timedelta(seconds=60)


def test_cron_runs_at_its_time_in_the_configured_zone():
    schedule = Schedule(cron="0 9 * * *", timezone="Asia/Seoul")
    # 00:00:30 UTC is 09:00:30 in Seoul: today's 09:00 has passed, the next is tomorrow's, 00:00 UTC.
    assert schedule.next_run(NOW, fraction=0.0, max_jitter=0.0) == datetime(2026, 12, 2, 0, 0, tzinfo=UTC)
    assert Schedule(cron="0 9 * * *", timezone="UTC").next_run(NOW, fraction=0.0, max_jitter=0.0) == datetime(
        2026, 12, 1, 9, 0, tzinfo=UTC
    )


def test_cron_catches_up_once_and_its_jitter_is_within_the_cap():
    schedule = Schedule(cron="*/5 * * * *", timezone="UTC")
    following = schedule.next_run(NOW, fraction=0.5, max_jitter=60)
    assert following == datetime(2026, 12, 1, 0, 5, 30, tzinfo=UTC)


def _search(
    price: int | None, *, outcome: str = "FOUND", url: str = "u1", minutes: int = 0, doubts: list[str] | None = None
) -> dict[str, Any]:
    lowest = {"source": "static", "price": price, "product_id": url, "url": url} if price is not None else None
    result = {"outcome": outcome, "lowest": lowest} | ({"doubts": doubts} if doubts else {})
    return {"_id": ObjectId(), "finished_at": NOW + timedelta(minutes=minutes), "result": result}


def _run(
    notify: Notify, searches: list[dict[str, Any]], target: int | None = None, refused: int | None = None
) -> list[str]:
    """Judge results in order as the outbox does; the reasons, with a `+` for those delivered (all but the
    `refused`-th: its delivery failed, so it is not recorded as delivered)."""
    last_seen = last_delivered = last_above_at = None
    reasons = []
    for index, search in enumerate(searches):
        current = seen_of(search, target)
        verdict = decide_delivery(
            notify, current=current, last_seen=last_seen, last_delivered=last_delivered, last_above_at=last_above_at
        )
        last_seen = current
        if current.get("below_target") is False:
            last_above_at = current["finished_at"]
        if verdict.deliver and index != refused:
            last_delivered = current
        reasons.append(("+" if verdict.deliver else "") + verdict.reason)
    return reasons


def test_on_change_delivers_the_first_result_then_only_changes_of_price_offer_or_outcome():
    searches = [
        _search(1000, minutes=0),
        _search(1000, minutes=1),
        _search(900, minutes=2),
        _search(900, url="u2", minutes=3),
        _search(None, outcome="NO_MATCH", minutes=4),
        _search(None, outcome="NO_MATCH", minutes=5),
    ]
    assert _run(Notify.ON_CHANGE, searches) == ["+first", "unchanged", "+changed", "+changed", "+changed", "unchanged"]


def test_on_change_delivers_a_lowest_newly_in_doubt_or_no_longer_in_doubt():
    doubt = ["another line?: the lowest writes 체리 between 제로 and 355ml, which no other offer does"]
    searches = [
        _search(16_500, minutes=0),
        _search(16_500, minutes=1, doubts=doubt),  # the same price, now said to be in doubt
        _search(16_500, minutes=2, doubts=doubt),
        _search(16_500, minutes=3),  # no longer in doubt
    ]
    assert _run(Notify.ON_CHANGE, searches) == ["+first", "+changed", "unchanged", "+changed"]
    # a result delivered before doubts were compared records none: the same price without doubts is no change
    recorded_before = seen_of(_search(16_500, minutes=0), None)
    del recorded_before["doubts"]
    verdict = decide_delivery(
        Notify.ON_CHANGE,
        current=seen_of(_search(16_500, minutes=1), None),
        last_seen=None,
        last_delivered=recorded_before,
    )
    assert verdict == Verdict(False, "unchanged")


def test_below_target_fires_once_per_crossing_and_again_after_going_back_above():
    prices = [1200, 900, 800, 1000, 1100, 700, 600]
    searches = [_search(price, minutes=i) for i, price in enumerate(prices)]
    assert _run(Notify.BELOW_TARGET, searches, target=1000) == [
        "not_below",
        "+crossed_below",
        "still_below",
        "not_below",  # at the target is not below it
        "not_below",
        "+crossed_below",
        "still_below",
    ]


def test_a_crossing_or_change_whose_delivery_failed_is_carried_by_the_next_result():
    below = [_search(price, minutes=i) for i, price in enumerate([1200, 900, 800, 700])]
    assert _run(Notify.BELOW_TARGET, below, target=1000, refused=1) == [
        "not_below",
        "+crossed_below",
        "+crossed_below",  # the crossing never reached the receiver: this result reports it
        "still_below",
    ]
    changes = [_search(price, minutes=i) for i, price in enumerate([1000, 900, 900, 900])]
    assert _run(Notify.ON_CHANGE, changes, refused=1) == ["+first", "+changed", "+changed", "unchanged"]


def test_always_delivers_every_result_and_an_older_result_is_superseded():
    first, second = _search(1000, minutes=1), _search(1000, minutes=0)
    assert _run(Notify.ALWAYS, [first, first | {"_id": ObjectId()}]) == ["+always", "+always"]
    assert _run(Notify.ON_CHANGE, [first, second]) == ["+first", "superseded"]


def test_a_zero_interval_parses_so_that_the_minimum_says_what_is_wrong():
    assert parse_every("0s") == parse_every("00m") == 0
