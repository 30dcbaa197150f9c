"""The `watches` collection: one document per watched product, and every change made to one.

Each change is one conditional update: the scheduler's move of `next_run_at` matches the value it read, so of
several schedulers that saw a watch due exactly one moves it (and only that one enqueues its search); the
outbox's record of a judged result matches the result it judged against.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bson import ObjectId
from pymongo import ASCENDING, ReturnDocument, UpdateOne
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import BulkWriteError

from infra.mongo import WATCHES
from infra.price_history import PriceHistory
from schemas.schedule import Schedule, jitter_fraction

DUPLICATE_KEY = 11000


def schedule_of(watch: dict[str, Any], timezone: str) -> Schedule:
    return Schedule(
        every=watch.get("every_seconds"),
        cron=watch.get("cron"),
        timezone=watch.get("timezone") or timezone,
        anchor=watch.get("anchor_at"),
    )


def next_run(watch: dict[str, Any], now: datetime, *, timezone: str, max_jitter: float) -> datetime:
    """The watch's first run after `now` (one, however many ticks were missed), with its own jitter."""
    return schedule_of(watch, timezone).next_run(now, fraction=jitter_fraction(watch["_id"]), max_jitter=max_jitter)


class WatchRepository:
    def __init__(self, db: AsyncDatabase) -> None:
        self._watches = db[WATCHES]
        self._prices = PriceHistory(db)

    async def insert(self, documents: Sequence[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """Insert unordered; returns (created, {product_code: the watch that already held it})."""
        rejected: set[int] = set()
        try:
            await self._watches.insert_many(list(documents), ordered=False)
        except BulkWriteError as error:
            errors = error.details.get("writeErrors", [])
            if any(err.get("code") != DUPLICATE_KEY for err in errors):
                raise
            rejected = {err["index"] for err in errors}
        created = [doc for index, doc in enumerate(documents) if index not in rejected]
        existing = {}
        for index in sorted(rejected):
            code = documents[index]["product_code"]
            # A point lookup each: the embedded store answers `$in` by a scan per value.
            if (found := await self._watches.find_one({"product_code": code})) is not None:
                existing[code] = found
        return created, existing

    async def get(self, watch_id: ObjectId) -> dict[str, Any] | None:
        return await self._watches.find_one({"_id": watch_id})

    async def page(self, *, product_code: str | None, after: ObjectId | None, limit: int) -> list[dict[str, Any]]:
        """Watches by _id (oldest first) after a cursor, by product_code when given: served by `_id` / the unique
        product index, a page reads its own watches."""
        query: dict[str, Any] = {}
        if product_code is not None:
            query["product_code"] = product_code
        if after is not None:
            query["_id"] = {"$gt": after}
        return await self._watches.find(query).sort("_id", ASCENDING).limit(limit).to_list()

    async def change(self, watch_id: ObjectId, changes: dict[str, Any], now: datetime) -> dict[str, Any] | None:
        """Set fields (values already validated); None when there is no such watch."""
        return await self._watches.find_one_and_update(
            {"_id": watch_id},
            {"$set": changes | {"updated_at": now}},
            return_document=ReturnDocument.AFTER,
        )

    async def set_paused(self, watch_id: ObjectId, paused: bool, now: datetime) -> dict[str, Any] | None:
        return await self.change(watch_id, {"paused": paused}, now)

    async def delete(self, watch_id: ObjectId) -> bool:
        return (await self._watches.delete_one({"_id": watch_id})).deleted_count == 1

    async def lowest_prices(self, product_code: str, limit: int) -> list[dict[str, Any]]:
        """The product's last `limit` price_history entries, newest first (`product_searched_at`)."""
        entries = await self._prices.latest(product_code, limit)
        return [entry | {"job_id": str(entry["job_id"])} for entry in entries]

    # The scheduler.

    async def due(self, now: datetime, limit: int) -> list[dict[str, Any]]:
        """Unpaused watches whose next run is at or before `now`, earliest first: a prefix of `due_next_run_at`."""
        cursor = self._watches.find({"paused": False, "next_run_at": {"$lte": now}})
        return await cursor.sort("next_run_at", ASCENDING).limit(limit).to_list()

    async def take_run(self, watch: dict[str, Any], *, next_run_at: datetime, now: datetime) -> bool:
        """Move a due watch's next run forward: True for the one scheduler whose update matched."""
        result = await self._watches.update_one(
            {"_id": watch["_id"], "paused": False, "next_run_at": watch["next_run_at"]},
            {"$set": {"next_run_at": next_run_at, "last_run_at": now, "updated_at": now}},
        )
        return result.modified_count == 1

    async def give_back_run(self, watch: dict[str, Any], *, taken_with: datetime) -> None:
        """Undo `take_run` for a run that was not submitted: due again, unless the watch changed meanwhile."""
        stored = taken_with.replace(microsecond=taken_with.microsecond // 1000 * 1000)  # BSON keeps milliseconds
        await self._watches.update_one(
            {"_id": watch["_id"], "next_run_at": stored}, {"$set": {"next_run_at": watch["next_run_at"]}}
        )

    async def note_runs(self, started: dict[ObjectId, ObjectId], skipped: dict[ObjectId, ObjectId]) -> None:
        """Record each run's search (`runs`), or that the product's previous search was still active
        (`skipped_active`). One round trip of updates by _id."""
        updates = [
            UpdateOne({"_id": watch_id}, {"$set": {"last_job_id": job_id}, "$inc": {"runs": 1}})
            for watch_id, job_id in started.items()
        ] + [
            UpdateOne({"_id": watch_id}, {"$set": {"last_job_id": job_id}, "$inc": {"skipped_active": 1}})
            for watch_id, job_id in skipped.items()
        ]
        if updates:
            await self._watches.bulk_write(updates, ordered=False)

    # The outbox.

    async def count_superseded(self, watch_id: ObjectId) -> None:
        """A result older than the last one judged, not delivered: counted, `last_seen` left as it is."""
        await self._watches.update_one({"_id": watch_id}, {"$inc": {"deliveries_skipped": 1}})

    async def record_judged(
        self, watch: dict[str, Any], *, seen: dict[str, Any], delivered: dict[str, Any] | None, now: datetime
    ) -> bool:
        """Record a result the outbox judged (`last_seen`) and, when it is to be delivered, `last_delivered`.

        Conditional on the `last_seen` it was judged against: of two deliveries judging at once, one wins and
        the other judges again.
        """
        update: dict[str, Any] = {"last_seen": seen, "updated_at": now}
        counter = "deliveries" if delivered is not None else "deliveries_skipped"
        if delivered is not None:
            update["last_delivered"] = delivered
        previous = (watch.get("last_seen") or {}).get("job_id")
        judged_against = {"last_seen.job_id": previous} if previous is not None else {"last_seen": None}
        result = await self._watches.update_one(
            {"_id": watch["_id"], **judged_against},
            {"$set": update, "$inc": {counter: 1}},
        )
        return result.modified_count == 1
