"""The share of its rate a paced source is searched at, halved by a BLOCKED answer (`AdaptivePace`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from infra.source_limits.refusal import seconds


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
        regained = 0.5 * seconds(now - pace["since"]) / self.recovery
        return min(1.0, pace["share"] + regained)

    def slowed(self, pace: dict[str, Any] | None, now: datetime) -> tuple[dict[str, Any], dict[str, Any]]:
        """The conditional update of a slow-down: the condition (no slow-down within `hold`) and the update."""
        held_since = now - timedelta(seconds=self.hold)
        condition = {"$or": [{"pace": {"$exists": False}}, {"pace.since": {"$lte": held_since}}]}
        share = max(self.FLOOR, self.share(pace, now) / 2)
        return condition, {"$set": {"pace": {"share": share, "since": now}}}
