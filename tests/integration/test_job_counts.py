"""Job counts whose cost does not grow with history (`infra.job_counts`), against the MongoDB wire server."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import datetime, timedelta

import pytest
from bson import ObjectId
from pymongo import AsyncMongoClient

from infra.clock import utcnow
from infra.job_counts import JobCounts
from infra.job_documents import ended_fields, new_job
from infra.jobs import JobRepository
from infra.mongo import FIRST_ID, MainDatabase, create_client, ensure_indexes
from infra.settings import Settings
from infra.timeline import EndedTimeline
from schemas.codes import ACTIVE_STATUSES, ENDED_STATUSES, JobType, status_names
from tests.harness import FindFilters, sample
from tools.testbed import eventually

#: Which /metrics series holds which statuses' counts.
SERIES_OF_STATUSES = (("lps_jobs_active", ACTIVE_STATUSES), ("lps_jobs_ended_total", ENDED_STATUSES))


@pytest.fixture
async def database(settings: Settings) -> AsyncIterator[MainDatabase]:
    client = create_client(settings)
    database = MainDatabase.open(client, settings.mongo_db)
    await ensure_indexes(database, settings)
    yield database
    await client.close()


def counts_of(database: MainDatabase, *, catch_up_limit: int = 1000) -> JobCounts:
    return JobCounts(JobRepository(database), database.write, settle=0.0, catch_up_limit=catch_up_limit)


async def ended_job(jobs: JobRepository, code: str, *, dead: bool = False, job_type: JobType = JobType.SEARCH) -> dict:
    now = utcnow()
    document = new_job(
        job_type, job_id=ObjectId(), product_code=code, priority="NORMAL", max_attempts=1, now=now, message_id="m"
    )
    await jobs.insert_search_jobs([document])
    job = await jobs.claim(document["_id"], worker="w", now=now, lease_until=now + timedelta(seconds=60))
    error = {"type": "X", "message": "x", "at": now}
    assert await (jobs.kill(job, now=utcnow(), error=error) if dead else jobs.complete(job, now=utcnow(), output={}))
    return job


async def test_every_status_is_counted_live_or_from_the_ended_totals(database: MainDatabase):
    jobs = JobRepository(database)
    for index in range(3):
        await ended_job(jobs, f"D{index}")
    await ended_job(jobs, "X1", dead=True)
    await ended_job(jobs, "O1", job_type=JobType.OUTBOX)
    pending = new_job(
        JobType.SEARCH, job_id=ObjectId(), product_code="P1", priority="NORMAL", max_attempts=1, now=utcnow(),
        message_id="m",
    )  # fmt: skip
    await jobs.insert_search_jobs([pending])

    counts = await counts_of(database).current()

    assert counts.by_type == {
        "SEARCH": {"PENDING": 1, "RUNNING": 0, "DONE": 3, "DEAD": 1},
        "OUTBOX": {"PENDING": 0, "RUNNING": 0, "DONE": 1, "DEAD": 0},
    }
    assert counts.by_status == {"PENDING": 1, "RUNNING": 0, "DONE": 4, "DEAD": 1}
    assert not counts.catching_up


async def test_ended_jobs_are_counted_once_however_many_callers_ask_at_once(database: MainDatabase):
    jobs = JobRepository(database)
    for index in range(10):
        await ended_job(jobs, f"D{index}")

    answers = await asyncio.gather(*(counts_of(database).current() for _ in range(5)))
    again = await counts_of(database).current()

    assert again.by_type["SEARCH"]["DONE"] == 10
    assert all(answer.by_type["SEARCH"]["DONE"] in (0, 10) for answer in answers)


async def test_a_call_counts_at_most_its_limit_and_the_next_calls_catch_up(database: MainDatabase):
    jobs = JobRepository(database)
    for index in range(7):
        await ended_job(jobs, f"D{index}")

    first = await counts_of(database, catch_up_limit=3).current()
    second = await counts_of(database, catch_up_limit=3).current()
    third = await counts_of(database, catch_up_limit=3).current()
    fourth = await counts_of(database, catch_up_limit=3).current()

    assert [c.by_type["SEARCH"]["DONE"] for c in (first, second, third, fourth)] == [3, 6, 7, 7]
    assert (first.catching_up, third.catching_up, fourth.catching_up) == (True, False, False)


async def test_a_redriven_job_is_counted_again_when_it_ends_again(database: MainDatabase):
    jobs = JobRepository(database)
    dead = await ended_job(jobs, "R1", dead=True)
    assert (await counts_of(database).current()).by_type["SEARCH"]["DEAD"] == 1

    again = await jobs.redrive(dead["_id"], now=utcnow(), max_attempts=1, message_id="m2")
    assert again is not None
    running = await jobs.claim(dead["_id"], worker="w", now=utcnow(), lease_until=utcnow() + timedelta(seconds=60))
    assert await jobs.complete(running, now=utcnow(), output={})

    counts = await counts_of(database).current()
    assert counts.by_type["SEARCH"] == {"PENDING": 0, "RUNNING": 0, "DONE": 1, "DEAD": 1}


@pytest.fixture
async def watched(settings: Settings, database: MainDatabase) -> AsyncIterator[tuple[JobRepository, FindFilters]]:
    listener = FindFilters("jobs")
    client = AsyncMongoClient(settings.mongo_url, tz_aware=True, event_listeners=[listener])
    yield JobRepository(MainDatabase.open(client, settings.mongo_db)), listener
    await client.close()


async def store_ended(database: MainDatabase, *finished: datetime) -> list[dict]:
    """DONE searches that ended at these moments (stored directly: the walk only reads)."""
    documents = []
    for at in finished:
        document = new_job(
            JobType.SEARCH, job_id=ObjectId(), product_code=f"E-{at.isoformat()}", priority="NORMAL", max_attempts=1,
            now=at, message_id="m",
        )  # fmt: skip
        del document["active"]
        documents.append(document | {"status": "DONE"} | ended_fields(at))
    await database.jobs().insert_many(documents)
    return documents


async def test_a_walk_over_ended_jobs_is_one_range_from_its_cursor_in_the_order_they_ended(
    database: MainDatabase, watched
):
    jobs, listener = watched
    base = utcnow().replace(second=0, microsecond=0) - timedelta(minutes=10)
    tie = base + timedelta(seconds=10)
    # Stored out of order, across minutes, three of them ending at the same moment.
    stored = await store_ended(database, base + timedelta(minutes=2), tie, base + timedelta(seconds=50), tie, tie)
    ties = sorted((job for job in stored if job["finished_at"] == tie), key=lambda job: job["_id"])

    page = await jobs.ended_after((tie, ties[0]["_id"]), until=base + timedelta(minutes=3), limit=10)

    # After the cursor: the rest of its ties by _id, then the later jobs by finished_at.
    later = [job["_id"] for job in sorted(stored, key=lambda job: job["finished_at"]) if job["finished_at"] > tie]
    assert [job["_id"] for job in page.jobs] == [ties[1]["_id"], ties[2]["_id"], *later]
    # One find: a range on finished_at from the cursor (what `ended_by_finished_at` bounds), whatever the history.
    (query,) = listener.filters
    assert query["finished_at"] == {"$gte": tie, "$lt": base + timedelta(minutes=3)}
    assert not page.more


async def test_a_quiet_stretch_is_crossed_in_one_step_and_not_asked_about_again(database: MainDatabase, watched):
    jobs, listener = watched
    now = utcnow()
    start = (now - timedelta(days=3), FIRST_ID)
    (later,) = await store_ended(database, now - timedelta(days=1))

    first = await jobs.ended_after(start, until=now, limit=10)
    second = await jobs.ended_after(first.cursor, until=now, limit=10)

    assert ([job["_id"] for job in first.jobs], first.more) == ([later["_id"]], False)
    assert len(listener.filters) == 2  # one find a step, not a lookup per quiet minute
    # Past the quiet stretch to `until`'s minute, not into it: a job of that minute landing late is still found.
    assert (second.jobs, second.more) == ([], False)
    assert second.cursor == first.cursor == (now.replace(second=0, microsecond=0), FIRST_ID)
    assert listener.filters[1]["finished_at"]["$gte"] == now.replace(second=0, microsecond=0)


async def test_a_walk_stops_at_its_limit_and_goes_on_from_the_last_job(database: MainDatabase, watched):
    jobs, _ = watched
    base = utcnow() - timedelta(minutes=5)
    stored = await store_ended(database, *(base + timedelta(seconds=index) for index in range(5)))

    first = await jobs.ended_after((base - timedelta(seconds=1), FIRST_ID), until=utcnow(), limit=3)
    rest = await jobs.ended_after(first.cursor, until=utcnow(), limit=3)

    assert [job["_id"] for job in first.jobs + rest.jobs] == [job["_id"] for job in stored]
    assert (first.more, rest.more) == (True, False)


async def test_the_first_count_on_a_store_starts_before_every_job_of_the_first_minute(database: MainDatabase):
    base = utcnow().replace(second=0, microsecond=0) - timedelta(minutes=3)
    # Stored out of order: the later one first, as concurrent workers may write them.
    await store_ended(database, base + timedelta(seconds=50), base + timedelta(seconds=10))

    counts = await counts_of(database).current()

    assert counts.by_type["SEARCH"]["DONE"] == 2


async def test_a_death_re_driven_before_any_count_reached_it_is_still_counted_dead_in_totals_and_timeline(
    database: MainDatabase,
):
    jobs = JobRepository(database)
    counts = counts_of(database)
    await counts.current()  # the walk's cursor stands before the death
    died = await ended_job(jobs, "RE-DRIVEN", dead=True)

    redriven = await jobs.redrive(died["_id"], now=utcnow(), max_attempts=1, message_id="m2")
    totals = await counts.current()
    timeline = await EndedTimeline(jobs, settle=0.0, limit=100).last(minutes=2)

    assert redriven is not None
    assert redriven["status"] == "PENDING"
    assert (totals.by_type["SEARCH"]["DEAD"], totals.by_type["SEARCH"]["PENDING"]) == (1, 1)
    assert sum(tally.ended.get("SEARCH", {}).get("DEAD", 0) for tally in timeline.tallies) == 1


async def test_a_re_driven_job_whose_death_is_older_than_the_retention_is_never_removed(
    database: MainDatabase, settings: Settings
):
    jobs = JobRepository(database)
    await ensure_indexes(database, settings.with_overrides(retention_days=1))
    died = await ended_job(jobs, "OLD-DEATH", dead=True)
    assert await jobs.redrive(died["_id"], now=utcnow(), max_attempts=1, message_id="m2") is not None
    # As if it had died three days ago: the finished_at of that death is still on the re-driven job.
    long_ago = utcnow() - timedelta(days=3)
    await database.jobs().update_one({"_id": died["_id"]}, {"$set": ended_fields(long_ago)})
    expired = await ended_job(jobs, "EXPIRED", dead=True)
    await database.jobs().update_one({"_id": expired["_id"]}, {"$set": ended_fields(long_ago)})

    async def purged() -> bool:
        # Both stores remove expired documents on their own schedule (the embedded one when the collection is used).
        return await database.jobs().find_one({"_id": expired["_id"]}) is None

    await eventually(purged, within=90, what="the expired DEAD job to be removed")
    assert (await jobs.get_current(died["_id"]))["status"] == "PENDING"  # type: ignore[index]


async def test_a_count_cut_off_between_its_walk_and_its_update_is_counted_once_by_the_next_caller(
    database: MainDatabase, monkeypatch
):
    """A gateway that dies after walking what ended and before recording it (the totals and their cursor move in one
    conditional update) leaves nothing half counted: the next caller counts every job once."""
    jobs = JobRepository(database)
    for index in range(4):
        await ended_job(jobs, f"C{index}")
    await counts_of(database).current()  # the totals exist: the next update is the conditional one
    for index in range(3):
        await ended_job(jobs, f"L{index}", dead=index == 0)
    cut_off = counts_of(database)

    async def crash(*args: object, **kwargs: object) -> None:
        raise ConnectionResetError("the gateway died here")

    monkeypatch.setattr(cut_off._totals, "update_one", crash)
    with pytest.raises(ConnectionResetError):
        await cut_off.current()
    monkeypatch.undo()

    after = await counts_of(database).current()
    again = await counts_of(database).current()

    assert after.by_type["SEARCH"] == again.by_type["SEARCH"] == {"PENDING": 0, "RUNNING": 0, "DONE": 6, "DEAD": 1}


async def test_two_gateways_answer_the_same_counts_in_stats_and_metrics(aiohttp_client, settings: Settings):
    """Counts are read from the store (active jobs) and from totals shared in it (ended jobs), never kept per
    process: two gateways asked in turn, as jobs end between the questions, give the same figures, in
    `/v1/lps/queue/stats` and in `/metrics` alike."""
    from service.app import create_app

    fresh = settings.with_overrides(stats_max_age=0.0)
    gateways = [await aiohttp_client(create_app(fresh)) for _ in range(2)]
    client = create_client(settings)
    jobs = JobRepository(MainDatabase.open(client, settings.mongo_db))
    try:
        for round_number in range(3):
            await ended_job(jobs, f"G{round_number}", dead=round_number == 2)
            pending = new_job(
                JobType.SEARCH, job_id=ObjectId(), product_code=f"Q{round_number}", priority="NORMAL", max_attempts=1,
                now=utcnow(), message_id="m",
            )  # fmt: skip
            await jobs.insert_search_jobs([pending])
            answers = []
            for gateway in gateways if round_number % 2 == 0 else reversed(gateways):
                stats = await (await gateway.get("/v1/lps/queue/stats")).json()
                exposition = await (await gateway.get("/metrics")).text()
                series = {
                    status: sample(exposition, name, job_type="SEARCH", status=status)
                    for name, statuses in SERIES_OF_STATUSES
                    for status in status_names(statuses)
                }
                assert series == {status: float(n) for status, n in stats["by_type"]["SEARCH"].items()}
                answers.append(stats["by_type"])
            assert answers[0] == answers[1]
            assert answers[0]["SEARCH"] == {
                "PENDING": round_number + 1,
                "RUNNING": 0,
                "DONE": min(round_number + 1, 2),
                "DEAD": 1 if round_number == 2 else 0,
            }
    finally:
        await client.close()
