"""The job repository's conditional updates, against the MongoDB wire server: each transition wins once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest
from bson import ObjectId

from infra.clock import utcnow
from infra.job_documents import BETWEEN_ATTEMPTS, new_job
from infra.jobs import ActiveJobExists, JobRepository
from infra.mongo import MainDatabase, create_client, ensure_indexes
from infra.settings import Settings
from schemas.codes import JobType
from schemas.offers import SOURCES_ANSWERED


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


# --- An ended job carries nothing of its attempts into its next life ----------------------------------------------

KEPT_ANSWER = {SOURCES_ANSWERED: {"naver": {"outcome": "FOUND", "count": 1, "ms": 5, "offers": [{"price": 1}]}}}
ERROR = {"type": "BLOCKED", "message": "403", "at": utcnow()}


async def waiting_with_kept_answers(jobs: JobRepository, max_attempts: int = 3) -> dict[str, Any]:
    """A PENDING search that kept a source's answer and a deferral's note between its attempts."""
    job = await claimed(jobs, await pending(jobs, max_attempts=max_attempts))
    deferral = {"sources": ["coupang"], "reason": "rate", "until": utcnow()}
    assert await jobs.schedule_retry(job, now=utcnow(), error=ERROR, run_after=utcnow(), keep=KEPT_ANSWER)
    # A second attempt deferred: the note is kept beside the answer.
    again = await claimed(jobs, await jobs.get_current(job["_id"]))  # type: ignore[arg-type]
    assert await jobs.schedule_retry(
        again, now=utcnow(), error=ERROR, run_after=utcnow(), keep=KEPT_ANSWER, deferred=deferral
    )
    waiting = await jobs.get_current(job["_id"])
    assert waiting is not None
    assert set(BETWEEN_ATTEMPTS) - {"lease_until"} <= set(waiting)
    return waiting


async def end_by_complete(jobs: JobRepository, job: dict[str, Any]) -> None:
    assert await jobs.complete(await claimed(jobs, job), now=utcnow(), output={"result": {}})


async def end_by_kill(jobs: JobRepository, job: dict[str, Any]) -> None:
    assert await jobs.kill(await claimed(jobs, job), now=utcnow(), error=ERROR)


async def end_by_lease_expiring_in_the_last_attempt(jobs: JobRepository, job: dict[str, Any]) -> None:
    running = await claimed(jobs, job, lease=-1)
    assert running["attempts"] == running["max_attempts"]
    ended = await jobs.recover_lost(running, now=utcnow())
    assert ended is not None
    assert ended["status"] == "DEAD"


async def end_by_dead_letter_while_pending(jobs: JobRepository, job: dict[str, Any]) -> None:
    assert await jobs.kill_dead_lettered(job["_id"], now=utcnow(), queue="search.XQ")


async def end_by_dead_letter_while_running(jobs: JobRepository, job: dict[str, Any]) -> None:
    await claimed(jobs, job)
    assert await jobs.kill_dead_lettered(job["_id"], now=utcnow(), queue="search.XQ")


@pytest.mark.parametrize(
    "end",
    [
        end_by_complete,
        end_by_kill,
        end_by_lease_expiring_in_the_last_attempt,
        end_by_dead_letter_while_pending,
        end_by_dead_letter_while_running,
    ],
)
async def test_every_path_that_ends_a_job_clears_what_lived_between_its_attempts(jobs: JobRepository, end: Any):
    job = await waiting_with_kept_answers(jobs, max_attempts=2)  # the next claim is the last attempt

    await end(jobs, job)

    ended = await jobs.get_current(job["_id"])
    assert ended is not None
    assert ended["status"] in {"DONE", "DEAD"}
    assert {field: ended[field] for field in ("active", *BETWEEN_ATTEMPTS) if field in ended} == {}


async def test_a_redrive_searches_every_source_afresh_even_for_a_job_that_died_keeping_answers(jobs: JobRepository):
    job = await waiting_with_kept_answers(jobs)
    # As a job killed by an older release left it: DEAD with its kept answers still on it.
    raw = jobs._jobs  # the one way to store what no transition of this release writes
    await raw.update_one({"_id": job["_id"]}, {"$set": {"status": "DEAD"}, "$unset": {"active": ""}})

    redriven = await jobs.redrive(job["_id"], now=utcnow(), max_attempts=3, message_id="m2")

    assert redriven is not None
    assert (redriven["status"], redriven["attempts"]) == ("PENDING", 0)
    assert {field: redriven[field] for field in BETWEEN_ATTEMPTS if field in redriven} == {}
