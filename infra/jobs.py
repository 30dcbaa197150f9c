"""The `jobs` collection: job documents and every change made to them.

Each state transition is one conditional update on (_id, expected status), so a duplicate delivery or
a racing process can never move a job twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bson import ObjectId
from pymongo.errors import BulkWriteError

from infra.mongo import MainDatabase
from schemas.codes import JobStatus, JobType

DUPLICATE_KEY = 11000
#: How often an insert is retried for products whose active job ended between the insert and the lookup.
_DUPLICATE_RACE_ROUNDS = 3


def new_job(
    job_type: JobType,
    *,
    job_id: ObjectId,
    product_code: str,
    priority: str,
    max_attempts: int,
    now: datetime,
    message_id: str,
    product: dict[str, Any] | None = None,
    source_job_id: ObjectId | None = None,
) -> dict[str, Any]:
    """A PENDING job document. `active: true` holds the product's one-active-job slot until it ends."""
    document: dict[str, Any] = {
        "_id": job_id,
        "job_type": job_type.name,
        "status": JobStatus.PENDING.name,
        "active": True,
        "product_code": product_code,
        "priority": priority,
        "attempts": 0,
        "max_attempts": max_attempts,
        "run_after": now,
        "message_id": message_id,
        "created_at": now,
        "updated_at": now,
        "history": [],
    }
    if product is not None:
        document["product"] = product
    if source_job_id is not None:
        document["source_job_id"] = source_job_id
    return document


def parse_job_id(job_id: str) -> ObjectId | None:
    """The ObjectId of a 24-hex job id, or None for anything else (never a query operator)."""
    return ObjectId(job_id) if isinstance(job_id, str) and ObjectId.is_valid(job_id) and len(job_id) == 24 else None


@dataclass(slots=True)
class InsertOutcome:
    created: list[dict[str, Any]] = field(default_factory=list)
    #: product_code -> the active job that already held the product (the "duplicate" answer).
    existing: dict[str, dict[str, Any]] = field(default_factory=dict)


class JobRepository:
    def __init__(self, db: MainDatabase) -> None:
        self._jobs = db.jobs()
        self._jobs_stale_ok = db.jobs(stale_ok=True)

    async def insert_search_jobs(self, documents: Sequence[dict[str, Any]]) -> InsertOutcome:
        """One unordered batch insert; products that already have an active job get that job back."""
        outcome = InsertOutcome()
        pending = list(documents)
        for _ in range(_DUPLICATE_RACE_ROUNDS):
            if not pending:
                break
            rejected = await self._insert_unordered(pending)
            outcome.created += [doc for index, doc in enumerate(pending) if index not in rejected]
            duplicates = [pending[index] for index in sorted(rejected)]
            outcome.existing.update(await self._active_search_jobs(doc["product_code"] for doc in duplicates))
            # A product whose active job ended between our insert and the lookup is free again: retry it.
            pending = [doc for doc in duplicates if doc["product_code"] not in outcome.existing]
        if pending:
            raise RuntimeError(f"products kept flapping between active and ended: {len(pending)}")
        return outcome

    async def _insert_unordered(self, documents: list[dict[str, Any]]) -> set[int]:
        """Insert; return the indexes refused as duplicates of an active job. Other write errors raise."""
        try:
            await self._jobs.insert_many(documents, ordered=False)
        except BulkWriteError as error:
            write_errors = error.details.get("writeErrors", [])
            if any(err.get("code") != DUPLICATE_KEY for err in write_errors) or error.details.get("writeConcernErrors"):
                raise
            return {err["index"] for err in write_errors}
        return set()

    async def _active_search_jobs(self, product_codes: Iterable[str]) -> dict[str, dict[str, Any]]:
        codes = list(dict.fromkeys(product_codes))
        if not codes:
            return {}
        # Primary read: the winning insert may be milliseconds old.
        cursor = self._jobs.find({"product_code": {"$in": codes}, "active": True, "job_type": JobType.SEARCH.name})
        return {doc["product_code"]: doc async for doc in cursor}

    async def mark_enqueued(self, job_ids: Sequence[ObjectId], now: datetime) -> None:
        """Record that the broker confirmed these jobs' messages (the reconciler skips them)."""
        if job_ids:
            await self._jobs.update_many(
                {"_id": {"$in": list(job_ids)}}, {"$set": {"enqueued_at": now, "updated_at": now}}
            )

    async def get(self, job_id: ObjectId) -> dict[str, Any] | None:
        return await self._jobs_stale_ok.find_one({"_id": job_id})

    async def count_by_type_and_status(self) -> dict[str, dict[str, int]]:
        """{job_type: {status: n}} with every type and status present, zeros included."""
        counts = {t.name: {s.name: 0 for s in JobStatus} for t in JobType}
        cursor = await self._jobs_stale_ok.aggregate(
            [{"$group": {"_id": {"job_type": "$job_type", "status": "$status"}, "n": {"$sum": 1}}}]
        )
        async for row in cursor:
            job_type, status = row["_id"].get("job_type"), row["_id"].get("status")
            if job_type in counts and status in counts[job_type]:
                counts[job_type][status] = row["n"]
        return counts
