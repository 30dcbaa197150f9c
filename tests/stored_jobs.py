"""Jobs and watches written straight into a test's store, in the states a test needs: a re-drivable DEAD job, ended
searches with their prices, a watch as the API stores one."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from bson import ObjectId

from infra.clock import utcnow
from infra.job_documents import ended_fields, history_entry, new_job
from infra.mongo import MainDatabase, create_client
from infra.settings import Settings
from infra.watches import new_watch
from schemas.codes import AttemptOutcome, JobType


async def insert_job(settings: Settings, **fields) -> dict:
    """A SEARCH job, PENDING unless `fields` say otherwise (`**DEAD`: dead, ready to be re-driven)."""
    client = create_client(settings)
    try:
        job_id = ObjectId()
        document = (
            new_job(
                JobType.SEARCH,
                job_id=job_id,
                product_code=fields.pop("product_code", "REDRIVE-1"),
                product={"keyword": "k"},
                priority="HIGH",
                max_attempts=2,
                now=utcnow() - timedelta(minutes=5),
                message_id="m",
            )
            | fields
        )
        if document["status"] in ("DONE", "DEAD"):
            del document["active"]  # an ended job no longer holds its product's slot
        await MainDatabase.open(client, settings.mongo_db).jobs().insert_one(document)
        return document
    finally:
        await client.close()


DEAD = {
    "status": "DEAD",
    "attempts": 2,
    "last_error": {"type": "ERROR", "message": "boom"},
    "history": [{"attempt": 1, "outcome": "RETRY"}, {"attempt": 2, "outcome": "DEAD"}],
}


async def store(settings: Settings, jobs: list[dict], prices: list[dict] | None = None) -> None:
    """Jobs written as given (ended ones from `ended_search`, as the workers would have left them), and their price
    history."""
    client = create_client(settings)
    try:
        database = MainDatabase.open(client, settings.mongo_db)
        await database.jobs().insert_many(jobs)
        if prices:
            await database.write["price_history"].insert_many(prices)
    finally:
        await client.close()


def ended_search(
    code: str,
    at: datetime,
    *,
    prices: dict[str, int | None],
    target: int = 1_000,
    keyword: str = "k",
    dead: bool = False,
    ran: timedelta = timedelta(seconds=2),
    job_type: JobType = JobType.SEARCH,
) -> dict:
    """A SEARCH (or a delivery, without a result) whose attempt ran `ran` and ended at `at`: DONE with each
    source's lowest price, or DEAD."""
    job = new_job(
        job_type, job_id=ObjectId(), product_code=code, priority="NORMAL", max_attempts=1,
        now=at - timedelta(seconds=30), message_id="m", product={"keyword": keyword, "target_price": target},
    )  # fmt: skip
    del job["active"]
    job |= {"attempts": 1, "worker": "w", "started_at": at - ran, "updated_at": at}
    outcome = AttemptOutcome.DEAD if dead else AttemptOutcome.DONE
    job["history"] = [history_entry(job, finished_at=at, outcome=outcome)]
    job |= {"status": outcome.value, **ended_fields(at)}
    if not dead and job_type is JobType.SEARCH:
        offers = [
            {
                "source": source,
                "title": f"<script>alert('{source}')</script>",
                "price": price,
                "url": "https://x.invalid/",
            }
            for source, price in prices.items()
            if price is not None
        ]
        job["result"] = {
            "outcome": "FOUND" if offers else "NO_RESULTS",
            "offers": offers,
            "lowest": min(offers, key=lambda offer: offer["price"]) if offers else None,
            "searched_at": at,
            "sources": {
                source: {"outcome": "FOUND" if price is not None else "BLOCKED", "count": 1, "ms": 5}
                for source, price in prices.items()
            },
        }
    return job


async def insert_watch(settings: Settings, product_code: str, **fields: Any) -> dict[str, Any]:
    """A watch as POST /v1/lps/watches stores one (without running its first search)."""
    now = utcnow()
    product = {"keyword": f"keyword of {product_code}"}
    document = new_watch(product_code, product, now=now, every="6h", first_run_at=now + timedelta(hours=1)) | fields
    client = create_client(settings)
    try:
        await MainDatabase.open(client, settings.mongo_db).write.watches.insert_one(document)
    finally:
        await client.close()
    return document


async def stored_watch(settings: Settings, watch_id: ObjectId) -> dict[str, Any] | None:
    client = create_client(settings)
    try:
        return await MainDatabase.open(client, settings.mongo_db).write.watches.find_one({"_id": watch_id})
    finally:
        await client.close()
