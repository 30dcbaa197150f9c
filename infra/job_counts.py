"""Job counts per type and status whose cost does not grow with history.

- PENDING and RUNNING are counted live in the active set (`JobRepository.count_active`, from the keys of the
  `active_by_status` index; counted by the store, nothing decoded here), bounded by the work in hand, not by how many
  jobs were ever stored. So are the delayed ones (PENDING with `run_after` ahead: retries waiting out their
  backoff).
- DONE and DEAD are running totals of jobs that *ended* so, kept in the `job_counts` collection. Whoever asks
  for the counts (the gateway's stats and /metrics) first brings them up to date: a walk over the jobs that
  ended since the last one (`JobRepository.ended_after`), at most `catch_up_limit` of them per call, adds them
  in one conditional update (two gateways never count a job twice). A call costs what ended since the previous
  one, whatever the history.

So the totals are like Sidekiq's "processed" and "failed": every ending is counted, a death re-driven before the
walk reached it included (`infra.job_documents.ending_of`), a re-driven job is counted again when it ends again, and
jobs removed by the retention TTL stay counted. One gap: a job that died, was re-driven and ended again before any
walk reached its first death (nobody asked for the counts meanwhile) is counted for its last ending only. The
totals trail the live store by `settle` seconds (a job whose DONE update is still on its way must not be walked
past) plus any backlog past `catch_up_limit`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from bson import ObjectId
from pymongo.asynchronous.database import AsyncDatabase

from infra.clock import utcnow
from infra.job_documents import ending_of
from infra.jobs import JobRepository
from infra.mongo import FIRST_ID
from schemas.codes import ACTIVE_STATUSES, ENDED_STATUSES, JobStatus, JobType

#: Before every job's `finished_at` (LPS's own clock sets it): where the first walk over what ended starts.
_BEFORE_EVERY_END = datetime(1970, 1, 1, tzinfo=UTC)

JOB_COUNTS = "job_counts"
_ENDED_ID = "ended"
_QUIET_STEP = timedelta(minutes=1)


@dataclass(frozen=True, slots=True)
class Counts:
    #: {job_type: {status: n}}, every type and status present.
    by_type: dict[str, dict[str, int]]
    #: The ended totals include every job that ended before this moment.
    ended_counted_until: datetime
    #: True when more ended jobs were waiting than one call counts: the next calls catch up.
    catching_up: bool
    #: {job_type: n}: PENDING jobs whose run_after is still ahead (a retry waiting out its backoff). Counted here,
    #: not from the `.DQ` queue: a worker holds a delayed message unacknowledged until it is due, so RabbitMQ's
    #: message count of `.DQ` leaves it out.
    delayed: dict[str, int]

    @property
    def by_status(self) -> dict[str, int]:
        return {status.name: sum(counts[status.name] for counts in self.by_type.values()) for status in JobStatus}


class JobCounts:
    def __init__(self, jobs: JobRepository, write: AsyncDatabase, *, settle: float, catch_up_limit: int) -> None:
        self._jobs = jobs
        self._totals = write[JOB_COUNTS]
        self._settle = timedelta(seconds=settle)
        self._catch_up_limit = catch_up_limit

    async def current(self) -> Counts:
        by_type = {job_type.name: {status.name: 0 for status in JobStatus} for job_type in JobType}
        delayed = {job_type.name: 0 for job_type in JobType}
        now = utcnow()
        for job_type in JobType:
            for status in ACTIVE_STATUSES:
                by_type[job_type.name][status.name] = await self._jobs.count_active(job_type, status)
            delayed[job_type.name] = await self._jobs.count_active(job_type, JobStatus.PENDING, run_after_past=now)
        totals, catching_up = await self._catch_up()
        for job_type in JobType:
            for status in ENDED_STATUSES:
                by_type[job_type.name][status.name] = int(totals.get(f"{job_type.name}_{status.name}", 0))
        return Counts(by_type, totals["finished_at"], catching_up, delayed)

    async def _catch_up(self) -> tuple[dict[str, Any], bool]:
        """Add the jobs that ended since the cursor to the totals; the totals as they then stand."""
        totals = await self._totals.find_one({"_id": _ENDED_ID})
        cursor = (totals["finished_at"], totals["job_id"]) if totals else await self._start()
        page = await self._jobs.ended_after(
            cursor,
            until=utcnow() - self._settle,
            limit=self._catch_up_limit,
            projection={"_id": 1, "job_type": 1, "status": 1},
        )
        increments: dict[str, int] = {}
        for job in page.jobs:
            key = f"{job['job_type']}_{ending_of(job)}"
            increments[key] = increments.get(key, 0) + 1
        moved = {"finished_at": page.cursor[0], "job_id": page.cursor[1]}
        if totals and not increments and page.cursor[0] - cursor[0] < _QUIET_STEP:
            return totals, page.more  # nothing ended: the cursor is moved on (a write) at most once a minute
        if totals:
            update: dict[str, Any] = {"$set": moved} | ({"$inc": increments} if increments else {})
            result = await self._totals.update_one(
                {"_id": _ENDED_ID, "finished_at": cursor[0], "job_id": cursor[1]}, update
            )
            counted = result.modified_count == 1
        else:
            counted = await self._start_totals({**increments, **moved})
        if not counted:  # another caller counted these meanwhile: read what it wrote
            return await self._totals.find_one({"_id": _ENDED_ID}) or moved, True
        totals = totals or {}
        for key, increment in increments.items():
            totals[key] = totals.get(key, 0) + increment
        return totals | moved, page.more

    async def _start(self) -> tuple[datetime, ObjectId]:
        """Where the first walk on a store starts: before every job that ended (a walk seeks to the first one)."""
        return _BEFORE_EVERY_END, FIRST_ID

    async def _start_totals(self, document: dict[str, Any]) -> bool:
        result = await self._totals.update_one({"_id": _ENDED_ID}, {"$setOnInsert": document}, upsert=True)
        return result.upserted_id is not None
