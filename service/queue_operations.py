"""Pausing and resuming a job type's work, as one operation for every face: the API
(`POST /v1/lps/queues/{search|outbox}/pause|resume`), the dashboard's buttons and `lps queue pause|resume` (through
the API). Admin only; each change is written to the audit trail (infra/audit.py). The pools read the pause from the
store (actors/pausing.py); this module only records it.
"""

from __future__ import annotations

from typing import Any

from infra.audit import AuditAction, AuditTrail
from infra.clock import utcnow
from infra.mongo import MainDatabase, deadline
from infra.queue_pauses import PauseState, QueuePauses
from infra.settings import Settings
from schemas.codes import ErrorType, JobType
from service.errors import ApiError
from service.job_operations import Caller, require_admin

#: The queue names the API takes, each a job type's work (all its queues: the main one, its delay queue, its bands).
QUEUE_NAMES = {job_type.name.lower(): job_type for job_type in JobType}


def job_type_of(queue: str) -> JobType:
    """The job type whose work `queue` names (`search`, `outbox`): LPS_QUEUE_NOT_FOUND for any other name."""
    job_type = QUEUE_NAMES.get(queue)
    if job_type is None:
        raise ApiError(ErrorType.LPS_QUEUE_NOT_FOUND, f"no such queue; one of: {', '.join(QUEUE_NAMES)}")
    return job_type


class QueueOperations:
    def __init__(self, settings: Settings, database: MainDatabase) -> None:
        self._settings = settings
        self._pauses = QueuePauses(database.write)
        self._audit = AuditTrail(database.write)

    async def set_paused(self, queue: str, caller: Caller, *, paused: bool) -> dict[str, Any]:
        """Pause (or resume) the work of the job type `queue` names: its state afterwards, with `changed` (false
        when it already was so: nothing recorded)."""
        require_admin(caller, "pause" if paused else "resume")
        job_type = job_type_of(queue)
        now = utcnow()
        with deadline(self._settings):
            state, changed = await self._pauses.set(job_type, paused=paused, by=caller.key_name, now=now)
            if changed:
                action = AuditAction.PAUSE if paused else AuditAction.RESUME
                await self._audit.record(action, by=caller.key_name, at=now, queue=queue)
        return {"queue": queue, **state.to_api(), "changed": changed}

    async def states(self) -> dict[JobType, PauseState]:
        with deadline(self._settings):
            return await self._pauses.states()
