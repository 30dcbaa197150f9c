"""Reports: every named pipeline over a small database seeded through the code paths that write it."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from dataclasses import asdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from pymongo import MongoClient

from infra.display import format_table
from infra.mongo import MainDatabase, create_client, ensure_indexes
from infra.settings import Settings
from schemas.codes import JobType
from schemas.offers import SourceOutcome
from tests.report_seeding import Seeder, Source, found, march, open_database
from tests.report_seeding import db as db
from tools.dev_stacks import DevStackRecord, recorded, running_stacks
from tools.reporting import (
    REPORTS,
    mongosh_query,
    report_params,
    run_report,
)

LPS = [sys.executable, "-m", "tools.lps"]
DOCS = Path(__file__).resolve().parent.parent / "docs" / "reporting.md"

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


def test_only_the_price_trend_takes_a_product_filter():
    assert [name for name, report in REPORTS.items() if report.takes_product] == ["lowest-price-trend"]
    with pytest.raises(ValueError, match="takes no product filter"):
        report_params(REPORTS["dead-by-error"], product_code="SKU-1")


def test_a_report_window_must_be_some_hours_long():
    with pytest.raises(ValueError, match="some hours long"):
        report_params(REPORTS["dead-by-error"], hours=0)


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


def test_the_table_aligns_text_left_and_numbers_right():
    rows = [
        {"source": "coupang", "searches": 10, "share": 0.333, "at": march(10, 11), "p50_ms": None},
        {"source": "naver", "searches": 3, "share": 0.5, "at": march(9, 9, 30), "p50_ms": 40},
    ]
    assert format_table(rows, ["source", "searches", "share", "at", "p50_ms"]).splitlines() == [
        "source   searches  share  at                    p50_ms",
        "coupang        10  0.333  2025-03-10T11:00:00Z       -",
        "naver           3    0.5  2025-03-09T09:30:00Z      40",
    ]


def test_an_empty_table_keeps_its_header_and_says_so():
    assert format_table([], ["hour", "source"], empty="(no rows)") == "hour  source\n(no rows)"


def test_the_docs_show_every_report_as_the_same_pipeline_in_mongosh_syntax():
    docs = DOCS.read_text(encoding="utf-8")
    for report in REPORTS.values():
        assert mongosh_query(report) in docs, f"docs/reporting.md is out of date for {report.name}"


def lps_report(settings: Settings, *args: str) -> subprocess.CompletedProcess[str]:
    # COLUMNS: argparse wraps help at the terminal's width, and breaks names at their hyphens.
    env = os.environ | {"LPS_MONGO_URL": settings.mongo_url or "", "LPS_MONGO_DB": settings.mongo_db, "COLUMNS": "200"}
    return subprocess.run([*LPS, "report", *args], capture_output=True, text=True, timeout=60, env=env)


@pytest.mark.processes
async def test_lps_report_prints_the_rows_as_an_aligned_table(settings: Settings, db: MainDatabase):
    searched_at = datetime.now(UTC) - timedelta(hours=1)
    put = Seeder(db)
    await put.search("SKU-1", searched_at, coupang=found(300, 61620, rejected=(1000,)), naver=found(40, 65000))
    await put.search("SKU-2", searched_at, coupang=found(300, 5000))

    done = lps_report(settings, "lowest-price-trend", "--product", "SKU-1", "--hours", "6")

    assert done.returncode == 0, done.stderr
    day = searched_at.strftime("%Y-%m-%d")
    assert done.stdout.splitlines() == [
        "product_code  day         lowest_price  observations",
        f"SKU-1         {day}        61,620             2",
    ]


@pytest.mark.processes
def test_lps_report_refuses_a_product_filter_the_report_does_not_take(settings: Settings):
    done = lps_report(settings, "dead-by-error", "--product", "SKU-1")
    assert done.returncode == 2
    assert "takes no product filter" in done.stderr


@pytest.mark.processes
def test_lps_report_names_every_report_in_its_help_and_for_an_unknown_name(settings: Settings):
    # The parser lists the names as text (it does not import tools.reporting): they must not drift.
    helped = lps_report(settings, "--help")
    unknown = lps_report(settings, "cheapest-ever")
    assert unknown.returncode == 2
    for name in REPORTS:
        assert name in helped.stdout, name
        assert name in unknown.stderr, name


#: What the two tests of `lps report` beside a dev stack need of LPS_MONGO_URL (never skipped: `make test-mongo` runs
#: them against a MongoDB published on this machine's loopback, as docker-compose does).
LOOPBACK_STORE_NEEDED = (
    "LPS_MONGO_URL must name a store on this machine's loopback with its port (docker-compose publishes "
    "mongodb://127.0.0.1:27017/?directConnection=true): `lps report` without LPS_MONGO_URL looks there"
)


def lps_report_without_a_mongo_url(settings: Settings, dev_mongo_port: int) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key != "LPS_MONGO_URL"}
    env |= {"LPS_MONGO_DB": settings.mongo_db, "LPS_DEV_MONGO_PORT": str(dev_mongo_port)}
    report = [*LPS, "report", "lowest-price-trend", "--product", "SKU-DEV", "--hours", "6"]
    return subprocess.run(report, capture_output=True, text=True, timeout=60, env=env)


@pytest.mark.processes
async def test_lps_report_without_lps_mongo_url_reads_the_dev_stacks_store_or_says_what_to_set(
    settings: Settings, db: MainDatabase
):
    store = urlsplit(settings.mongo_url or "")
    if store.hostname not in ("127.0.0.1", "localhost") or store.port is None:
        pytest.fail(LOOPBACK_STORE_NEEDED)
    await Seeder(db).search("SKU-DEV", datetime.now(UTC) - timedelta(hours=1), coupang=found(300, 4900))

    dev_store = lps_report_without_a_mongo_url(settings, store.port)
    nothing_there = lps_report_without_a_mongo_url(settings, 9)

    assert dev_store.returncode == 0, dev_store.stderr
    assert "SKU-DEV" in dev_store.stdout
    assert nothing_there.returncode == 2
    assert "no store answers on 127.0.0.1:9 (LPS_DEV_MONGO_PORT)" in nothing_there.stderr


def lps_report_beside_dev_stacks(settings: Settings, stacks_dir: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if key != "LPS_MONGO_URL"}
    environment |= {"LPS_DEV_STACKS_DIR": str(stacks_dir), **env}
    report = [*LPS, "report", "lowest-price-trend", "--product", "SKU-STACK", "--hours", "6"]
    return subprocess.run(report, capture_output=True, text=True, timeout=60, env=environment)


@pytest.mark.processes
async def test_lps_report_without_lps_mongo_url_reads_the_running_dev_stacks_store_and_says_which(
    settings: Settings, db: MainDatabase, tmp_path: Path
):
    """Another store answers on LPS_DEV_MONGO_PORT (another stack's, or one started by hand): the report reads the
    store the running `lps dev` recorded, and names it on stderr."""
    store = urlsplit(settings.mongo_url or "")
    if store.port is None:
        pytest.fail(LOOPBACK_STORE_NEEDED)
    await Seeder(db).search("SKU-STACK", datetime.now(UTC) - timedelta(hours=1), coupang=found(300, 4900))
    stack = DevStackRecord(os.getpid(), settings.mongo_url or "", settings.mongo_db, "http://127.0.0.1:1")
    elsewhere = {"LPS_DEV_MONGO_PORT": str(store.port), "LPS_MONGO_DB": f"{settings.mongo_db}_someone_elses"}

    with recorded(tmp_path, stack):
        done = lps_report_beside_dev_stacks(settings, tmp_path, **elsewhere)

    assert done.returncode == 0, done.stderr
    assert "SKU-STACK" in done.stdout
    assert f"database {settings.mongo_db!r} on {settings.mongo_url} (the `lps dev` stack of pid {os.getpid()})" in (
        done.stderr
    )


@pytest.mark.processes
def test_lps_report_without_lps_mongo_url_refuses_to_guess_between_two_dev_stacks(settings: Settings, tmp_path: Path):
    first = DevStackRecord(os.getpid(), "mongodb://127.0.0.1:27217/", "lps", "http://127.0.0.1:28080")
    second = DevStackRecord(os.getppid(), "mongodb://u:secret@127.0.0.1:27218/", "lps", "http://127.0.0.1:28081")

    with recorded(tmp_path, first), recorded(tmp_path, second):
        done = lps_report_beside_dev_stacks(settings, tmp_path)

    assert done.returncode == 2
    assert "2 `lps dev` stacks run" in done.stderr
    assert "127.0.0.1:27217" in done.stderr
    assert "127.0.0.1:27218" in done.stderr
    assert "secret" not in done.stderr
    assert "set LPS_MONGO_URL" in done.stderr


def test_a_stack_killed_outright_is_no_longer_listed(tmp_path: Path):
    gone = DevStackRecord(2**22 + 1, "mongodb://127.0.0.1:27217/", "lps", "http://127.0.0.1:28080")  # above pid_max
    (tmp_path / f"{gone.pid}.json").write_text(json.dumps(asdict(gone)))
    alive = DevStackRecord(os.getpid(), "mongodb://127.0.0.1:27218/", "lps", "http://127.0.0.1:28081")

    with recorded(tmp_path, alive):
        assert running_stacks(tmp_path) == [alive]
    assert running_stacks(tmp_path) == []
    assert list(tmp_path.iterdir()) == []
