"""One computation shared by concurrent callers, its result reused for a moment and served while it is redone."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

#: Seconds on a clock that only moves forward, and a wait on it: the real ones unless a test brings its own.
Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]

log = logging.getLogger(__name__)


class SharedResult[T]:
    """Callers arriving while a computation runs wait for that one; its result serves for `max_age` seconds.

    `GET /v1/lps/queue/stats` and `/metrics` read the job counts and the broker's queues: a hundred clients
    polling them would otherwise run a hundred computations at once. Past `max_age`, a caller gets the last result
    at once and starts the next computation in the background (stale-while-revalidate); past `max_stale`, callers
    wait for a fresh one (a store that stopped answering is not hidden behind an old answer). A failure is not
    kept: the next caller computes again. `keep_fresh` recomputes every `max_age` seconds whether anyone asks or
    not, so that no request finds the result past `max_stale` and waits while the store counts.
    """

    def __init__(
        self,
        compute: Callable[[], Awaitable[T]],
        max_age: float,
        max_stale: float = 0.0,
        *,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self._compute = compute
        self._clock = clock
        self._sleep = sleep
        self._max_age = max_age
        self._max_stale = max(max_stale, max_age)
        self._value: T | None = None
        self._computed_at = float("-inf")
        self._running: asyncio.Future[T] | None = None

    async def get(self) -> T:
        age = self._clock() - self._computed_at
        if self._value is not None and age < self._max_age:
            return self._value
        if self._running is None:
            self._running = asyncio.ensure_future(self._refresh())
            self._running.add_done_callback(_log_failure)
        if self._value is not None and age < self._max_stale:
            return self._value
        # Shielded: one impatient caller going away must not cancel the others' computation.
        return await asyncio.shield(self._running)

    @property
    def refreshes_in_background(self) -> bool:
        """Whether `keep_fresh` is worth running: a result may be served older than `max_age` (with `max_stale` at
        `max_age`, every caller past it computes for itself and a background computation would be wasted; with
        `max_age` 0, every caller starts one)."""
        return self._max_stale > self._max_age > 0

    async def keep_fresh(self) -> None:
        """Recompute every `max_age` seconds until cancelled (one task per process: the app's cleanup context). A
        failed computation is logged when the failing starts and when it ends, not every second; the result then ages
        until one succeeds, and past `max_stale` callers wait. Cancelled, it ends the computation in flight before it
        returns: the cleanup closes the clients that computation uses next."""
        failing = False
        try:
            while True:
                if self._running is None:
                    self._running = asyncio.ensure_future(self._refresh())
                try:
                    await asyncio.shield(self._running)
                except Exception as error:
                    if not failing:
                        log.warning("background computation failing: %s", type(error).__name__)
                    failing = True
                else:
                    if failing:
                        log.info("background computation answers again")
                    failing = False
                await self._sleep(self._max_age)
        finally:
            if (running := self._running) is not None:
                running.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await running

    async def _refresh(self) -> T:
        try:
            value = await self._compute()
            self._value, self._computed_at = value, self._clock()
            return value
        finally:
            self._running = None


def _log_failure(future: asyncio.Future) -> None:
    """A background computation nobody awaited: say why it failed (waiting callers get the exception)."""
    if not future.cancelled() and (error := future.exception()) is not None:
        log.warning("shared computation failed: %s", type(error).__name__)
