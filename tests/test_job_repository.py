"""The job repository's conditional updates, against the MongoDB wire server: each transition wins once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest
from bson import ObjectId

from infra.clock import utcnow
from infra.jobs import ActiveJobExists, JobRepository, new_job
from infra.mongo import MainDatabase, create_client, ensure_indexes
from infra.settings import Settings
from schemas.codes import JobType


@pytest.fixture
async def jobs(settings: Settings) -> AsyncIterator[JobRepository]:
    client = create_client(settings)
    database = MainDatabase.open(client, settings.mongo_db)
    await ensure_indexes(database, settings)
    yield JobRepository(database)
    await client.close()


async def pending(jobs: JobRepository, product_code: str = "P1", max_attempts: int = 3) -> dict[str, Any]:
    document = new_job(
        JobType.SEARCH,
        job_id=ObjectId(),
        product_code=product_code,
        product={"keyword": "k"},
        priority="NORMAL",
        max_attempts=max_attempts,
        now=utcnow(),
        message_id="m1",
    )
    inserted = await jobs.insert_search_jobs([document])
    return inserted.created[0]


async def claimed(jobs: JobRepository, job: dict[str, Any], worker: str = "w1", lease: float = 60) -> dict[str, Any]:
    now = utcnow()
    running = await jobs.claim(job["_id"], worker=worker, now=now, lease_until=now + timedelta(seconds=lease))
    assert running is not None
    return running


async def test_only_one_of_two_racing_claims_wins(jobs: JobRepository):
    job = await pending(jobs)
    now = utcnow()
    lease = now + timedelta(seconds=60)
    first, second = await asyncio.gather(
        jobs.claim(job["_id"], worker="a", now=now, lease_until=lease),
        jobs.claim(job["_id"], worker="b", now=now, lease_until=lease),
    )
    assert [c is not None for c in (first, second)].count(True) == 1
    winner = first or second
    assert (winner["status"], winner["attempts"]) == ("RUNNING", 1)


async def test_an_attempt_that_was_taken_over_cannot_record_its_end(jobs: JobRepository):
    job = await claimed(jobs, await pending(jobs), lease=-1)  # lease already expired
    lost = await jobs.lost_attempt(job["_id"], now=utcnow())
    now = utcnow()
    taken = await jobs.recover_lost(lost, now=now, take_over=("w2", now + timedelta(seconds=60)))
    assert (taken["status"], taken["attempts"], taken["worker"]) == ("RUNNING", 2, "w2")
    assert [entry["outcome"] for entry in taken["history"]] == ["LOST"]

    assert not await jobs.complete(job, now=utcnow(), output={"result": {}})  # the first worker came back late
    assert await jobs.complete(taken, now=utcnow(), output={"result": {}})
    done = await jobs.get_current(job["_id"])
    assert (done["status"], "active" in done) == ("DONE", False)
    assert [entry["outcome"] for entry in done["history"]] == ["LOST", "DONE"]


async def test_a_lost_last_attempt_ends_dead_without_counting_another_attempt(jobs: JobRepository):
    job = await claimed(jobs, await pending(jobs, max_attempts=1), lease=-1)
    now = utcnow()
    dead = await jobs.recover_lost(job, now=now, take_over=("w2", now + timedelta(seconds=60)))
    assert (dead["status"], dead["attempts"], dead["max_attempts"]) == ("DEAD", 1, 1)
    assert dead["last_error"]["type"] == "ATTEMPTS_EXHAUSTED"
    assert "active" not in dead


async def test_a_live_lease_is_not_lost(jobs: JobRepository):
    job = await claimed(jobs, await pending(jobs))
    assert await jobs.lost_attempt(job["_id"], now=utcnow()) is None


async def test_a_retry_keeps_the_products_slot_and_a_kill_frees_it(jobs: JobRepository):
    job = await claimed(jobs, await pending(jobs))
    error = {"type": "BLOCKED", "message": "403", "at": utcnow()}
    assert await jobs.schedule_retry(job, now=utcnow(), error=error, run_after=utcnow() + timedelta(seconds=5))
    retried = await jobs.get_current(job["_id"])
    assert (retried["status"], retried["active"], retried["last_error"]["type"]) == ("PENDING", True, "BLOCKED")
    duplicate = await jobs.insert_search_jobs([{**job, "_id": ObjectId(), "status": "PENDING", "active": True}])
    assert duplicate.created == []
    assert duplicate.existing["P1"]["_id"] == job["_id"]

    again = await claimed(jobs, retried)
    assert await jobs.kill(again, now=utcnow(), error=error)
    assert not await jobs.kill(again, now=utcnow(), error=error)  # a second kill finds nothing to move
    assert (await pending(jobs))["product_code"] == "P1"  # the product is free for a new job


async def test_a_redrive_refuses_a_job_whose_product_has_another_active_search(jobs: JobRepository):
    job = await claimed(jobs, await pending(jobs))
    assert await jobs.kill(job, now=utcnow(), error={"type": "X", "message": "x", "at": utcnow()})
    await pending(jobs)  # a new active search of the same product
    with pytest.raises(ActiveJobExists):
        await jobs.redrive(job["_id"], now=utcnow(), max_attempts=3, message_id="m2")
