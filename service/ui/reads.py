"""What the dashboard's pages read and work out, as plain functions over the repositories (no request in sight).

Each read is bounded: watches are read one page of the unique product index at a time, a product's watch is one
point lookup, the dead page's totals are one count per error type shown of `dead_by_status_error_type`'s keys
(partial on DEAD jobs). What a job does next and its attempts per life are worked out from the job document alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from infra.mongo import MainDatabase, count_by_index
from infra.watches import WatchRepository
from schemas.codes import JobErrorType, JobStatus
from schemas.offers import SOURCE_ANSWERS, SOURCE_OUTCOMES, SourceOutcome

#: `last_error.type` values LPS and its sources write: what the error-type filter offers. A source's failures are
#: among them, but not DEFERRED: a deferral leaves `last_error` alone.
KNOWN_ERROR_TYPES: tuple[str, ...] = tuple(
    sorted(
        {
            str(each)
            for each in (*JobErrorType, *SOURCE_OUTCOMES)
            if each not in (*SOURCE_ANSWERS, SourceOutcome.DEFERRED)
        }
    )
)
#: What the dead page groups a DEAD job without `last_error` under.
NO_ERROR_TYPE = "unknown"


def known_error_type(value: str) -> str:
    """An error-type filter as typed (any case, blanks around): the stored spelling, upper case."""
    return value.strip().upper()


# Watches.


@dataclass(frozen=True, slots=True)
class WatchPage:
    watches: list[dict[str, Any]]
    #: The product code the next page starts after; None on the last page.
    next_cursor: str | None


async def watch_page(watches: WatchRepository, *, prefix: str | None, after: str | None, limit: int) -> WatchPage:
    """One page of watches in product-code order, filtered by a product-code prefix."""
    found = await watches.by_product_code(prefix=prefix, after=after, limit=limit + 1)
    more = len(found) > limit
    return WatchPage(found[:limit], found[limit - 1]["product_code"] if more else None)


async def watch_of_product(watches: WatchRepository, product_code: str) -> dict[str, Any] | None:
    """The product's watch, if it has one (a point lookup on the unique product index)."""
    found = await watches.page(product_code=product_code, after=None, limit=1)
    return found[0] if found else None


# Dead jobs.


async def dead_totals(database: MainDatabase, error_types: list[str]) -> dict[str, int]:
    """How many DEAD jobs there are of each error type (the whole store, not a page): one count each of the
    `dead_by_status_error_type` index's keys (`count_by_index`: a COUNT_SCAN, no job read)."""
    jobs = database.jobs(stale_ok=True)
    totals = {}
    for error_type in error_types:
        value = None if error_type == NO_ERROR_TYPE else error_type
        totals[error_type] = await count_by_index(jobs, {"status": JobStatus.DEAD.name, "last_error.type": value})
    return totals


# One job: how long it has run, its attempts per life (what it waits for: infra/waiting.py).


def running_for(job: dict[str, Any], now: datetime) -> timedelta | None:
    """How long a RUNNING job's attempt has run."""
    started = job.get("started_at")
    return now - started if started is not None and job.get("status") == JobStatus.RUNNING.name else None


@dataclass(frozen=True, slots=True)
class Life:
    """The attempts between two re-drives: life 1 from the job's creation, each re-drive starts the next."""

    number: int
    #: The re-drive that started it ({at, by}); None for the first life, or a re-drive recorded before
    #: `redrive_history` existed.
    redrive: dict[str, Any] | None
    attempts: list[dict[str, Any]]


def lives(job: dict[str, Any]) -> list[Life]:
    """The job's `history` grouped per life, newest life last.

    Attempt numbers start again at 1 after a re-drive and only grow within a life, so a life starts wherever the
    number does not grow. The groups are matched to lives from the newest: the current life has attempts of its own
    only once one ended (`attempts` counts the one running too). `history` keeps the newest attempts, so the
    earliest lives may have none left.
    """
    groups: list[list[dict[str, Any]]] = []
    for entry in job.get("history") or []:
        number = entry.get("attempt") or 0
        if not groups or number <= (groups[-1][-1].get("attempt") or 0):
            groups.append([])
        groups[-1].append(entry)
    ended_here = job.get("attempts", 0) - (1 if job.get("status") == JobStatus.RUNNING.name else 0)
    current_has_attempts = ended_here > 0 and bool(groups)
    count = max(job.get("redrives", 0) + 1, len(groups) + (0 if current_has_attempts else 1))
    by_life: dict[int, list[dict[str, Any]]] = {}
    last = count if current_has_attempts else count - 1
    for offset, group in enumerate(reversed(groups)):
        by_life[last - offset] = group
    records = list(job.get("redrive_history") or [])
    # The newest record started the newest life; older ones may have been cut (the newest 20 are kept).
    started_by = {count - offset: record for offset, record in enumerate(reversed(records))}
    return [Life(number, started_by.get(number), by_life.get(number, [])) for number in range(1, count + 1)]


# Formatting, as every page writes it.


def number(value: object) -> str:
    """1009000 -> "1,009,000"; anything that is not a number as it is (empty for None)."""
    if isinstance(value, bool) or value is None:
        return "" if value is None else str(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.0f}" if value.is_integer() else f"{value:,.1f}"
    return str(value)


def listing(value: object) -> str:
    """A list as words ("coupang, naver"), never Python's ['coupang', 'naver']."""
    if isinstance(value, list | tuple | set | frozenset):
        return ", ".join(str(each) for each in value)
    return "" if value is None else str(value)


def duration(value: timedelta | None) -> str:
    """A time span as an operator reads it: 42 s, 3 min 05 s, 2 h 07 min, 3 d 4 h."""
    if value is None:
        return ""
    seconds = max(0, int(value.total_seconds()))
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {seconds:02d} s"
    hours, minutes = divmod(minutes, 60)
    if hours < 24:
        return f"{hours} h {minutes:02d} min"
    days, hours = divmod(hours, 24)
    return f"{days} d {hours} h"
