"""A rate, its tokens spaced evenly (`SpacedRateLimiter`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from infra.source_limits.refusal import Refusal, seconds
from infra.source_rates import Rate


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

    def refusal(self, document: dict[str, Any], now: datetime) -> Refusal | None:
        next_at = document.get("next_at")
        if next_at is None or next_at <= now:
            return None
        return Refusal(f"rate {self.rate} reached", retry_in=seconds(next_at - now))

    def describe(self, document: dict[str, Any], now: datetime) -> dict[str, Any]:
        window_start = now - timedelta(seconds=self.rate.period)
        used = sum(1 for stamp in document.get("stamps") or [] if stamp > window_start)
        return {"rate": str(self.rate), "tokens_used": used, "tokens_left": max(self.rate.limit - used, 0)}
