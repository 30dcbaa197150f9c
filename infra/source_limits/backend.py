"""Dramatiq's RateLimiterBackend on MongoDB: the few atomic operations on one document the limiters are made of."""

from __future__ import annotations

import contextlib
from typing import Any

from pymongo import ReturnDocument
from pymongo.asynchronous.collection import AsyncCollection
from pymongo.errors import DuplicateKeyError


class MongoLimiterBackend:
    """Dramatiq's RateLimiterBackend on MongoDB: each operation is one update of one document, by `_id`."""

    def __init__(self, collection: AsyncCollection) -> None:
        self._collection = collection

    async def add(self, key: str, document: dict[str, Any]) -> None:
        """Create the key's document unless it exists (a concurrent creator wins; either way it exists)."""
        # DuplicateKeyError: another process created it between the upsert's lookup and its insert.
        with contextlib.suppress(DuplicateKeyError):
            await self._collection.update_one({"_id": key}, {"$setOnInsert": document}, upsert=True)

    async def take(
        self, key: str, conditions: list[dict[str, Any]], update: dict[str, Any], *, fields: tuple[str, ...] = ()
    ) -> dict[str, Any] | None:
        """Apply `update` if every condition holds (one conditional update; a read when there is nothing to
        change). Returns the document's `fields` (after the update), or None: refused."""
        query: dict[str, Any] = {"_id": key}
        if conditions:
            query["$and"] = conditions
        projection = dict.fromkeys(fields or ("_id",), 1)
        if not update:
            return await self._collection.find_one(query, projection)
        return await self._collection.find_one_and_update(
            query, update, projection=projection, return_document=ReturnDocument.AFTER
        )

    async def give_back(self, key: str, update: dict[str, Any], *, read: bool = False) -> dict[str, Any] | None:
        """Apply `update`; with `read`, return the document as it is after it."""
        if read:
            return await self._collection.find_one_and_update(
                {"_id": key}, update, return_document=ReturnDocument.AFTER
            )
        await self._collection.update_one({"_id": key}, update)
        return None

    async def change(self, key: str, expected: dict[str, Any], update: dict[str, Any]) -> bool:
        """A state change that only one process may make: applied when the document still is as `expected`."""
        result = await self._collection.update_one({"_id": key, **expected}, update)
        return result.modified_count == 1

    async def read(self, key: str) -> dict[str, Any] | None:
        return await self._collection.find_one({"_id": key})
