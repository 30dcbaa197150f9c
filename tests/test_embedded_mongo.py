"""The embedded server LPS runs (`lps mongo`) inserts at a cost independent of collection size, and the
duplicate guarantees still hold: see tools/embedded_mongo_patch.py for the mongoeco behaviour worked around.

The work test counts what the engine does, not time: it needs the engine in this process, so it serves the
engine `lps mongo` serves (`create_engine`) from a thread, through mongoeco's wire server, to pymongo over
TCP. The duplicate tests go through `lps mongo` itself (the session's server, or a real MongoDB under
LPS_MONGO_URL) and through `lps mongo --data FILE`.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Coroutine, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from bson import ObjectId
from mongoeco import AsyncMongoClient as InProcessClient
from mongoeco.engines import memory as memory_engine_module
from mongoeco.wire import AsyncMongoEcoProxyServer
from pymongo import MongoClient
from pymongo.errors import BulkWriteError, DuplicateKeyError

from infra.mongo import MainDatabase, create_client, ensure_indexes, job_indexes, retention_index
from infra.settings import Settings
from tools.embedded_mongo import create_engine, embedded_mongo

#: Documents inserted over the wire per measurement (each one is an `insert_one` inside mongoeco).
MEASURED = 10
DUPLICATE_KEY = 11000


class Counter:
    def __init__(self) -> None:
        self.calls = 0

    def wrap(self, function: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            return function(*args, **kwargs)

        return counted


@contextlib.contextmanager
def served_in_process(data_file: str | None) -> Iterator[tuple[Any, str, Callable[[Coroutine], Any]]]:
    """(engine, URL, run): `lps mongo`'s engine behind mongoeco's wire server on a thread's event loop."""
    engine = create_engine(data_file)
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


def finished_search(number: int) -> dict[str, Any]:
    """Stored history as LPS leaves it: finished SEARCH jobs, outside the partial unique index, inside the TTL one."""
    return {
        "product_code": f"H{number}",
        "job_type": "SEARCH",
        "status": "DONE",
        "finished_at": datetime.now(UTC),
    }


def new_searches(ids: list[Any]) -> list[dict[str, Any]]:
    return [{"_id": _id, "product_code": f"N{_id}", "job_type": "SEARCH", "active": True} for _id in ids]


@pytest.mark.parametrize(
    ("store", "stored"),
    [
        ("memory", 10_000),
        # mongoeco's SQLite engine builds and maintains these indexes slowly (~30 s for 10,000 documents here);
        # its `_id` scan decodes every stored document, so 2,000 tell flat from linear as well.
        ("sqlite", 2_000),
    ],
)
def test_an_insert_over_the_wire_examines_no_stored_document(store: str, stored: int, tmp_path: Path, monkeypatch):
    data_file = str(tmp_path / "lps.sqlite") if store == "sqlite" else None
    with served_in_process(data_file) as (engine, url, run), MongoClient(url) as client:
        empty, full = client.lps.empty_jobs, client.lps.jobs

        async def seed() -> None:
            # mongoeco's in-process insert_many, whose batch path never scanned; the indexes are built after it,
            # which is quicker than keeping them up to date document by document.
            history = InProcessClient(engine).lps.jobs
            for start in range(0, stored, 1000):
                await history.insert_many([finished_search(n) for n in range(start, start + 1000)])

        run(seed())
        for jobs in (empty, full):
            jobs.create_indexes([*job_indexes(), retention_index(30)])
        assert (empty.estimated_document_count(), full.estimated_document_count()) == (0, stored)

        # What mongoeco's scan of stored `_id`s goes through, per engine.
        examined = Counter()
        if store == "memory":
            monkeypatch.setattr(engine, "_borrow_storage_document", examined.wrap(engine._borrow_storage_document))
            monkeypatch.setattr(
                memory_engine_module, "bson_equality_key", examined.wrap(memory_engine_module.bson_equality_key)
            )
        else:
            monkeypatch.setattr(engine, "_deserialize_document", examined.wrap(engine._deserialize_document))

        def work_of_inserting(jobs, ids: list[Any]) -> int:
            examined.calls = 0
            jobs.insert_many(new_searches(ids))
            return examined.calls

        work = {
            jobs.name: [
                work_of_inserting(jobs, [ObjectId() for _ in range(MEASURED)]),
                work_of_inserting(jobs, [f"job-{n}" for n in range(MEASURED)]),
            ]
            for jobs in (empty, full)
        }

    # mongoeco 4.11 unpatched: at least one equality key (memory) or decoded document (SQLite) per stored
    # document per insert, so >= MEASURED * stored per batch. Flat: the same count as into an empty collection.
    assert work[full.name] == work[empty.name], f"work per {MEASURED} inserts (ObjectId, str ids) at 0 and {stored:,}"


async def assert_refused(jobs, documents: list[dict[str, Any]]) -> None:
    """The documents' first one is stored already: inserting it again fails alone and inside a batch."""
    with pytest.raises(DuplicateKeyError) as alone:
        await jobs.insert_one(documents[0])
    assert alone.value.code == DUPLICATE_KEY
    with pytest.raises(BulkWriteError) as batch:
        await jobs.insert_many(documents[1:] + documents[:1], ordered=True)
    assert [error["code"] for error in batch.value.details["writeErrors"]] == [DUPLICATE_KEY]
    assert batch.value.details["nInserted"] == len(documents) - 1


@pytest.fixture(scope="module")
def sqlite_mongo_url(tmp_path_factory) -> Iterator[str]:
    """`lps mongo --data FILE`: the SQLite engine, as the restart tests and a persistent dev store run it."""
    with embedded_mongo(data_file=str(tmp_path_factory.mktemp("mongo") / "lps.sqlite")) as url:
        yield url


@pytest.fixture(params=["lps mongo", "lps mongo --data"])
def store_settings(request, settings: Settings) -> Settings:
    if request.param == "lps mongo":
        return settings
    return settings.with_overrides(mongo_url=request.getfixturevalue("sqlite_mongo_url"))


@pytest.mark.parametrize(
    "make_id",
    [lambda n: ObjectId(), lambda n: f"job-{n}", lambda n: n],
    ids=["ObjectId", "str", "int"],
)
async def test_a_duplicate_id_is_still_refused_over_the_wire(store_settings: Settings, make_id):
    client = create_client(store_settings)
    try:
        jobs = MainDatabase.open(client, store_settings.mongo_db).jobs()
        await jobs.insert_many([finished_search(n) for n in range(50)])
        first = {"_id": make_id(1), "product_code": "D1"}
        await jobs.insert_one(first)

        await assert_refused(jobs, [first, {"_id": make_id(2), "product_code": "D2"}])
        if isinstance(first["_id"], int):
            # Numeric `_id`s compare by value (1.0 is 1): the patch leaves them to mongoeco's scan.
            with pytest.raises(DuplicateKeyError):
                await jobs.insert_one({"_id": 1.0})
        assert await jobs.count_documents({"_id": first["_id"]}) == 1
    finally:
        await client.drop_database(store_settings.mongo_db)
        await client.close()


async def test_one_active_search_per_product_is_still_enforced(store_settings: Settings):
    client = create_client(store_settings)
    try:
        database = MainDatabase.open(client, store_settings.mongo_db)
        await ensure_indexes(database, store_settings)
        jobs = database.jobs()
        await jobs.insert_many([finished_search(n) for n in range(50)])
        await jobs.insert_many([{"product_code": "P", "job_type": "SEARCH", "status": "DONE"} for _ in range(2)])
        active = {"product_code": "P", "job_type": "SEARCH", "active": True}
        await jobs.insert_one(dict(active))

        await assert_refused(jobs, [dict(active), {"product_code": "Q", "job_type": "SEARCH", "active": True}])
        with pytest.raises(DuplicateKeyError):
            await jobs.insert_one({**active, "_id": "job-P-2"})
        assert await jobs.count_documents({"product_code": "P", "active": True}) == 1
        # Outside the partial filter: no constraint.
        await jobs.insert_one({"product_code": "P", "job_type": "OUTBOX", "active": True, "source_job_id": 1})
        await jobs.insert_one({"product_code": "P", "job_type": "SEARCH", "status": "DONE"})
    finally:
        await client.drop_database(store_settings.mongo_db)
        await client.close()
