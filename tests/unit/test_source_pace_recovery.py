"""A source's adaptive pace (`infra.source_limits.AdaptivePace`): it climbs back to the whole rate over its
recovery, and never halves below a tenth."""

from __future__ import annotations

from datetime import timedelta

from infra.clock import utcnow
from infra.source_limits import AdaptivePace


def test_the_pace_climbs_back_to_the_whole_rate_over_the_recovery_and_never_halves_below_a_tenth():
    pace = AdaptivePace(recovery=300.0, hold=60.0)
    since = utcnow()
    halved = {"share": 0.5, "since": since}

    assert pace.share(None, since) == 1.0  # never slowed
    assert pace.share(halved, since + timedelta(seconds=150)) == 0.75
    assert pace.share(halved, since + timedelta(seconds=300)) == 1.0
    assert pace.share(halved, since + timedelta(days=1)) == 1.0
    _, slowed = pace.slowed({"share": 0.15, "since": since}, since)
    assert slowed["$set"]["pace"]["share"] == AdaptivePace.FLOOR
