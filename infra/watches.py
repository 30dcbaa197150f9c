"""The `watches` collection: one document per watched product, and every change made to one.

Each change is one conditional update: the scheduler's move of `next_run_at` matches the value it read, so of
several schedulers that saw a watch due exactly one moves it (and only that one enqueues its search); the
outbox's record of a judged result matches the result it judged against.

The scheduler finds due watches by one range on `paused_next_run_at` (paused, next_run_at): the equality on
`paused`, then `next_run_at <= now` in the index's order, so a pass reads the due watches' keys and no other.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bson import ObjectId
from pymongo import ASCENDING, ReturnDocument, UpdateOne
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import BulkWriteError

from infra.mongo import WATCHES
from infra.price_history import PriceHistory
from schemas.schedule import Schedule, jitter_fraction, parse_every
from schemas.watches import Notify

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


def run_at(moment: datetime) -> dict[str, Any]:
    """The field that says when a watch runs next (what the scheduler reads by)."""
    return {"next_run_at": moment}


def schedule_fields(*, every: str | None, cron: str | None, timezone: str | None) -> dict[str, Any]:
    """The stored form of a validated schedule: `every` (seconds too), or else `cron` in `timezone`."""
    if every is not None:
        return {"every": every, "every_seconds": parse_every(every), "cron": None, "timezone": None}
    return {"every": None, "every_seconds": None, "cron": cron, "timezone": timezone}


def new_watch(
    product_code: str,
    product: dict[str, Any],
    *,
    now: datetime,
    every: str | None = None,
    cron: str | None = None,
    timezone: str | None = None,
    notify: str = Notify.ON_CHANGE,
    priority: str | None = None,
    first_run_at: datetime | None = None,
) -> dict[str, Any]:
    """A new watch document, as POST /v1/lps/watches stores one: its schedule counted from `now`, first due at
    `first_run_at` (by default now: its first search at once), nothing run or delivered yet."""
    return {
        "_id": ObjectId(),
        "product_code": product_code,
        "product": product,
        **schedule_fields(every=every, cron=cron, timezone=timezone),
        "notify": str(notify),
        "priority": priority,
        "paused": False,
        "anchor_at": now,
        **run_at(now if first_run_at is None else first_run_at),
        "created_at": now,
        "updated_at": now,
        "runs": 0,
        "skipped_active": 0,
        "deliveries": 0,
        "deliveries_skipped": 0,
    }


def to_millis(moment: datetime) -> datetime:
    """As the store keeps it (milliseconds): a conditional update matches the value it reads back."""
    return moment.replace(microsecond=moment.microsecond // 1000 * 1000)


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
        codes = sorted({documents[index]["product_code"] for index in rejected})
        if not codes:
            return created, {}
        # One `$in` on the unique product index: a point lookup per code, in one round trip.
        found = await self._watches.find({"product_code": {"$in": codes}}).to_list()
        return created, {watch["product_code"]: watch for watch in found}

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

    async def by_product_code(self, *, prefix: str | None, after: str | None, limit: int) -> list[dict[str, Any]]:
        """Watches in product-code order, those whose code starts with `prefix` (when given), after the code
        `after`: one range of the unique product index (`one_watch_per_product`), a page reads its own watches."""
        codes: dict[str, Any] = {}
        if prefix:
            codes["$regex"] = "^" + re.escape(prefix)
        if after is not None:
            codes["$gt"] = after
        query = {"product_code": codes} if codes else {}
        return await self._watches.find(query).sort("product_code", ASCENDING).limit(limit).to_list()

    async def change(
        self,
        watch_id: ObjectId,
        changes: dict[str, Any],
        now: datetime,
        *,
        clear: Sequence[str] = (),
        only_if: dict[str, Any] | None = None,
    ) -> dict[str, Any] | None:
        """Set fields (values already validated) and remove the `clear` ones, when the watch still matches
        `only_if` (what the change was validated against); None when there is no such watch or it no longer
        matches."""
        update: dict[str, Any] = {"$set": changes | {"updated_at": now}}
        if clear:
            update["$unset"] = dict.fromkeys(clear, "")
        return await self._watches.find_one_and_update(
            {"_id": watch_id, **(only_if or {})}, update, return_document=ReturnDocument.AFTER
        )

    async def pause(self, watch_id: ObjectId, now: datetime) -> dict[str, Any] | None:
        """No run starts until `resume` (the scheduler's reads and takes ask for `paused: false`)."""
        return await self.change(watch_id, {"paused": True}, now)

    async def resume(self, watch_id: ObjectId, now: datetime) -> dict[str, Any] | None:
        """Runs start again; a run missed while paused is due at once (`$max`: a later next run is kept)."""
        return await self._watches.find_one_and_update(
            {"_id": watch_id},
            {"$set": {"paused": False, "updated_at": now}, "$max": run_at(now)},
            return_document=ReturnDocument.AFTER,
        )

    async def delete(self, watch_id: ObjectId) -> bool:
        return (await self._watches.delete_one({"_id": watch_id})).deleted_count == 1

    async def lowest_prices(self, product_code: str, limit: int) -> list[dict[str, Any]]:
        """The product's last `limit` price_history entries, newest first (`product_searched_at`)."""
        entries = await self._prices.latest(product_code, limit)
        return [entry | {"job_id": str(entry["job_id"])} for entry in entries]

    # The scheduler.

    async def due(self, now: datetime, limit: int) -> list[dict[str, Any]]:
        """Unpaused watches whose next run is at or before `now`, the longest due first, at most `limit`: one range of
        `paused_next_run_at` (equality on `paused`, then `next_run_at` in order up to now), so a pass reads the keys of
        the watches it returns."""
        query = {"paused": False, "next_run_at": {"$lte": now}}
        return await self._watches.find(query).sort("next_run_at", ASCENDING).limit(limit).to_list()

    async def take_run(self, watch: dict[str, Any], *, next_run_at: datetime, now: datetime) -> bool:
        """Move a due watch's next run forward: True for the one scheduler whose update matched."""
        result = await self._watches.update_one(
            {"_id": watch["_id"], "paused": False, "next_run_at": watch["next_run_at"]},
            {"$set": run_at(next_run_at) | {"last_run_at": now, "updated_at": now}},
        )
        return result.modified_count == 1

    async def give_back_run(self, watch: dict[str, Any], *, taken_with: datetime, now: datetime) -> None:
        """Undo `take_run` for a run that was not submitted: due again at `now`, unless the watch changed
        meanwhile."""
        await self._watches.update_one(
            {"_id": watch["_id"], "next_run_at": to_millis(taken_with)}, {"$set": run_at(now)}
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

    async def record_judged(self, watch: dict[str, Any], *, seen: dict[str, Any], now: datetime) -> bool:
        """Record a result the outbox judged as the watch's `last_seen` (a skipped one counted, one at or above
        the target remembered in `last_above_at`).

        Conditional on the `last_seen` it was judged against: of two deliveries judging at once, one wins and
        the other judges again.
        """
        update: dict[str, Any] = {"$set": {"last_seen": seen, "updated_at": now}}
        if not seen["deliver"]:
            update["$inc"] = {"deliveries_skipped": 1}
        if seen.get("below_target") is False and seen.get("finished_at") is not None:
            update["$max"] = {"last_above_at": seen["finished_at"]}
        previous = (watch.get("last_seen") or {}).get("job_id")
        judged_against = {"last_seen.job_id": previous} if previous is not None else {"last_seen": None}
        result = await self._watches.update_one({"_id": watch["_id"], **judged_against}, update)
        return result.modified_count == 1

    async def record_delivered(self, watch_id: ObjectId, delivered: dict[str, Any], now: datetime) -> bool:
        """The receiver answered 2xx: `delivered` (a judged result) becomes `last_delivered`, counted once.

        Not when a newer result was recorded delivered meanwhile, nor twice for the same search (an attempt that
        delivered but died before finishing delivers again under the same Idempotency-Key).
        """
        not_newer = [
            {"last_delivered.finished_at": {"$gt": delivered["finished_at"]}},
            {"last_delivered.job_id": delivered["job_id"]},
        ]
        result = await self._watches.update_one(
            {"_id": watch_id, "$nor": not_newer},
            {"$set": {"last_delivered": delivered, "updated_at": now}, "$inc": {"deliveries": 1}},
        )
        return result.modified_count == 1
