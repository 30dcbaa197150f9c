"""SharedResult: one computation shared by concurrent callers, reused for a moment, kept fresh in the background.

Every test runs on `FakeTime`, a clock that moves only when a task sleeps on it: what the tests say about ages and
quiet stretches holds however late a busy machine wakes a task.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

import pytest

from service.shared import SharedResult


class FakeTime:
    """A monotonic clock that moves only when a task sleeps on it: a sleep moves it on and yields once."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)

    async def until(self, moment: float) -> None:
        """Let the other tasks run (and sleep) until the clock has reached `moment`."""
        for _ in range(100_000):
            if self.now >= moment:
                return
            await asyncio.sleep(0)
        raise AssertionError(f"the clock stopped at {self.now}, before {moment}: no task sleeps on it")


def shared_on[T](
    time: FakeTime, compute: Callable[[], Awaitable[T]], max_age: float, max_stale: float = 0.0
) -> SharedResult[T]:
    return SharedResult(compute, max_age, max_stale, clock=time.monotonic, sleep=time.sleep)


async def test_concurrent_callers_share_one_computation_and_reuse_it_briefly():
    time = FakeTime()
    calls = 0

    async def compute() -> int:
        nonlocal calls
        calls += 1
        await time.sleep(0.05)
        return calls

    shared = shared_on(time, compute, max_age=60)
    assert await asyncio.gather(*(shared.get() for _ in range(20))) == [1] * 20
    assert await shared.get() == 1
    assert calls == 1


async def test_an_answer_older_than_max_age_is_computed_again():
    time = FakeTime()
    calls = 0

    async def compute() -> int:
        nonlocal calls
        calls += 1
        return calls

    shared = shared_on(time, compute, max_age=10)
    assert await shared.get() == 1
    time.now = 9.9
    assert await shared.get() == 1
    time.now = 10.0
    assert await shared.get() == 2


async def test_a_failed_computation_is_not_kept():
    time = FakeTime()
    attempts: list[int] = []

    async def flaky() -> str:
        attempts.append(1)
        if len(attempts) == 1:
            raise ConnectionError("store away")
        return "ok"

    shared = shared_on(time, flaky, max_age=60)
    with pytest.raises(ConnectionError):
        await shared.get()
    assert await shared.get() == "ok"


async def test_a_stale_answer_is_served_at_once_while_the_next_one_is_computed():
    time = FakeTime()
    release = asyncio.Event()
    calls = 0

    async def compute() -> int:
        nonlocal calls
        calls += 1
        if calls > 1:
            await release.wait()
        return calls

    shared = shared_on(time, compute, max_age=0, max_stale=60)
    assert await shared.get() == 1
    asking = asyncio.ensure_future(shared.get())
    await asyncio.sleep(0)
    assert asking.done()  # served in its first step, while computation 2 waits
    assert asking.result() == 1
    release.set()
    for _ in range(10):  # computation 2 ends within a few steps of its release
        await asyncio.sleep(0)
    assert calls == 2
    assert await shared.get() in (2, 3)


async def test_past_max_stale_callers_wait_for_a_fresh_answer():
    time = FakeTime()
    calls = iter(range(1, 10))

    async def compute() -> int:
        return next(calls)

    shared = shared_on(time, compute, max_age=0, max_stale=0)
    assert [await shared.get() for _ in range(3)] == [1, 2, 3]


async def test_kept_fresh_in_the_background_no_caller_waits_for_a_computation_even_after_a_quiet_stretch():
    """The gateway's stats: one task recomputes every max_age seconds, so a caller arriving after a long quiet stretch
    (longer than max_stale) still gets an answer at once, never one older than max_age plus a computation."""
    time = FakeTime()
    calls = 0

    async def compute() -> int:
        nonlocal calls
        calls += 1
        await time.sleep(0.05)  # the store counting
        return calls

    shared = shared_on(time, compute, max_age=0.1, max_stale=1.0)
    assert shared.refreshes_in_background
    refresher = asyncio.create_task(shared.keep_fresh())
    try:
        await time.until(1.2)  # quiet: nobody asks for longer than max_stale
        asking = asyncio.ensure_future(shared.get())
        await asyncio.sleep(0)
        # Answered in its first step, from what the task computed: it never waited for a computation.
        assert asking.done()
        assert asking.result() >= 8  # recomputed all along: every 0.15 s over 1.2 s
    finally:
        refresher.cancel()


async def test_a_failing_background_computation_is_logged_once_until_it_answers_again(caplog: pytest.LogCaptureFixture):
    time = FakeTime()
    outcomes = iter([ConnectionError("store away")] * 3 + [7] * 100_000)

    async def compute() -> int:
        outcome = next(outcomes)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    caplog.set_level(logging.INFO, logger="service.shared")
    shared = shared_on(time, compute, max_age=0.01, max_stale=1)
    refresher = asyncio.create_task(shared.keep_fresh())
    try:
        await time.until(0.05)  # three failures, then answers
        assert await shared.get() == 7
    finally:
        refresher.cancel()
    messages = [record.getMessage() for record in caplog.records if record.name == "service.shared"]
    assert messages == ["background computation failing: ConnectionError", "background computation answers again"]


async def test_stopping_the_background_refresh_stops_its_computation_in_flight():
    """The gateway's cleanup cancels the stats refresher, then closes the broker and store clients: a computation left
    running reached them closed ("cannot schedule new futures after shutdown", a traceback on every early stop)."""
    time = FakeTime()
    computing = asyncio.Event()
    outcome: list[str] = []

    async def compute() -> int:
        computing.set()
        try:
            await asyncio.Event().wait()  # the broker's queue counts, on its thread: never done here
        except asyncio.CancelledError:
            outcome.append("cancelled")
            raise
        outcome.append("ran on after the stop")
        return 1

    shared = shared_on(time, compute, max_age=0.1, max_stale=1.0)
    refresher = asyncio.create_task(shared.keep_fresh())
    await computing.wait()

    refresher.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await refresher

    assert outcome == ["cancelled"]  # ended with the refresher, before the cleanup goes on to close the clients


def test_a_result_computed_for_every_caller_is_not_refreshed_in_the_background():
    async def compute() -> int:
        return 1

    assert not SharedResult(compute, max_age=1, max_stale=0).refreshes_in_background
    assert not SharedResult(compute, max_age=0, max_stale=10).refreshes_in_background
