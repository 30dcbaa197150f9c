"""How the Coupang browser's proxies fare, fleet-wide: one document per proxy, counted by every worker process.

Each worker process keeps its own rotation and benches (actors/proxies.py); what they saw is added up here so that
`/v1/lps/queue/stats` shows each proxy's outcomes and its latest bench whichever worker saw them. A document is keyed
by the proxy's label (`scheme://host:port`, never its credentials): the collection holds one document per proxy ever
configured, a set bounded by the deployment's proxy list, and both the write and the read go by `_id`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from pymongo.asynchronous.database import AsyncDatabase

PROXY_OUTCOMES = "proxy_outcomes"


class ProxyLedger:
    def __init__(self, db: AsyncDatabase) -> None:
        self._collection = db[PROXY_OUTCOMES]

    async def record(self, label: str, outcome: str, *, now: datetime, benched_until: datetime | None) -> None:
        """One search through the proxy `label` ended with `outcome`; `benched_until` when it was benched for it."""
        increments = {f"outcomes.{outcome}": 1}
        latest: dict[str, Any] = {"last_outcome": outcome, "last_at": now}
        if benched_until is not None:
            increments["benched"] = 1
            latest["benched_until"] = benched_until
        await self._collection.update_one({"_id": label}, {"$inc": increments, "$set": latest}, upsert=True)

    async def describe(self, labels: Sequence[str], now: datetime) -> dict[str, dict[str, Any]]:
        """The configured proxies' counts; a proxy no search has used yet shows zeros."""
        found = {document.pop("_id"): document async for document in self._collection.find({"_id": {"$in": labels}})}
        described: dict[str, dict[str, Any]] = {}
        for label in labels:
            document = found.get(label, {})
            benched_until = document.get("benched_until")
            described[label] = {
                "outcomes": document.get("outcomes", {}),
                "benched": document.get("benched", 0),
                "benched_now": benched_until is not None and benched_until > now,
                "benched_until": benched_until,
                "last_outcome": document.get("last_outcome"),
                "last_at": document.get("last_at"),
            }
        return described
