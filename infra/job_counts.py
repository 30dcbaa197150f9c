"""Job counts per type and status whose cost does not grow with history.

- PENDING and RUNNING are counted live, by the `status` prefix of `status_job_type_finished_at`: that is the
  active set, bounded by the work in hand, not by how many jobs were ever stored. So are the delayed ones
  (PENDING with `run_after` ahead: retries waiting out their backoff).
- DONE and DEAD are running totals of jobs that *ended* so, kept in the `job_counts` collection. Whoever asks
  for the counts (the gateway's stats and /metrics) first brings them up to date: a cursor walks the jobs that
  ended since the last walk, in (finished_at, _id) order over the retention index, at most `catch_up_limit`
  of them per call, and adds them in one conditional update (two gateways never count a job twice). A call
  costs what ended since the previous one, whatever the history.

So the totals are like Sidekiq's "processed" and "failed": a re-driven job is counted again when it ends again,
and jobs removed by the retention TTL stay counted. They trail the live store by `settle` seconds (a job whose
DONE update is still on its way must not be walked past) plus any backlog past `catch_up_limit`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from bson import ObjectId
from pymongo.asynchronous.database import AsyncDatabase

from infra.clock import utcnow
from infra.mongo import JOBS
from schemas.codes import JobStatus, JobType

JOB_COUNTS = "job_counts"
_ENDED_ID = "ended"
ACTIVE = (JobStatus.PENDING, JobStatus.RUNNING)
ENDED = (JobStatus.DONE, JobStatus.DEAD)
#: Where the walk starts on a store that has no totals yet: before every job.
_EPOCH = (datetime(1970, 1, 1, tzinfo=UTC), ObjectId("0" * 24))


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
    def __init__(self, write: AsyncDatabase, read: AsyncDatabase, *, settle: float, catch_up_limit: int) -> None:
        self._jobs_read = read[JOBS]
        # The walk reads the primary: a secondary's lag would let the cursor pass jobs it has not seen yet.
        self._jobs = write[JOBS]
        self._totals = write[JOB_COUNTS]
        self._settle = timedelta(seconds=settle)
        self._catch_up_limit = catch_up_limit

    async def current(self) -> Counts:
        by_type = {job_type.name: {status.name: 0 for status in JobStatus} for job_type in JobType}
        delayed: dict[str, int] = {}
        now = utcnow()
        for job_type in JobType:
            for status in ACTIVE:
                by_type[job_type.name][status.name] = await self._jobs_read.count_documents(
                    {"status": status.name, "job_type": job_type.name}
                )
            delayed[job_type.name] = await self._jobs_read.count_documents(
                {"status": JobStatus.PENDING.name, "job_type": job_type.name, "run_after": {"$gt": now}}
            )
        totals, catching_up = await self._catch_up()
        for job_type in JobType:
            for status in ENDED:
                by_type[job_type.name][status.name] = int(totals.get(f"{job_type.name}_{status.name}", 0))
        return Counts(by_type, totals.get("finished_at", _EPOCH[0]), catching_up, delayed)

    async def _catch_up(self) -> tuple[dict[str, Any], bool]:
        """Add the jobs that ended since the cursor to the totals; the totals as they then stand."""
        totals = await self._totals.find_one({"_id": _ENDED_ID}) or {}
        cursor = (totals["finished_at"], totals["job_id"]) if totals else _EPOCH
        ended = await self._ended_after(cursor, until=utcnow() - self._settle)
        if not ended:
            return totals, False
        increments: dict[str, int] = {}
        for job in ended:
            key = f"{job['job_type']}_{job['status']}"
            increments[key] = increments.get(key, 0) + 1
        moved = {"finished_at": ended[-1]["finished_at"], "job_id": ended[-1]["_id"]}
        if totals:
            result = await self._totals.update_one(
                {"_id": _ENDED_ID, "finished_at": cursor[0], "job_id": cursor[1]},
                {"$inc": increments, "$set": moved},
            )
            counted = result.modified_count == 1
        else:
            counted = await self._start_totals({**increments, **moved})
        if not counted:  # another caller counted these meanwhile: read what it wrote
            return await self._totals.find_one({"_id": _ENDED_ID}) or {}, True
        for key, increment in increments.items():
            totals[key] = totals.get(key, 0) + increment
        return totals | moved, len(ended) >= self._catch_up_limit

    async def _start_totals(self, document: dict[str, Any]) -> bool:
        result = await self._totals.update_one({"_id": _ENDED_ID}, {"$setOnInsert": document}, upsert=True)
        return result.upserted_id is not None

    async def _ended_after(self, cursor: tuple[datetime, ObjectId], *, until: datetime) -> list[dict[str, Any]]:
        """Jobs that ended after `cursor` and before `until`, oldest first (the retention index on finished_at)."""
        finished_at, last_id = cursor
        query = {
            "$or": [
                {"finished_at": {"$gt": finished_at, "$lt": until}},
                {"finished_at": finished_at, "_id": {"$gt": last_id}},
            ]
        }
        projection = {"_id": 1, "job_type": 1, "status": 1, "finished_at": 1}
        found = self._jobs.find(query, projection).sort([("finished_at", 1), ("_id", 1)]).limit(self._catch_up_limit)
        return [job async for job in found if job.get("status") in (JobStatus.DONE.name, JobStatus.DEAD.name)]
