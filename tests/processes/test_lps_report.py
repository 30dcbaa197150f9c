"""`lps report` as an operator runs it: an aligned table, its refusals, and without LPS_MONGO_URL the store
of the running `lps dev` stack."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from infra.mongo import MainDatabase
from infra.settings import Settings
from tests.report_seeding import Seeder, found
from tests.report_seeding import db as db
from tools.dev_stacks import DevStackRecord, recorded
from tools.reporting import REPORTS

LPS = [sys.executable, "-m", "tools.lps"]


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
