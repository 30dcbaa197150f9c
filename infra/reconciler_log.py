"""What reconcilers did: running totals per action (shown by /v1/lps/queue/stats) and undecodable dead letters."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bson import Binary
from pymongo.asynchronous.database import AsyncDatabase

RECONCILER = "reconciler"
DEAD_LETTERS = "dead_letters"
_TOTALS_ID = "totals"


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

    async def keep_dead_letter(self, *, queue: str, body: bytes, reason: str, now: datetime) -> None:
        """A dead letter that names no job (undecodable): kept for a person instead of expiring in .XQ."""
        await self._dead_letters.insert_one({"queue": queue, "body": Binary(body), "reason": reason, "at": now})
