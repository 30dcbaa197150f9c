"""What ended in each of the last minutes (the dashboard's live charts), at the cost of what ended, not of history.

A gateway keeps per-minute tallies of the last `TIMELINE_MINUTES` in memory: per job type, how many jobs ended
DONE and DEAD; per search source, the outcomes of the searches that ended (`result.sources`; for a search that died
without a result, its failed sources from `last_error.sources`); per
job type, how long the attempt took that ended each job (from its last `history` entry). Whoever asks brings them
up to date first with the walk the job counts use (`JobRepository.ended_after`: one range of
`ended_by_finished_at` from a cursor), from where the previous call stopped, at most `limit` jobs per call: a call
costs what ended since the previous one, whatever the history. A gateway that starts walks the window once, a
step per call (`catching_up` until it is through).

Like the job counts, the tallies trail the store by `settle` seconds (a job whose DONE update is on its way must
not be walked past), and a re-driven job is counted again when it ends again. Each gateway keeps its own.
"""

from __future__ import annotations

import asyncio
import math
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from bson import ObjectId

from infra.clock import utcnow
from infra.job_documents import ending_of, finished_minute
from infra.jobs import JobRepository
from infra.mongo import FIRST_ID
from schemas.codes import AttemptOutcome
from schemas.timeline import TIMELINE_MINUTES

#: What the walk reads of each ended job: no offers, no product.
_PROJECTION = {
    "job_type": 1,
    "status": 1,
    "result.sources": 1,
    "last_error.sources": 1,
    "history.started_at": 1,
    "history.finished_at": 1,
    "history.outcome": 1,
}


@dataclass(slots=True)
class MinuteTally:
    """What ended in one minute."""

    #: {job_type: {DONE: n, DEAD: n}}
    ended: dict[str, Counter[str]] = field(default_factory=dict)
    #: {source: {outcome: n}} of the searches that ended (a DEAD one's failed sources too).
    sources: dict[str, Counter[str]] = field(default_factory=dict)
    #: {job_type: [ms, ...]}: how long the attempt that ended each job ran.
    attempt_ms: dict[str, list[float]] = field(default_factory=dict)

    def add(self, job: dict[str, Any]) -> None:
        job_type = job.get("job_type")
        if job_type is None:
            return
        self.ended.setdefault(job_type, Counter())[ending_of(job)] += 1
        for source, outcome in _source_outcomes(job).items():
            self.sources.setdefault(source, Counter())[outcome] += 1
        if (ms := _ending_attempt_ms(job)) is not None:
            self.attempt_ms.setdefault(job_type, []).append(ms)

    def copy(self) -> MinuteTally:
        """A copy the next walk does not change (an answer stays what it was when given)."""
        return MinuteTally(
            ended={key: Counter(counts) for key, counts in self.ended.items()},
            sources={key: Counter(counts) for key, counts in self.sources.items()},
            attempt_ms={key: list(values) for key, values in self.attempt_ms.items()},
        )


def _source_outcomes(job: dict[str, Any]) -> dict[str, str]:
    """Each source's outcome in an ended search: from its result, or, when it died without one, its failed sources
    as its last error recorded them (a search blocked on its last attempt)."""
    if summaries := (job.get("result") or {}).get("sources"):
        return {source: str(summary.get("outcome")) for source, summary in summaries.items()}
    return {source: str(outcome) for source, outcome in ((job.get("last_error") or {}).get("sources") or {}).items()}


def _ending_attempt_ms(job: dict[str, Any]) -> float | None:
    """Milliseconds of the attempt that ended the job (None when no attempt did, e.g. a dead-lettered message)."""
    history = job.get("history") or []
    last = history[-1] if history else {}
    started, finished = last.get("started_at"), last.get("finished_at")
    if last.get("outcome") not in (AttemptOutcome.DONE, AttemptOutcome.DEAD) or not started or not finished:
        return None
    return max(0.0, (finished - started).total_seconds() * 1000)


def percentile(values: list[float], share: float) -> float | None:
    """The nearest-rank percentile (`share` of 0.5 is the median); None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


@dataclass(frozen=True, slots=True)
class Timeline:
    """The tallies of consecutive minutes, oldest first; the last is the minute the walk is in (still filling)."""

    minutes: list[datetime]
    tallies: list[MinuteTally]
    #: Every job that ended before this is in the tallies.
    counted_until: datetime
    #: More ended jobs were waiting than one call reads: the next calls catch up.
    catching_up: bool


class EndedTimeline:
    def __init__(self, jobs: JobRepository, *, settle: float, limit: int) -> None:
        self._jobs = jobs
        self._settle = timedelta(seconds=settle)
        self._limit = limit
        self._tallies: dict[int, MinuteTally] = {}
        self._cursor: tuple[datetime, ObjectId] | None = None
        self._catching_up = False
        # One walk at a time: two callers walking from the same cursor would count its jobs twice.
        self._walk = asyncio.Lock()

    async def last(self, minutes: int) -> Timeline:
        """The last `minutes` (at most TIMELINE_MINUTES), after one step of the walk."""
        if not 1 <= minutes <= TIMELINE_MINUTES:
            raise ValueError(f"minutes must be 1..{TIMELINE_MINUTES}, not {minutes}")
        async with self._walk:
            counted_until = await self._step()
            last_minute = finished_minute(counted_until)
            keys = range(last_minute - minutes + 1, last_minute + 1)
            tallies = [self._tallies[key].copy() if key in self._tallies else MinuteTally() for key in keys]
        at = [datetime.fromtimestamp(key * 60, UTC) for key in keys]
        return Timeline(at, tallies, counted_until, self._catching_up)

    async def _step(self) -> datetime:
        """Walk on from the cursor (or from the window's start); the moment before which everything is counted."""
        now = utcnow()
        first_kept = finished_minute(now) - TIMELINE_MINUTES + 1
        window_start = (datetime.fromtimestamp(first_kept * 60, UTC), FIRST_ID)
        cursor = max(self._cursor or window_start, window_start)
        page = await self._jobs.ended_after(cursor, until=now - self._settle, limit=self._limit, projection=_PROJECTION)
        for job in page.jobs:
            self._tallies.setdefault(finished_minute(job["finished_at"]), MinuteTally()).add(job)
        for key in [key for key in self._tallies if key < first_kept]:
            del self._tallies[key]
        self._cursor, self._catching_up = page.cursor, page.more
        return page.cursor[0]
