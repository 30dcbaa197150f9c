"""One computation shared by concurrent callers, its result reused for a moment."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable


class SharedResult[T]:
    """Callers arriving while a computation runs wait for that one; its result serves for `max_age` seconds.

    `GET /v1/lps/queue/stats` and `/metrics` read the job counts and the broker's queues: a hundred clients
    polling them would otherwise run a hundred computations at once. A failure is not kept: the next
    caller computes again.
    """

    def __init__(self, compute: Callable[[], Awaitable[T]], max_age: float) -> None:
        self._compute = compute
        self._max_age = max_age
        self._value: T | None = None
        self._computed_at = float("-inf")
        self._running: asyncio.Future[T] | None = None

    async def get(self) -> T:
        if self._value is not None and time.monotonic() - self._computed_at < self._max_age:
            return self._value
        if self._running is None:
            self._running = asyncio.ensure_future(self._refresh())
        # Shielded: one impatient caller going away must not cancel the others' computation.
        return await asyncio.shield(self._running)

    async def _refresh(self) -> T:
        try:
            value = await self._compute()
            self._value, self._computed_at = value, time.monotonic()
            return value
        finally:
            self._running = None
