"""Walks over time by minute: one equality lookup per minute crossed.

The embedded store serves a query from an index only through an equality on a single-field index: a range such
as `finished_at > cursor` or `next_run_at <= now`, sorted, reads every stored document. So a periodic path that
reads "what happened (or fell due) since a cursor" stores the minute of the moment it reads by (minutes since
the epoch, `minute_of`) beside the moment, indexes that field alone, and walks the minutes up to now with one
`{field: minute}` lookup each: a step costs what it returns plus the minutes it crosses, whatever the history.
Used by `WatchRepository.due` (`next_run_minute`). The walks over ended jobs read one range of
`ended_by_finished_at` instead (`JobRepository.ended_after`), which the embedded store's patch serves from its kept
order of the index's keys (embedded_store/ordered_keys.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

#: The most minutes one step of a walk crosses: one lookup each.
WALK_MAX_MINUTES = 360


def minute_of(at: datetime) -> int:
    """The minute `at` falls in, as minutes since the epoch: the key a walk looks up."""
    return int(at.timestamp() // 60)


def minute_start(minute: int) -> datetime:
    return datetime.fromtimestamp(minute * 60, UTC)


@dataclass(frozen=True, slots=True)
class MinuteStep:
    """One step of a walk: what it found, in the order of the minutes, and where it stopped."""

    found: list[dict[str, Any]]
    #: The minute the next step starts in: the one the limit was reached in (not read to its end), else the
    #: first one not read (after a jump: the next busy one), never past the walk's last minute.
    minute: int
    #: The step stopped at its limit of documents or minutes before reaching the last minute.
    more: bool


#: read(minute, at_most) -> that minute's documents, at most `at_most` of them.
ReadMinute = Callable[[int, int], Awaitable[list[dict[str, Any]]]]
#: next_busy(first, last) -> the first minute in [first, last] that has anything, or None.
NextBusyMinute = Callable[[int, int], Awaitable[int | None]]


async def walk_minutes(first: int, last: int, *, limit: int, read: ReadMinute, next_busy: NextBusyMinute) -> MinuteStep:
    """Read minutes `first`..`last` in order, at most `WALK_MAX_MINUTES` of them, until `limit` documents are found.

    A step that found nothing in `WALK_MAX_MINUTES` minutes jumps to the next busy minute instead of crossing the
    rest one lookup at a time (a store idle for days, or a first walk over a long history). `next_busy` is a range,
    which the embedded store answers by a scan: it is only asked then, never on a walk that keeps up.
    """
    found: list[dict[str, Any]] = []
    minute = first
    stop = min(last, first + WALK_MAX_MINUTES - 1)
    while minute <= stop:
        found += await read(minute, limit - len(found))
        if len(found) >= limit:
            return MinuteStep(found, minute, more=True)
        minute += 1
    if not found and stop < last:
        minute = await next_busy(minute, last) or last
        stop = last if minute == last else minute - 1
    return MinuteStep(found, min(minute, last), more=stop < last)
