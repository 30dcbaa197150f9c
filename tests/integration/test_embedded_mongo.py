"""The embedded server LPS runs (`lps mongo`) inserts at a cost independent of collection size, the duplicate
guarantees still hold, and the job listing's reads answer as mongoeco does while reading only a page's worth of
documents: see embedded_store/README.md and its modules for the mongoeco behaviour worked around.

The work tests count what the engine does, not time: it needs the engine in this process, so it serves the
engine `lps mongo` serves (`create_engine`) from a thread, through mongoeco's wire server, to pymongo over
TCP. The duplicate tests go through `lps mongo` itself (the session's server, or a real MongoDB under
LPS_MONGO_URL) and through `lps mongo --data FILE`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable, Coroutine, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from bson import ObjectId
from mongoeco import AsyncMongoClient as InProcessClient
from mongoeco.engines import memory as memory_engine_module
from mongoeco.engines.memory import MemoryEngine
from mongoeco.engines.sqlite import SQLiteEngine
from pymongo import AsyncMongoClient, MongoClient
from pymongo.errors import BulkWriteError, DuplicateKeyError

from embedded_store import ordered_keys, version
from embedded_store.index_walk import IndexedReadsMemoryEngine
from embedded_store.server import create_engine, embedded_mongo
from embedded_store.sqlite import FlatInsertSQLiteEngine
from infra.job_listing import LISTING_WALK
from infra.jobs import JobRepository
from infra.mongo import (
    ACTIVE_BY_STATUS,
    ACTIVE_UNCONFIRMED,
    DEAD_JOBS_BY_ERROR_TYPE,
    DEFERRED_BY_SOURCE,
    FIRST_ID,
    JOBS_BY_WORDS,
    MainDatabase,
    create_client,
    ensure_indexes,
    job_indexes,
    listing_indexes,
    price_history_indexes,
    price_history_retention_index,
    retention_index,
    watch_indexes,
)
from infra.settings import Settings
from tests.embedded_mongo_jobs import (
    JOB_TYPES,
    PATIENT,
    PRODUCTS,
    STATUSES,
    answer,
    listing_find,
    mess_up,
    random_id,
    served,
    stored_jobs,
)
from tests.ports import free_port

#: The store's engines run in process here, over thousands of documents: the in-process tier, not the units'.
pytestmark = pytest.mark.integration

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
    with served(create_engine(data_file)) as served_engine:
        yield served_engine


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
        # 2,000 tell flat from linear (a scan examines them all) as 10,000 did, at a fifth of the suite's time;
        # mongoeco's SQLite engine builds and maintains these indexes slowly (~30 s for 10,000 documents here).
        ("memory", 2_000),
        ("sqlite", 2_000),
    ],
)
def test_an_insert_over_the_wire_examines_no_stored_document(store: str, stored: int, tmp_path: Path, monkeypatch):
    data_file = str(tmp_path / "lps.sqlite") if store == "sqlite" else None
    with served_in_process(data_file) as (engine, url, run), MongoClient(url, **PATIENT) as client:
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
    with embedded_mongo(free_port(), data_file=str(tmp_path_factory.mktemp("mongo") / "lps.sqlite")) as url:
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


# The job listing's reads (issue 15): see embedded_store/ordered_keys.py, planner.py and index_walk.py, changes 1-3.


class Answers:
    """How often one of the patched engine's shortcuts answered (`_index_walk_locked`: a sorted find served by walking
    an index or sorting candidates; `_candidates_in_order`: by sorting candidates) and how often it gave None, leaving
    the find to mongoeco's own path."""

    def __init__(self, engine: IndexedReadsMemoryEngine, method: str, monkeypatch) -> None:
        self.answered = self.declined = 0
        shortcut = getattr(engine, method)

        def counted(*args: Any, **kwargs: Any) -> Any:
            answer = shortcut(*args, **kwargs)
            if answer is None:
                self.declined += 1
            else:
                self.answered += 1
            return answer

        monkeypatch.setattr(engine, method, counted)


@contextlib.contextmanager
def beside_mongoeco(patched: IndexedReadsMemoryEngine) -> Iterator[list[Any]]:
    """The `lps` database of the patched engine and of mongoeco's own, each served over the wire: [patched, plain]."""
    with (
        served(patched) as (_, patched_url, _run),
        served(MemoryEngine(change_log_max_entries=100)) as (_, plain_url, _run2),
        MongoClient(patched_url, **PATIENT) as patched_client,
        MongoClient(plain_url, **PATIENT) as plain_client,
    ):
        yield [patched_client.lps, plain_client.lps]


def test_listing_reads_answer_as_mongoeco_does(monkeypatch):
    """The same stored jobs and price history in the patched engine and in mongoeco's own: every find gives the same
    documents in the same order, before and after writes that go through the compound indexes' prefixes."""
    rng = random.Random(15)
    patched = IndexedReadsMemoryEngine(change_log_max_entries=100)
    walks = Answers(patched, "_index_walk_locked", monkeypatch)
    with beside_mongoeco(patched) as stores:
        contents = {
            # As LPS stores jobs: the unfiltered listing walks `created_at_desc`.
            "jobs": stored_jobs(rng, 300, messy=0),
            # With what LPS never stores: those finds go to mongoeco, the others still walk.
            "odd_jobs": stored_jobs(rng, 300, messy=0.12),
        }
        # Price points: many share a searched_at, so their order is the storage order.
        now = datetime.now(UTC)
        contents["price_history"] = [
            {
                "_id": random_id(rng),
                "product_code": rng.choice(PRODUCTS[:3]),
                "searched_at": now - timedelta(minutes=rng.randint(0, 40)),
                "lowest_price": rng.randint(1, 9),
            }
            for _ in range(300)
        ]
        for store in stores:
            for name in ("jobs", "odd_jobs"):
                store[name].create_indexes([*job_indexes(), retention_index(30)])
                store[name].insert_many(contents[name][:200])
                store[name].insert_many(contents[name][200:])
            store.price_history.create_indexes([*price_history_indexes(), price_history_retention_index(30)])
            store.price_history.insert_many(contents["price_history"])

        def compare(rounds: int) -> None:
            for name in ("jobs", "odd_jobs"):
                for _ in range(rounds):
                    find = listing_find(rng, contents[name])
                    patched_answer, plain_answer = (answer(store[name], find) for store in stores)
                    assert patched_answer == plain_answer, (name, find)
            for _ in range(rounds // 2):
                find = {
                    "filter": {"product_code": rng.choice(PRODUCTS[:4])},
                    "projection": {"_id": 0, "lowest_price": 1, "searched_at": 1},
                    "sort": [("searched_at", rng.choice([-1, 1]))],
                    "skip": rng.choice([0, 2]),
                    "limit": rng.choice([3, 50, 200]),
                }
                patched_answer, plain_answer = (answer(store.price_history, find) for store in stores)
                assert patched_answer == plain_answer, find

        compare(100)
        # Writes through the compound prefixes (change 2 serves their candidates), then the same reads again.
        for store in stores:
            for name in ("jobs", "odd_jobs"):
                jobs = store[name]
                jobs.update_many({"status": "PENDING", "product_code": "P2"}, {"$set": {"status": "DONE"}})
                jobs.update_one({"product_code": "P3"}, {"$set": {"created_at": now}})
                jobs.delete_many({"product_code": "P4", "status": "DEAD"})
                moved = jobs.find_one_and_delete({"status": "RUNNING"}, sort=[("_id", 1)])
                jobs.insert_one(moved)
                jobs.replace_one({"status": "DONE", "job_type": "OUTBOX"}, {"status": "DEAD", "created_at": now})
            prices = store.price_history
            prices.update_many({"product_code": "P1", "lowest_price": {"$lt": 4}}, {"$set": {"searched_at": now}})
            for point in list(prices.find({"product_code": "P0"}).limit(20)):
                prices.delete_one({"_id": point["_id"]})
                prices.insert_one(point)
        for name in ("jobs", "odd_jobs", "price_history"):
            patched_rows, plain_rows = (list(store[name].find()) for store in stores)
            assert patched_rows == plain_rows, name
            for status in STATUSES:
                counts = [store[name].count_documents({"status": status, "job_type": "SEARCH"}) for store in stores]
                assert counts[0] == counts[1], (name, status)
        compare(100)

    # Both ways were taken: the equality above is not mongoeco's path compared with itself.
    assert walks.answered > 150, vars(walks)
    assert walks.declined > 50, vars(walks)


def ended_jobs(rng: random.Random, count: int, *, messy: float, scalars_only: bool = False) -> list[dict[str, Any]]:
    """Jobs as the walks over what ended see them: DONE and DEAD ones with a `finished_at` (many sharing one), active
    ones without; with `messy`, what LPS never stores there: null, a string, a number, a bool, an array, a document."""
    now = datetime.now(UTC).replace(microsecond=0)
    documents = []
    for _ in range(count):
        document: dict[str, Any] = {
            "_id": random_id(rng),
            "status": rng.choice(STATUSES),
            "job_type": rng.choice(JOB_TYPES),
        }
        if document["status"] in ("DONE", "DEAD") or rng.random() < 0.1:  # a re-driven job keeps its death's
            document["finished_at"] = now - timedelta(seconds=rng.randint(0, 40))
        if rng.random() < messy:
            odd: list[Any] = [None, "2026-12-01", 5, True] + ([] if scalars_only else [[now], {"at": now}])
            document["finished_at"] = rng.choice(odd)
        documents.append(document)
    return documents


def ended_find(rng: random.Random, documents: list[dict[str, Any]]) -> dict[str, Any]:
    """A find as `JobRepository.ended_after` asks it (a range from a cursor, its ties after it), or a variation."""
    dated = [document for document in documents if isinstance(document.get("finished_at"), datetime)]
    cursor, until = rng.choice(dated), rng.choice(dated)["finished_at"] + timedelta(seconds=rng.choice([0, 1, 30]))
    query: dict[str, Any] = {"finished_at": {}}
    if rng.random() < 0.8:
        query["finished_at"]["$gte"] = cursor["finished_at"]
        query["$nor"] = [{"finished_at": cursor["finished_at"], "_id": {"$lte": cursor["_id"]}}]
    elif rng.random() < 0.5:
        query["finished_at"]["$gt"] = cursor["finished_at"]
    if rng.random() < 0.8 or not query["finished_at"]:
        query["finished_at"][rng.choice(["$lt", "$lte"])] = until
    if rng.random() < 0.5:
        query |= {"status": rng.choice(["DONE", "DEAD"]), "job_type": rng.choice(JOB_TYPES)}
    direction = rng.choice([1, 1, 1, -1])
    return {
        "filter": query,
        "projection": rng.choice([None, {"_id": 1, "finished_at": 1}]),
        "sort": [("finished_at", direction), ("_id", direction)],
        "skip": 0,
        "limit": rng.choice([1, 10, 200]),
    }


def test_the_walks_over_ended_jobs_answer_as_mongoeco_does_and_seek_to_their_cursor(monkeypatch):
    """`ended_after`'s range (and variations: one bound, the other way, a status and type) gives the same documents in
    the same order as mongoeco's own engine, before and after jobs end, with null, strings, numbers, arrays among the
    finished_at values; on jobs as LPS stores them, the patched engine walks `ended_by_finished_at` from the cursor."""
    rng = random.Random(7)
    patched = IndexedReadsMemoryEngine(change_log_max_entries=100)
    walks = Answers(patched, "_index_walk_locked", monkeypatch)
    contents = {
        "jobs": ended_jobs(rng, 400, messy=0),
        "odd_jobs": ended_jobs(rng, 400, messy=0.15),
        # Every key still has a place in the kept order: the walk must see that a bound is no range there.
        "odd_scalars": ended_jobs(rng, 400, messy=0.15, scalars_only=True),
    }
    with beside_mongoeco(patched) as stores:
        for store in stores:
            for name, documents in contents.items():
                # Not the unique ones: these jobs have no product or search of their own.
                store[name].create_indexes([index for index in job_indexes() if not index.document.get("unique")])
                store[name].insert_many(documents)

        def compare() -> None:
            for name, documents in contents.items():
                for _ in range(60):
                    find = ended_find(rng, documents)
                    patched_answer, plain_answer = (answer(store[name], find) for store in stores)
                    assert patched_answer == plain_answer, (name, find)

        compare()
        ended_now = datetime.now(UTC)
        for store in stores:  # jobs end, and one is re-driven (its finished_at stays), as transitions leave them
            for name in contents:
                store[name].update_many({"status": "RUNNING"}, {"$set": {"status": "DONE", "finished_at": ended_now}})
                store[name].update_one({"status": "DEAD"}, {"$set": {"status": "PENDING"}})
        compare()

    assert walks.answered > 60, vars(walks)  # the clean collection's finds walked the index


def dated_history(count: int) -> list[dict[str, Any]]:
    """`count` ended jobs, one a second; the newest 30 are product P1's searches, every fifth job is DEAD."""
    start = datetime(2026, 11, 1, tzinfo=UTC)
    return [
        {
            "_id": ObjectId(),
            "created_at": start + timedelta(seconds=number),
            "product_code": "P1" if number >= count - 30 else f"H{number}",
            "job_type": "SEARCH",
            "status": "DEAD" if number % 5 == 0 else "DONE",
        }
        for number in range(count)
    ]


async def two_pages(
    repository: JobRepository, examined: Counter, filters: dict[str, Any], limit: int
) -> tuple[list[dict[str, Any]], list[int]]:
    """A listing's first page and the one after it (JobRepository.newest), and the stored documents each examined."""
    examined.calls = 0
    first = await repository.newest(filters, limit)
    work = [examined.calls]
    last = first.jobs[-1]
    examined.calls = 0
    second = await repository.newest(filters, limit, after=(last["created_at"], last["_id"]))
    return first.jobs + second.jobs, [*work, examined.calls]


def examined_by_pages(
    stores: dict[str, list[dict[str, Any]]],
    indexes: list[Any],
    pages: Callable[[JobRepository, Counter], Coroutine[Any, Any, list[int]]],
    monkeypatch: pytest.MonkeyPatch,
) -> dict[str, list[int]]:
    """Each named store (its jobs, `indexes`) served by `lps mongo`'s engine in this process; what `pages` counted in
    each, given a repository over the wire and the counter of the stored documents the engine examined."""
    with served_in_process(None) as (engine, url, run):

        async def seed() -> None:
            client = InProcessClient(engine)
            for name, documents in stores.items():
                await client[name].jobs.insert_many(documents)
                await client[name].jobs.create_indexes(indexes)

        run(seed())
        examined = Counter()
        monkeypatch.setattr(engine, "_borrow_storage_document", examined.wrap(engine._borrow_storage_document))

        async def read(name: str) -> list[int]:
            client = AsyncMongoClient(url, tz_aware=True, **PATIENT)
            try:
                return await pages(JobRepository(MainDatabase.open(client, name)), examined)
            finally:
                await client.close()

        return {name: asyncio.run(read(name)) for name in stores}


def test_a_listing_page_examines_as_many_jobs_at_any_history(monkeypatch):
    """JobRepository.newest's finds (the dashboard's lists and the API's listing) read the same stored jobs over
    1,000 and 4,000 stored: their page, its cursor's ties and a walk's jobs, not the history."""

    async def pages(repository: JobRepository, examined: Counter) -> list[int]:
        work = []
        for filters in ({}, {"status": "DEAD"}, {"product_code": "P1", "job_type": "SEARCH"}):
            jobs, counted = await two_pages(repository, examined, filters, 51)
            work += counted
            assert len(jobs) == (30 if filters.get("product_code") else 102)
        return work

    histories = {"small": dated_history(1_000), "large": dated_history(4_000)}
    work = examined_by_pages(histories, [*job_indexes(), retention_index(30)], pages, monkeypatch)

    # mongoeco 4.11 unpatched: every stored job per page (every DEAD one, every one for a product).
    assert work["large"] == work["small"], work
    assert max(work["large"]) < 200, work


def ended_in_one_minute(count: int) -> list[dict[str, Any]]:
    """`count` jobs that ended within one minute, as a busy catalogue leaves them: DONE searches and their deliveries,
    every tenth search DEAD."""
    start = datetime(2026, 11, 1, tzinfo=UTC)
    return [
        {
            "_id": ObjectId(),
            "job_type": "OUTBOX" if number % 2 else "SEARCH",
            "status": "DEAD" if number % 20 == 0 else "DONE",
            "finished_at": start + timedelta(milliseconds=number * 60_000 // count),
        }
        for number in range(count)
    ]


def test_a_step_of_the_reconcilers_walk_examines_its_batch_not_the_minute(monkeypatch):
    """`ended_after` as the reconciler asks it (DONE searches after its cursor, 200 at a time) examines about its
    batch's jobs at 1,000 and at 4,000 that ended in one minute: one range from the cursor, not the minute's jobs."""

    async def pages(repository: JobRepository, examined: Counter) -> list[int]:
        work, cursor = [], (datetime(2026, 11, 1, tzinfo=UTC), FIRST_ID)
        for _ in range(2):  # 450 DONE searches in the smaller history
            examined.calls = 0
            match = {"status": "DONE", "job_type": "SEARCH"}
            page = await repository.ended_after(cursor, until=datetime.now(UTC), limit=200, match=match)
            assert (len(page.jobs), page.more) == (200, True)
            work.append(examined.calls)
            cursor = page.cursor
        return work

    histories = {"small": ended_in_one_minute(1_000), "large": ended_in_one_minute(4_000)}
    indexes = [index for index in job_indexes() if not index.document.get("unique")]
    work = examined_by_pages(histories, indexes, pages, monkeypatch)

    # The minute by minute walk it replaces read every job of the minute each step (1,000 and 4,000). DONE searches
    # are 45 % of the jobs: a step examines 200 / 0.45 of them.
    assert work["large"][0] == work["small"][0], work
    assert max(work["large"]) <= 450, work


def ended_in_one_minute_then_100_more(count: int) -> list[dict[str, Any]]:
    """`ended_in_one_minute`, its last 100 jobs moved to the 6 s after that minute: 45 DONE searches after its end,
    whatever came before."""
    jobs = ended_in_one_minute(count)
    for number, job in enumerate(jobs[-100:]):
        job["finished_at"] = datetime(2026, 11, 1, 0, 1, tzinfo=UTC) + timedelta(milliseconds=number * 60)
    return jobs


def test_a_step_of_the_reconcilers_walk_reads_the_keys_after_its_cursor_not_the_history_before_it(monkeypatch):
    """A step of `ended_after` from a cursor near the end of what ended (the reconciler's every pass after its first)
    reads the index keys after that cursor, at 1,000 and at 4,000 jobs before it: the range under the DONE searches'
    prefix starts at the cursor (both bounds of the step), not at the oldest DONE search."""
    keys = KeyWork(monkeypatch)

    async def pages(repository: JobRepository, examined: Counter) -> list[int]:
        before = keys.selected + keys.walked
        cursor = (datetime(2026, 11, 1, 0, 1, tzinfo=UTC), FIRST_ID)
        match = {"status": "DONE", "job_type": "SEARCH"}
        page = await repository.ended_after(cursor, until=datetime.now(UTC), limit=200, match=match)
        assert len(page.jobs) == 45
        return [keys.selected + keys.walked - before]

    histories = {"small": ended_in_one_minute_then_100_more(1_000), "large": ended_in_one_minute_then_100_more(4_000)}
    indexes = [index for index in job_indexes() if not index.document.get("unique")]
    work = examined_by_pages(histories, indexes, pages, monkeypatch)

    # From the oldest DONE search: 450 and 1,800 keys read, and rejected one by one, before the cursor.
    assert work["small"] == work["large"], work
    assert max(work["large"]) <= 100, work


def backlog_with_delayed(count: int, now: datetime) -> list[dict[str, Any]]:
    """`count` due PENDING searches (a backlog), 30 of them retries waiting out their backoff instead."""
    jobs = [
        {
            "_id": ObjectId(),
            "created_at": now - timedelta(hours=1) + timedelta(milliseconds=number),
            "product_code": f"B{number}",
            "job_type": "SEARCH",
            "status": "PENDING",
            "active": True,
            "run_after": now - timedelta(minutes=1),
        }
        for number in range(count)
    ]
    for number in range(30):
        jobs[number * (count // 30)] |= {"product_code": f"D{number}", "run_after": now + timedelta(minutes=5)}
    return jobs


def test_a_delayed_page_examines_the_delayed_jobs_of_its_type_not_the_backlog(monkeypatch):
    """`delayed` (JobRepository.newest through `active_by_status`, infra/job_listing.py) reads the delayed jobs'
    documents, on its first page and on one after a cursor, whether 500 or 5,000 due jobs wait beside them."""
    now = datetime.now(UTC)

    async def pages(repository: JobRepository, examined: Counter) -> list[int]:
        jobs, work = await two_pages(repository, examined, {"delayed": True, "job_type": "SEARCH"}, 20)
        assert [job["product_code"] for job in jobs] == [f"D{number}" for number in reversed(range(30))]
        return work

    backlogs = {"small": backlog_with_delayed(500, now), "large": backlog_with_delayed(5_000, now)}
    # mongoeco builds a unique index in quadratic time; the listing reads none of them.
    indexes = [index for index in job_indexes() if not index.document.get("unique")]
    work = examined_by_pages(backlogs, indexes, pages, monkeypatch)

    # Without active: true in the query, or with the page's created_at bounding the keys instead of run_after: every
    # due job of the backlog.
    assert work["large"] == work["small"], work
    # Each of the 30 delayed jobs is read twice at most: for its sort key (change 2b's candidates, sorted by the
    # patch) and for the page.
    assert max(work["large"]) <= 2 * 30, work


class KeyWork:
    """What the patched engine reads of its indexes' keys: how often it lists an index's keys whole (`_bucket_keys`:
    a kept order made again, or a walk without one), how many keys the walks of kept orders read, and how many keys
    their ranges under a prefix gave (`under`: change 2b's candidates, change 6's counts)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.listed = self.walked = self.selected = 0
        listed, walk = ordered_keys._bucket_keys, ordered_keys._OrderedKeys._walk
        under = ordered_keys._OrderedKeys.under

        def counted_under(order: Any, *args: Any, **kwargs: Any) -> Iterator[Any]:
            for key in under(order, *args, **kwargs):
                self.selected += 1
                yield key

        def counted_listing(buckets: Any) -> list[Any]:
            self.listed += 1
            return listed(buckets)

        def counted_walk(order: Any, *args: Any, **kwargs: Any) -> Iterator[Any]:
            for key in walk(order, *args, **kwargs):
                self.walked += 1
                yield key

        monkeypatch.setattr(ordered_keys, "_bucket_keys", counted_listing)
        monkeypatch.setattr(ordered_keys._OrderedKeys, "_walk", counted_walk)
        monkeypatch.setattr(ordered_keys._OrderedKeys, "under", counted_under)


def test_a_listing_page_reads_its_own_keys_while_jobs_come_and_go(monkeypatch):
    """With jobs claimed, ended and added between pages, as workers and the gateway do, the dashboard's lists
    (JobRepository.newest: every job, a status's, the delayed ones) list no index's keys whole once each index was read
    (change 7), and each page reads as many keys over a backlog of 1,000 PENDING jobs as over one of 4,000."""
    now = datetime.now(UTC)
    work = KeyWork(monkeypatch)
    listings = ({}, {"status": "PENDING"}, {"delayed": True, "job_type": "SEARCH"})
    indexes = [index for index in job_indexes() if not index.document.get("unique")]
    counted: dict[str, list[tuple[int, int]]] = {}
    with served_in_process(None) as (engine, url, run):

        async def seed(name: str, count: int) -> None:
            await InProcessClient(engine)[name].jobs.insert_many(backlog_with_delayed(count, now))
            await InProcessClient(engine)[name].jobs.create_indexes(indexes)

        async def pages(name: str) -> list[tuple[int, int]]:
            client = AsyncMongoClient(url, **PATIENT)
            jobs, repository = client[name].jobs, JobRepository(MainDatabase.open(client, name))
            try:
                for filters in listings:  # the first read of each index makes its order
                    await repository.newest(filters, 51)
                seen = []
                for round_number in range(3):
                    for filters in listings:
                        claimed = await jobs.find_one_and_update(
                            {"status": "PENDING"}, {"$set": {"status": "RUNNING"}}, sort=[("_id", 1)]
                        )
                        await jobs.update_one(
                            {"_id": claimed["_id"]}, {"$set": {"status": "DONE"}, "$unset": {"active": ""}}
                        )
                        await jobs.insert_one(backlog_with_delayed(30, now)[round_number] | {"_id": ObjectId()})
                        work.listed = work.walked = 0
                        page = await repository.newest(filters, 51)
                        assert page.jobs, filters
                        seen.append((work.listed, work.walked))
                return seen
            finally:
                await client.close()

        for name, count in (("small", 1_000), ("large", 4_000)):
            run(seed(name, count))
            counted[name] = asyncio.run(pages(name))

    assert counted["large"] == counted["small"], counted
    assert all(listed == 0 for listed, _ in counted["large"]), counted  # never a pass over an index's keys
    assert max(walked for _, walked in counted["large"]) <= 2 * 51, counted


# The persistent store, `lps mongo --data FILE` (issue 24): see embedded_store/sqlite.py.


class SQLiteSteps:
    """SQLite virtual-machine steps run on the engine's connection while counting (in hundreds): the work of its SQL,
    rows scanned included, whatever the clock says."""

    def __init__(self, engine: Any) -> None:
        self.hundreds = 0
        self.counting = False
        self._connection = engine._require_connection()
        self._connection.set_progress_handler(self._step, 100)

    def _step(self) -> int:
        self.hundreds += self.counting
        return 0  # go on

    def close(self) -> None:
        self._connection.set_progress_handler(None, 0)


@pytest.mark.parametrize("engine_class", [SQLiteEngine, FlatInsertSQLiteEngine], ids=["mongoeco", "patched"])
def test_an_insert_into_the_persistent_store_does_as_much_sqlite_work_at_any_size(
    engine_class: type[SQLiteEngine], tmp_path: Path
):
    stored = 2_000
    engine_served = served(engine_class(str(tmp_path / "lps.sqlite")))
    with engine_served as (engine, url, run), MongoClient(url, **PATIENT) as client:
        empty, full = client.lps.empty_jobs, client.lps.jobs
        for jobs in (empty, full):
            jobs.create_indexes([*job_indexes(), retention_index(30)])

        async def seed() -> None:
            history = InProcessClient(engine).lps.jobs
            for start in range(0, stored, 1000):
                await history.insert_many([finished_search(n) for n in range(start, start + 1000)])

        run(seed())

        def steps_of_inserting(jobs) -> int:
            """Steps of MEASURED inserts, each after a claim as a worker makes it (every write makes mongoeco forget
            what it knew of the collection's fields, so an insert after a claim is one that used to scan)."""
            steps = SQLiteSteps(engine)
            try:
                for number in range(MEASURED):
                    job = {**new_searches([ObjectId()])[0], "product_code": f"NEW-{number}", "status": "PENDING"}
                    steps.counting = True
                    jobs.insert_one(job)
                    steps.counting = False
                    jobs.update_one({"_id": job["_id"], "status": "PENDING"}, {"$set": {"status": "RUNNING"}})
                return steps.hundreds
            finally:
                steps.close()

        work = {jobs.name: steps_of_inserting(jobs) for jobs in (empty, full)}

    # mongoeco 4.11: before each write under a unique index it asks whether any stored document holds an array in
    # that field, a `json_type` over every stored document (tens of steps each, so > 2,000 hundreds at 2,000
    # stored); the patch's expression index answers it in a few. A B-tree one level deeper is allowed for.
    if engine_class is SQLiteEngine:
        assert work["jobs"] > work["empty_jobs"] + stored, work
    else:
        assert work["jobs"] <= work["empty_jobs"] * 1.5, work


# The guard on mongoeco's version (issue 26): see embedded_store/README.md, "Upgrading mongoeco".
@pytest.fixture
def unverified_mongoeco(monkeypatch) -> Iterator[None]:
    """The patch sees a mongoeco release it was never compared with; its once-per-process verdict is forgotten
    before and after."""
    monkeypatch.setattr(version, "installed_mongoeco", lambda: "99.0.0")
    version.patch_applies.cache_clear()
    yield
    version.patch_applies.cache_clear()


@pytest.mark.usefixtures("unverified_mongoeco")
def test_an_unverified_mongoeco_is_served_unpatched_with_one_warning(tmp_path: Path, caplog):
    with caplog.at_level(logging.WARNING, logger=version.__name__):
        engines = [create_engine(), create_engine(str(tmp_path / "lps.sqlite")), create_engine()]

    assert [type(engine) for engine in engines] == [MemoryEngine, SQLiteEngine, MemoryEngine]
    warnings = [record.getMessage() for record in caplog.records if record.name == version.__name__]
    assert len(warnings) == 1, warnings
    assert "mongoeco 99.0.0 is not a version" in warnings[0]
    assert "Upgrading mongoeco" in warnings[0]


def test_the_verified_mongoeco_is_the_one_pinned_and_installed():
    pinned = Path(__file__).resolve().parents[2].joinpath("pyproject.toml").read_text()
    (verified,) = version.VERIFIED_MONGOECO
    assert f'"mongoeco=={verified}"' in pinned
    assert version.installed_mongoeco() == verified
    assert version.patch_applies()
    assert type(create_engine()) is IndexedReadsMemoryEngine


# --- Counts and the active set's reads from index keys (issue 24): tools/version.py, changes 2b and 6 ---

SOURCES = ["coupang", "naver"]
ERROR_TYPES = ["TIMEOUT", "BLOCKED"]


def active_jobs(rng: random.Random, count: int, *, messy: float, now: datetime) -> list[dict[str, Any]]:
    """The active set as LPS keeps it (PENDING, RUNNING, retries ahead, deferred, unconfirmed), ended jobs beside it,
    and with `messy` what LPS never stores: arrays, nulls, missing fields, other types in the indexed fields."""
    documents = []
    for number in range(count):
        status = rng.choice(STATUSES)
        document: dict[str, Any] = {
            "_id": random_id(rng),
            "status": status,
            "job_type": rng.choice(JOB_TYPES),
            "product_code": f"A{number}",
            "source_job_id": random_id(rng),
            "run_after": now + timedelta(seconds=rng.choice([-600, -5, 0, 5, 600])),
            "created_at": now - timedelta(minutes=rng.randint(0, 30)),
            "updated_at": now - timedelta(minutes=rng.randint(0, 30)),
        }
        if status in ("PENDING", "RUNNING"):
            document["active"] = True
        if rng.random() < 0.8:
            document["enqueued_at"] = now - timedelta(minutes=rng.randint(0, 30))
        if status == "RUNNING":
            document["lease_until"] = now + timedelta(seconds=rng.choice([-60, 60]))
        if status == "PENDING" and rng.random() < 0.3:
            document["deferred"] = {"sources": rng.sample(SOURCES, rng.randint(1, 2))}
        if rng.random() < messy:
            field = rng.choice(["active", "status", "job_type", "run_after", "enqueued_at", "deferred"])
            document[field] = rng.choice(
                [
                    None,
                    [document.get(field)],
                    [True, False],
                    1,
                    "PENDING",
                    ["PENDING", "RUNNING"],
                    now,
                    {"sources": "x"},
                ]
            )
            if rng.random() < 0.3:
                del document[field]
        # After the mess above: an array here beside an array in `status` is one no compound index takes (MongoDB's
        # parallel arrays).
        if document.get("status") == "DEAD" and rng.random() < 0.9:
            document["last_error"] = {"type": rng.choice(ERROR_TYPES)}
            if rng.random() < messy:  # what LPS never stores on the path: arrays along it, nulls, other types
                document["last_error"] = rng.choice(
                    [
                        [{"type": "TIMEOUT"}, {"type": "BLOCKED"}],
                        [{"type": "TIMEOUT"}, {"type": "TIMEOUT"}],
                        {"type": ["TIMEOUT", "BLOCKED"]},
                        {"type": None},
                        {"type": 7},
                        "TIMEOUT",
                        [1, {"type": "BLOCKED"}],
                    ]
                )
        documents.append(document)
    return documents


def active_set_questions(rng: random.Random, now: datetime) -> list[tuple[str, dict[str, Any], str]]:
    """(kind, filter, index) as the gateway's counts and the reconciler ask them, and variations of them."""
    questions = []
    for _ in range(30):
        query: dict[str, Any] = {"active": True, "status": rng.choice([*STATUSES, "NONE"])}
        if rng.random() < 0.8:
            query["job_type"] = rng.choice(JOB_TYPES)
        if rng.random() < 0.5:
            query["run_after"] = {
                rng.choice(["$gt", "$gte", "$lt", "$lte"]): now + timedelta(seconds=rng.choice([-5, 0, 5]))
            }
        questions.append(("count", query, ACTIVE_BY_STATUS))
    for source in [*SOURCES, "none"]:
        questions.append(
            ("count", {"active": True, "status": "PENDING", "deferred.sources": source}, DEFERRED_BY_SOURCE)
        )
    for error_type in [*ERROR_TYPES, "NONE"]:  # the dead page's totals (service/ui/reads.py, dead_totals)
        questions.append(("count", {"status": "DEAD", "last_error.type": error_type}, DEAD_JOBS_BY_ERROR_TYPE))
    # Two equalities on one path: only a job holding both values (an array along it) matches.
    both = {"status": "DEAD", "$and": [{"last_error.type": ERROR_TYPES[0]}, {"last_error.type": ERROR_TYPES[1]}]}
    questions.append(("count", both, DEAD_JOBS_BY_ERROR_TYPE))
    before = now - timedelta(minutes=rng.randint(0, 30))
    questions += [
        (
            "find",
            {"active": True, "status": "PENDING", "enqueued_at": {"$exists": False}, "created_at": {"$lt": before}},
            ACTIVE_UNCONFIRMED,
        ),
        ("find", {"active": True, "status": "RUNNING", "lease_until": {"$lt": now}}, ACTIVE_BY_STATUS),
        (
            "find",
            {
                "active": True,
                "status": "PENDING",
                "job_type": "SEARCH",
                "run_after": {"$lt": now},
                "enqueued_at": {"$lt": now},
            },
            ACTIVE_BY_STATUS,
        ),
    ]
    return questions


def ask(database: Any, kind: str, query: dict[str, Any], index: str) -> Any:
    if kind == "count":
        return database.command({"count": "jobs", "query": query, "hint": index})["n"]
    return sorted(str(document["_id"]) for document in database.jobs.find(query, hint=index))


class KeyCounts:
    """Whether the patched engine answered the last count from index keys alone (change 6) or read documents."""

    def __init__(self, engine: IndexedReadsMemoryEngine, monkeypatch) -> None:
        self.from_keys: bool | None = None
        keyed = engine._count_keyed_locked

        def counted(*args: Any, **kwargs: Any) -> int | None:
            answer = keyed(*args, **kwargs)
            self.from_keys = answer is not None
            return answer

        monkeypatch.setattr(engine, "_count_keyed_locked", counted)


def lps_count(kind: str, query: dict[str, Any]) -> bool:
    """A count the gateway asks: a type's PENDING / RUNNING jobs, or its delayed ones (run_after ahead); or a dead
    page's total of an error type."""
    if kind == "count" and "last_error.type" in query:
        return True
    bound = query.get("run_after", {"$gt": None})
    return kind == "count" and "job_type" in query and isinstance(bound, dict) and list(bound) == ["$gt"]


@pytest.mark.parametrize("messy", [0.0, 0.15], ids=["as LPS stores them", "with what LPS never stores"])
def test_counts_and_the_active_sets_reads_answer_as_mongoeco_does(messy: float, monkeypatch):
    """The same jobs in the patched engine and in mongoeco's own: every count the gateway and the reconciler ask gives
    the same number and every find the same jobs, before and after writes; jobs as LPS stores them are counted from
    the index keys alone."""
    rng, now = random.Random(24), datetime.now(UTC).replace(microsecond=0)
    patched = IndexedReadsMemoryEngine(change_log_max_entries=100)
    counts = KeyCounts(patched, monkeypatch)
    documents = active_jobs(rng, 400, messy=messy, now=now)
    with beside_mongoeco(patched) as stores:
        for store in stores:
            store.jobs.create_indexes(job_indexes())
            store.jobs.insert_many(documents)

        def compare() -> None:
            for kind, query, index in active_set_questions(rng, now):
                counts.from_keys = None
                patched_answer, plain_answer = (ask(store, kind, query, index) for store in stores)
                assert patched_answer == plain_answer, (kind, query)
                if messy == 0.0 and lps_count(kind, query):
                    assert counts.from_keys, query  # no document read

        compare()
        for store in stores:  # transitions as LPS makes them: claims, retries ahead, endings
            store.jobs.update_many({"status": "PENDING", "job_type": "SEARCH"}, {"$set": {"status": "RUNNING"}})
            store.jobs.update_many(
                {"status": "RUNNING", "job_type": "OUTBOX"},
                {"$set": {"run_after": now + timedelta(minutes=1), "status": "PENDING"}},
            )
            store.jobs.update_many(
                {"lease_until": {"$lt": now}}, {"$set": {"status": "DEAD"}, "$unset": {"active": ""}}
            )
        compare()


def delayed_find(rng: random.Random, documents: list[dict[str, Any]], now: datetime) -> dict[str, Any]:
    """A find as the listing's `delayed` filter asks it (infra/job_listing.py: `active_by_status`'s keys, newest
    first, after a cursor), or a variation of it."""
    query: dict[str, Any] = {"active": True, "status": rng.choice(["PENDING", "PENDING", "RUNNING"])}
    if rng.random() < 0.7:
        query["job_type"] = rng.choice(JOB_TYPES)
    query["run_after"] = {rng.choice(["$gt", "$lte"]): now + timedelta(seconds=rng.choice([-5, 0]))}
    dated = [document for document in documents if isinstance(document.get("created_at"), datetime)]
    if rng.random() < 0.4:
        after = rng.choice(dated)
        query["created_at"] = {"$lte": after["created_at"]}
        query["$nor"] = [{"created_at": after["created_at"], "_id": {"$gte": after["_id"]}}]
    direction = rng.choice([-1, -1, 1])
    return {
        "filter": query,
        "projection": rng.choice([None, {"product_code": 1}]),
        "sort": rng.choice([[("created_at", direction), ("_id", direction)]] * 3 + [[("created_at", direction)]]),
        "skip": rng.choice([0, 0, 3]),
        "limit": rng.choice([1, 5, 21, 51]),
    }


@pytest.mark.parametrize("messy", [0.0, 0.15], ids=["as LPS stores them", "with what LPS never stores"])
def test_a_page_sorted_from_its_candidates_answers_as_mongoeco_does(messy: float, monkeypatch):
    """The listing's `delayed` finds and variations of them give the same documents in the same order as mongoeco's
    own engine, before and after transitions, whether the patched engine walks an index (change 3) or sorts change
    2b's candidates itself (ties of a sort on created_at alone in storage order), and both ways are taken."""
    rng, now = random.Random(31), datetime.now(UTC).replace(microsecond=0)
    documents = active_jobs(rng, 400, messy=messy, now=now)
    for number, document in enumerate(documents):
        if rng.random() < messy:
            mess_up(rng, document, number)
    patched = IndexedReadsMemoryEngine(change_log_max_entries=100)
    walks = Answers(patched, "_index_walk_locked", monkeypatch)
    sorted_here = Answers(patched, "_candidates_in_order", monkeypatch)
    with beside_mongoeco(patched) as stores:
        for store in stores:
            store.jobs.create_indexes([index for index in job_indexes() if not index.document.get("unique")])
            store.jobs.insert_many(documents)

        def compare(rounds: int) -> None:
            for _ in range(rounds):
                find = delayed_find(rng, documents, now)
                patched_answer, plain_answer = (answer(store.jobs, find) for store in stores)
                assert patched_answer == plain_answer, find

        compare(60)
        for store in stores:  # a retry waits ahead, a claim, a job added behind the others
            store.jobs.update_many(
                {"status": "RUNNING", "job_type": "OUTBOX"},
                {"$set": {"run_after": now + timedelta(minutes=1), "status": "PENDING"}},
            )
            store.jobs.update_many(
                {"status": "PENDING", "product_code": {"$regex": "^A1"}}, {"$set": {"status": "RUNNING"}}
            )
            store.jobs.insert_one({**documents[0], "_id": ObjectId("0" * 23 + "1"), "created_at": now})
        compare(60)

    if messy == 0.0:
        # Both ways were taken (the candidates' sort counts as a walk: it serves the find), and mongoeco's too.
        assert sorted_here.answered > 10, vars(sorted_here)
        assert walks.answered - sorted_here.answered > 10, vars(walks)
    # A created_at of another type, an array, or none makes the order mongoeco's (the kept order declines it).
    assert walks.declined > 5, vars(walks)


def delivery_jobs(rng: random.Random, searches: list[ObjectId], count: int) -> list[dict[str, Any]]:
    """OUTBOX jobs as LPS stores them (one per search: `one_outbox_per_search` is unique) and, beside them, jobs LPS
    never stores: SEARCH jobs with the field as an id, an array of ids, a null, a string, a number, or without it."""
    unused = list(searches)
    rng.shuffle(unused)
    documents: list[dict[str, Any]] = []
    for number in range(count):
        document: dict[str, Any] = {"_id": random_id(rng), "job_type": "SEARCH", "number": number}
        if rng.random() < 0.5 and unused:
            document |= {"job_type": "OUTBOX", "source_job_id": unused.pop()}
        elif rng.random() < 0.8:
            document["source_job_id"] = rng.choice(
                [rng.choice(searches), rng.sample(searches, 2), None, 7, str(rng.choice(searches)), "x"]
            )
        documents.append(document)
    return documents


def test_a_batch_of_delivery_lookups_answers_as_mongoeco_does_from_its_candidates_alone(monkeypatch):
    """The reconciler's `searches_with_outbox` (a `$in` of ids with `job_type: OUTBOX`) and variations of it give the
    same documents in the same order as mongoeco's own engine, before and after writes, and the patched engine takes
    its candidates from the index (change 2c) whenever the query states the index's partial filter."""
    rng = random.Random(2)
    searches = [random_id(rng) for _ in range(300)]
    documents = delivery_jobs(rng, searches, 500)
    patched = IndexedReadsMemoryEngine(change_log_max_entries=100)
    listed: list[int] = []
    in_candidates = patched._in_candidates_locked

    def recorded(*args: Any, **kwargs: Any) -> Any:
        candidates = in_candidates(*args, **kwargs)
        if candidates is not None:
            listed.append(len(candidates.storage_keys))
        return candidates

    monkeypatch.setattr(patched, "_in_candidates_locked", recorded)
    with beside_mongoeco(patched) as stores:
        for store in stores:
            store.jobs.create_indexes(job_indexes())
            store.jobs.insert_many(documents)

        def compare() -> None:
            for _ in range(40):
                values: list[Any] = rng.sample(searches, rng.choice([0, 1, 20, 100]))
                if rng.random() < 0.2:
                    values.append(str(rng.choice(searches)))
                query: dict[str, Any] = {"source_job_id": {"$in": values}}
                if rng.random() < 0.8:
                    query["job_type"] = "OUTBOX"
                if rng.random() < 0.2:
                    query["number"] = {"$lt": 250}
                projection = rng.choice([None, {"_id": 0, "source_job_id": 1}])
                answers = [list(store.jobs.find(query, projection)) for store in stores]
                assert answers[0] == answers[1], query

        compare()
        for store in stores:
            store.jobs.update_many({"number": {"$lt": 50}}, {"$set": {"job_type": "SEARCH"}})
            as_arrays = [{"$set": {"source_job_id": ["$source_job_id"]}}]
            store.jobs.update_many({"number": {"$gte": 50, "$lt": 100}}, as_arrays)
            store.jobs.delete_many({"number": {"$gt": 450}})
        compare()

    assert len(listed) > 40, listed  # the index answered, not a scan
    assert max(listed) <= 100, listed  # one candidate per id at most: OUTBOX jobs only, one per search


# --- The watches' due pass and a batch updated by `_id` (issue 34): embedded_store/planner.py, changes 2b and 2e ---


def watches_due_somewhen(rng: random.Random, count: int, now: datetime, *, messy: float) -> list[dict[str, Any]]:
    """Watches as LPS stores them (paused or not, next runs around now) and, with `messy`, what it never stores: a
    missing or array `paused`, a `next_run_at` that is null, a string, a number or missing."""
    documents = []
    for number in range(count):
        document: dict[str, Any] = {
            "_id": random_id(rng),
            "product_code": f"W{number}",
            "paused": rng.random() < 0.2,
            "next_run_at": now + timedelta(seconds=rng.randint(-600, 600)),
        }
        if rng.random() < messy:
            document |= rng.choice(
                [{"paused": [False]}, {"next_run_at": None}, {"next_run_at": "soon"}, {"next_run_at": 5}]
            )
        if rng.random() < messy / 2:
            del document[rng.choice(["paused", "next_run_at"])]
        documents.append(document)
    return documents


@pytest.mark.parametrize("messy", [0.0, 0.15], ids=["as LPS stores them", "with what LPS never stores"])
def test_the_due_pass_and_a_batch_by_id_answer_as_mongoeco_does_from_their_candidates(messy: float, monkeypatch):
    """The scheduler's `paused: false, next_run_at <= now` sorted by next_run_at (a one-field prefix and a bound on
    the next field of `paused_next_run_at`) and `_id` `$in` a batch (finds and update_many) give mongoeco's answers in
    mongoeco's order, before and after writes; the due pass's candidates are the due watches' keys, not every watch."""
    rng, now = random.Random(34), datetime.now(UTC).replace(microsecond=0)
    documents = watches_due_somewhen(rng, 300, now, messy=messy)
    patched = IndexedReadsMemoryEngine(change_log_max_entries=100)
    keyed: list[int] = []
    keyed_candidates = patched._keyed_candidates_locked

    def recorded(*args: Any, **kwargs: Any) -> Any:
        candidates = keyed_candidates(*args, **kwargs)
        if candidates is not None:
            keyed.append(len(candidates))
        return candidates

    monkeypatch.setattr(patched, "_keyed_candidates_locked", recorded)
    with beside_mongoeco(patched) as stores:
        for store in stores:
            store.watches.create_indexes(watch_indexes())
            store.watches.insert_many(documents)

        def compare() -> None:
            for _ in range(20):
                at = now + timedelta(seconds=rng.randint(-700, 700))
                query = {"paused": False, "next_run_at": {rng.choice(["$lte", "$lt"]): at}}
                limit = rng.choice([1, 10, 100])
                answers = [list(store.watches.find(query).sort("next_run_at", 1).limit(limit)) for store in stores]
                assert answers[0] == answers[1], query
                counted = [store.watches.count_documents(query) for store in stores]
                assert counted[0] == counted[1], query
                ids: list[Any] = [document["_id"] for document in rng.sample(documents, rng.choice([0, 1, 50]))]
                ids += rng.choice([[], [str(random_id(rng))], [7]])
                by_id = [list(store.watches.find({"_id": {"$in": ids}})) for store in stores]
                assert by_id[0] == by_id[1], ids
                stamp = rng.randint(0, 1000)
                updated = [
                    store.watches.update_many({"_id": {"$in": ids}}, {"$set": {"stamp": stamp}}) for store in stores
                ]
                assert updated[0].modified_count == updated[1].modified_count, ids

        compare()
        if messy == 0.0:
            due = sum(not document["paused"] and document["next_run_at"] <= now + timedelta(seconds=700)
                      for document in documents)  # fmt: skip
            assert keyed, "the index gave no candidates"
            assert max(keyed) <= due, keyed  # the due watches' keys, never every watch
        for store in stores:  # runs taken, pauses and resumes
            store.watches.update_many({"product_code": {"$regex": "^W1"}}, {"$set": {"next_run_at": now}})
            store.watches.update_many({"product_code": {"$regex": "^W2"}}, {"$set": {"paused": True}})
            store.watches.delete_many({"product_code": {"$regex": "^W3"}})
        compare()
        stamped = [
            sorted((str(w["_id"]), w.get("stamp")) for w in store.watches.find({}, {"stamp": 1})) for store in stores
        ]
        assert stamped[0] == stamped[1]


# A SEARCH job's words (issue 36, `q=`): change 8 keys an array of strings by its strings alone.

WORDS = [f"w{number}" for number in range(40)]


def worded_jobs(count: int, rng: random.Random, *, messy: float = 0.0) -> list[dict[str, Any]]:
    """Jobs as the gateway stores searches (words of their keyword), with some deliveries (no words) among them and,
    at `messy`, words no job of LPS has (a number among them, a single string, an empty array, nested arrays)."""
    start = datetime(2026, 11, 1, tzinfo=UTC)
    documents = []
    for number in range(count):
        document: dict[str, Any] = {
            "_id": ObjectId(),
            "created_at": start + timedelta(seconds=number // 3),  # ties: three jobs a second
            "status": rng.choice(STATUSES),
            "job_type": "SEARCH",
        }
        if rng.random() < 0.1:
            document["job_type"] = "OUTBOX"
        else:
            document["words"] = rng.sample(WORDS[: rng.choice([5, 40])], rng.randint(1, 4))
        if rng.random() < messy:
            document["words"] = rng.choice([[1, "w1"], "w1", [], [["w1"]], ["w1", None], ["w2", "w2"]])
        documents.append(document)
    rng.shuffle(documents)
    return documents


def words_find(rng: random.Random, documents: list[dict[str, Any]]) -> dict[str, Any]:
    """One find as `q=` asks it (infra/job_listing.py): the longest word by the index, the others on the way."""
    first, *rest = rng.sample(WORDS[:8], rng.choice([1, 1, 2, 3]))
    query: dict[str, Any] = {"words": first}
    if rest:
        query["$and"] = [{"words": word} for word in rest]
    if rng.random() < 0.3:
        query["status"] = rng.choice(STATUSES)
    if rng.random() < 0.4:
        after = rng.choice(documents)
        query["created_at"] = {"$lte": after["created_at"]}
        query["$nor"] = [{"created_at": after["created_at"], "_id": {"$gte": after["_id"]}}]
    return {"filter": query, "projection": None, "sort": [("created_at", -1), ("_id", -1)], "skip": 0, "limit": 51}


def test_finds_and_counts_by_words_answer_as_mongoeco_does(monkeypatch):
    """The same jobs in the patched engine and in mongoeco's own: every `q=` find gives the same documents in the same
    order and every count the same number, before and after writes that change, remove and add words."""
    rng = random.Random(36)
    patched = IndexedReadsMemoryEngine(change_log_max_entries=100)
    walks = Answers(patched, "_index_walk_locked", monkeypatch)
    documents = worded_jobs(800, rng, messy=0.05)
    words_index = [model for model in listing_indexes() if model.document["name"] == JOBS_BY_WORDS]
    with beside_mongoeco(patched) as stores:
        for store in stores:
            store.jobs.insert_many(documents)
            store.jobs.create_indexes(words_index)
        for _round in range(3):
            for _ in range(40):
                find = words_find(rng, documents)
                patched_answer, plain_answer = (answer(store.jobs, find) for store in stores)
                assert patched_answer == plain_answer, find
                count = {"count": "jobs", "query": {"words": find["filter"]["words"]}}
                assert stores[0].command(count)["n"] == stores[1].command(count)["n"], count
            for changed in rng.sample(documents, 30):
                change: dict[str, Any] = rng.choice(
                    [{"$set": {"words": rng.sample(WORDS[:8], 2)}}, {"$unset": {"words": ""}}, {"$set": {"words": []}}]
                )
                for store in stores:
                    store.jobs.update_one({"_id": changed["_id"]}, change)
            added = worded_jobs(20, rng)
            for store in stores:
                store.jobs.insert_many([dict(document) for document in added])
            documents += added
    assert walks.answered > 50, walks.answered  # the walk served them, not mongoeco's scan


def test_a_words_page_reads_its_own_keys_at_any_size(monkeypatch):
    """A `q=` page (JobRepository.newest with words) lists no index's keys whole once the index was read, and reads
    as many keys over 1,000 stored jobs as over 6,000 (before change 8 every page was a pass over all the keys)."""
    work = KeyWork(monkeypatch)
    words_index = [model for model in listing_indexes() if model.document["name"] == JOBS_BY_WORDS]
    counted: dict[str, list[tuple[int, int]]] = {}
    with served_in_process(None) as (engine, url, run):

        async def seed(name: str, count: int) -> None:
            await InProcessClient(engine)[name].jobs.insert_many(worded_jobs(count, random.Random(count)))
            await InProcessClient(engine)[name].jobs.create_indexes(words_index)

        async def pages(name: str) -> list[tuple[int, int]]:
            client = AsyncMongoClient(url, **PATIENT)
            repository = JobRepository(MainDatabase.open(client, name))
            try:
                await repository.newest({"words": ["w1"]}, 51)  # the first read makes the order
                seen = []
                for words in (["w1"], ["w2", "w3"], ["w30"]):
                    work.listed = work.walked = 0
                    page = await repository.newest({"words": words}, 51)
                    assert page.jobs, words
                    seen.append((work.listed, work.walked))
                return seen
            finally:
                await client.close()

        for name, count in (("small", 1_000), ("large", 6_000)):
            run(seed(name, count))
            counted[name] = asyncio.run(pages(name))

    assert all(listed == 0 for listed, _ in counted["large"]), counted  # never a pass over the index's keys
    # One word: its page's keys, at any size.
    assert counted["large"][0] == counted["small"][0], counted
    assert counted["large"][0][1] <= 2 * 51, counted
    assert counted["large"][2][1] <= 2 * 51, counted
    # Two words: the first word's keys, bounded by the listing's walk (LISTING_WALK: its far end, then the page).
    assert counted["large"][1][1] <= LISTING_WALK + 3 * 51, counted
