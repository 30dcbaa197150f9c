"""One source's gate: its limiters over its one document, taken before a search and handed back after it."""

from __future__ import annotations

import asyncio
import logging
import random
import time
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from infra.clock import utcnow
from infra.source_limits.backend import MongoLimiterBackend
from infra.source_limits.breaker import BreakerState, CircuitBreaker
from infra.source_limits.concurrent import ConcurrentRateLimiter
from infra.source_limits.pace import AdaptivePace
from infra.source_limits.refusal import Refusal
from infra.source_limits.spaced import SpacedRateLimiter

log = logging.getLogger(__name__)

#: How often a refused token is asked again at once when the document, read, shows nothing that refuses it.
CONTENTION_RETRIES = 3
#: Up to this much is added to each wait, so that waiters do not all ask at the same instant.
WAIT_JITTER = 0.05


@dataclass(frozen=True, slots=True)
class Ticket:
    """A source's turn: its search may run. Hand it back with `SourceGates.release` when the search ended."""

    source: str
    holder: str
    #: This search decides whether the breaker closes.
    probe: bool = False
    #: For a probe: the consecutive trips before it (a BLOCKED probe's cool-down doubles from there).
    consecutive: int = 0
    #: The breaker's window held a BLOCKED search when the turn was taken: this search's outcome must be recorded
    #: even if it was not BLOCKED (it moves the window on). When the window holds none, an answered search is not
    #: written at all: it could not change the count, and the happy path stays one round trip.
    record_answer: bool = False
    #: Seconds spent getting it.
    waited: float = 0.0


@dataclass(frozen=True, slots=True)
class Deferral:
    """The source's turn did not come within LPS_SOURCE_WAIT: its search is deferred."""

    source: str
    reason: str
    #: Seconds until a turn may come (the earliest a deferred job should return).
    retry_in: float
    waited: float = 0.0

    def __str__(self) -> str:
        return f"{self.reason} (a turn in {self.retry_in:.1f}s)"


class GateObserver(Protocol):
    """What the workers count (Prometheus, `actors.metrics`): searches waiting, the pace, the breaker's state."""

    def waiting(self, source: str, change: int) -> None: ...

    def pace(self, source: str, share: float) -> None: ...

    def breaker(self, source: str, state: BreakerState, *, tripped: bool) -> None: ...


class Unobserved:
    def waiting(self, source: str, change: int) -> None:
        pass

    def pace(self, source: str, share: float) -> None:
        pass

    def breaker(self, source: str, state: BreakerState, *, tripped: bool) -> None:
        pass


NEW_DOCUMENT: dict[str, Any] = {
    "state": BreakerState.CLOSED.value,
    "generation": 0,
    "consecutive": 0,
    "trips": 0,
    "stamps": [],
    "holders": [],
    "outcomes": [],
    "waiting": [],
}


class SourceGate:
    """One source's limiters over its one document."""

    def __init__(
        self,
        source: str,
        backend: MongoLimiterBackend,
        *,
        rate: SpacedRateLimiter | None,
        pace: AdaptivePace | None,
        concurrency: ConcurrentRateLimiter | None,
        breaker: CircuitBreaker | None,
        observer: GateObserver,
    ) -> None:
        self.source = source
        self.rate = rate
        self.pace = pace if rate is not None else None
        self.concurrency = concurrency
        self.breaker = breaker
        self._backend = backend
        self._observer = observer
        self._created = False
        #: The source's `pace` as this process last saw it (each turn taken reads it back): the next turn's
        #: interval comes from it, so a slow-down made elsewhere reaches this process one turn late at most.
        self._pace_seen: dict[str, Any] | None = None

    @property
    def gated(self) -> bool:
        """False: nothing is configured for this source; its searches cost no round trip here."""
        return any((self.rate, self.concurrency, self.breaker))

    async def acquire(self, wait: float) -> Ticket | Deferral:
        """The source's turn, waiting up to `wait` seconds for a rate or concurrency limit; or a Deferral."""
        started = time.monotonic()
        holder = uuid.uuid4().hex
        if not self.gated:
            return Ticket(self.source, holder)
        if not self._created:  # once per process and source: the conditional updates need the document
            await self._backend.add(self.source, NEW_DOCUMENT)
            self._created = True
        waiting = pruned = False
        retries = CONTENTION_RETRIES
        try:
            while True:
                now = utcnow()
                if (taken := await self._take(holder, now)) is not None:
                    self._see_pace(taken, now)
                    if self.breaker is not None:
                        self._observer.breaker(self.source, BreakerState.CLOSED, tripped=False)
                    recent_block = any(taken.get("outcomes") or ())
                    return Ticket(self.source, holder, waited=time.monotonic() - started, record_answer=recent_block)
                document = await self._document()
                refusal = self._refusal(document, now)
                if refusal.prune and not pruned:
                    pruned = True
                    await self._backend.give_back(self.source, {"$pull": {"holders": {"until": {"$lte": now}}}})
                    continue
                if refusal.probe:
                    if await self._take_probe(holder, document, now):
                        return Ticket(
                            self.source,
                            holder,
                            probe=True,
                            consecutive=document.get("consecutive", 0),
                            waited=time.monotonic() - started,
                        )
                    refusal = self._pacing_refusal(document, now) or Refusal("another worker took the probe")
                if refusal.contention and retries > 0:
                    retries -= 1
                    continue
                remaining = wait - (time.monotonic() - started)
                if refusal.final or refusal.retry_in > remaining:
                    return Deferral(self.source, refusal.reason, refusal.retry_in, time.monotonic() - started)
                if not waiting:
                    waiting = True
                    await self._mark_waiting(holder, now, wait)
                await asyncio.sleep(max(refusal.retry_in, 0.01) + random.uniform(0, WAIT_JITTER))
        finally:
            if waiting:
                self._observer.waiting(self.source, -1)
                await self._backend.give_back(self.source, {"$pull": {"waiting": {"id": holder}}})

    async def release(self, ticket: Ticket, *, blocked: bool) -> None:
        """The search of `ticket` ended (`blocked`: the source refused us): free its slot, feed the breaker."""
        if not self.gated:
            return
        now = utcnow()
        if blocked and self.pace is not None:
            await self._slow_down(now)
        if ticket.probe and self.breaker is not None:
            await self._end_probe(ticket, blocked, now)
            return
        update: dict[str, Any] = {}
        if self.concurrency is not None:
            update["$pull"] = self.concurrency.pull(ticket.holder)
        if self.breaker is not None and (blocked or ticket.record_answer):
            update["$push"] = self.breaker.record(blocked)
        if not update:
            return
        if not (self.breaker is not None and blocked):
            await self._backend.give_back(self.source, update)
            return
        # Only a BLOCKED search can bring the window to the threshold: read the window back to see.
        document = await self._backend.give_back(self.source, update, read=True)
        if document is not None and self.breaker.should_trip(document):
            await self._trip(document, now)

    async def describe(self, document: dict[str, Any] | None, now: datetime) -> dict[str, Any]:
        """The source's limits and what they hold now (for /v1/lps/queue/stats)."""
        document = document or {}
        view: dict[str, Any] = {}
        if self.rate is not None:
            view |= self.rate.describe(document, now)
        if self.pace is not None:
            view["pace"] = round(self.pace.share(document.get("pace"), now), 3)
        if self.concurrency is not None:
            view |= self.concurrency.describe(document, now)
        view["waiting"] = sum(1 for waiter in document.get("waiting") or [] if waiter["until"] > now)
        if self.breaker is not None:
            view["breaker"] = self.breaker.describe(document, now)
        return view

    # ------------------------------------------------------------------------------------------------ steps

    async def _document(self) -> dict[str, Any]:
        document = await self._backend.read(self.source)
        if document is None:  # removed meanwhile (a test dropped the database): create it again
            await self._backend.add(self.source, NEW_DOCUMENT)
            document = await self._backend.read(self.source) or dict(NEW_DOCUMENT)
        self._see_pace(document, utcnow())
        return document

    def _see_pace(self, document: dict[str, Any], now: datetime) -> None:
        if self.pace is not None:
            self._pace_seen = document.get("pace")
            self._observer.pace(self.source, self.pace.share(self._pace_seen, now))

    def _pacing(self, holder: str, now: datetime) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """The rate's and the concurrency's conditions, and what a token sets and pushes."""
        conditions: list[dict[str, Any]] = []
        update: dict[str, Any] = {"$push": {}, "$set": {}}
        if self.rate is not None:
            share = self.pace.share(self._pace_seen, now) if self.pace is not None else 1.0
            conditions.append(self.rate.condition(now))
            for operator, fields in self.rate.update(now, share).items():
                update[operator] |= fields
        if self.concurrency is not None:
            conditions.append(self.concurrency.condition())
            update["$push"] |= self.concurrency.push(holder, now)
        return conditions, {operator: fields for operator, fields in update.items() if fields}

    async def _take(self, holder: str, now: datetime) -> dict[str, Any] | None:
        """The happy path: one conditional update (a read when only the breaker is on); the breaker's window and
        the pace back."""
        conditions, update = self._pacing(holder, now)
        fields: tuple[str, ...] = ("pace",) if self.pace is not None else ()
        if self.breaker is not None:
            conditions.append(self.breaker.condition())
            fields += ("outcomes",)
        return await self._backend.take(self.source, conditions, update, fields=fields)

    def _pacing_refusal(self, document: dict[str, Any], now: datetime) -> Refusal | None:
        refusals = [
            refusal
            for limiter in (self.rate, self.concurrency)
            if limiter is not None and (refusal := limiter.refusal(document, now)) is not None
        ]
        return max(refusals, key=lambda refusal: (refusal.prune, refusal.retry_in), default=None)

    def _refusal(self, document: dict[str, Any], now: datetime) -> Refusal:
        if self.breaker is not None:
            self._observer.breaker(self.source, BreakerState(document.get("state", "CLOSED")), tripped=False)
            if (refusal := self.breaker.refusal(document, now)) is not None:
                return refusal
        # Nothing explains the refusal: the document changed between the update and the read. Ask again.
        return self._pacing_refusal(document, now) or Refusal("contention", contention=True)

    async def _take_probe(self, holder: str, document: dict[str, Any], now: datetime) -> bool:
        """OPEN past its cool-down (or a probe abandoned): this worker's search becomes the probe, if it is first."""
        assert self.breaker is not None
        conditions, update = self._pacing(holder, now)
        update["$set"] = update.get("$set", {}) | {
            "state": BreakerState.HALF_OPEN.value,
            "probe": {"id": holder, "until": now + timedelta(seconds=self.breaker.probe_lease)},
            "changed_at": now,
        }
        update["$inc"] = {"generation": 1}
        conditions.append({"generation": document.get("generation", 0)})
        if await self._backend.take(self.source, conditions, update) is None:
            return False
        log.warning("source %s: circuit breaker HALF_OPEN: a probe search decides whether it closes", self.source)
        self._observer.breaker(self.source, BreakerState.HALF_OPEN, tripped=False)
        return True

    async def _trip(self, document: dict[str, Any], now: datetime) -> None:
        assert self.breaker is not None
        consecutive = document.get("consecutive", 0)
        cooldown = self.breaker.cooldown_after(consecutive)
        blocked = sum(1 for outcome in document.get("outcomes") or [] if outcome)
        tripped = await self._backend.change(
            self.source,
            {"state": BreakerState.CLOSED.value, "generation": document.get("generation", 0)},
            self._open(now, cooldown),
        )
        if tripped:
            log.warning(
                "source %s: circuit breaker OPEN for %.3gs: %d of its last %d searches were BLOCKED (trip %d in a row)",
                self.source,
                cooldown,
                blocked,
                self.breaker.window,
                consecutive + 1,
            )
            self._observer.breaker(self.source, BreakerState.OPEN, tripped=True)

    def _open(self, now: datetime, cooldown: float) -> dict[str, Any]:
        return {
            "$set": {
                "state": BreakerState.OPEN.value,
                "open_until": now + timedelta(seconds=cooldown),
                "outcomes": [],
                "changed_at": now,
            },
            "$inc": {"generation": 1, "trips": 1, "consecutive": 1},
        }

    async def _end_probe(self, ticket: Ticket, blocked: bool, now: datetime) -> None:
        assert self.breaker is not None
        if blocked:
            cooldown = self.breaker.cooldown_after(ticket.consecutive)
            update = self._open(now, cooldown)
        else:
            update = {
                "$set": {"state": BreakerState.CLOSED.value, "consecutive": 0, "outcomes": [], "changed_at": now},
                "$inc": {"generation": 1},
            }
        update["$unset"] = {"probe": ""}
        if self.concurrency is not None:
            update["$pull"] = self.concurrency.pull(ticket.holder)
        expected = {"state": BreakerState.HALF_OPEN.value, "probe.id": ticket.holder}
        if not await self._backend.change(self.source, expected, update):
            # The probe's lease ended and another worker probes now: its search decides. Free the slot only.
            if self.concurrency is not None:
                await self._backend.give_back(self.source, {"$pull": self.concurrency.pull(ticket.holder)})
            return
        if blocked:
            log.warning(
                "source %s: circuit breaker OPEN again for %.3gs: the probe search was BLOCKED (trip %d in a row)",
                self.source,
                cooldown,
                ticket.consecutive + 1,
            )
            self._observer.breaker(self.source, BreakerState.OPEN, tripped=True)
        else:
            log.warning("source %s: circuit breaker CLOSED: the probe search was answered", self.source)
            self._observer.breaker(self.source, BreakerState.CLOSED, tripped=False)

    async def _slow_down(self, now: datetime) -> None:
        """A BLOCKED search halves the source's pace fleet-wide, unless another did so within the hold."""
        assert self.pace is not None
        assert self.rate is not None
        condition, update = self.pace.slowed(self._pace_seen, now)
        if not await self._backend.change(self.source, condition, update):
            return
        self._pace_seen = update["$set"]["pace"]
        share = self._pace_seen["share"]
        log.warning(
            "source %s: BLOCKED: paced at %.0f%% of %s now, one search every %.2fs, back to the whole rate in %.0fs",
            self.source,
            share * 100,
            self.rate.rate,
            self.rate.interval(share),
            (1.0 - share) * 2 * self.pace.recovery,
        )
        self._observer.pace(self.source, share)

    async def _mark_waiting(self, holder: str, now: datetime, wait: float) -> None:
        """Shown in stats as `waiting` (fleet-wide); the entry's lease covers a worker that stops while waiting."""
        self._observer.waiting(self.source, 1)
        until = now + timedelta(seconds=wait + 5)
        await self._backend.give_back(self.source, {"$push": {"waiting": {"id": holder, "until": until}}})
