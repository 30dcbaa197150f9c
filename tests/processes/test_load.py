"""A sustained burst with the deterministic source: zero lost jobs, and the counts reconcile.

Size: LPS_LOAD_PRODUCTS, by default 500 (the suite's share of the machine's time); RELIABILITY.md records a
run of 20,000 on the embedded store: `LPS_LOAD_PRODUCTS=20000 scripts/test tests/processes/test_load.py -s`.
"""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient
from bson import ObjectId

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
#: How often a client posts a batch again while it is told 503 (the store did not answer within the timeout).
REPOSTS = 3
REPOST_PAUSE = 1.0


@dataclass
class Posted:
    """What the clients were told: each batch's last answer, and the codes of batches that were answered 503."""

    answers: list[dict] = field(default_factory=list)
    refused_codes: set[str] = field(default_factory=set)


async def post_all(gateway: TestClient, codes: list[str]) -> Posted:
    """CLIENTS concurrent clients, each POSTing its share in batches of BATCH, and again on 503 as a client does."""
    posted = Posted()

    async def client(share: list[str]) -> None:
        for start in range(0, len(share), BATCH):
            products = [{"product_code": code, "keyword": "부하 시험 상품"} for code in share[start : start + BATCH]]
            for _ in range(1 + REPOSTS):
                response = await gateway.post("/v1/lps/search", json={"products": products})
                answer = await response.json()
                if response.status != 503:
                    break
                # A loaded machine's embedded store may not write a batch within the timeout: the client is told
                # so (nothing lost) and posts the same batch again; what the refused try wrote comes back as
                # duplicates.
                posted.refused_codes.update(product["product_code"] for product in products)
                await asyncio.sleep(REPOST_PAUSE)
            posted.answers.append(answer)

    await asyncio.gather(*(client(codes[index::CLIENTS]) for index in range(CLIENTS)))
    return posted


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
            posted = await post_all(gateway, codes)

            async def all_done() -> bool:
                # A refused try's write may have created a job that a repost found ended and so did not reuse: the
                # burst is done when nothing is left active, not at the first PRODUCTS done.
                active = await jobs.jobs.count_documents({"status": {"$in": ["PENDING", "RUNNING"]}})
                return active == 0 and await jobs.jobs.count_documents({"status": "DONE"}) >= PRODUCTS

            await eventually(all_done, within=max(900, PRODUCTS * 0.2), what=f"{PRODUCTS} jobs to be DONE", interval=1)
            elapsed = time.monotonic() - started
            written = await jobs.jobs.count_documents({})

            async def counted() -> dict | None:
                # Each stats call counts at most LPS_STATS_CATCH_UP_LIMIT newly ended jobs: a few calls catch up.
                stats = await (await gateway.get("/v1/lps/queue/stats")).json()
                return stats if stats["by_type"]["SEARCH"]["DONE"] >= written else None

            stats = await eventually(counted, within=60, what="the stats to count every DONE job", interval=1.5)
            accepted_done = await jobs.jobs.count_documents(
                {"_id": {"$in": [ObjectId(job_id) for job_id in accepted_ids(posted)]}, "status": "DONE"}
            )
    finally:
        await jobs.close()

    assert [answer for answer in posted.answers if answer["result"] != 0] == []
    assert len(accepted_ids(posted)) == PRODUCTS
    assert accepted_done == PRODUCTS
    # Only a refused batch can have written a job nobody was told about, and at most one per product.
    assert 0 <= written - PRODUCTS <= len(posted.refused_codes)
    assert stats["by_type"]["SEARCH"] == {"PENDING": 0, "RUNNING": 0, "DONE": written, "DEAD": 0}
    assert stats["queues"]["search"]["messages"] == 0
    assert stats["queues"]["search"]["delayed"] == 0
    leftover = await asyncio.to_thread(drain, settings.amqp_url, settings.job(JobType.SEARCH).queue)
    assert leftover == []
    print(f"\n{PRODUCTS} products: all DONE in {elapsed:.1f}s ({PRODUCTS / elapsed:.0f} jobs/s)", end="")
    print(f", {len(posted.refused_codes)} products in batches answered 503 and posted again")


def accepted_ids(posted: Posted) -> set[str]:
    return {job["job_id"] for answer in posted.answers for job in answer["jobs"]}
