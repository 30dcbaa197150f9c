"""The job store's indexes (docs/architecture.md), created at start-up, again and again, on the real wire server."""

from __future__ import annotations

from datetime import timedelta

import pytest
from pymongo import ASCENDING, IndexModel
from pymongo.errors import DuplicateKeyError

from infra.clock import utcnow
from infra.mongo import MainDatabase, create_client, ensure_indexes
from infra.settings import Settings
from tools.testbed import eventually


async def test_start_up_creates_the_indexes_and_can_run_again(settings: Settings):
    client = create_client(settings)
    try:
        database = MainDatabase.open(client, settings.mongo_db)
        await ensure_indexes(database, settings)
        await ensure_indexes(database, settings)
        indexes = await database.jobs().index_information()
    finally:
        await client.close()

    assert indexes["one_active_search_per_product"]["unique"] is True
    assert dict(indexes["one_active_search_per_product"]["partialFilterExpression"]) == {
        "active": True,
        "job_type": "SEARCH",
    }
    assert dict(indexes["one_outbox_per_search"]["partialFilterExpression"]) == {"job_type": "OUTBOX"}
    assert indexes["ended_retention"]["expireAfterSeconds"] == settings.retention_days * 86400
    # Only ended jobs expire: a re-driven job keeps the finished_at of its death while it runs again.
    assert dict(indexes["ended_retention"]["partialFilterExpression"]) == {"status": {"$in": ["DONE", "DEAD"]}}
    assert [key for key, _ in indexes["status_job_type_finished_at"]["key"]] == ["status", "job_type", "finished_at"]
    # What the periodic walks read: the active set by its partial keys, what ended by one range in the order it ended.
    assert dict(indexes["active_by_status"]["partialFilterExpression"]) == {"active": True}
    assert [key for key, _ in indexes["ended_by_finished_at"]["key"]] == ["finished_at", "_id"]
    assert "finished_minute" not in indexes


async def test_the_watch_scheduler_reads_by_paused_and_next_run_at_and_its_older_indexes_are_dropped(
    settings: Settings,
):
    client = create_client(settings)
    try:
        database = MainDatabase.open(client, settings.mongo_db)
        paused = {"paused": False}
        older = IndexModel([("next_run_at", ASCENDING)], name="due_next_run_at", partialFilterExpression=paused)
        by_minute = IndexModel([("next_run_minute", ASCENDING)], name="next_run_minute")
        await database.write.watches.create_indexes([older, by_minute])
        await ensure_indexes(database, settings)
        indexes = await database.write.watches.index_information()
    finally:
        await client.close()

    assert [key for key, _ in indexes["paused_next_run_at"]["key"]] == ["paused", "next_run_at"]
    assert "due_next_run_at" not in indexes
    assert "next_run_minute" not in indexes


async def test_a_changed_retention_updates_the_ttl_index_instead_of_failing_start_up(settings: Settings):
    client = create_client(settings)
    try:
        database = MainDatabase.open(client, settings.mongo_db)
        await ensure_indexes(database, settings.with_overrides(retention_days=30))
        await ensure_indexes(database, settings.with_overrides(retention_days=7))
        indexes = await database.jobs().index_information()
    finally:
        await client.close()

    assert indexes["ended_retention"]["expireAfterSeconds"] == 7 * 86400


async def test_the_retention_index_of_every_job_is_replaced_by_one_of_ended_jobs(settings: Settings):
    client = create_client(settings)
    try:
        database = MainDatabase.open(client, settings.mongo_db)
        older = IndexModel([("finished_at", ASCENDING)], name="finished_retention", expireAfterSeconds=86400)
        await database.jobs().create_indexes([older])
        await ensure_indexes(database, settings)
        indexes = await database.jobs().index_information()
    finally:
        await client.close()

    assert "finished_retention" not in indexes
    assert "ended_retention" in indexes


async def test_only_one_active_search_per_product_but_any_number_of_ended_ones(settings: Settings):
    client = create_client(settings)
    try:
        database = MainDatabase.open(client, settings.mongo_db)
        await ensure_indexes(database, settings)
        jobs = database.jobs()
        await jobs.insert_many([{"product_code": "P", "job_type": "SEARCH", "status": "DONE"} for _ in range(2)])
        await jobs.insert_one({"product_code": "P", "job_type": "SEARCH", "active": True})
        with pytest.raises(DuplicateKeyError):
            await jobs.insert_one({"product_code": "P", "job_type": "SEARCH", "active": True})
        await jobs.insert_one({"product_code": "P", "job_type": "OUTBOX", "active": True, "source_job_id": 1})
    finally:
        await client.close()


async def test_finished_jobs_and_price_history_expire_after_their_retention(settings: Settings):
    """Both stores remove expired documents themselves (the embedded one when the collection is next used)."""
    now = utcnow()
    client = create_client(settings)
    try:
        database = MainDatabase.open(client, settings.mongo_db)
        await ensure_indexes(database, settings.with_overrides(retention_days=30, price_history_days=365))
        jobs, prices = database.jobs(), database.write["price_history"]
        await jobs.insert_many(
            [
                {"product_code": "OLD", "status": "DONE", "finished_at": now - timedelta(days=31)},
                {"product_code": "RECENT", "status": "DONE", "finished_at": now - timedelta(days=29)},
                {"product_code": "ACTIVE", "status": "PENDING", "active": True},
            ]
        )
        await prices.insert_many(
            [
                {"product_code": "OLD", "searched_at": now - timedelta(days=366)},
                {"product_code": "RECENT", "searched_at": now - timedelta(days=364)},
            ]
        )

        async def remaining() -> tuple[list[str], list[str]] | None:
            kept = (
                sorted(job["product_code"] for job in await jobs.find().to_list()),
                sorted(entry["product_code"] for entry in await prices.find().to_list()),
            )
            return kept if "OLD" not in kept[0] + kept[1] else None

        # MongoDB's TTL monitor runs every 60 s; the embedded store removes them at once.
        kept = await eventually(remaining, within=150, what="expired documents to be removed", interval=1)
    finally:
        await client.close()

    assert kept == (["ACTIVE", "RECENT"], ["RECENT"])


async def test_the_retired_indexes_are_dropped_where_an_earlier_release_made_them(settings: Settings):
    client = create_client(settings)
    try:
        database = MainDatabase.open(client, settings.mongo_db)
        older = [
            IndexModel([("active", ASCENDING)], name="active_jobs", partialFilterExpression={"active": True}),
            IndexModel([("finished_minute", ASCENDING)], name="finished_minute"),
        ]
        await database.jobs().create_indexes(older)
        await ensure_indexes(database, settings)
        await ensure_indexes(database, settings)  # and again, with nothing left to drop
        indexes = await database.jobs().index_information()
    finally:
        await client.close()

    assert "active_jobs" not in indexes
    assert "finished_minute" not in indexes
    assert {"active_by_status", "ended_by_finished_at"} <= set(indexes)
