"""Jobs with what LPS never stores too, and the job listing's finds over them, to compare the embedded store's answers
with mongoeco's; and a store engine served over the wire from a thread of the test process."""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
from collections.abc import Callable, Coroutine, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

from bson import ObjectId
from mongoeco.wire import AsyncMongoEcoProxyServer

#: Clients of these tests wait for a busy store: it serves one command at a time, and on a loaded machine a
#: monitor's heartbeat queued behind a 10,000-document batch timed out at the 20 s default and cancelled the batch
#: in flight (pymongo's _OperationCancelled).
PATIENT: dict[str, int] = {"connectTimeoutMS": 120_000, "socketTimeoutMS": 300_000}


@contextlib.contextmanager
def served(engine: Any) -> Iterator[tuple[Any, str, Callable[[Coroutine], Any]]]:
    """(engine, URL, run): `engine` behind mongoeco's wire server on a thread's event loop."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="embedded-mongo", daemon=True)
    thread.start()

    def run(coroutine: Coroutine) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, loop).result(timeout=300)

    server = AsyncMongoEcoProxyServer(engine=engine, host="127.0.0.1", port=0)
    address = run(server.start())
    try:
        yield engine, address.uri, run
    finally:
        run(server.close())
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10)
        loop.close()


# The job listing's reads (issue 15): see embedded_store/ordered_keys.py, planner.py and index_walk.py, changes 1-3.
STATUSES = ["PENDING", "RUNNING", "DONE", "DEAD"]
PRODUCTS = [f"P{n}" for n in range(8)]
JOB_TYPES = ["SEARCH", "OUTBOX"]
NEWEST = [("created_at", -1), ("_id", -1)]


def random_id(rng: random.Random) -> ObjectId:
    return ObjectId(rng.randbytes(12))


def mess_up(rng: random.Random, document: dict[str, Any], number: int) -> None:
    """What LPS never stores but a store must still answer right: missing fields, null, arrays, other types."""
    field = rng.choice(["created_at", "status", "product_code", "_id"])
    created = document["created_at"]
    if field == "created_at":
        document["created_at"] = rng.choice(
            [None, [created], [created, created + timedelta(seconds=5)], [], created.isoformat(), number, {"at": 1}]
        )
        if rng.random() < 0.2:
            del document["created_at"]
    elif field == "_id":
        document["_id"] = rng.choice([f"job-{number}", number])
    else:
        values = STATUSES if field == "status" else PRODUCTS
        document[field] = rng.choice([None, [rng.choice(values)], rng.sample(values, 2), 7])
        if rng.random() < 0.2:
            del document[field]


def stored_jobs(rng: random.Random, count: int, *, messy: float) -> list[dict[str, Any]]:
    """Jobs in batches that share a created_at (ties broken by `_id`), stored out of created_at order."""
    documents: list[dict[str, Any]] = []
    created = datetime.now(UTC) - timedelta(days=1)
    while len(documents) < count:
        created += timedelta(milliseconds=rng.choice([1, 7, 1000]))
        for _ in range(rng.randint(1, 5)):
            document = {
                "_id": random_id(rng),
                "created_at": created,
                "status": rng.choice(STATUSES),
                "product_code": rng.choice(PRODUCTS),
                "job_type": rng.choice(JOB_TYPES),
                "source_job_id": random_id(rng),
            }
            if rng.random() < messy:
                mess_up(rng, document, len(documents))
            documents.append(document)
    rng.shuffle(documents)
    return documents


def listing_find(rng: random.Random, documents: list[dict[str, Any]]) -> dict[str, Any]:
    """One find as the listing and the API ask it (JobRepository.newest), or a variation of it."""
    query: dict[str, Any] = {}
    choice = rng.random()
    if choice < 0.3:
        query["status"] = rng.choice([*STATUSES, "NONE"])
    elif choice < 0.6:
        query["product_code"] = rng.choice(PRODUCTS)
    elif choice < 0.65:
        query["product_code"] = {"$regex": "^P1"}
    if rng.random() < 0.3:
        query["job_type"] = rng.choice(JOB_TYPES)
    dated = [document for document in documents if isinstance(document.get("created_at"), datetime)]
    created: dict[str, Any] = {}
    if rng.random() < 0.2:
        created["$gte"] = rng.choice(dated)["created_at"]
    if rng.random() < 0.2:
        created["$lt"] = rng.choice(dated)["created_at"]
    if rng.random() < 0.4:
        after = rng.choice(dated)
        created["$lte"] = after["created_at"]
        query["$nor"] = [{"created_at": after["created_at"], "_id": {"$gte": after["_id"]}}]
    if created:
        query["created_at"] = created
    direction = rng.choice([-1, 1])
    sort = rng.choice(
        [[("created_at", direction), ("_id", direction)]] * 6
        + [[("created_at", direction)], [("_id", direction)], [("created_at", direction), ("_id", -direction)]]
        + [[("status", direction), ("created_at", direction), ("_id", direction)], None]
    )
    return {
        "filter": query,
        "projection": rng.choice([None, None, {"created_at": 1}, {"_id": 0, "status": 1}]),
        "sort": sort,
        "skip": rng.choice([0, 0, 0, 3, 40]),
        "limit": rng.choice([1, 5, 51, 51, 300]),
    }


def answer(collection, find: dict[str, Any]) -> list[dict[str, Any]]:
    cursor = collection.find(find["filter"], find["projection"]).skip(find["skip"]).limit(find["limit"])
    if find["sort"] is not None:
        cursor = cursor.sort(find["sort"])
    return list(cursor)
