"""What a job document holds: a new job, how its id is read, the record of each attempt and re-drive, what lives only
between the attempts of one life, and the fields every ending sets. The changes made to it are `infra.jobs`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bson import ObjectId

from infra.minutes import minute_of
from schemas.codes import (
    ENDED_STATUSES,
    AttemptOutcome,
    JobStatus,
    JobType,
    status_names,
)
from schemas.offers import SOURCES_ANSWERED


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


#: How many attempts `history` keeps (the newest); `redrive_history` keeps as many re-drives.
HISTORY_LIMIT = 20


#: Where a job records its re-drives: [{at, by}], oldest first (`JobRepository.redrive`).
REDRIVE_HISTORY = "redrive_history"


#: What lives only between the attempts of one life of a job: the running attempt's lease, a deferral's note, a
#: search's answers so far. Every transition that ends a job (`_ending`) and a re-drive clear them, so nothing of
#: one life (old offers above all) is carried into the next under a fresh `searched_at`.
BETWEEN_ATTEMPTS = ("lease_until", "deferred", SOURCES_ANSWERED)


def history_entry(
    job: dict[str, Any], *, finished_at: datetime, outcome: AttemptOutcome, error: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The record of the attempt `job` is in (its `attempts`, `worker` and `started_at`)."""
    entry = {
        "attempt": job["attempts"],
        "worker": job.get("worker"),
        "started_at": job.get("started_at"),
        "finished_at": finished_at,
        "outcome": str(outcome),
    }
    if error is not None:
        entry["error"] = error
    return entry


def finished_minute(at: datetime) -> int:
    """The minute a job ended in (minutes since the epoch): what the per-minute timeline tallies by."""
    return minute_of(at)


def ended_fields(now: datetime) -> dict[str, Any]:
    """The fields every transition into DONE or DEAD sets: retention counts from `finished_at`, and the walks over
    what ended (`JobRepository.ended_after`) read by it."""
    return {"finished_at": now}


def ending_of(job: dict[str, Any]) -> str:
    """How a job found by a walk over `ended_by_finished_at` ended: DONE or DEAD.

    A re-drive leaves the `finished_at` of the death it undoes in place until the job ends
    again, and only DEAD jobs are re-driven: so a job walked while PENDING or RUNNING died, and its death is counted
    (totals, timeline) whatever it does next."""
    status = job.get("status")
    return status if status in status_names(ENDED_STATUSES) else JobStatus.DEAD.name
