"""What is read of the `jobs` collection (`JobReads`): a job by id, the listing's pages, what the reconciler looks for
(unconfirmed publishes, lost messages, expired leases, searches without their delivery), whether a delivery is still
out, the active counts and the walk over ended jobs. Each read is served by an index (docs/architecture.md, "Hot
queries and the index each one uses").

Every change made to a job is `infra.jobs.JobRepository`, which is a `JobReads`: callers read and change jobs through
that one object.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bson import ObjectId

from infra.job_listing import ListingPage, ListingWindow, newest
from infra.minutes import minute_of, minute_start
from infra.mongo import FIRST_ID, MainDatabase, count_by_index
from schemas.codes import ACTIVE_STATUSES, JobStatus, JobType, status_names


@dataclass(frozen=True, slots=True)
class EndedPage:
    """One step of a walk over ended jobs: the jobs, oldest first, and where the next step starts."""

    jobs: list[dict[str, Any]]
    #: (finished_at, _id): every job at or before it was walked.
    cursor: tuple[datetime, ObjectId]
    #: The step stopped at its limit of jobs before reaching `until`.
    more: bool


class JobReads:
    def __init__(self, db: MainDatabase) -> None:
        self._jobs = db.jobs()
        self._jobs_stale_ok = db.jobs(stale_ok=True)

    async def get(self, job_id: ObjectId) -> dict[str, Any] | None:
        return await self._jobs_stale_ok.find_one({"_id": job_id})

    async def newest(
        self,
        filters: dict[str, Any],
        limit: int,
        *,
        since: datetime | None = None,
        until: datetime | None = None,
        after: tuple[datetime, ObjectId] | None = None,
    ) -> ListingPage:
        """One page of the job listing, newest first, created in [`since`, `until`), after an earlier page's position
        `after` (`infra.job_listing.newest`, on a secondary when allowed)."""
        return await newest(self._jobs_stale_ok, filters, limit, ListingWindow(since, until, after))

    async def lost_attempt(self, job_id: ObjectId, *, now: datetime) -> dict[str, Any] | None:
        """The job, when it is RUNNING under a lease that expired before `now` (its worker stopped)."""
        return await self._jobs.find_one({"_id": job_id, "status": JobStatus.RUNNING.name, "lease_until": {"$lt": now}})

    async def get_current(self, job_id: ObjectId) -> dict[str, Any] | None:
        """The job as the primary has it (for decisions, not for display)."""
        return await self._jobs.find_one({"_id": job_id})

    async def unconfirmed(self, *, before: datetime, limit: int) -> list[dict[str, Any]]:
        """PENDING jobs whose publish the broker never confirmed (no `enqueued_at`), untouched since `before`.

        Through `active_unconfirmed`: the keys without `enqueued_at`, a handful whatever the backlog.
        """
        cursor = self._jobs.find(
            {
                "active": True,
                "status": JobStatus.PENDING.name,
                "enqueued_at": {"$exists": False},
                "created_at": {"$lt": before},
                "updated_at": {"$lt": before},
            },
        )
        return await cursor.limit(limit).to_list()

    async def overdue(self, job_type: JobType, *, due_before: datetime, limit: int) -> list[dict[str, Any]]:
        """PENDING jobs of a type long past run_after with no claim: their message was lost (the reconciler asks only
        while the type's queues hold no message: then the PENDING jobs are the retries waiting and the lost ones).
        Through `active_by_status`."""
        cursor = self._jobs.find(
            {
                "active": True,
                "status": JobStatus.PENDING.name,
                "job_type": job_type.name,
                "enqueued_at": {"$lt": due_before},
                "run_after": {"$lt": due_before},
            },
        )
        return await cursor.limit(limit).to_list()

    async def expired_leases(self, *, expired_before: datetime, limit: int) -> list[dict[str, Any]]:
        """RUNNING jobs whose lease ended before `expired_before`: through `active_by_status`, the running ones."""
        cursor = self._jobs.find(
            {"active": True, "status": JobStatus.RUNNING.name, "lease_until": {"$lt": expired_before}},
        )
        return await cursor.limit(limit).to_list()

    async def count_active(
        self, job_type: JobType, status: JobStatus, *, run_after_past: datetime | None = None
    ) -> int:
        """Active jobs of a type in a status (PENDING or RUNNING), counted from `active_by_status`'s keys alone: the
        same cost with 100 or 100,000 jobs waiting. `run_after_past`: only those whose run_after is still ahead of it
        (retries waiting out their backoff)."""
        query: dict[str, Any] = {"active": True, "status": status.name, "job_type": job_type.name}
        if run_after_past is not None:
            query["run_after"] = {"$gt": run_after_past}
        return await count_by_index(self._jobs_stale_ok, query)

    async def ended_after(
        self,
        cursor: tuple[datetime, ObjectId],
        *,
        until: datetime,
        limit: int,
        match: dict[str, Any] | None = None,
        projection: dict[str, int] | None = None,
    ) -> EndedPage:
        """Jobs that ended (DONE or DEAD) after `cursor` and before `until`, oldest first by (finished_at, _id).

        One range on `ended_by_finished_at` (finished_at, _id), from the cursor: a step reads its own jobs (and those
        `match` leaves out on the way), whatever the history. With fewer than `limit` found, the returned cursor moves
        to the start of `until`'s minute if it is behind it, so a quiet stretch is not asked about again, but not into
        that minute: a job of it whose update lands late (a settle of 0 in tests) is still found, unless a later one
        of it was already walked past. `match` narrows the jobs (e.g. DONE searches). Reads the primary: a
        secondary's lag would let the cursor pass jobs it has not seen yet.
        """
        fields = None if projection is None else projection | {"finished_at": 1}
        query = {
            "finished_at": {"$gte": cursor[0], "$lt": until},
            # The cursor's ties up to it were walked; a range on finished_at alone is what an index bounds.
            "$nor": [{"finished_at": cursor[0], "_id": {"$lte": cursor[1]}}],
            **(match or {}),
        }
        order = [("finished_at", 1), ("_id", 1)]
        jobs = await self._jobs.find(query, fields).sort(order).limit(limit).to_list()
        last = (jobs[-1]["finished_at"], jobs[-1]["_id"]) if jobs else cursor
        if len(jobs) >= limit:
            return EndedPage(jobs, last, more=True)
        return EndedPage(jobs, max(last, (minute_start(minute_of(until)), FIRST_ID)), more=False)

    async def delivery_in_flight(self, search_id: ObjectId) -> bool:
        """Whether the search's delivery (its OUTBOX job) is still to end: one lookup on `one_outbox_per_search`."""
        query = {
            "source_job_id": search_id,
            "job_type": JobType.OUTBOX.name,
            "status": {"$in": status_names(ACTIVE_STATUSES)},
        }
        return await self._jobs.find_one(query, {"_id": 1}) is not None

    async def searches_with_outbox(self, search_ids: Sequence[ObjectId]) -> set[ObjectId]:
        """Which of these searches have their OUTBOX job: one `$in` on `one_outbox_per_search` (its partial filter,
        `job_type: OUTBOX`, stated so the index applies), one round trip for the batch."""
        query = {"source_job_id": {"$in": list(search_ids)}, "job_type": JobType.OUTBOX.name}
        return {job["source_job_id"] async for job in self._jobs.find(query, {"_id": 0, "source_job_id": 1})}
