"""Fleet-wide limits per source: pacing (a rate, a concurrency) and a circuit breaker, kept in MongoDB.

Every worker process on every machine asks the same small document before it searches a source, so the limits
hold with 1 worker or 50. The design follows Dramatiq's rate limiters (`dramatiq.rate_limits`): a backend with a
few atomic operations on a key, and limiters that express themselves through them. Dramatiq's backends are Redis
and Memcached; this one is MongoDB, where each operation is a single-document conditional update:

| Dramatiq backend        | here (`MongoLimiterBackend`)                                                   |
|-------------------------|--------------------------------------------------------------------------------|
| `add(key, value)`       | `add`: upsert with `$setOnInsert` (the document is created once, by anyone)    |
| `incr(key, maximum)`    | `take`: `update_one({_id, <every limiter's condition>}, {$push: …})`           |
| `decr(key, minimum)`    | `give_back`: `$pull` the holder (and record the outcome for the breaker)       |
| `incr_and_sum(keys)`    | not needed: the window's timestamps live in one document, not a key per second |

Limiters (each adds a condition to the one `take` and a field to the document):

- `SpacedRateLimiter` (Dramatiq's WindowRateLimiter, with its tokens spaced evenly rather than let go together): one
  token every `period / limit` seconds. `next_at` is when the next one may go; a token sets it on.
- `AdaptivePace` (with a rate, unless LPS_PACE_RECOVERY is 0): the share of the rate the source is searched at. A
  BLOCKED search halves it (once per LPS_BREAKER_COOLDOWN: one block's refusals are one signal); it climbs back
  to the whole rate over LPS_PACE_RECOVERY. `pace` holds the share and when it was last halved.
- `ConcurrentRateLimiter`: at most `limit` searches in flight. `holders` lists them, each with a lease (the search's
  time limit plus LPS_LEASE_MARGIN), so a worker that dies holding a slot frees it when the lease ends.
- `CircuitBreaker`: `state` CLOSED lets searches through. Each search's outcome goes into `outcomes` (the last
  LPS_BREAKER_WINDOW, True = BLOCKED); when at least LPS_BREAKER_THRESHOLD of the window was BLOCKED, the one worker
  whose conditional update wins (on `generation`) moves it to OPEN until `open_until` (LPS_BREAKER_COOLDOWN, doubled
  for each consecutive trip up to LPS_BREAKER_MAX_COOLDOWN). After it, one worker takes the probe (HALF_OPEN, again
  a conditional update on `generation`): its search closes the breaker, or opens it again if it was BLOCKED.

One document per source (`_id`: the source's name) holds them all, so a search costs at most two round trips,
both by `_id`: `take` before it (a read when only the breaker is on) and `give_back` after it (a BLOCKED one
of a paced source one more: the slow-down's conditional update). `give_back` is
skipped when there is nothing to give back: no concurrency slot, and an answered search while the breaker's window
holds no BLOCKED one (recording it could not change the count). So with the breaker alone (the default) a search
that goes well costs one read. A refused `take` reads the
document to learn why: an open breaker defers at once; a rate or concurrency limit is waited for, up to
LPS_SOURCE_WAIT, before the source is deferred (`infra.lifecycle`: the attempt is given back). Times come from each
worker's clock (`infra.clock`), as leases do: the machines' clocks must agree (NTP).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
import time
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any, Protocol

from pymongo import ReturnDocument
from pymongo.asynchronous.collection import AsyncCollection
from pymongo.errors import DuplicateKeyError

from infra.clock import utcnow
from infra.mongo import SOURCE_LIMITS, MainDatabase
from infra.settings import Rate, Settings
from schemas.codes import JobStatus

log = logging.getLogger(__name__)

#: How often a search waiting for a concurrency slot looks again (slots free when searches end, unannounced).
CONCURRENCY_POLL = 0.2
#: How often a refused token is asked again at once when the document, read, shows nothing that refuses it.
CONTENTION_RETRIES = 3
#: Up to this much is added to each wait, so that waiters do not all ask at the same instant.
WAIT_JITTER = 0.05


class BreakerState(StrEnum):
    CLOSED = "CLOSED"  # searches go through
    OPEN = "OPEN"  # searches are deferred until `open_until`
    HALF_OPEN = "HALF_OPEN"  # one probe search is deciding; the others are deferred


# ---------------------------------------------------------------------------------------------------- the backend


class MongoLimiterBackend:
    """Dramatiq's RateLimiterBackend on MongoDB: each operation is one update of one document, by `_id`."""

    def __init__(self, collection: AsyncCollection) -> None:
        self._collection = collection

    async def add(self, key: str, document: dict[str, Any]) -> None:
        """Create the key's document unless it exists (a concurrent creator wins; either way it exists)."""
        # DuplicateKeyError: another process created it between the upsert's lookup and its insert.
        with contextlib.suppress(DuplicateKeyError):
            await self._collection.update_one({"_id": key}, {"$setOnInsert": document}, upsert=True)

    async def take(
        self, key: str, conditions: list[dict[str, Any]], update: dict[str, Any], *, fields: tuple[str, ...] = ()
    ) -> dict[str, Any] | None:
        """Apply `update` if every condition holds (one conditional update; a read when there is nothing to
        change). Returns the document's `fields` (after the update), or None: refused."""
        query: dict[str, Any] = {"_id": key}
        if conditions:
            query["$and"] = conditions
        projection = dict.fromkeys(fields or ("_id",), 1)
        if not update:
            return await self._collection.find_one(query, projection)
        return await self._collection.find_one_and_update(
            query, update, projection=projection, return_document=ReturnDocument.AFTER
        )

    async def give_back(self, key: str, update: dict[str, Any], *, read: bool = False) -> dict[str, Any] | None:
        """Apply `update`; with `read`, return the document as it is after it."""
        if read:
            return await self._collection.find_one_and_update(
                {"_id": key}, update, return_document=ReturnDocument.AFTER
            )
        await self._collection.update_one({"_id": key}, update)
        return None

    async def change(self, key: str, expected: dict[str, Any], update: dict[str, Any]) -> bool:
        """A state change that only one process may make: applied when the document still is as `expected`."""
        result = await self._collection.update_one({"_id": key, **expected}, update)
        return result.modified_count == 1

    async def read(self, key: str) -> dict[str, Any] | None:
        return await self._collection.find_one({"_id": key})


# ---------------------------------------------------------------------------------------------------- the limiters


@dataclass(frozen=True, slots=True)
class _Refusal:
    """Why a token was refused, and what to do about it."""

    reason: str
    #: Seconds until a token may be had.
    retry_in: float = 0.0
    #: Waiting cannot help (the breaker is open, or a probe is deciding): defer now.
    final: bool = False
    #: The breaker's cool-down is over: try to take the probe.
    probe: bool = False
    #: Slots are held by searches whose lease ended (their worker stopped): remove those, then try again.
    prune: bool = False
    #: Nothing in the document refuses a token: it changed between the update and the read. Try again at once.
    contention: bool = False


def _seconds(delta: timedelta) -> float:
    return max(delta.total_seconds(), 0.0)


@dataclass(frozen=True, slots=True)
class SpacedRateLimiter:
    """`rate.limit` tokens per `rate.period` seconds, spaced evenly: one every `period / limit` seconds at most.

    Dramatiq's WindowRateLimiter lets a window's tokens go at the same instant; a shop counting requests in a
    sliding second sees that burst and the next one as more than its rate. Evenly spaced, any window of `period`
    still holds `limit` tokens. `next_at` is the earliest time of the next token (GCRA's theoretical arrival time
    without a burst allowance), pushed further by a slowed-down pace (`AdaptivePace`); `stamps` keeps the last
    `limit` tokens for the stats.
    """

    rate: Rate

    def interval(self, share: float) -> float:
        """Seconds between two tokens when the source is searched at `share` of its rate."""
        return self.rate.period / self.rate.limit / share

    def condition(self, now: datetime) -> dict[str, Any]:
        return {"$or": [{"next_at": {"$exists": False}}, {"next_at": {"$lte": now}}]}

    def update(self, now: datetime, share: float) -> dict[str, Any]:
        return {
            "$push": {"stamps": {"$each": [now], "$slice": -self.rate.limit}},
            "$set": {"next_at": now + timedelta(seconds=self.interval(share))},
        }

    def refusal(self, document: dict[str, Any], now: datetime) -> _Refusal | None:
        next_at = document.get("next_at")
        if next_at is None or next_at <= now:
            return None
        return _Refusal(f"rate {self.rate} reached", retry_in=_seconds(next_at - now))

    def describe(self, document: dict[str, Any], now: datetime) -> dict[str, Any]:
        window_start = now - timedelta(seconds=self.rate.period)
        used = sum(1 for stamp in document.get("stamps") or [] if stamp > window_start)
        return {"rate": str(self.rate), "tokens_used": used, "tokens_left": max(self.rate.limit - used, 0)}


@dataclass(frozen=True, slots=True)
class AdaptivePace:
    """The share of its rate a paced source is searched at: halved when it answers BLOCKED, then climbing back.

    Additive increase, multiplicative decrease, as TCP's congestion control (and Scrapy's AutoThrottle, Crawlee's
    autoscaled pool) adapt to what the other side takes: a fleet paced at a shop's own limit, or above a limit it
    does not know, is refused; slowed down at the first refusal and speeding up slowly again, it settles below
    the limit. The document's `pace` is `{share, since}`; the share at a later time adds what it regained since.
    The BLOCKED answers of one block come in a burst (every search of the block's duration is refused): those
    within `hold` seconds of a slow-down are one signal, so the first halves the pace and the rest do not.
    """

    #: Seconds to climb back from half the rate to the whole of it.
    recovery: float
    hold: float

    #: The slowest a source is searched at, as a share of its rate.
    FLOOR = 0.1

    def share(self, pace: dict[str, Any] | None, now: datetime) -> float:
        if not pace:
            return 1.0
        regained = 0.5 * _seconds(now - pace["since"]) / self.recovery
        return min(1.0, pace["share"] + regained)

    def slowed(self, pace: dict[str, Any] | None, now: datetime) -> tuple[dict[str, Any], dict[str, Any]]:
        """The conditional update of a slow-down: the condition (no slow-down within `hold`) and the update."""
        held_since = now - timedelta(seconds=self.hold)
        condition = {"$or": [{"pace": {"$exists": False}}, {"pace.since": {"$lte": held_since}}]}
        share = max(self.FLOOR, self.share(pace, now) / 2)
        return condition, {"$set": {"pace": {"share": share, "since": now}}}


@dataclass(frozen=True, slots=True)
class ConcurrentRateLimiter:
    """At most `limit` searches in flight; each holds its slot under a lease of `lease` seconds."""

    limit: int
    lease: float

    def condition(self) -> dict[str, Any]:
        return {f"holders.{self.limit - 1}": {"$exists": False}}

    def push(self, holder: str, now: datetime) -> dict[str, Any]:
        return {"holders": {"id": holder, "until": now + timedelta(seconds=self.lease)}}

    def pull(self, holder: str) -> dict[str, Any]:
        return {"holders": {"id": holder}}

    def refusal(self, document: dict[str, Any], now: datetime) -> _Refusal | None:
        holders = document.get("holders") or []
        if len(holders) < self.limit:
            return None
        live = [holder for holder in holders if holder["until"] > now]
        if len(live) < len(holders):
            return _Refusal("slots held by stopped workers", prune=True)
        return _Refusal(f"concurrency {self.limit} reached", retry_in=CONCURRENCY_POLL)

    def describe(self, document: dict[str, Any], now: datetime) -> dict[str, Any]:
        live = sum(1 for holder in document.get("holders") or [] if holder["until"] > now)
        return {"concurrency": self.limit, "in_flight": live}


@dataclass(frozen=True, slots=True)
class CircuitBreaker:
    """Opens when `threshold` of the last `window` searches were BLOCKED; see the module's description."""

    threshold: float
    window: int
    cooldown: float
    max_cooldown: float
    #: How long a probe may take before another worker may probe instead (its worker stopped).
    probe_lease: float

    @property
    def trips_at(self) -> int:
        """BLOCKED searches among the last `window` that open the breaker."""
        return max(1, math.ceil(self.threshold * self.window - 1e-9))

    def cooldown_after(self, consecutive: int) -> float:
        """The cool-down of the trip that follows `consecutive` trips without a successful probe."""
        return min(self.max_cooldown, self.cooldown * 2 ** min(consecutive, 32))

    def condition(self) -> dict[str, Any]:
        return {"state": BreakerState.CLOSED.value}

    def record(self, blocked: bool) -> dict[str, Any]:
        return {"outcomes": {"$each": [blocked], "$slice": -self.window}}

    def should_trip(self, document: dict[str, Any]) -> bool:
        return (
            document.get("state") == BreakerState.CLOSED
            and sum(1 for blocked in document.get("outcomes") or [] if blocked) >= self.trips_at
        )

    def refusal(self, document: dict[str, Any], now: datetime) -> _Refusal | None:
        state = document.get("state", BreakerState.CLOSED)
        if state == BreakerState.OPEN:
            if document["open_until"] > now:
                return _Refusal("circuit breaker open", retry_in=_seconds(document["open_until"] - now), final=True)
            return _Refusal("circuit breaker cool-down over", probe=True)
        if state == BreakerState.HALF_OPEN:
            probe = document.get("probe") or {}
            if probe.get("until") and probe["until"] > now:
                return _Refusal("circuit breaker half-open: a probe search decides", final=True)
            return _Refusal("circuit breaker probe abandoned", probe=True)
        return None

    def describe(self, document: dict[str, Any], now: datetime) -> dict[str, Any]:
        outcomes = document.get("outcomes") or []
        state = document.get("state", BreakerState.CLOSED)
        return {
            "state": state,
            "open_until": document.get("open_until") if state == BreakerState.OPEN else None,
            "blocked": sum(1 for blocked in outcomes if blocked),
            "trips_at": self.trips_at,
            "window": self.window,
            "trips": document.get("trips", 0),
            "consecutive_trips": document.get("consecutive", 0),
            "changed_at": document.get("changed_at"),
        }


# ---------------------------------------------------------------------------------------------------- a source's gate


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


class _Unobserved:
    def waiting(self, source: str, change: int) -> None:
        pass

    def pace(self, source: str, share: float) -> None:
        pass

    def breaker(self, source: str, state: BreakerState, *, tripped: bool) -> None:
        pass


_NEW_DOCUMENT: dict[str, Any] = {
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
            await self._backend.add(self.source, _NEW_DOCUMENT)
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
                    refusal = self._pacing_refusal(document, now) or _Refusal("another worker took the probe")
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
            await self._backend.add(self.source, _NEW_DOCUMENT)
            document = await self._backend.read(self.source) or dict(_NEW_DOCUMENT)
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

    def _pacing_refusal(self, document: dict[str, Any], now: datetime) -> _Refusal | None:
        refusals = [
            refusal
            for limiter in (self.rate, self.concurrency)
            if limiter is not None and (refusal := limiter.refusal(document, now)) is not None
        ]
        return max(refusals, key=lambda refusal: (refusal.prune, refusal.retry_in), default=None)

    def _refusal(self, document: dict[str, Any], now: datetime) -> _Refusal:
        if self.breaker is not None:
            self._observer.breaker(self.source, BreakerState(document.get("state", "CLOSED")), tripped=False)
            if (refusal := self.breaker.refusal(document, now)) is not None:
                return refusal
        # Nothing explains the refusal: the document changed between the update and the read. Ask again.
        return self._pacing_refusal(document, now) or _Refusal("contention", contention=True)

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


# ---------------------------------------------------------------------------------------------------- every source


class SourceGates:
    """The gates of every source, from the settings (LPS_SOURCE_RATES, LPS_SOURCE_CONCURRENCY, LPS_BREAKER_*)."""

    def __init__(self, database: MainDatabase, settings: Settings, observer: GateObserver | None = None) -> None:
        self._database = database
        self._settings = settings
        self._observer: GateObserver = observer or _Unobserved()
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

        Point lookups: the source's document by `_id`, and a count of PENDING jobs deferred for it (the active set,
        through `active_jobs`).
        """
        now = utcnow()
        collection = self._database.read[SOURCE_LIMITS]
        jobs = self._database.jobs(stale_ok=True)

        async def one(source: str) -> dict[str, Any]:
            gate = self.gate(source)
            document = await collection.find_one({"_id": source}) if gate.gated else None
            view = await gate.describe(document, now)
            view["deferred_jobs"] = await jobs.count_documents(
                {"active": True, "status": JobStatus.PENDING.name, "deferred.sources": source}
            )
            return view

        names = self.sources()
        views = await asyncio.gather(*(one(name) for name in names))
        return dict(zip(names, views, strict=True))
