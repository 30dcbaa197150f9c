"""When a watch runs: `every` intervals and `cron` expressions, the next run after a moment, and the jitter.

Pure functions of their arguments (the clock is passed in), shared by request validation and the scheduler.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from cronsim import CronSim, CronSimError

_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3_600, "d": 86_400}
#: The most digits each unit takes: every `every` is then under 1,000 days.
_UNIT_DIGITS = {"s": 7, "m": 5, "h": 4, "d": 3}


def _cron_field(number: str) -> str:
    """One cron field: items `*`, `n` or `n-m`, each with an optional `/step`, comma-separated; numbers in range."""
    item = rf"(?:\*|(?:{number})(?:-(?:{number}))?)(?:/[1-9][0-9]?)?"
    return rf"{item}(?:,{item})*"


#: A cron expression's form (checked before its meaning): five fields (minute 0-59, hour 0-23, day of month 1-31,
#: month 1-12, day of week 0-7), one space apart. Shown as the field's pattern in the OpenAPI document, so it admits
#: no value out of its field's range ("0 0 0 0 0"); what a pattern cannot say (a day no month has, a backward range,
#: runs closer than LPS_WATCH_MIN_INTERVAL) the gateway refuses with 101.
_CRON_NUMBERS = ("0?[0-9]|[1-5][0-9]", "0?[0-9]|1[0-9]|2[0-3]", "0?[1-9]|[12][0-9]|3[01]", "0?[1-9]|1[0-2]", "0?[0-7]")
CRON_PATTERN = "^" + " ".join(_cron_field(number) for number in _CRON_NUMBERS) + "$"


def _at_least(least: int, digits: int) -> str | None:
    """A regular expression of the whole numbers from `least` (at least 1) to the largest of `digits` digits,
    written without leading zeros; None when there is none."""
    text = str(max(least, 1))
    if len(text) > digits:
        return None
    options = [text]
    for index, digit in enumerate(text):
        if digit != "9":
            rest = len(text) - index - 1
            options.append(f"{text[:index]}[{int(digit) + 1}-9]" + (f"[0-9]{{{rest}}}" if rest else ""))
    if len(text) < digits:
        options.append(f"[1-9][0-9]{{{len(text)},{digits - 1}}}")
    return "|".join(options)


def every_pattern(min_seconds: float = 1) -> str:
    """The `every` values of at least `min_seconds`, as one regular expression (ECMA-262 and Python alike): the
    OpenAPI document shows the deployment's own, so a value it allows is one the gateway takes."""
    units = []
    for unit, size in _UNIT_SECONDS.items():
        numbers = _at_least(math.ceil(min_seconds / size), _UNIT_DIGITS[unit])
        if numbers is not None:
            units.append(f"(?:{numbers}){unit}")
    return "^(?:" + "|".join(units) + ")$"


_EVERY = re.compile(every_pattern())


def parse_every(text: str) -> int:
    """`90s`, `15m`, `6h`, `1d` -> seconds (`0s` is 0: the minimum's check says it is too short). ValueError for
    anything else."""
    if re.fullmatch(r"0{1,7}[smhd]", text):
        return 0
    if _EVERY.fullmatch(text) is None:
        raise ValueError("must be a whole number and a unit: s, m, h or d (e.g. 6h), at most 7, 5, 4 and 3 digits")
    return int(text[:-1]) * _UNIT_SECONDS[text[-1]]


def check_cron(expression: str) -> None:
    """ValueError unless `expression` is five cron fields that name at least one moment."""
    if re.fullmatch(CRON_PATTERN, expression) is None:
        raise ValueError(
            "must be five fields (minute 0-59, hour 0-23, day of month 1-31, month 1-12, day of week 0-7) of "
            "numbers, *, ',', / and -, one space apart"
        )
    try:
        next(CronSim(expression, datetime(2000, 1, 1)))
    except (CronSimError, StopIteration) as error:
        raise ValueError(f"not a cron expression: {error or 'it never fires'}") from None


def shortest_cron_gap(expression: str) -> int:
    """The fewest seconds between two runs of a (valid) cron expression.

    Read from its minute and hour fields: every day it fires on, it fires at the same times, so the shortest gap is
    between two minutes of one hour or across the step from one of its hours to the next (through midnight too);
    its day and month fields only leave days out, which makes gaps longer, never shorter. (A DST change shifts
    runs by the hour it adds or takes away, in LPS_TIMEZONE; what is measured here is the schedule as written.)
    """
    cron = CronSim(expression, datetime(2000, 1, 1))
    minutes, hours = sorted(cron.minutes), sorted(cron.hours)
    within_hour = [later - earlier for earlier, later in itertools.pairwise(minutes)]
    # From an hour's last run to the next hour's first; the last hour of the day steps to the first of the next day.
    hour_steps = [later - earlier for earlier, later in itertools.pairwise(hours)] + [hours[0] + 24 - hours[-1]]
    across_hours = [step * 60 - minutes[-1] + minutes[0] for step in hour_steps]
    return min(within_hour + across_hours) * 60


def seconds_between_runs(*, every: str | None = None, cron: str | None = None) -> float:
    """The fewest seconds between two runs of an `every` or a `cron` schedule: what LPS_WATCH_MIN_INTERVAL bounds.
    ValueError, saying why, for a malformed one."""
    if every is not None:
        return parse_every(every)
    check_cron(cron or "")
    return shortest_cron_gap(cron or "")


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
