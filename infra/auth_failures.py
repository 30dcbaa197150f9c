"""Refused API keys counted per client address in MongoDB (`auth_failures`), so that every gateway shares one budget:
two gateways behind a load balancer must not double the rate at which one address may guess keys.

One document per address that was refused lately, holding the bucket as GCRA keeps it: a single number, the time at
which the bucket would be full again (`full_at`, seconds since the epoch). A refusal is within the budget when that
time is at most `burst` intervals ahead of now; taking one moves it one interval later. Two updates, each atomic on
its own document, so gateways taking at once never both take the last token. A TTL index removes a document once its
bucket is full again (it would be the same as none). Only refused requests reach the store: a right key never waits
on it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from pymongo import ASCENDING, IndexModel
from pymongo.asynchronous.database import AsyncDatabase

AUTH_FAILURES = "auth_failures"
AUTH_FAILURES_EXPIRY = "expires_at_ttl"


def auth_failure_indexes() -> list[IndexModel]:
    """An address's document goes once its bucket is full again (`expires_at`)."""
    return [IndexModel([("expires_at", ASCENDING)], name=AUTH_FAILURES_EXPIRY, expireAfterSeconds=0)]


class FailedKeyLimits:
    """At most `burst` refusals at once per address, then `rate` a second on average, across every gateway."""

    def __init__(self, database: AsyncDatabase, *, rate: float, burst: int) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError(f"a refusal budget needs rate > 0 and burst >= 1 (got {rate}, {burst})")
        self._failures = database[AUTH_FAILURES]
        self._interval = 1 / rate
        self._tolerance = burst / rate

    async def take(self, address: str, *, now: datetime) -> float:
        """Count one refusal of `address`: 0.0 when it was within the budget, else the seconds until it would be."""
        at = now.timestamp()
        # A bucket that filled up meanwhile starts from now; the document is made on the address's first refusal.
        await self._failures.update_one(
            {"_id": address},
            {"$max": {"full_at": at, "expires_at": now + timedelta(seconds=self._tolerance)}},
            upsert=True,
        )
        latest = at + self._tolerance - self._interval
        taken = await self._failures.find_one_and_update(
            {"_id": address, "full_at": {"$lte": latest}}, {"$inc": {"full_at": self._interval}}
        )
        if taken is not None:
            return 0.0
        current = await self._failures.find_one({"_id": address})
        if current is None:  # removed by its TTL meanwhile: the bucket is full again
            return self._interval
        return max(current["full_at"] - latest, 0.001)
