"""A sustained burst with the deterministic source: zero lost jobs, and the counts reconcile.

Size: LPS_LOAD_PRODUCTS, by default 500 (the suite's share of the machine's time); RELIABILITY.md records a
run of 20,000 on the embedded store: `LPS_LOAD_PRODUCTS=20000 scripts/test tests/processes/test_load.py -s`.
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient

from infra.settings import Settings
from schemas.codes import JobType
from service.app import create_app
from tests.harness import JobsView, reconciler_process, worker_pool
from tests.rabbit import drain
from tools.testbed import eventually

#: Every test here starts real processes (worker pools, the CLI, Chromium): the slowest tier.
pytestmark = pytest.mark.processes

PRODUCTS = int(os.environ.get("LPS_LOAD_PRODUCTS") or 500)
BATCH = 100
CLIENTS = 4


async def post_all(gateway: TestClient, codes: list[str]) -> list[dict]:
    """CLIENTS concurrent clients, each POSTing its share in batches of BATCH."""
    answers: list[dict] = []

    async def client(share: list[str]) -> None:
        for start in range(0, len(share), BATCH):
            products = [{"product_code": code, "keyword": "부하 시험 상품"} for code in share[start : start + BATCH]]
            response = await gateway.post("/v1/lps/search", json={"products": products})
            answers.append(await response.json())

    await asyncio.gather(*(client(codes[index::CLIENTS]) for index in range(CLIENTS)))
    return answers


async def test_a_sustained_burst_loses_no_job_and_the_counts_reconcile(
    aiohttp_client, settings: Settings, tmp_path: Path
):
    # The embedded store is one pure-Python process: under this burst it answers its own health checks late,
    # so its clients get more time than the production default before they call it unreachable.
    settings = settings.with_overrides(reconcile_interval=2.0, mongo_timeout_ms=15_000)
    gateway = await aiohttp_client(create_app(settings))
    jobs = JobsView(settings)
    codes = [f"LOAD-{index:06d}" for index in range(PRODUCTS)]
    try:
        async with worker_pool(settings, "search", tmp_path, threads=8), reconciler_process(settings, tmp_path):
            started = time.monotonic()
            answers = await post_all(gateway, codes)

            async def all_done() -> bool:
                return await jobs.jobs.count_documents({"status": "DONE"}) >= PRODUCTS

            await eventually(all_done, within=max(900, PRODUCTS * 0.2), what=f"{PRODUCTS} jobs to be DONE", interval=1)
            elapsed = time.monotonic() - started

            async def counted() -> dict | None:
                # Each stats call counts at most LPS_STATS_CATCH_UP_LIMIT newly ended jobs: a few calls catch up.
                stats = await (await gateway.get("/v1/lps/queue/stats")).json()
                return stats if stats["by_type"]["SEARCH"]["DONE"] >= PRODUCTS else None

            stats = await eventually(counted, within=60, what="the stats to count every DONE job", interval=1.5)
    finally:
        await jobs.close()

    assert [answer for answer in answers if answer["result"] != 0] == []
    accepted = {job["job_id"] for answer in answers for job in answer["jobs"]}
    assert len(accepted) == PRODUCTS
    assert stats["by_type"]["SEARCH"] == {"PENDING": 0, "RUNNING": 0, "DONE": PRODUCTS, "DEAD": 0}
    assert stats["queues"]["search"]["messages"] == 0
    assert stats["queues"]["search"]["delayed"] == 0
    leftover = await asyncio.to_thread(drain, settings.amqp_url, settings.job(JobType.SEARCH).queue)
    assert leftover == []
    print(f"\n{PRODUCTS} products: all DONE in {elapsed:.1f}s ({PRODUCTS / elapsed:.0f} jobs/s)")
