"""Searches for real: a search worker pool (Dramatiq CLI) driving the system Chromium against the demo
shop on loopback, and the Naver source against the demo shop's API."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient
from bson import ObjectId
from pymongo import AsyncMongoClient

from infra.settings import Settings
from infra.snapshots import REFERENCE_PREFIX, SnapshotStore
from tests.harness import JobsView, submit, worker_pool
from tests.process_tree import alive, chromium_processes, descendants
from tools.demo_shop import create_demo_shop_app
from tools.dev import DEMO_CATALOGUE

#: Every test here starts real processes (worker pools, the CLI, Chromium): the slowest tier.
pytestmark = pytest.mark.processes

CATALOGUE = json.loads(DEMO_CATALOGUE.read_text())["keywords"]
IPHONE = "아이폰 15 128GB"


@pytest.fixture
async def stack_settings(aiohttp_server, settings: Settings) -> Settings:
    shop = await aiohttp_server(create_demo_shop_app())
    shop_url = str(shop.make_url("")).rstrip("/")
    return settings.with_overrides(
        coupang_base_url=shop_url,
        naver_base_url=shop_url,
        naver_client_id="demo",
        naver_client_secret="demo",
        search_sources=("coupang", "naver"),
        search_max_attempts=2,
        retry_min_backoff=0.2,
        retry_max_backoff=1.0,
        blocked_backoff_factor=3.0,
        browser_navigation_timeout=3.0,
    )


async def test_the_lowest_matching_offer_is_recorded_per_source_and_the_cheaper_source_wins(
    gateway: TestClient, jobs: JobsView, stack_settings: Settings, tmp_path: Path
):
    request = CATALOGUE[IPHONE]["request"]
    expected = CATALOGUE[IPHONE]["expected_lowest"]
    async with worker_pool(stack_settings, "search", tmp_path):
        both, coupang_only = await submit(
            gateway,
            {"product_code": "IPHONE-BOTH", **request},
            {"product_code": "IPHONE-COUPANG", **request, "sources": ["coupang"]},
        )
        both_job = await jobs.finished(both)
        coupang_job = await jobs.finished(coupang_only)

    coupang_result = coupang_job["result"]
    assert coupang_job["status"] == "DONE"
    assert coupang_result["outcome"] == "FOUND"
    assert (coupang_result["lowest"]["price"], coupang_result["lowest"]["product_id"]) == (
        expected["coupang"]["price"],
        expected["coupang"]["product_id"],
    )
    assert coupang_result["lowest"]["url"].startswith(stack_settings.coupang_base_url + "/vp/products/")
    rejected = {offer["rejected"] for offer in coupang_result["offers"] if "rejected" in offer}
    assert "ad" in rejected
    assert any(reason.startswith("accessory") for reason in rejected)

    result = both_job["result"]
    assert set(result["sources"]) == {"coupang", "naver"}
    assert {summary["outcome"] for summary in result["sources"].values()} == {"FOUND"}
    assert all(summary["count"] > 0 for summary in result["sources"].values())
    cheaper = min(expected.values(), key=lambda winner: winner["price"])
    assert result["lowest"]["price"] == cheaper["price"]
    assert result["lowest"]["source"] == "naver"

    history = await price_history(stack_settings, both)
    assert {doc["source"]: doc["lowest_price"] for doc in history} == {
        "coupang": expected["coupang"]["price"],
        "naver": expected["naver"]["price"],
    }


async def price_history(settings: Settings, job_id: str) -> list[dict[str, Any]]:
    client = AsyncMongoClient(settings.mongo_url)
    try:
        return await client[settings.mongo_db].price_history.find({"job_id": ObjectId(job_id)}).to_list()
    finally:
        await client.close()


@pytest.mark.parametrize(("keyword", "error_type"), [("blocked", "BLOCKED"), ("weird layout", "PARSE_FAIL")])
async def test_a_refused_or_unreadable_page_is_retried_then_dead_with_a_saved_snapshot(
    gateway: TestClient, jobs: JobsView, stack_settings: Settings, tmp_path: Path, keyword: str, error_type: str
):
    async with worker_pool(stack_settings, "search", tmp_path):
        [job_id] = await submit(gateway, {"product_code": "REFUSED", "keyword": keyword, "sources": ["coupang"]})
        job = await jobs.finished(job_id)

    assert (job["status"], job["attempts"]) == ("DEAD", 2)
    assert [entry["error"]["type"] for entry in job["history"]] == [error_type, error_type]
    assert job["last_error"]["type"] == error_type
    reference = job["last_error"]["snapshot"]
    assert reference.startswith(REFERENCE_PREFIX)
    client = AsyncMongoClient(stack_settings.mongo_url)
    try:
        files = await SnapshotStore(client[stack_settings.mongo_db]).files(
            ObjectId(reference.removeprefix(REFERENCE_PREFIX))
        )
    finally:
        await client.close()
    snapshot_id = reference.removeprefix(REFERENCE_PREFIX)
    assert set(files) == {f"{snapshot_id}.html", f"{snapshot_id}.png"}
    assert files[f"{snapshot_id}.png"].startswith(b"\x89PNG")
    if error_type == "BLOCKED":
        assert b"Access Denied" in files[f"{snapshot_id}.html"]
        # A block waits blocked_backoff_factor times the normal backoff before its retry.
        gap = (job["history"][1]["started_at"] - job["history"][0]["finished_at"]).total_seconds()
        assert gap >= stack_settings.retry_min_backoff * stack_settings.blocked_backoff_factor * 0.9


async def test_a_no_results_page_is_a_final_answer(
    gateway: TestClient, jobs: JobsView, stack_settings: Settings, tmp_path: Path
):
    async with worker_pool(stack_settings, "search", tmp_path):
        [job_id] = await submit(gateway, {"product_code": "NOTHING", "keyword": "존재하지 않는 상품 xyz"})
        job = await jobs.finished(job_id)

    assert (job["status"], job["attempts"]) == ("DONE", 1)
    assert job["result"]["outcome"] == "NO_RESULTS"
    assert {name: summary["outcome"] for name, summary in job["result"]["sources"].items()} == {
        "coupang": "NO_RESULTS",
        "naver": "NO_RESULTS",
    }
    assert "lowest" not in job["result"]


async def test_a_slow_page_times_out_as_a_retryable_failure(
    gateway: TestClient, jobs: JobsView, stack_settings: Settings, tmp_path: Path
):
    async with worker_pool(stack_settings, "search", tmp_path):
        [job_id] = await submit(
            gateway, {"product_code": "SLOW", "keyword": "slow=6 무선 마우스", "sources": ["coupang"]}
        )
        job = await jobs.finished(job_id)

    assert (job["status"], job["attempts"]) == ("DEAD", 2)
    assert job["last_error"]["type"] == "TIMEOUT"


async def test_no_chromium_outlives_its_worker(
    gateway: TestClient, jobs: JobsView, stack_settings: Settings, tmp_path: Path
):
    async with worker_pool(stack_settings, "search", tmp_path) as pool:
        [job_id] = await submit(gateway, {"product_code": "CHROMIUM", "keyword": IPHONE, "sources": ["coupang"]})
        await jobs.finished(job_id)
        browsers = chromium_processes(descendants(pool.process.pid))
        assert browsers, "the search ran without a Chromium of this worker"

    assert not alive(browsers | {pid for pid in descendants(pool.process.pid)})
