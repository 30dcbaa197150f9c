"""`price_history`: one document per source of every finished search, for reporting over time."""

from __future__ import annotations

from typing import Any

from pymongo import DESCENDING
from pymongo.asynchronous.database import AsyncDatabase

from infra.mongo import PRICE_HISTORY


def price_history_documents(job: dict[str, Any]) -> list[dict[str, Any]]:
    """From a DONE SEARCH job: per source its outcome, offer count, duration and lowest matching price."""
    result = job.get("result") or {}
    lowest_by_source: dict[str, int] = {}
    for offer in result.get("offers", []):
        if offer.get("rejected") is None:
            source, price = offer["source"], offer["price"]
            lowest_by_source[source] = min(price, lowest_by_source.get(source, price))
    documents = []
    for source, summary in (result.get("sources") or {}).items():
        document = {
            "product_code": job["product_code"],
            "job_id": job["_id"],
            "searched_at": result.get("searched_at"),
            "source": source,
            "outcome": summary.get("outcome"),
            "offer_count": summary.get("count", 0),
            "ms": summary.get("ms"),
        }
        if source in lowest_by_source:
            document["lowest_price"] = lowest_by_source[source]
        documents.append(document)
    return documents


class PriceHistory:
    def __init__(self, db: AsyncDatabase) -> None:
        self._collection = db[PRICE_HISTORY]

    async def record(self, job: dict[str, Any]) -> None:
        if documents := price_history_documents(job):
            await self._collection.insert_many(documents, ordered=False)

    async def latest(self, product_code: str, limit: int) -> list[dict[str, Any]]:
        """The product's last `limit` entries, newest first (`product_searched_at`): a watch's last prices, the
        dashboard's price chart."""
        if limit <= 0:
            return []
        cursor = self._collection.find(
            {"product_code": product_code},
            {"_id": 0, "job_id": 1, "searched_at": 1, "source": 1, "outcome": 1, "lowest_price": 1},
        )
        return await cursor.sort("searched_at", DESCENDING).limit(limit).to_list()
