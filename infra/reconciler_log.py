"""What reconcilers did: running totals per action (shown by /v1/lps/queue/stats) and undecodable dead letters."""

from __future__ import annotations

import contextlib
from datetime import datetime
from typing import Any

from bson import Binary, ObjectId
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError

RECONCILER = "reconciler"
DEAD_LETTERS = "dead_letters"
_TOTALS_ID = "totals"
_DELIVERY_CURSOR_ID = "delivery_cursor"


class ReconcilerLog:
    def __init__(self, db: AsyncDatabase) -> None:
        self._totals = db[RECONCILER]
        self._dead_letters = db[DEAD_LETTERS]

    async def add(self, counts: dict[str, int], now: datetime) -> None:
        increments = {name: count for name, count in counts.items() if count}
        if increments:
            await self._totals.update_one(
                {"_id": _TOTALS_ID}, {"$inc": increments, "$set": {"updated_at": now}}, upsert=True
            )

    async def totals(self) -> dict[str, Any]:
        document = await self._totals.find_one({"_id": _TOTALS_ID}) or {}
        return {key: value for key, value in document.items() if key not in {"_id", "updated_at"}}

    async def delivery_cursor(self, default: tuple[datetime, ObjectId]) -> tuple[datetime, ObjectId]:
        """How far the missing-delivery check has walked the DONE searches: (finished_at, _id) of the last one."""
        document = await self._totals.find_one({"_id": _DELIVERY_CURSOR_ID})
        return (document["finished_at"], document["job_id"]) if document else default

    async def advance_delivery_cursor(self, old: tuple[datetime, ObjectId], new: tuple[datetime, ObjectId]) -> None:
        """Move the cursor forward from `old`; a no-op when another reconciler moved it meanwhile."""
        moved = {"$set": {"finished_at": new[0], "job_id": new[1]}}
        result = await self._totals.update_one(
            {"_id": _DELIVERY_CURSOR_ID, "finished_at": old[0], "job_id": old[1]}, moved
        )
        if result.matched_count == 0 and await self._totals.find_one({"_id": _DELIVERY_CURSOR_ID}) is None:
            with contextlib.suppress(DuplicateKeyError):  # another reconciler created it first
                await self._totals.insert_one({"_id": _DELIVERY_CURSOR_ID, "finished_at": new[0], "job_id": new[1]})

    async def keep_dead_letter(self, *, queue: str, body: bytes, reason: str, now: datetime) -> None:
        """A dead letter that names no job (undecodable, no job id, unknown actor): kept for a person instead of
        expiring in .XQ."""
        await self._dead_letters.insert_one({"queue": queue, "body": Binary(body), "reason": reason, "at": now})
