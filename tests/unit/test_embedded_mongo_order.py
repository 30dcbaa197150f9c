"""The embedded store's kept order of an index's keys (embedded_store/ordered_keys.py, change 7) answers every question
the listed keys answer, the same way: the keys under a prefix (and within a bound), their number, whether their sort
columns may be walked, and the walk's order, as keys come and go, and when a write lands in the middle of a walk.

Property-style (hypothesis): random keys of every kind mongoeco makes (missing fields, each type tag, keys that have
no place in an order), random writes, each answer compared with `_ListedKeys`, the pass over every key that served
before the order was kept.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal
from operator import ge, gt, le, lt
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from mongoeco.types import ObjectId
from rpds import HashTrieMap

from embedded_store.ordered_keys import IndexKey, _ListedKeys, _OrderedKeys, _sort_form

WIDTH = 3
START = datetime(2026, 12, 1)
#: mongoeco's own ObjectId: what its keys hold (its codec turns every stored ObjectId into one).
IDS = [ObjectId(bytes([number]) * 12) for number in range(1, 6)]
BOUNDS = [gt, ge, lt, le]

#: Components as mongoeco's `_index_equality_key` gives them (and a missing field's None).
ordered_component = st.one_of(
    st.builds(lambda text: ("str", text), st.sampled_from(["A", "B", "PENDING", "RUNNING"])),
    st.builds(lambda seconds: ("datetime", START + timedelta(seconds=seconds)), st.integers(0, 6)),
    st.builds(lambda number: ("objectid", IDS[number]), st.integers(0, len(IDS) - 1)),
)
component = st.one_of(
    ordered_component,
    ordered_component,
    st.none(),
    st.builds(lambda flag: ("bool", flag), st.booleans()),
    st.just(("none", None)),
    st.builds(lambda number: ("number", Decimal(number)), st.integers(-2, 2)),
)
#: What has no place in an order: an array's key, a NaN.
UNORDERED = [("list", (("str", "A"),)), ("number", Decimal("NaN")), ("dict", ())]
unordered_component = st.sampled_from(UNORDERED)
key = st.tuples(*[component] * WIDTH)
#: As `status_created_at` keys a job: (status, created_at, _id).
listing_key = st.tuples(
    st.builds(lambda text: ("str", text), st.sampled_from(["A", "B"])),
    st.builds(lambda seconds: ("datetime", START + timedelta(seconds=seconds)), st.integers(0, 6)),
    st.builds(lambda number: ("objectid", IDS[number]), st.integers(0, len(IDS) - 1)),
)
odd_key = st.tuples(unordered_component, component, component)


def stored(keys: set[IndexKey]) -> HashTrieMap:
    return HashTrieMap({key: 1 for key in keys})


def assert_same_answers(order: _OrderedKeys, keys: set[IndexKey], prefixes: list[IndexKey]) -> None:
    listed = _ListedKeys(list(keys))
    for prefix in prefixes:
        under = listed.under(prefix)
        assert sorted(order.under(prefix), key=_sort_form) == sorted(under, key=_sort_form)
        if len(prefix) == WIDTH:
            continue
        start, positions = len(prefix), range(len(prefix), WIDTH)
        for descending in (True, False):
            for first in (1, 3):
                walk = order.walk(prefix, positions, [], descending=descending, first=first)
                if walk is None:
                    continue
                # Its checks never allow a walk the keys under the prefix would refuse, and it reads them in order.
                listed_walk = listed.walk(prefix, positions, [], descending=descending, first=first)
                assert listed_walk is not None
                assert walk[0] == listed_walk[0] == len(under)
                assert list(walk[1]) == list(listed_walk[1])
        only_datetimes = {key[start][0] if key[start] else None for key in keys} <= {"datetime", None}
        for bounds in bound_sets():

            def passes(component: Any, bounds: list[Any] = bounds) -> bool:
                return all(compare(component[1], limit[1]) for compare, limit in bounds)

            bounded = set(order.under(prefix, bounds))
            # Every key that may pass (another type than the bounds': mongoeco's comparison decides) is there.
            may_pass = {
                key
                for key in under
                if not isinstance(key[start], tuple) or key[start][0] != "datetime" or passes(key[start])
            }
            if only_datetimes:
                # A range of the order, exactly: mongoeco matches no missing field by a bound.
                assert bounded == {key for key in may_pass if key[start] is not None}
            else:
                assert may_pass <= bounded <= set(under)
            walk = order.walk(prefix, positions, bounds, descending=True, first=2)
            if walk is None:
                continue
            listed_walk = listed.walk(prefix, positions, [], descending=True, first=2)
            expected = list(listed_walk[1]) if listed_walk is not None else []
            if only_datetimes:
                # Only datetimes and missing fields there: the walk reads the keys within the bounds (mongoeco matches
                # no missing field by a bound), and says how many it may cross.
                expected = [key for key in under if key[start] is not None and passes(key[start])]
                expected.sort(key=_sort_form, reverse=True)
                assert walk[0] == len(expected)
            assert list(walk[1]) == expected


def bound_sets() -> list[list[tuple[Any, IndexKey]]]:
    """Each bound alone at one instant, and the two ends of a step (`ended_after`: from a cursor, before `until`)."""
    at = [("datetime", START + timedelta(seconds=seconds)) for seconds in (1, 3, 4)]
    return [[(compare, at[1])] for compare in BOUNDS] + [
        [(ge, at[0]), (lt, at[2])],
        [(gt, at[0]), (le, at[2])],
        [(lt, at[2]), (gt, at[1])],
        [(gt, at[2]), (lt, at[0])],  # nothing between
    ]


@settings(max_examples=150, deadline=None)
@given(
    initial=st.one_of(st.sets(key, max_size=30), st.sets(listing_key, max_size=30)),
    writes=st.lists(st.tuples(st.booleans(), st.one_of(key, listing_key, listing_key, odd_key)), max_size=30),
    prefix_picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=4),
)
def test_the_kept_order_answers_as_the_listed_keys_as_keys_come_and_go(
    initial: set[IndexKey], writes: list[tuple[bool, IndexKey]], prefix_picks: list[int]
):
    keys = set(initial)
    order = _OrderedKeys(stored(keys))
    assert order.unordered == 0

    def prefixes() -> list[IndexKey]:
        chosen: list[IndexKey] = [()]
        for pick in prefix_picks:
            if keys:
                some = sorted(keys, key=repr)[pick % len(keys)]
                chosen += [some[:1], some[:2]]
            chosen += [(("str", "A"),), (("str", "B"),)]
        return chosen

    assert_same_answers(order, keys, prefixes())
    for adding, written in writes:
        if adding:
            keys.add(written)
        else:
            keys.discard(written)
        # A write touches the keys of one document: the key written, and one it already had.
        order.follow(stored(keys), [written, *sorted(keys, key=repr)[:1]])
        assert order.unordered == sum(any(key[0] is odd for odd in UNORDERED) for key in keys)
        if order.unordered == 0:
            assert_same_answers(order, keys, prefixes())


@settings(max_examples=100, deadline=None)
@given(
    initial=st.sets(st.tuples(st.just(("str", "A")), ordered_component, ordered_component), min_size=1, max_size=40),
    written=st.lists(st.tuples(st.booleans(), st.tuples(st.just(("str", "A")), ordered_component, ordered_component))),
    taken_before=st.integers(0, 40),
    descending=st.booleans(),
)
def test_a_walk_reads_the_version_it_began_at_when_a_write_lands_in_its_middle(
    initial: set[IndexKey], written: list[tuple[bool, IndexKey]], taken_before: int, descending: bool
):
    order = _OrderedKeys(stored(initial))
    prefix, positions = (("str", "A"),), range(1, WIDTH)
    walk = order.walk(prefix, positions, [], descending=descending, first=2)
    if walk is None:
        return  # mixed tags in a sort column: no walk is taken (checked above)
    expected = list(_ListedKeys(list(initial)).under(prefix))
    expected.sort(reverse=descending)
    keys = walk[1]
    walked: list[Any] = [next(keys) for _ in range(min(taken_before, len(expected)))]
    current = set(initial)
    for adding, key_written in written:
        (current.add if adding else current.discard)(key_written)
        order.follow(stored(current), [key_written])
    walked += list(keys)
    assert walked == expected
