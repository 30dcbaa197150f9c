"""The audit trail: one document per operator action that changes something (pause, resume, discard), in `audit`.

Written by the one operation that acts (service/queue_operations.py, service/job_operations.py), whichever face
called it (the API, the dashboard, the CLI through the API); read newest first by the dashboard (`at_desc`).
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from pymongo import DESCENDING, IndexModel
from pymongo.asynchronous.database import AsyncDatabase

AUDIT = "audit"
AUDIT_BY_AT = "at_desc"
AUDIT_BY_ACTION_AT = "action_at_desc"


class AuditAction(enum.StrEnum):
    PAUSE = "pause"
    RESUME = "resume"
    DISCARD = "discard"


def audit_indexes() -> list[IndexModel]:
    return [
        IndexModel([("at", DESCENDING)], name=AUDIT_BY_AT),
        IndexModel([("action", 1), ("at", DESCENDING)], name=AUDIT_BY_ACTION_AT),
    ]


class AuditTrail:
    def __init__(self, db: AsyncDatabase) -> None:
        self._collection = db[AUDIT]

    async def record(self, action: AuditAction, *, by: str | None, at: datetime, **details: Any) -> None:
        await self._collection.insert_one({"action": action.value, "by": by, "at": at, **details})

    async def record_many(
        self, action: AuditAction, *, by: str | None, at: datetime, each: list[dict[str, Any]]
    ) -> None:
        if each:
            await self._collection.insert_many([{"action": action.value, "by": by, "at": at, **one} for one in each])

    async def recent(self, limit: int = 50, action: AuditAction | None = None) -> list[dict[str, Any]]:
        """The newest `limit` records (of one action if given), newest first."""
        query = {"action": action.value} if action else {}
        cursor = self._collection.find(query, {"_id": 0}).sort("at", DESCENDING).limit(limit)
        return [document async for document in cursor]
