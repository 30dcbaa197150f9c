"""The circuit breaker: CLOSED, OPEN after too many BLOCKED searches, HALF_OPEN while one probe decides."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from infra.source_limits.refusal import Refusal, seconds


class BreakerState(StrEnum):
    CLOSED = "CLOSED"  # searches go through
    OPEN = "OPEN"  # searches are deferred until `open_until`
    HALF_OPEN = "HALF_OPEN"  # one probe search is deciding; the others are deferred


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

    def refusal(self, document: dict[str, Any], now: datetime) -> Refusal | None:
        state = document.get("state", BreakerState.CLOSED)
        if state == BreakerState.OPEN:
            if document["open_until"] > now:
                return Refusal("circuit breaker open", retry_in=seconds(document["open_until"] - now), final=True)
            return Refusal("circuit breaker cool-down over", probe=True)
        if state == BreakerState.HALF_OPEN:
            probe = document.get("probe") or {}
            if probe.get("until") and probe["until"] > now:
                return Refusal("circuit breaker half-open: a probe search decides", final=True)
            return Refusal("circuit breaker probe abandoned", probe=True)
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
