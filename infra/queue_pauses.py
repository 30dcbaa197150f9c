"""Whether a job type's work is paused: one small document per job type in `queue_pauses`, read by `_id`.

The pause lives in the store, not in a process: every pool of that type, on every machine, reads it every
`LPS_PAUSE_POLL_INTERVAL` seconds (actors/pausing.py) and when it starts, and every gateway shows it (stats,
/metrics, the dashboard). Pausing stops consuming, never a job: PENDING jobs stay PENDING with no attempt spent.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pymongo import ReturnDocument
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError

from schemas.codes import JobType

QUEUE_PAUSES = "queue_pauses"


@dataclass(frozen=True, slots=True)
class PauseState:
    """One job type's pause: whether its pools consume, and who changed that last and when."""

    job_type: JobType
    paused: bool
    #: Who paused (or resumed) it last: the API key's name (None without keys), or the CLI/dashboard user's key.
    changed_by: str | None = None
    changed_at: datetime | None = None

    def to_api(self) -> dict[str, Any]:
        return {"paused": self.paused, "changed_by": self.changed_by, "changed_at": self.changed_at}


def _state(job_type: JobType, document: dict[str, Any] | None) -> PauseState:
    if not document:
        return PauseState(job_type, paused=False)
    return PauseState(job_type, bool(document.get("paused")), document.get("changed_by"), document.get("changed_at"))


class QueuePauses:
    """The `queue_pauses` collection: `_id` the job type's name, `paused`, `changed_by`, `changed_at`."""

    def __init__(self, db: AsyncDatabase) -> None:
        self._collection = db[QUEUE_PAUSES]

    async def set(self, job_type: JobType, *, paused: bool, by: str | None, now: datetime) -> tuple[PauseState, bool]:
        """Pause or resume `job_type`: its state afterwards, and whether this call changed it (pausing a paused
        type keeps who paused it first). One conditional update: of two callers at once, one changes it."""
        # As BSON keeps it (milliseconds): the answer of the call that changed it and later reads agree.
        changes = {
            "paused": paused,
            "changed_by": by,
            "changed_at": now.replace(microsecond=now.microsecond // 1000 * 1000),
        }
        after = await self._collection.find_one_and_update(
            {"_id": job_type.name, "paused": {"$ne": paused}}, {"$set": changes}, return_document=ReturnDocument.AFTER
        )
        if after is not None:
            return _state(job_type, after), True
        if paused:
            try:  # never paused before: no document yet
                await self._collection.insert_one({"_id": job_type.name, **changes})
                return _state(job_type, {"_id": job_type.name, **changes}), True
            except DuplicateKeyError:
                pass
        return _state(job_type, await self._collection.find_one({"_id": job_type.name})), False

    async def states(self) -> dict[JobType, PauseState]:
        """Every job type's pause (a type never paused: not paused)."""
        # By `_id` (one document per job type): the `_id` index, as every other read of it.
        names = [job_type.name for job_type in JobType]
        found = {document["_id"]: document async for document in self._collection.find({"_id": {"$in": names}})}
        return {job_type: _state(job_type, found.get(job_type.name)) for job_type in JobType}
