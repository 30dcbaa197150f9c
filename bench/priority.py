"""Figure: how long a HIGH search waits behind a backlog of LOW ones, in classic and in quorum mode.

Per queue type (`LPS_QUEUE_TYPE`): the real gateway and a real search pool (`lps worker search`'s command, 1
process x 2 threads, the `static` source). The backlog is posted before the pool starts, so all of it is queued
when the pool begins; each LOW search takes `low_search_seconds` (the static source's `#slow=` directive, test
directives on), so the backlog lasts minutes. Once the pool is working through it, HIGH jobs are posted one at a
time, each after the previous one started, and each one's wait is its `started_at` minus the moment its POST was
sent. The baseline is what that HIGH job would wait in a queue without priorities: the LOW jobs still queued
ahead of it divided by the rate the pool was finishing them.

Classic mode orders by RabbitMQ's `x-max-priority` within one queue (prefetch = threads); quorum mode has one
queue per band and the worker runs what it holds highest band first (docs/capacity.md, docs/scaling.md
"Several RabbitMQ nodes").
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from datetime import UTC, datetime
from typing import Any

import aiohttp

from bench.figures import latency_figure, median, percentile
from bench.modes import PrioritySizes
from bench.stack import Bench, BenchDatabase, figure_resources, gateway, worker_pool
from infra.queue_topology import QueueType
from infra.settings import Settings
from schemas.codes import JobStatus, JobType, Priority
from tools.testbed import eventually

FIGURE_NAMES = ("priority_classic", "priority_quorum")
BATCH = 100
#: The embedded store takes ~10 claims a second; a HIGH job not started by then counts as stuck.
HIGH_START_TIMEOUT = 120.0


async def post(http: aiohttp.ClientSession, url: str, products: list[dict[str, Any]], priority: Priority) -> None:
    body = {"products": products, "priority": priority.value}
    async with http.post(f"{url}/v1/lps/search", json=body) as response:
        answer = await response.json()
    if response.status != 200 or answer.get("result") != 0:
        raise RuntimeError(f"POST /v1/lps/search answered {response.status}: {str(answer)[:300]}")


async def post_backlog(http: aiohttp.ClientSession, url: str, sizes: PrioritySizes) -> None:
    keyword = f"bench low #slow={sizes.low_search_seconds}"
    products = [{"product_code": f"low-{index}", "keyword": keyword} for index in range(sizes.low_jobs)]
    for start in range(0, len(products), BATCH):
        await post(http, url, products[start : start + BATCH], Priority.LOW)


async def count(database: BenchDatabase, priority: Priority, status: JobStatus) -> int:
    query = {"job_type": JobType.SEARCH.name, "priority": priority.value, "status": status.name}
    return await database.jobs.count_documents(query)


async def started_at(database: BenchDatabase, product_code: str) -> datetime | None:
    job = await database.jobs.find_one({"product_code": product_code, "job_type": JobType.SEARCH.name})
    started: datetime | None = (job or {}).get("started_at")
    return started.replace(tzinfo=UTC) if started is not None and started.tzinfo is None else started


async def high_wait(database: BenchDatabase, http: aiohttp.ClientSession, url: str, index: int) -> dict[str, float]:
    """Post one HIGH job; seconds from its POST to its start, and the LOW jobs queued ahead of it then."""
    queued_ahead = await count(database, Priority.LOW, JobStatus.PENDING)
    product_code = f"high-{index}"
    sent = datetime.now(UTC)
    await post(http, url, [{"product_code": product_code, "keyword": "bench high"}], Priority.HIGH)
    deadline = time.monotonic() + HIGH_START_TIMEOUT
    while (started := await started_at(database, product_code)) is None:
        if time.monotonic() > deadline:
            raise TimeoutError(f"HIGH job {product_code} not started within {HIGH_START_TIMEOUT:.0f} s")
        await asyncio.sleep(0.05)
    return {"wait_s": (started - sent).total_seconds(), "queued_ahead": queued_ahead}


async def measure_queue_type(bench: Bench, sizes: PrioritySizes, queue_type: QueueType) -> dict[str, Any]:
    settings = bench.settings_for(
        f"priority_{queue_type.value}", search_sources=("static",), queue_type=queue_type, test_directives=True
    )
    async with contextlib.AsyncExitStack() as stack:
        await stack.enter_async_context(figure_resources(settings))
        database = BenchDatabase(settings)
        stack.push_async_callback(database.close)
        await database.reset()
        http = await stack.enter_async_context(aiohttp.ClientSession())
        service = await stack.enter_async_context(gateway(settings, bench))
        await post_backlog(http, service.url, sizes)
        await stack.enter_async_context(worker_pool(settings, "search", bench, threads=sizes.threads))
        pool_started = time.monotonic()

        async def working() -> bool:
            return await count(database, Priority.LOW, JobStatus.DONE) >= sizes.threads

        await eventually(working, within=60, what="the pool to finish its first LOW jobs", interval=0.2)
        probes = []
        for index in range(sizes.high_jobs):
            if index:
                await asyncio.sleep(sizes.high_interval)
            probes.append(await high_wait(database, http, service.url, index))
        low_done = await count(database, Priority.LOW, JobStatus.DONE)
        low_rate = low_done / (time.monotonic() - pool_started)
        return _figure(bench, settings, sizes, probes, low_rate)
    raise AssertionError("unreachable: the exit stack re-raises")


def _figure(
    bench: Bench, settings: Settings, sizes: PrioritySizes, probes: list[dict[str, float]], low_rate: float
) -> dict[str, Any]:
    waits_ms = [probe["wait_s"] * 1000 for probe in probes]
    fifo_ms = [probe["queued_ahead"] / low_rate * 1000 if low_rate > 0 else 0.0 for probe in probes]
    queue_type = QueueType(settings.queue_type)
    figure = latency_figure(
        f"Priority ({queue_type.value} queues): a HIGH search's wait from POST to start behind "
        f"{sizes.low_jobs:,} queued LOW ones",
        [{"p50_ms": percentile(waits_ms, 0.5), "p99_ms": max(waits_ms)}],
        [{"p50_ms": percentile(fifo_ms, 0.5), "p99_ms": max(fifo_ms)}],
        store=bench.store.label,
        settings={
            "queue_type": queue_type.value,
            "low_jobs_posted_before_the_pool_started": sizes.low_jobs,
            "low_search_seconds": sizes.low_search_seconds,
            "high_jobs": sizes.high_jobs,
            "search_pool": f"1 process x {sizes.threads} threads",
            "baseline": "the same HIGH job in a queue without priorities: LOW jobs queued ahead ÷ LOW jobs "
            "finished per second",
        },
        details={
            "waits_s": [round(probe["wait_s"], 2) for probe in probes],
            "low_queued_ahead": [int(probe["queued_ahead"]) for probe in probes],
            "low_finished_per_second": round(low_rate, 2),
            "median_wait_s": round(median([probe["wait_s"] for probe in probes]), 2),
        },
    )
    target = {"max": sizes.target_seconds * 1000}
    return figure | {"target": target, "meets_target": max(waits_ms) <= target["max"]}


async def measure(bench: Bench, sizes: PrioritySizes) -> list[dict[str, Any]]:
    return [await measure_queue_type(bench, sizes, queue_type) for queue_type in (QueueType.CLASSIC, QueueType.QUORUM)]
