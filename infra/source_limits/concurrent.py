"""At most so many searches of a source in flight, each under a lease (`ConcurrentRateLimiter`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from infra.source_limits.refusal import Refusal

#: How often a search waiting for a concurrency slot looks again (slots free when searches end, unannounced).
CONCURRENCY_POLL = 0.2


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

    def refusal(self, document: dict[str, Any], now: datetime) -> Refusal | None:
        holders = document.get("holders") or []
        if len(holders) < self.limit:
            return None
        live = [holder for holder in holders if holder["until"] > now]
        if len(live) < len(holders):
            return Refusal("slots held by stopped workers", prune=True)
        return Refusal(f"concurrency {self.limit} reached", retry_in=CONCURRENCY_POLL)

    def describe(self, document: dict[str, Any], now: datetime) -> dict[str, Any]:
        live = sum(1 for holder in document.get("holders") or [] if holder["until"] > now)
        return {"concurrency": self.limit, "in_flight": live}
