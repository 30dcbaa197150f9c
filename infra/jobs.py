"""The `jobs` collection: every change made to a job document (what one holds: `infra.job_documents`; what is read
of it: `infra.job_reads`).

Each state transition is one conditional update on (_id, expected status), so a duplicate delivery or
a racing process can never move a job twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bson import ObjectId
from pymongo import ReturnDocument
from pymongo.errors import BulkWriteError, DuplicateKeyError

from infra.job_documents import BETWEEN_ATTEMPTS, HISTORY_LIMIT, REDRIVE_HISTORY, ended_fields, history_entry
from infra.job_reads import JobReads
from infra.lifecycle import decide_after_loss, error_document
from schemas.codes import (
    ACTIVE_STATUSES,
    AttemptOutcome,
    JobErrorType,
    JobStatus,
    JobType,
    status_names,
)

DUPLICATE_KEY = 11000


#: How often an insert is retried for products whose active job ended between the insert and the lookup.
_DUPLICATE_RACE_ROUNDS = 3


class ActiveJobExists(Exception):
    """The product already has another active SEARCH job (the one-active-job index refused the change)."""


@dataclass(slots=True)
class Inserted:
    created: list[dict[str, Any]] = field(default_factory=list)
    #: product_code -> the active job that already held the product (the "duplicate" answer).
    existing: dict[str, dict[str, Any]] = field(default_factory=dict)


def _push_history(entry: dict[str, Any]) -> dict[str, Any]:
    return {"history": {"$each": [entry], "$slice": -HISTORY_LIMIT}}


def _ending(status: JobStatus, now: datetime, *, error: dict[str, Any] | None = None) -> dict[str, Any]:
    """The update that ends a job (DONE or DEAD), whichever path ends it: its product's active slot is freed, and
    what lived only between its attempts is cleared (`BETWEEN_ATTEMPTS`)."""
    ended: dict[str, Any] = {"status": status.name, **ended_fields(now), "updated_at": now}
    if error is not None:
        ended["last_error"] = error
    return {"$set": ended, "$unset": dict.fromkeys(["active", *BETWEEN_ATTEMPTS], "")}


class JobRepository(JobReads):
    """Every change made to a job, each one conditional update; and, as a `JobReads`, every read of the jobs."""

    async def insert_search_jobs(self, documents: Sequence[dict[str, Any]]) -> Inserted:
        """One unordered batch insert; products that already have an active job get that job back."""
        inserted = Inserted()
        pending = list(documents)
        for _ in range(_DUPLICATE_RACE_ROUNDS):
            if not pending:
                break
            rejected = await self._insert_unordered(pending)
            inserted.created += [doc for index, doc in enumerate(pending) if index not in rejected]
            duplicates = [pending[index] for index in sorted(rejected)]
            inserted.existing.update(await self._active_search_jobs(doc["product_code"] for doc in duplicates))
            # A product whose active job ended between our insert and the lookup is free again: retry it.
            pending = [doc for doc in duplicates if doc["product_code"] not in inserted.existing]
        if pending:
            raise RuntimeError(f"products kept flapping between active and ended: {len(pending)}")
        return inserted

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
        """Record that the broker confirmed these jobs' messages (the reconciler skips them): one update_many, `_id`
        `$in` the batch (a point lookup per id on the `_id` index)."""
        if job_ids:
            update = {"$set": {"enqueued_at": now, "updated_at": now}}
            await self._jobs.update_many({"_id": {"$in": list(job_ids)}}, update)

    # The status machine (the whole map and every path that ends a job: infra/lifecycle.py; who moves a job out of
    # each status: schemas.codes.JobStatus). Each transition is one conditional update on (_id, expected state).
    # The finishing transitions match the attempt number too, so a worker whose lease expired and was taken over
    # cannot overwrite the new holder's outcome.

    def _running(self, worker: str, now: datetime, lease_until: datetime) -> dict[str, Any]:
        return {
            "status": JobStatus.RUNNING.name,
            "worker": worker,
            "started_at": now,
            "lease_until": lease_until,
            "updated_at": now,
        }

    async def claim(
        self, job_id: ObjectId, *, worker: str, now: datetime, lease_until: datetime
    ) -> dict[str, Any] | None:
        """PENDING -> RUNNING for this worker, one more attempt counted (a deferral's note is over)."""
        return await self._jobs.find_one_and_update(
            {"_id": job_id, "status": JobStatus.PENDING.name},
            {"$set": self._running(worker, now, lease_until), "$inc": {"attempts": 1}, "$unset": {"deferred": ""}},
            return_document=ReturnDocument.AFTER,
        )

    async def recover_lost(
        self,
        job: dict[str, Any],
        *,
        now: datetime,
        take_over: tuple[str, datetime] | None = None,
        message_id: str | None = None,
    ) -> dict[str, Any] | None:
        """A RUNNING job whose lease expired: its lost attempt goes into history, and then

        - DEAD (ATTEMPTS_EXHAUSTED) when that attempt was its last, whoever asks;
        - with `take_over=(worker, lease_until)`: RUNNING again for that worker, one more attempt counted;
        - otherwise PENDING again under `message_id` (the reconciler publishes that message).

        Returns the job as it now is, or None when it moved meanwhile (its worker came back, or another
        reconciler or message got there first).
        """
        decision = decide_after_loss(job, now)
        error = decision.error
        lost = _push_history(history_entry(job, finished_at=now, outcome=AttemptOutcome.LOST, error=error))
        update: dict[str, Any] = {"$set": {"last_error": error, "updated_at": now}, "$push": lost}
        if decision.outcome is AttemptOutcome.DEAD:
            update = _ending(JobStatus.DEAD, now, error=error) | {"$push": lost}
        elif take_over is not None:
            worker, lease_until = take_over
            update["$set"] |= self._running(worker, now, lease_until)
            update["$inc"] = {"attempts": 1}
        else:
            # Unconfirmed until the reconciler's publish is confirmed (`mark_enqueued`).
            update["$set"] |= {
                "status": JobStatus.PENDING.name,
                "run_after": decision.run_after,
                "message_id": message_id,
            }
            update["$unset"] = {"lease_until": "", "enqueued_at": ""}
        return await self._jobs.find_one_and_update(
            {
                "_id": job["_id"],
                "status": JobStatus.RUNNING.name,
                "attempts": job["attempts"],
                "lease_until": job["lease_until"],
            },
            update,
            return_document=ReturnDocument.AFTER,
        )

    async def _finish_attempt(self, job: dict[str, Any], update: dict[str, Any]) -> bool:
        result = await self._jobs.update_one(
            {"_id": job["_id"], "status": JobStatus.RUNNING.name, "attempts": job["attempts"]}, update
        )
        return result.modified_count == 1

    async def complete(
        self,
        job: dict[str, Any],
        *,
        now: datetime,
        output: dict[str, Any],
        error: dict[str, Any] | None = None,
    ) -> bool:
        """RUNNING -> DONE with the attempt's output (`result` for SEARCH, `delivery` for OUTBOX).

        `error`: the attempt failed in part and this is the best it could do (a search some sources answered).
        """
        update = _ending(JobStatus.DONE, now, error=error)
        update["$set"] |= output
        entry = history_entry(job, finished_at=now, outcome=AttemptOutcome.DONE, error=error)
        return await self._finish_attempt(job, update | {"$push": _push_history(entry)})

    async def schedule_retry(
        self,
        job: dict[str, Any],
        *,
        now: datetime,
        error: dict[str, Any],
        run_after: datetime,
        keep: dict[str, Any] | None = None,
        deferred: dict[str, Any] | None = None,
    ) -> bool:
        """RUNNING -> PENDING: the job keeps its product's active slot until `run_after`; `keep` is stored for
        the next attempt.

        `deferred` ({sources, reason, until}): the attempt tried nothing (its sources' turn did not come) and is given
        back in this same update (`attempts - 1`, `deferrals + 1`); no history entry, `last_error` untouched.
        """
        pending = {"status": JobStatus.PENDING.name, "run_after": run_after, "updated_at": now, **(keep or {})}
        if deferred is not None:
            update: dict[str, Any] = {
                "$set": pending | {"deferred": deferred},
                "$inc": {"attempts": -1, "deferrals": 1},
            }
        else:
            entry = history_entry(job, finished_at=now, outcome=AttemptOutcome.RETRY, error=error)
            update = {"$set": pending | {"last_error": error}, "$push": _push_history(entry)}
        return await self._finish_attempt(job, update | {"$unset": {"lease_until": ""}})

    async def kill(self, job: dict[str, Any], *, now: datetime, error: dict[str, Any]) -> bool:
        """RUNNING -> DEAD: attempts exhausted or a permanent error. The product is free for a new job."""
        entry = history_entry(job, finished_at=now, outcome=AttemptOutcome.DEAD, error=error)
        return await self._finish_attempt(
            job, _ending(JobStatus.DEAD, now, error=error) | {"$push": _push_history(entry)}
        )

    async def discard(self, job_id: ObjectId) -> dict[str, Any] | None:
        """Delete a DEAD job for good (an operator's discard): the job as it was, or None when it is not DEAD (or
        gone). One conditional delete on (`_id`, status DEAD): a job re-driven meanwhile is never deleted. Its
        product's price_history stays; the DEAD running total keeps counting its death (it happened)."""
        return await self._jobs.find_one_and_delete(
            {"_id": job_id, "status": JobStatus.DEAD.name},
            projection={"job_type": 1, "product_code": 1, "last_error": 1, "attempts": 1, "finished_at": 1},
        )

    async def insert_follow_up(self, document: dict[str, Any]) -> bool:
        """Insert a job another job spawned (OUTBOX for a DONE SEARCH); False when it already exists."""
        try:
            await self._jobs.insert_one(document)
        except DuplicateKeyError:
            return False
        return True

    # Recovery: what the reconciler and a re-drive do. Each is again one conditional update.

    async def redrive(
        self, job_id: ObjectId, *, now: datetime, max_attempts: int, message_id: str, by: str | None = None
    ) -> dict[str, Any] | None:
        """DEAD -> PENDING with fresh attempts; history is kept, and every source is searched afresh (nothing of the
        earlier life's attempts is left: `BETWEEN_ATTEMPTS`). None when the job is not DEAD.

        Each re-drive is recorded in `redrive_history` (the newest HISTORY_LIMIT): when, and by which API key's name
        (`by`, absent when the gateway has no keys).

        Its death stays on record until it ends again: its `finished_at` is left in place (the
        walks count the death even if they reach it only now: `ending_of`); the retention TTL takes only DONE and
        DEAD jobs, so it never removes the job meanwhile.

        Raises ActiveJobExists when its product already has another active SEARCH job.
        """
        try:
            return await self._redrive(job_id, now=now, max_attempts=max_attempts, message_id=message_id, by=by)
        except DuplicateKeyError:
            raise ActiveJobExists(job_id) from None

    async def _redrive(
        self, job_id: ObjectId, *, now: datetime, max_attempts: int, message_id: str, by: str | None
    ) -> dict[str, Any] | None:
        record: dict[str, Any] = {"at": now} | ({"by": by} if by is not None else {})
        return await self._jobs.find_one_and_update(
            {"_id": job_id, "status": JobStatus.DEAD.name},
            {
                "$set": {
                    "status": JobStatus.PENDING.name,
                    "active": True,
                    "attempts": 0,
                    "max_attempts": max_attempts,
                    "run_after": now,
                    "updated_at": now,
                    "redriven_at": now,
                    "message_id": message_id,
                },
                "$unset": dict.fromkeys(["enqueued_at", *BETWEEN_ATTEMPTS], ""),
                "$inc": {"redrives": 1},
                "$push": {REDRIVE_HISTORY: {"$each": [record], "$slice": -HISTORY_LIMIT}},
            },
            return_document=ReturnDocument.AFTER,
        )

    async def take_for_republish(self, job: dict[str, Any], *, now: datetime, message_id: str) -> bool:
        """Claim the right to publish a PENDING job again: exactly one reconciler wins each round.

        The job becomes unconfirmed (no `enqueued_at`) until `mark_enqueued` records the broker's confirm, so
        a reconciler that dies between this and the publish leaves it to the next pass after the grace period.
        """
        result = await self._jobs.update_one(
            {"_id": job["_id"], "status": JobStatus.PENDING.name, "updated_at": job["updated_at"]},
            {
                "$set": {"updated_at": now, "message_id": message_id, "run_after": now},
                "$unset": {"enqueued_at": ""},
                "$inc": {"republishes": 1},
            },
        )
        return result.modified_count == 1

    async def mark_unconfirmed(self, job_id: ObjectId) -> None:
        """A job stored as enqueued whose publish failed: the reconciler's unconfirmed pass takes it up."""
        await self._jobs.update_one({"_id": job_id, "status": JobStatus.PENDING.name}, {"$unset": {"enqueued_at": ""}})

    async def kill_dead_lettered(self, job_id: ObjectId, *, now: datetime, queue: str) -> bool:
        """A message the broker dead-lettered: its job, if still active, is DEAD (never only in .XQ)."""
        error = error_document(JobErrorType.DEAD_LETTER, f"the message was dead-lettered to {queue}", now)
        result = await self._jobs.update_one(
            {"_id": job_id, "status": {"$in": status_names(ACTIVE_STATUSES)}},
            _ending(JobStatus.DEAD, now, error=error),
        )
        return result.modified_count == 1
