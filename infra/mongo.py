"""MongoDB connections: one client per process, the read/write split, and the indexes.

Each index is listed with the queries it serves in docs/architecture.md.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pymongo
from bson import ObjectId
from pymongo import ASCENDING, DESCENDING, AsyncMongoClient, IndexModel, ReadPreference
from pymongo.asynchronous.collection import AsyncCollection
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import (
    ConnectionFailure,
    ExecutionTimeout,
    NetworkTimeout,
    OperationFailure,
    PyMongoError,
    ServerSelectionTimeoutError,
)

from infra.audit import AUDIT, audit_indexes
from infra.auth_failures import AUTH_FAILURES, auth_failure_indexes
from infra.settings import Settings
from infra.ui_sessions import UI_SESSIONS, ui_session_indexes
from schemas.codes import ENDED_STATUSES, JobStatus, status_names

#: Below every ObjectId: in an order by (a time, `_id`), the position (t, FIRST_ID) comes before every document at t,
#: so a walk or a page that starts there reads all of them.
FIRST_ID = ObjectId("0" * 24)
#: Errors that mean "MongoDB is unreachable or too slow", answered as DB_RUN_FAILED.
MONGO_UNAVAILABLE = (ConnectionFailure, ServerSelectionTimeoutError, NetworkTimeout, ExecutionTimeout)


def is_unavailable(error: BaseException) -> bool:
    """MONGO_UNAVAILABLE, or any other driver error caused by a timeout (a deadline can end a bulk write too)."""
    return isinstance(error, MONGO_UNAVAILABLE) or (isinstance(error, PyMongoError) and error.timeout)


def deadline(settings: Settings) -> AbstractContextManager[None]:
    """One LPS_MONGO_TIMEOUT_MS budget for every MongoDB operation run inside the block, together.

    pymongo's client-side operation timeout: a contextvar, so it holds across awaits (and tasks created inside)
    with AsyncMongoClient. Unlike asyncio.timeout, it does not cancel the coroutine part-way through the driver:
    the driver gives each operation the time that is left, for server selection, the connection checkout and the
    socket reads, sends the rest to the server as maxTimeMS, and raises a timeout error (`error.timeout`) when it
    is spent, closing a connection whose answer never came. Without it, a hung (not down) server held a request
    until a heartbeat failed or the socket timeout passed: up to 13 s with a 3 s setting.
    """
    return pymongo.timeout(settings.mongo_timeout_ms / 1000)


JOBS = "jobs"
PRICE_HISTORY = "price_history"
#: One document per watched product (infra/watches.py).
WATCHES = "watches"
#: One small document per source: its pacing and circuit breaker (infra/source_limits/), only ever read by `_id`.
SOURCE_LIMITS = "source_limits"

# Index names: the reports (tools/reporting.py) and docs/ name the index each query relies on.
JOBS_BY_STATUS_TYPE_FINISHED = "status_job_type_finished_at"
ACTIVE_BY_STATUS = "active_by_status"
ACTIVE_UNCONFIRMED = "active_unconfirmed"
DEFERRED_BY_SOURCE = "deferred_by_source"
JOBS_BY_FINISHED_AT = "ended_by_finished_at"
JOBS_BY_CREATED_AT = "created_at_desc"
JOBS_BY_STATUS_CREATED_AT = "status_created_at"
JOBS_BY_PRODUCT_CREATED_AT = "product_created_at"
DEAD_JOBS_BY_ERROR_TYPE = "dead_by_status_error_type"
JOBS_BY_WORDS = "words_created_at"
PRICE_HISTORY_BY_PRODUCT = "product_searched_at"
WATCHES_DUE = "paused_next_run_at"
#: The scheduler's earlier indexes (next_run_at partial on paused: false; the minute of next_run_at): dropped where
#: found, they would only cost every write to a watch.
_RETIRED_WATCH_INDEXES = ("due_next_run_at", "next_run_minute")
PRICE_HISTORY_BY_SEARCHED_AT = "searched_at_desc"


def create_client(settings: Settings) -> AsyncMongoClient:
    """The process's one client (it pools connections itself); timeouts bound every call."""
    if not settings.mongo_url:
        raise RuntimeError("LPS_MONGO_URL is not set (the CLI starts the embedded server and sets it)")
    timeout = settings.mongo_timeout_ms
    return AsyncMongoClient(
        settings.mongo_url,
        tz_aware=True,
        serverSelectionTimeoutMS=timeout,
        connectTimeoutMS=timeout,
        # Not timeoutMS: with it, server selection waits the whole operation budget, not the short timeout.
        # A reachable but busy server gets longer than an unreachable one: a big batch may queue behind others.
        socketTimeoutMS=max(timeout * 10, 30_000),
        appname="lps",
    )


@dataclass(frozen=True, slots=True)
class MainDatabase:
    """The logical database MAIN: changes go to the primary (WRITE), stale-tolerant reads to secondaries (READ)."""

    write: AsyncDatabase
    read: AsyncDatabase

    @classmethod
    def open(cls, client: AsyncMongoClient, name: str) -> MainDatabase:
        return cls(
            write=client.get_database(name),
            read=client.get_database(name, read_preference=ReadPreference.SECONDARY_PREFERRED),
        )

    def jobs(self, *, stale_ok: bool = False) -> AsyncCollection:
        return (self.read if stale_ok else self.write)[JOBS]


def job_indexes() -> list[IndexModel]:
    return [
        # One active SEARCH job per product. Equality-only filter: real MongoDB rejects $ne/$exists:false here.
        IndexModel(
            [("product_code", ASCENDING)],
            name="one_active_search_per_product",
            unique=True,
            partialFilterExpression={"active": True, "job_type": "SEARCH"},
        ),
        IndexModel(
            [("source_job_id", ASCENDING)],
            name="one_outbox_per_search",
            unique=True,
            partialFilterExpression={"job_type": "OUTBOX"},
        ),
        # {status, job_type}, extended by finished_at: its prefix serves the same queries (stats,
        # the reconciler) and the whole of it the reports' "finished since" ranges. One index, not two, keeps
        # every job insert cheaper.
        IndexModel(
            [("status", ASCENDING), ("job_type", ASCENDING), ("finished_at", DESCENDING)],
            name=JOBS_BY_STATUS_TYPE_FINISHED,
        ),
        # The dead page's total per error type: a count of its keys (status DEAD, the error type), among DEAD jobs only
        # (partial, so no active job's write touches it).
        IndexModel(
            [("status", ASCENDING), ("last_error.type", ASCENDING)],
            name=DEAD_JOBS_BY_ERROR_TYPE,
            partialFilterExpression={"status": JobStatus.DEAD.name},
        ),
        *walk_indexes(),
        *listing_indexes(),
    ]


def walk_indexes() -> list[IndexModel]:
    """What the periodic walks read (stats, /metrics, the timeline, the reconciler).

    - `ended_by_finished_at` (finished_at, _id): jobs that ended, in the order they ended. A walk over what ended
      since a cursor (`JobRepository.ended_after`) is one range from the cursor, bounded by its batch: the cost of
      what it returns, not of history.

    The active set (PENDING and RUNNING, every job type, which `active: true` marks until a job ends) may be a backlog
    of 100,000 PENDING jobs, so what is read of it goes by narrow keys, each index partial on `active: true` (so it
    holds only the work in hand, never history; issue 24):
    - `active_by_status` (active, status, job_type, run_after): the counts of PENDING and RUNNING jobs per type and of
      the delayed ones (run_after ahead), read from the keys alone (`count_by_index`); the RUNNING jobs whose lease
      expired and the PENDING ones of a type whose message was lost (the reconciler) by their status's keys; the job
      listing's `delayed` filter by the same keys as the delayed count (infra/job_listing.py).
    - `active_unconfirmed` (active, enqueued_at): the jobs the broker never confirmed are those without
      `enqueued_at`, a handful whatever the backlog.
    - `deferred_by_source` (active, status, deferred.sources): the jobs waiting deferred for a source's turn.
    """
    active = {"active": True}
    return [
        IndexModel(
            [("active", ASCENDING), ("status", ASCENDING), ("job_type", ASCENDING), ("run_after", ASCENDING)],
            name=ACTIVE_BY_STATUS,
            partialFilterExpression=active,
        ),
        IndexModel(
            [("active", ASCENDING), ("enqueued_at", ASCENDING)], name=ACTIVE_UNCONFIRMED, partialFilterExpression=active
        ),
        IndexModel(
            [("active", ASCENDING), ("status", ASCENDING), ("deferred.sources", ASCENDING)],
            name=DEFERRED_BY_SOURCE,
            partialFilterExpression=active,
        ),
        IndexModel([("finished_at", ASCENDING), ("_id", ASCENDING)], name=JOBS_BY_FINISHED_AT),
    ]


async def count_by_index(collection: AsyncCollection, query: dict[str, Any]) -> int:
    """How many documents match `query`, by the `count` command, for a query shaped on an index's keys.

    On MongoDB a query of equalities on an index's leading fields (and at most one range on the next) is one
    COUNT_SCAN: index keys only, no document read (the planner takes that index: no other has such a prefix; no hint,
    so a store whose indexes are still being built answers too). `count_documents` would run an aggregation, which
    reads every matching document. The command is exact on an unsharded collection; a sharded `jobs` would need
    `count_documents` (orphaned documents), docs/capacity.md.
    """
    reply = await collection.database.command(
        {"count": collection.name, "query": query}, read_preference=collection.read_preference
    )
    return int(reply["n"])


def listing_indexes() -> list[IndexModel]:
    """The job listing, newest first by (created_at, _id), unfiltered or filtered by status or by product: the
    filter and the order in one index. `_id` breaks the ties of a batch (one `created_at` for all its jobs), so
    a page's cursor is a position in the index."""
    return [
        IndexModel([("created_at", DESCENDING), ("_id", DESCENDING)], name=JOBS_BY_CREATED_AT),
        IndexModel(
            [("status", ASCENDING), ("created_at", DESCENDING), ("_id", DESCENDING)], name=JOBS_BY_STATUS_CREATED_AT
        ),
        IndexModel(
            [("product_code", ASCENDING), ("created_at", DESCENDING), ("_id", DESCENDING)],
            name=JOBS_BY_PRODUCT_CREATED_AT,
        ),
        # `q=`: a SEARCH job's words (multikey: one key per word), newest first within a word.
        IndexModel([("words", ASCENDING), ("created_at", DESCENDING), ("_id", DESCENDING)], name=JOBS_BY_WORDS),
    ]


RETENTION_INDEX = "ended_retention"
#: Indexes of `jobs` that earlier releases made, dropped where found: the retention index before it was partial on
#: DONE / DEAD (it would remove a re-driven job), and `active_jobs` (active: true alone), a prefix of the three
#: `walk_indexes` partial on the same filter, which every read of the active set now goes by: it only cost each
#: transition one more index write; `finished_minute`, which the walks over ended jobs read minute by minute before
#: they read one range of `ended_by_finished_at`; `dead_by_error_type` (the error type alone), which the dead page's
#: totals counted by reading each DEAD job, before they counted the keys of `dead_by_status_error_type`.
_RETIRED_JOB_INDEXES = ("finished_retention", "active_jobs", "finished_minute", "dead_by_error_type")
#: Server codes for "an index of that name exists with other options" (IndexOptionsConflict, IndexKeySpecsConflict).
_INDEX_CONFLICTS = (85, 86)


def retention_index(retention_days: int) -> IndexModel:
    """Finished jobs (DONE or DEAD) expire this long after `finished_at`. Partial on those statuses: a re-driven job
    keeps the `finished_at` of its death while it runs again (`JobRepository.redrive`) and must never expire."""
    seconds = int(timedelta(days=retention_days).total_seconds())
    return IndexModel(
        [("finished_at", ASCENDING)],
        name=RETENTION_INDEX,
        expireAfterSeconds=seconds,
        partialFilterExpression={"status": {"$in": status_names(ENDED_STATUSES)}},
    )


def price_history_retention_index(days: int) -> IndexModel:
    """price_history entries expire this long after `searched_at` (LPS_PRICE_HISTORY_DAYS); the reports' window
    index too (a TTL index is an ordinary index for queries)."""
    seconds = int(timedelta(days=days).total_seconds())
    return IndexModel([("searched_at", DESCENDING)], name=PRICE_HISTORY_BY_SEARCHED_AT, expireAfterSeconds=seconds)


async def _ensure_ttl(database: AsyncDatabase, collection: str, model: IndexModel) -> None:
    """Create a TTL index, or change its expiry when its retention setting changed since it was created.

    Both stores remove expired documents themselves: MongoDB's TTL monitor every minute, the embedded store
    whenever the collection is next used (through the index: the cost is the expired documents, not all).
    """
    try:
        await database[collection].create_indexes([model])
    except OperationFailure as conflict:
        if conflict.code not in _INDEX_CONFLICTS:
            raise
        name, seconds = model.document["name"], model.document["expireAfterSeconds"]
        try:
            await database.command("collMod", collection, index={"name": name, "expireAfterSeconds": seconds})
        except OperationFailure:
            # A store without collMod (the embedded one), or an index that was not TTL before: a TTL index holds
            # no constraint, rebuilding it is safe.
            await database[collection].drop_index(name)
            await database[collection].create_indexes([model])


async def _ensure_rebuilt(collection: AsyncCollection, models: list[IndexModel]) -> None:
    """Create indexes; one that exists under its name with other keys (an older version) is dropped and built
    again. Only for plain indexes: they hold no constraint, so nothing is allowed meanwhile that should not be."""
    try:
        await collection.create_indexes(models)
    except OperationFailure as conflict:
        if conflict.code not in _INDEX_CONFLICTS:
            raise
        existing = await collection.index_information()
        for model in models:
            name = model.document["name"]
            if name in existing and dict(existing[name]["key"]) != dict(model.document["key"]):
                await collection.drop_index(name)
        await collection.create_indexes(models)


async def ensure_indexes(db: MainDatabase, settings: Settings) -> None:
    """Idempotent: creating an index that exists with the same options is a no-op."""
    listing = {model.document["name"] for model in listing_indexes()}
    await db.jobs().create_indexes([model for model in job_indexes() if model.document["name"] not in listing])
    await _ensure_rebuilt(db.jobs(), listing_indexes())
    existing = await db.jobs().index_information()
    for retired in _RETIRED_JOB_INDEXES:
        if retired in existing:
            await db.jobs().drop_index(retired)
    await _ensure_ttl(db.write, JOBS, retention_index(settings.retention_days))
    await db.write[PRICE_HISTORY].create_indexes(price_history_indexes())
    await db.write[WATCHES].create_indexes(watch_indexes())
    existing_watch_indexes = await db.write[WATCHES].index_information()
    for retired in _RETIRED_WATCH_INDEXES:
        if retired in existing_watch_indexes:
            await db.write[WATCHES].drop_index(retired)
    await _ensure_ttl(db.write, PRICE_HISTORY, price_history_retention_index(settings.price_history_days))
    await db.write[UI_SESSIONS].create_indexes(ui_session_indexes())
    await db.write[AUDIT].create_indexes(audit_indexes())
    await db.write[AUTH_FAILURES].create_indexes(auth_failure_indexes())


def declared_indexes(settings: Settings) -> dict[str, list[IndexModel]]:
    """Every index `ensure_indexes` makes, by collection (besides each collection's `_id`): what docs/architecture.md's
    hot queries name and what the tests' query catalogue (tests/query_catalogue.py) checks every query against."""
    return {
        JOBS: [*job_indexes(), retention_index(settings.retention_days)],
        PRICE_HISTORY: [*price_history_indexes(), price_history_retention_index(settings.price_history_days)],
        WATCHES: watch_indexes(),
        UI_SESSIONS: ui_session_indexes(),
        AUTH_FAILURES: auth_failure_indexes(),
        AUDIT: audit_indexes(),
    }


def watch_indexes() -> list[IndexModel]:
    return [
        # One watch per product: a second POST for it answers the first (duplicate: true).
        IndexModel([("product_code", ASCENDING)], name="one_watch_per_product", unique=True),
        # The scheduler's pass (`WatchRepository.due`): `paused: false` (equality), then `next_run_at <= now` sorted
        # by next_run_at (the sort and the range on the next field): one range of keys, the due watches'.
        IndexModel([("paused", ASCENDING), ("next_run_at", ASCENDING)], name=WATCHES_DUE),
    ]


def price_history_indexes() -> list[IndexModel]:
    return [
        # One product's prices over time (the product report, a watch's last prices).
        IndexModel([("product_code", ASCENDING), ("searched_at", DESCENDING)], name=PRICE_HISTORY_BY_PRODUCT),
        # Reports over every product in a time window: price_history_retention_index.
    ]
