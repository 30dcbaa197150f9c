"""The Coupang browser's proxies (LPS_COUPANG_PROXIES): one per search, in turn; a failing one sits out a while.

A proxy whose search was blocked, or that could not be reached (refused, unknown host, failed tunnel or
authentication), is benched for LPS_COUPANG_PROXY_COOLDOWN seconds and the next search takes another. When every
proxy is benched the search fails at once, retryable after the earliest bench ends: it never goes out unproxied and
never hammers a benched proxy. The rotation and its benches live in each worker process; what every process saw is
added up fleet-wide in MongoDB (`infra.proxy_ledger`, shown in `/v1/lps/queue/stats`) and per pool in the metrics.
Logs, metrics and stats name a proxy by `scheme://host:port`, never with its credentials.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from enum import StrEnum

from pymongo.errors import PyMongoError

from actors import metrics
from actors.sources import SourceBlocked, SourceError, SourceParseFailed
from infra.clock import utcnow
from infra.proxy_ledger import ProxyLedger
from infra.proxy_urls import Proxy, parse_proxy

log = logging.getLogger(__name__)


class ProxyOutcome(StrEnum):
    """How a search through a proxy ended, as the metrics count it."""

    ANSWERED = "answered"  # the shop answered (results, no results, or a page not understood)
    BLOCKED = "blocked"
    UNREACHABLE = "unreachable"  # the proxy refused the connection or failed the request itself
    FAILED = "failed"  # something else (a timeout, a crash): not the proxy's fault as far as we know


class ProxyUnreachable(SourceError):
    """The browser could not get through the proxy (refused, unknown host, tunnel or authentication failed)."""


class ProxiesBenched(SourceError):
    """Every proxy sits out its cool-down: the search is retried after the earliest one ends."""


@dataclass(slots=True)
class _Seat:
    proxy: Proxy
    benched_until: float = 0.0


class ProxyRotation:
    """The proxies in turn, skipping benched ones. Used only from the worker's event loop, so never concurrently."""

    def __init__(
        self,
        proxies: Sequence[Proxy],
        *,
        cooldown: float,
        ledger: ProxyLedger | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not proxies:
            raise ValueError("a proxy rotation needs at least one proxy")
        self._seats = [_Seat(proxy) for proxy in proxies]
        self._cooldown = cooldown
        self._ledger = ledger
        self._clock = clock
        self._next = 0

    @classmethod
    def from_urls(
        cls, urls: Sequence[str], *, cooldown: float, ledger: ProxyLedger | None = None
    ) -> ProxyRotation | None:
        """The rotation of LPS_COUPANG_PROXIES (validated at start-up), or None without proxies."""
        return cls([parse_proxy(url) for url in urls], cooldown=cooldown, ledger=ledger) if urls else None

    def all_benched(self) -> ProxiesBenched | None:
        """Why no search can go out now (every proxy benched), or None when a proxy is free."""
        now = self._clock()
        if any(seat.benched_until <= now for seat in self._seats):
            return None
        free_in = min(seat.benched_until for seat in self._seats) - now
        return ProxiesBenched(f"every Coupang proxy is benched for at least {free_in:.0f} s more", retry_after=free_in)

    def take(self) -> Proxy:
        """The next proxy in turn that is not benched; ProxiesBenched when none is free."""
        if (benched := self.all_benched()) is not None:
            raise benched
        now = self._clock()
        for offset in range(len(self._seats)):
            seat = self._seats[(self._next + offset) % len(self._seats)]
            if seat.benched_until <= now:
                break
        self._next = (self._next + offset + 1) % len(self._seats)
        return seat.proxy

    async def record(self, proxy: Proxy, outcome: ProxyOutcome) -> None:
        """One search through `proxy` ended so; a blocked or unreachable proxy is benched. Counted in the metrics and
        the fleet-wide ledger (a ledger that cannot be written misses one outcome; the search is not failed)."""
        metrics.proxy_searched(proxy.label, outcome)
        now, benched_until = utcnow(), None
        if outcome in (ProxyOutcome.BLOCKED, ProxyOutcome.UNREACHABLE):
            seat = next(seat for seat in self._seats if seat.proxy is proxy)
            seat.benched_until = self._clock() + self._cooldown
            benched_until = now + timedelta(seconds=self._cooldown)
            metrics.proxy_benched(proxy.label)
            log.warning("proxy %s %s: benched for %.0f s", proxy.label, outcome, self._cooldown)
        if self._ledger is None:
            return
        try:
            await self._ledger.record(proxy.label, outcome, now=now, benched_until=benched_until)
        except PyMongoError:
            log.warning("could not count proxy %s's %s outcome in MongoDB", proxy.label, outcome, exc_info=True)

    def benched(self) -> list[str]:
        """The labels of the proxies sitting out now."""
        now = self._clock()
        return [seat.proxy.label for seat in self._seats if seat.benched_until > now]


def outcome_of(error: BaseException | None) -> ProxyOutcome:
    """What a search's end says about its proxy (None: the search answered)."""
    if error is None:
        return ProxyOutcome.ANSWERED
    if isinstance(error, SourceBlocked):
        return ProxyOutcome.BLOCKED
    if isinstance(error, ProxyUnreachable):
        return ProxyOutcome.UNREACHABLE
    if isinstance(error, SourceParseFailed):
        return ProxyOutcome.ANSWERED
    return ProxyOutcome.FAILED
