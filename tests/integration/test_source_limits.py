"""Fleet-wide pacing and the circuit breaker (`infra.source_limits`) against the real MongoDB wire server.

Two `SourceGates` over one database stand for two worker processes: every limit lives in MongoDB, none in memory.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest
from pymongo import AsyncMongoClient, monitoring

from infra.clock import utcnow
from infra.mongo import SOURCE_LIMITS, MainDatabase, create_client
from infra.settings import Settings
from infra.source_limits import BreakerState, Deferral, SourceGates, Ticket
from infra.source_rates import Rate
from tools.testbed import eventually


class Seen:
    """A GateObserver that remembers what it was told."""

    def __init__(self) -> None:
        #: The states seen, each once per change (a gauge is told the state at every sighting).
        self.states: list[BreakerState] = []
        self.trips = 0
        self.waits = 0
        self.paces: list[float] = []

    def waiting(self, source: str, change: int) -> None:
        self.waits += change

    def pace(self, source: str, share: float) -> None:
        self.paces.append(share)

    def breaker(self, source: str, state: BreakerState, *, tripped: bool) -> None:
        self.trips += tripped
        if not self.states or self.states[-1] != state or tripped:
            self.states.append(state)


@pytest.fixture
async def database(settings: Settings) -> AsyncIterator[MainDatabase]:
    client = create_client(settings)
    yield MainDatabase.open(client, settings.mongo_db)
    await client.close()


def gates(database: MainDatabase, settings: Settings, **limits: Any) -> SourceGates:
    """A worker's gates, with the breaker off unless asked for."""
    return SourceGates(database, settings.with_overrides(**({"breaker_threshold": 0.0} | limits)))


async def document(database: MainDatabase, source: str = "static") -> dict[str, Any]:
    found = await database.write[SOURCE_LIMITS].find_one({"_id": source})
    assert found is not None
    return found


async def test_a_rate_is_shared_by_every_worker_and_spaces_its_tokens_evenly(database, settings):
    one = gates(database, settings, source_rates={"static": Rate(2, "m")})
    other = gates(database, settings, source_rates={"static": Rate(2, "m")})

    first = await one.acquire("static", wait=0)
    second = await other.acquire("static", wait=0)  # 2/m: the next token is 30 s after the first, not at once

    assert isinstance(first, Ticket)
    assert isinstance(second, Deferral)
    assert second.reason == "rate 2/m reached"
    assert 29 < second.retry_in <= 30
    assert (await one.describe())["static"] | {"deferred_jobs": 0} == {
        "rate": "2/m",
        "tokens_used": 1,
        "tokens_left": 1,
        "pace": 1.0,
        "waiting": 0,
        "deferred_jobs": 0,
    }


async def test_a_blocked_search_halves_the_pace_fleet_wide_once_per_block(database, settings):
    seen = Seen()
    paced = {"source_rates": {"static": Rate(2, "s")}, "pace_recovery": 300.0, "breaker_cooldown": 60.0}
    one = SourceGates(database, settings.with_overrides(breaker_threshold=0.0, **paced), seen)
    other = gates(database, settings, **paced)

    blocked = await one.acquire("static", wait=0)
    assert isinstance(blocked, Ticket)
    await one.release(blocked, blocked=True)
    assert 0.5 <= (await other.describe())["static"]["pace"] < 0.51
    assert seen.paces[-1] == 0.5

    # More refusals of the same block (within LPS_BREAKER_COOLDOWN of the slow-down) do not halve it again.
    again = await other.acquire("static", wait=5)
    assert isinstance(again, Ticket)
    await other.release(again, blocked=True)
    assert 0.5 <= (await one.describe())["static"]["pace"] < 0.51

    # The other worker learnt the pace with its turn: the tokens it lets go are a second apart now, not 0.5 s.
    for turn in (await other.acquire("static", wait=5), await one.acquire("static", wait=5)):
        assert isinstance(turn, Ticket)
    *_, granted, next_granted = (await document(database))["stamps"]
    assert next_granted - granted >= timedelta(seconds=1)


async def test_without_a_recovery_the_pace_stays_whole(database, settings):
    fixed = gates(database, settings, source_rates={"static": Rate(2, "s")}, pace_recovery=0.0)
    turn = await fixed.acquire("static", wait=0)
    assert isinstance(turn, Ticket)
    await fixed.release(turn, blocked=True)
    assert "pace" not in await document(database)
    assert "pace" not in (await fixed.describe())["static"]


async def test_a_search_waits_for_the_next_token_within_its_bound_and_tokens_stay_a_window_apart(database, settings):
    one = gates(database, settings, source_rates={"static": Rate(1, "s")})
    other = gates(database, settings, source_rates={"static": Rate(1, "s")})

    first = await one.acquire("static", wait=0)
    [granted_first] = (await document(database))["stamps"]
    second = await other.acquire("static", wait=30)

    assert isinstance(first, Ticket)
    assert isinstance(second, Ticket)
    [granted_second] = (await document(database))["stamps"]
    assert granted_second - granted_first >= timedelta(seconds=1)
    assert second.waited > 0
    assert (await document(database))["waiting"] == []  # the wait is over: it left the waiting list


async def test_a_waiting_search_is_counted_fleet_wide_while_it_waits(database, settings):
    one = gates(database, settings, source_rates={"static": Rate(1, "m")})
    assert isinstance(await one.acquire("static", wait=0), Ticket)
    stats = gates(database, settings, source_rates={"static": Rate(1, "m")})

    # The next token is a minute away: a search allowed to wait that long waits (this one is cancelled).
    waiter = asyncio.create_task(one.acquire("static", wait=120))
    try:
        waiting = await eventually(
            lambda: _waiting(stats), within=10, what="the waiting search to show in the source's stats"
        )
        assert waiting == 1
    finally:
        waiter.cancel()
        await asyncio.gather(waiter, return_exceptions=True)


async def _waiting(gates: SourceGates) -> int:
    return (await gates.describe())["static"]["waiting"]


async def test_concurrency_holds_across_workers_and_a_slot_frees_when_its_search_ends(database, settings):
    one = gates(database, settings, source_concurrency={"static": 1})
    other = gates(database, settings, source_concurrency={"static": 1})

    held = await one.acquire("static", wait=0)
    refused = await other.acquire("static", wait=0)
    assert isinstance(held, Ticket)
    assert isinstance(refused, Deferral)
    assert refused.reason == "concurrency 1 reached"
    assert (await other.describe())["static"]["in_flight"] == 1

    await one.release(held, blocked=False)
    assert isinstance(await other.acquire("static", wait=0), Ticket)


async def test_a_slot_held_by_a_worker_that_stopped_frees_when_its_lease_ends(database, settings):
    # The lease is the search's time limit plus the margin: short here, so the test need not wait long.
    one = gates(database, settings, source_concurrency={"static": 1}, search_time_limit=0.2, lease_margin=0.0)
    other = gates(database, settings, source_concurrency={"static": 1}, search_time_limit=0.2, lease_margin=0.0)
    assert isinstance(await one.acquire("static", wait=0), Ticket)  # never released: its worker "died"

    async def taken() -> Ticket | None:
        turn = await other.acquire("static", wait=0)
        return turn if isinstance(turn, Ticket) else None

    await eventually(taken, within=10, what="the abandoned slot to be taken")
    assert len((await document(database))["holders"]) == 1


def breaker_gates(database: MainDatabase, settings: Settings, seen: Seen | None = None) -> SourceGates:
    tuned = settings.with_overrides(
        breaker_threshold=0.5, breaker_window=4, breaker_cooldown=0.3, breaker_max_cooldown=0.6
    )
    return SourceGates(database, tuned, seen)


async def search(gates: SourceGates, *, blocked: bool) -> Ticket | Deferral:
    turn = await gates.acquire("static", wait=0)
    if isinstance(turn, Ticket):
        await gates.release(turn, blocked=blocked)
    return turn


async def test_the_breaker_opens_defers_probes_once_and_closes(database, settings):
    seen = Seen()
    one, other = breaker_gates(database, settings, seen), breaker_gates(database, settings)

    # Two of the last four searches BLOCKED (threshold 50 % of 4): the breaker opens, fleet-wide.
    for blocked in (False, True, False, True):
        assert isinstance(await search(one, blocked=blocked), Ticket)
    refused = await other.acquire("static", wait=30)
    assert isinstance(refused, Deferral)  # deferred at once, however long it may wait: waiting cannot help
    assert refused.reason == "circuit breaker open"
    view = (await other.describe())["static"]["breaker"]
    assert (view["state"], view["trips"], view["blocked"]) == ("OPEN", 1, 0)

    # After the cool-down, of two workers asking at once exactly one gets the probe; the other is deferred.
    await eventually(lambda: _cooled_down(database), within=10, what="the cool-down to end")
    turns = await asyncio.gather(one.acquire("static", wait=0), other.acquire("static", wait=0))
    [probe] = [turn for turn in turns if isinstance(turn, Ticket)]
    [beside] = [turn for turn in turns if isinstance(turn, Deferral)]
    assert probe.probe
    assert beside.reason == "circuit breaker half-open: a probe search decides"
    assert isinstance(await other.acquire("static", wait=30), Deferral)  # still deciding

    await one.release(probe, blocked=False)
    assert (await document(database))["state"] == "CLOSED"
    assert isinstance(await search(other, blocked=False), Ticket)
    assert seen.states == [BreakerState.CLOSED, BreakerState.OPEN, BreakerState.HALF_OPEN, BreakerState.CLOSED]
    assert seen.trips == 1


async def _cooled_down(database: MainDatabase) -> bool:
    state = await document(database)
    return state["open_until"] <= utcnow()


async def _probe(gates: SourceGates) -> Ticket | None:
    turn = await gates.acquire("static", wait=0)
    return turn if isinstance(turn, Ticket) else None


async def test_a_blocked_probe_opens_the_breaker_again_for_twice_as_long_up_to_the_maximum(database, settings):
    seen = Seen()
    one = breaker_gates(database, settings, seen)
    for _ in range(2):
        await search(one, blocked=True)
    first = await document(database)
    assert first["open_until"] - first["changed_at"] == timedelta(seconds=0.3)

    for expected in (0.6, 0.6):  # doubled, then held at LPS_BREAKER_MAX_COOLDOWN
        probe = await eventually(lambda: _probe(one), within=10, what="the cool-down to end")
        await one.release(probe, blocked=True)
        reopened = await document(database)
        assert reopened["state"] == "OPEN"
        assert reopened["open_until"] - reopened["changed_at"] == timedelta(seconds=expected)
    assert (reopened["trips"], reopened["consecutive"], seen.trips) == (3, 3, 3)

    probe = await eventually(lambda: _probe(one), within=10, what="the cool-down to end")
    await one.release(probe, blocked=False)
    closed = await document(database)
    assert (closed["state"], closed["consecutive"], closed["trips"]) == ("CLOSED", 0, 3)


async def test_fewer_blocked_searches_than_the_threshold_keep_the_breaker_closed(database, settings):
    one = breaker_gates(database, settings)
    for blocked in (True, False, False, False, False, True, False):
        assert isinstance(await search(one, blocked=blocked), Ticket)
    assert (await document(database))["state"] == "CLOSED"


async def test_a_source_with_no_limit_and_no_breaker_costs_no_round_trip(database, settings):
    free = gates(database, settings)
    turn = await free.acquire("static", wait=0)
    assert isinstance(turn, Ticket)
    await free.release(turn, blocked=True)
    assert await database.write[SOURCE_LIMITS].count_documents({}) == 0


class Commands(monitoring.CommandListener):
    """The MongoDB commands a client sent, by name (the round trips)."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        if event.command_name in {"find", "update", "findAndModify", "insert", "delete", "aggregate"}:
            self.names.append(event.command_name)

    def succeeded(self, event: monitoring.CommandSucceededEvent) -> None:
        pass

    def failed(self, event: monitoring.CommandFailedEvent) -> None:
        pass


@pytest.mark.parametrize(
    ("limits", "round_trips"),
    [
        ({}, ["find"]),  # the breaker alone: is it closed?
        ({"source_rates": {"static": Rate(100, "s")}}, ["findAndModify"]),  # a token, the breaker checked with it
        ({"source_concurrency": {"static": 4}}, ["findAndModify", "update"]),  # a slot, then the slot back
    ],
)
async def test_a_search_that_goes_well_costs_at_most_two_round_trips_by_id(settings, limits, round_trips):
    commands = Commands()
    client = AsyncMongoClient(settings.mongo_url, tz_aware=True, event_listeners=[commands])
    try:
        database = MainDatabase.open(client, settings.mongo_db)
        gates = SourceGates(database, settings.with_overrides(**limits))
        await search(gates, blocked=False)  # the first also creates the source's document
        await asyncio.sleep(0.1)  # past the rate's next token (10 ms, 20 ms once a BLOCKED search halved the pace)
        commands.names.clear()

        await search(gates, blocked=False)
        assert commands.names == round_trips

        # After a BLOCKED search the window must move on: answered searches are recorded until it has left it.
        await asyncio.sleep(0.1)
        assert isinstance(await search(gates, blocked=True), Ticket)
        await asyncio.sleep(0.1)
        commands.names.clear()
        await search(gates, blocked=False)
        assert commands.names == [*round_trips[:1], "update"]
    finally:
        await client.close()
