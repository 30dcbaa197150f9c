"""Every source's gate, built from the settings, and what stats show of them."""

from __future__ import annotations

import asyncio
from typing import Any

from infra.clock import utcnow
from infra.mongo import SOURCE_LIMITS, MainDatabase, count_by_index
from infra.settings import Settings
from infra.source_limits.backend import MongoLimiterBackend
from infra.source_limits.breaker import CircuitBreaker
from infra.source_limits.concurrent import ConcurrentRateLimiter
from infra.source_limits.gate import Deferral, GateObserver, SourceGate, Ticket, Unobserved
from infra.source_limits.pace import AdaptivePace
from infra.source_limits.spaced import SpacedRateLimiter
from schemas.codes import JobStatus


class SourceGates:
    """The gates of every source, from the settings (LPS_SOURCE_RATES, LPS_SOURCE_CONCURRENCY, LPS_BREAKER_*)."""

    def __init__(self, database: MainDatabase, settings: Settings, observer: GateObserver | None = None) -> None:
        self._database = database
        self._settings = settings
        self._observer: GateObserver = observer or Unobserved()
        self._backend = MongoLimiterBackend(database.write[SOURCE_LIMITS])
        self._gates: dict[str, SourceGate] = {}

    def gate(self, source: str) -> SourceGate:
        if source not in self._gates:
            self._gates[source] = self._build(source)
        return self._gates[source]

    def _build(self, source: str) -> SourceGate:
        settings = self._settings
        rate = settings.source_rates.get(source)
        concurrency = settings.source_concurrency.get(source)
        lease = settings.search_time_limit + settings.lease_margin
        breaker = (
            CircuitBreaker(
                threshold=settings.breaker_threshold,
                window=settings.breaker_window,
                cooldown=settings.breaker_cooldown,
                max_cooldown=max(settings.breaker_max_cooldown, settings.breaker_cooldown),
                probe_lease=lease,
            )
            if settings.breaker_threshold > 0
            else None
        )
        return SourceGate(
            source,
            self._backend,
            rate=SpacedRateLimiter(rate) if rate else None,
            pace=AdaptivePace(settings.pace_recovery, settings.breaker_cooldown) if settings.pace_recovery else None,
            concurrency=ConcurrentRateLimiter(concurrency, lease) if concurrency else None,
            breaker=breaker,
            observer=self._observer,
        )

    async def acquire(self, source: str, *, wait: float | None = None) -> Ticket | Deferral:
        return await self.gate(source).acquire(self._settings.source_wait if wait is None else wait)

    async def release(self, ticket: Ticket, *, blocked: bool) -> None:
        await self.gate(ticket.source).release(ticket, blocked=blocked)

    def sources(self) -> list[str]:
        """The sources stats describe: those searched here, and any with a limit."""
        settings = self._settings
        return sorted({*settings.search_sources, *settings.source_rates, *settings.source_concurrency})

    async def describe(self) -> dict[str, dict[str, Any]]:
        """Per source: its limits and their use now, its breaker, and its jobs waiting deferred.

        Point lookups: the source's document by `_id`, and a count of PENDING jobs deferred for it (through
        `deferred_by_source`: the deferred ones only, whatever the backlog).
        """
        now = utcnow()
        collection = self._database.read[SOURCE_LIMITS]
        jobs = self._database.jobs(stale_ok=True)

        async def one(source: str) -> dict[str, Any]:
            gate = self.gate(source)
            document = await collection.find_one({"_id": source}) if gate.gated else None
            view = await gate.describe(document, now)
            view["deferred_jobs"] = await count_by_index(
                jobs, {"active": True, "status": JobStatus.PENDING.name, "deferred.sources": source}
            )
            return view

        names = self.sources()
        views = await asyncio.gather(*(one(name) for name in names))
        return dict(zip(names, views, strict=True))
