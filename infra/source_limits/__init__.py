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

One idea per module, as in `dramatiq.rate_limits`; everything is imported from here (`from infra.source_limits
import SourceGates`):

| module          | holds                                                                                        |
|-----------------|----------------------------------------------------------------------------------------------|
| `backend.py`    | `MongoLimiterBackend`: the atomic operations on a source's document                          |
| `refusal.py`    | `Refusal`: why a turn was refused and what to do about it (wait, defer, probe, prune)        |
| `spaced.py`     | `SpacedRateLimiter`                                                                          |
| `pace.py`       | `AdaptivePace`                                                                               |
| `concurrent.py` | `ConcurrentRateLimiter`                                                                      |
| `breaker.py`    | `CircuitBreaker` and `BreakerState`                                                          |
| `gate.py`       | `SourceGate` (one source's limiters over its document), `Ticket`, `Deferral`, `GateObserver` |
| `sources.py`    | `SourceGates`: every source's gate from the settings, and what stats show of them            |
"""

from __future__ import annotations

from infra.source_limits.backend import MongoLimiterBackend
from infra.source_limits.breaker import BreakerState, CircuitBreaker
from infra.source_limits.concurrent import CONCURRENCY_POLL, ConcurrentRateLimiter
from infra.source_limits.gate import CONTENTION_RETRIES, WAIT_JITTER, Deferral, GateObserver, SourceGate, Ticket
from infra.source_limits.pace import AdaptivePace
from infra.source_limits.sources import SourceGates
from infra.source_limits.spaced import SpacedRateLimiter

__all__ = [
    "CONCURRENCY_POLL",
    "CONTENTION_RETRIES",
    "WAIT_JITTER",
    "AdaptivePace",
    "BreakerState",
    "CircuitBreaker",
    "ConcurrentRateLimiter",
    "Deferral",
    "GateObserver",
    "MongoLimiterBackend",
    "SourceGate",
    "SourceGates",
    "SpacedRateLimiter",
    "Ticket",
]
