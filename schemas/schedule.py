"""When a watch runs: `every` intervals and `cron` expressions, the next run after a moment, and the jitter.

Pure functions of their arguments (the clock is passed in), shared by request validation and the scheduler.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from cronsim import CronSim, CronSimError

_EVERY = re.compile(r"([0-9]{1,9})([smhd])")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3_600, "d": 86_400}
#: The longest `every`: a year. Longer ones are almost certainly typos (and overflow no datetime).
MAX_EVERY_SECONDS = 366 * 86_400


def parse_every(text: str) -> int:
    """`90s`, `15m`, `6h`, `1d` -> seconds. ValueError for anything else."""
    match = _EVERY.fullmatch(text)
    if match is None:
        raise ValueError("must be a whole number and a unit: s, m, h or d (e.g. 6h)")
    seconds = int(match.group(1)) * _UNIT_SECONDS[match.group(2)]
    if not 0 < seconds <= MAX_EVERY_SECONDS:
        raise ValueError(f"must be more than 0 and at most {MAX_EVERY_SECONDS // 86_400}d")
    return seconds


def check_cron(expression: str) -> None:
    """ValueError unless `expression` is five cron fields that name at least one moment."""
    if len(expression.split()) != 5:
        raise ValueError("must be five fields: minute hour day-of-month month day-of-week")
    try:
        next(CronSim(expression, datetime(2000, 1, 1)))
    except (CronSimError, StopIteration) as error:
        raise ValueError(f"not a cron expression: {error or 'it never fires'}") from None


def jitter_fraction(watch_id: object) -> float:
    """A fixed fraction in [0, 1) per watch: where in its spread window its runs fall (the same in every process)."""
    digest = hashlib.sha256(str(watch_id).encode()).digest()
    return int.from_bytes(digest[:8]) / 2**64


@dataclass(frozen=True, slots=True)
class Schedule:
    """A watch's schedule: `every` seconds from `anchor`, or a `cron` expression in `timezone`."""

    every: int | None = None
    cron: str | None = None
    timezone: str = "UTC"
    #: Where `every`'s ticks are counted from (the watch's creation).
    anchor: datetime | None = None

    def next_run(self, now: datetime, *, fraction: float, max_jitter: float) -> datetime:
        """The first run strictly after `now`: one tick however many were missed (a scheduler that was down
        catches up with one search), shifted by `fraction` of min(max_jitter, the period)."""
        if self.every is not None:
            anchor = self.anchor or now
            shift = timedelta(seconds=fraction * min(max_jitter, self.every))
            step = timedelta(seconds=self.every)
            start = anchor + shift
            # Tick 0 is the watch's own first run, at its creation (or at a change of its schedule).
            ticks = max(1, (now - start) // step + 1)
            return start + ticks * step
        if self.cron is None:
            raise ValueError("a schedule needs every or cron")
        zone = ZoneInfo(self.timezone)
        upcoming = CronSim(self.cron, now.astimezone(zone))
        first = next(upcoming)
        period = (next(upcoming) - first).total_seconds()
        shift = timedelta(seconds=fraction * min(max_jitter, period))
        # The first tick whose shifted time is after now.
        shifted_ticks = CronSim(self.cron, (now - shift).astimezone(zone))
        while (tick := next(shifted_ticks).astimezone(UTC) + shift) <= now:
            pass
        return tick
