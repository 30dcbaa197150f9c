"""Reports: every named pipeline over a small database seeded through the code paths that write it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from pymongo import MongoClient

from infra.mongo import MainDatabase, create_client, ensure_indexes
from infra.settings import Settings
from schemas.codes import JobType
from schemas.offers import SourceOutcome
from tests.report_seeding import Seeder, Source, found, march, open_database
from tests.report_seeding import db as db
from tools.reporting import REPORTS, report_params, run_report

#: "Now" of the seeded database: reports look back from here.
NOW = datetime(2025, 3, 10, 12, 0, tzinfo=UTC)


def blocked(ms: int) -> Source:
    return Source(SourceOutcome.BLOCKED, ms)


def no_results(ms: int) -> Source:
    return Source(SourceOutcome.NO_RESULTS, ms)


async def seed(db: MainDatabase) -> None:
    """The shop floor of 2025-03-09/10; NOW is 03-10 12:00 UTC. Comments say which reports see what."""
    put = Seeder(db)
    # SKU-1 and SKU-2: prices over two days; coupang blocked now and then.
    a = await put.search("SKU-1", march(9, 9, 0), coupang=found(100, 1000, rejected=(900,)), naver=found(50, 1100))
    b = await put.search("SKU-1", march(9, 9, 30), coupang=blocked(200), naver=found(70, 1050))
    c = await put.search("SKU-1", march(10, 10, 0), coupang=found(300, 980), naver=no_results(30))
    d = await put.search("SKU-2", march(10, 10, 15), coupang=found(400, 5000), naver=found(40, 4900))
    e = await put.search("SKU-2", march(10, 10, 30), coupang=blocked(500), naver=found(60, 4950))
    # SKU-3: seven coupang-only searches without offers (latency spread 600..1200 ms, no prices).
    threes = [
        await put.search("SKU-3", march(10, 8, minute), coupang=no_results(600 + 100 * minute)) for minute in range(7)
    ]
    # Long ago: outside every window.
    old = await put.search("SKU-1", datetime(2025, 1, 1, tzinfo=UTC), coupang=found(5000, 10))

    await put.pending(JobType.SEARCH, "SKU-4", march(10, 11))  # still waiting: in no report
    await put.dead(JobType.SEARCH, "SKU-5", march(10, 9), "BLOCKED")
    await put.dead(JobType.SEARCH, "SKU-6", march(10, 11), "BLOCKED")
    await put.dead(JobType.SEARCH, "SKU-7", march(10, 11, 30), "PARSE_FAIL")
    await put.dead(JobType.SEARCH, "SKU-8", march(8, 0), "TIMEOUT")  # 60 h ago

    await put.delivered(a, march(10, 10, 1), ms=120)
    await put.delivered(b, march(10, 10, 2), ms=80)
    await put.delivered(c, march(10, 10, 3), ms=300)
    await put.dead(JobType.OUTBOX, "SKU-2", march(10, 11, 40), "DELIVERY_REJECTED", source_job_id=d["_id"])
    await put.pending(JobType.OUTBOX, "SKU-2", march(10, 11, 45), source_job_id=e["_id"])
    await put.running(JobType.OUTBOX, "SKU-3", march(10, 11, 50), source_job_id=threes[0]["_id"])
    await put.delivered(old, datetime(2025, 1, 1, 0, 1, tzinfo=UTC), ms=9999)


@pytest.fixture(scope="module")
def seeded_settings(mongo_url: str, run_id: str) -> Iterator[Settings]:
    """One seeded database for the module's read-only report tests (seeding takes a second)."""
    settings = Settings.from_env().with_overrides(mongo_url=mongo_url, mongo_db=f"lps_test_{run_id}_reports")

    async def seed_once() -> None:
        client, database = await open_database(settings)
        try:
            await seed(database)
        finally:
            await client.close()

    asyncio.run(seed_once())
    yield settings
    with MongoClient(mongo_url, serverSelectionTimeoutMS=5000) as client:
        client.drop_database(settings.mongo_db)


@pytest.fixture
async def seeded(seeded_settings: Settings) -> AsyncIterator[MainDatabase]:
    client = create_client(seeded_settings)
    try:
        yield MainDatabase.open(client, seeded_settings.mongo_db)
    finally:
        await client.close()


async def report_rows(db: MainDatabase, name: str, **options: Any) -> list[dict[str, Any]]:
    report = REPORTS[name]
    rows = await run_report(db.read, report, report_params(report, now=NOW, **options))
    # Field order is the server's business ($project keeps input order); the table prints by `columns`.
    assert all(set(row) == set(report.columns) for row in rows), "rows carry exactly the report's columns"
    return rows


async def test_lowest_price_trend_is_the_daily_minimum_of_accepted_prices_per_product(seeded: MainDatabase):
    assert await report_rows(seeded, "lowest-price-trend") == [
        # 900 was refused by the matcher; B's coupang was blocked and has no price.
        {"product_code": "SKU-1", "day": "2025-03-09", "lowest_price": 1000, "observations": 3},
        {"product_code": "SKU-1", "day": "2025-03-10", "lowest_price": 980, "observations": 1},
        {"product_code": "SKU-2", "day": "2025-03-10", "lowest_price": 4900, "observations": 3},
    ]


async def test_lowest_price_trend_follows_one_product_within_the_window(seeded: MainDatabase):
    assert await report_rows(seeded, "lowest-price-trend", product_code="SKU-1", hours=24) == [
        {"product_code": "SKU-1", "day": "2025-03-10", "lowest_price": 980, "observations": 1},
    ]


async def test_dead_by_error_counts_the_last_day_of_dead_jobs_by_type_and_error(seeded: MainDatabase):
    assert await report_rows(seeded, "dead-by-error") == [
        {"job_type": "SEARCH", "error_type": "BLOCKED", "jobs": 2, "last_at": march(10, 11)},
        {"job_type": "OUTBOX", "error_type": "DELIVERY_REJECTED", "jobs": 1, "last_at": march(10, 11, 40)},
        {"job_type": "SEARCH", "error_type": "PARSE_FAIL", "jobs": 1, "last_at": march(10, 11, 30)},
    ]


async def test_search_latency_gives_nearest_rank_percentiles_per_source_of_recent_done_searches(
    seeded: MainDatabase,
):
    # coupang: C 300, D 400, E 500 (blocked, timed all the same), SKU-3 600..1200; A and B are over 24 h old.
    assert await report_rows(seeded, "search-latency") == [
        {"source": "coupang", "searches": 10, "p50_ms": 700, "p90_ms": 1100, "p99_ms": 1200},
        {"source": "naver", "searches": 3, "p50_ms": 40, "p90_ms": 60, "p99_ms": 60},
    ]


async def test_blocked_rate_is_the_hourly_share_of_blocked_searches_per_source(seeded: MainDatabase):
    assert await report_rows(seeded, "blocked-rate", hours=48) == [
        {"hour": "2025-03-09T09:00Z", "source": "coupang", "searches": 2, "blocked": 1, "blocked_share": 0.5},
        {"hour": "2025-03-09T09:00Z", "source": "naver", "searches": 2, "blocked": 0, "blocked_share": 0},
        {"hour": "2025-03-10T08:00Z", "source": "coupang", "searches": 7, "blocked": 0, "blocked_share": 0},
        {"hour": "2025-03-10T10:00Z", "source": "coupang", "searches": 3, "blocked": 1, "blocked_share": 0.333},
        {"hour": "2025-03-10T10:00Z", "source": "naver", "searches": 3, "blocked": 0, "blocked_share": 0},
    ]


async def test_outbox_latency_counts_recent_and_open_deliveries_with_percentiles_of_done_ones(seeded: MainDatabase):
    assert await report_rows(seeded, "outbox-latency") == [
        {"status": "DEAD", "jobs": 1, "p50_ms": None, "p99_ms": None},
        {"status": "DONE", "jobs": 3, "p50_ms": 120, "p99_ms": 300},
        {"status": "PENDING", "jobs": 1, "p50_ms": None, "p99_ms": None},
        {"status": "RUNNING", "jobs": 1, "p50_ms": None, "p99_ms": None},
    ]


async def test_reports_over_an_empty_database_have_no_rows(db: MainDatabase):
    for name in REPORTS:
        assert await report_rows(db, name) == [], name


async def test_every_report_is_served_by_an_index_that_start_up_creates(settings: Settings):
    client = create_client(settings)
    try:
        database = MainDatabase.open(client, settings.mongo_db)
        await ensure_indexes(database, settings)
        created = {
            (collection, name)
            for collection in ("jobs", "price_history")
            for name in await database.write[collection].index_information()
        }
    finally:
        await client.close()
    for report in REPORTS.values():
        assert (report.collection, report.index) in created, report.name
        assert report.product_index is None or (report.collection, report.product_index) in created, report.name
