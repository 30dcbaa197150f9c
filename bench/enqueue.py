"""Figure 1, enqueue: products accepted per second through `POST /v1/lps/search` versus the same work without HTTP.

The gateway runs as its own process (`bench.gateway`: the real app served by aiohttp on loopback); 8
clients each post batches of 100 new products. The raw baseline does, from the runner's process, what
accepting a batch needs at least: the same job documents in one unordered `insert_many`, then the same
messages through the same `Publisher` (one publisher thread, publisher confirms on). In full mode a third
variant calls `JobEnqueuer.submit_search` directly, which splits the gap into HTTP and the enqueuer's own
extra work. Variants alternate inside every run, each on an empty collection and an empty queue.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
import dramatiq
from bson import ObjectId

from bench.figures import median, mib, rate_figure, ratio
from bench.modes import EnqueueSizes
from bench.stack import (
    Bench,
    BenchDatabase,
    Service,
    figure_clients,
    figure_queues,
    figure_resources,
    gateway,
    named_connects,
    port_names,
    probe_deltas,
    settled_probes,
    tree_rss_bytes,
)
from infra.broker import Publisher, job_message
from infra.clock import utcnow
from infra.enqueue import JobEnqueuer
from infra.job_documents import new_job
from infra.jobs import JobRepository
from infra.settings import Settings
from schemas.codes import JobType
from tools.testbed import purge_queues

KEYWORD = "아이폰 15 128GB"


@dataclass(slots=True)
class Sides:
    """Everything the variants use; the raw side has the gateway's own kinds of clients."""

    settings: Settings
    service: Service
    http: aiohttp.ClientSession
    jobs: Any  # the raw side's `jobs` collection (AsyncCollection)
    publisher: Publisher
    enqueuer: JobEnqueuer


def batch_of(tag: str, size: int) -> list[dict[str, Any]]:
    return [{"product_code": f"{tag}-{index}", "keyword": KEYWORD, "target_price": 1_090_000} for index in range(size)]


def search_documents(
    settings: Settings, products: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[dramatiq.Message]]:
    """The PENDING job documents and messages the gateway makes for a batch (also the growth figure's raw side)."""
    priority = settings.job(JobType.SEARCH).default_priority
    broker_priority = settings.broker_priority(JobType.SEARCH, priority)
    now = utcnow()
    documents, messages = [], []
    for product in products:
        job_id = ObjectId()
        message = job_message(settings, JobType.SEARCH, str(job_id), broker_priority)
        messages.append(message)
        stored = {key: value for key, value in product.items() if key != "product_code"}
        documents.append(
            new_job(
                JobType.SEARCH,
                job_id=job_id,
                product_code=product["product_code"],
                product=stored,
                priority=priority,
                max_attempts=settings.job(JobType.SEARCH).max_attempts,
                now=now,
                message_id=message.message_id,
            )
        )
    return documents, messages


async def raw_batch(sides: Sides, products: list[dict[str, Any]]) -> int:
    """The least a gateway must do for a batch: its documents inserted at once, its messages published."""
    documents, messages = search_documents(sides.settings, products)
    await sides.jobs.insert_many(documents, ordered=False)
    return len(await sides.publisher.publish(messages))


async def enqueuer_batch(sides: Sides, products: list[dict[str, Any]]) -> int:
    submissions = await sides.enqueuer.submit_search(products, None)
    return sum(1 for submission in submissions if submission.enqueued)


async def http_batch(sides: Sides, products: list[dict[str, Any]]) -> int:
    async with sides.http.post(f"{sides.service.url}/v1/lps/search", json={"products": products}) as response:
        answer = await response.json()
    if response.status != 200 or answer.get("result") != 0:
        raise RuntimeError(f"POST /v1/lps/search answered {response.status}: {str(answer)[:300]}")
    return sum(1 for job in answer["jobs"] if job.get("enqueued") and not job.get("duplicate"))


VARIANTS: dict[str, Callable[[Sides, list[dict[str, Any]]], Awaitable[int]]] = {
    "raw": raw_batch,
    "enqueuer": enqueuer_batch,
    "http": http_batch,
}


async def one_run(sides: Sides, variant: str, tag: str, sizes: EnqueueSizes, batches: int) -> float:
    """Products accepted per second: `clients` concurrent clients, each posting its batches in turn."""
    work = VARIANTS[variant]

    async def client(number: int) -> int:
        accepted = 0
        for batch in range(batches):
            accepted += await work(sides, batch_of(f"{tag}-{number}-{batch}", sizes.batch))
        return accepted

    started = time.perf_counter()
    accepted = sum(await asyncio.gather(*(client(number) for number in range(sizes.clients))))
    seconds = time.perf_counter() - started
    expected = sizes.clients * batches * sizes.batch
    if accepted != expected:
        raise RuntimeError(f"{variant}: {accepted} of {expected} products accepted and confirmed")
    return accepted / seconds


async def measure(bench: Bench, sizes: EnqueueSizes, *, decompose: bool) -> dict[str, Any]:
    settings = bench.settings_for("enqueue")
    variants = ["raw", "http", "enqueuer"] if decompose else ["raw", "http"]
    batches = sizes.batches(bench.store.kind)
    async with (
        figure_resources(settings),
        figure_clients(settings, [settings.job(JobType.SEARCH).queue]) as clients,
        gateway(settings, bench) as service,
        aiohttp.ClientSession() as http,
    ):
        publisher = clients.publisher
        enqueuer = JobEnqueuer(settings, JobRepository(clients.main), publisher)
        sides = Sides(settings, service, http, clients.main.jobs(), publisher, enqueuer)
        return await _runs(bench, sides, clients.database, sizes, variants, batches)


async def _runs(
    bench: Bench, sides: Sides, database: BenchDatabase, sizes: EnqueueSizes, variants: list[str], batches: int
) -> dict[str, Any]:
    settings, probe_dir = sides.settings, bench.probe_dir(sides.settings)
    rates: dict[str, list[float]] = {variant: [] for variant in variants}
    gateway_rounds: list[dict[str, Any]] = []
    # A throw-away round first: connections, imports and the store's first collection are not the figure.
    for variant in variants:
        await _reset(database, settings)
        await one_run(sides, variant, f"warm{variant}", sizes, 1)
    gateway_rss_before = tree_rss_bytes(sides.service.process.pid)
    for run in range(sizes.runs):
        shift = run % len(variants)  # rotate the order: drift in the machine's load hits every variant alike
        for variant in variants[shift:] + variants[:shift]:
            await _reset(database, settings)
            before = await settled_probes(probe_dir)
            rates[variant].append(await one_run(sides, variant, f"r{run}{variant}", sizes, batches))
            if variant == "http":
                gateway_rounds.append(probe_deltas(before, await settled_probes(probe_dir))["gateway"])
    gateway_rss_after = tree_rss_bytes(sides.service.process.pid)
    names = port_names(settings)
    return _figure(bench, sizes, batches, rates, names, gateway_rounds, (gateway_rss_before, gateway_rss_after))


async def _reset(database: BenchDatabase, settings: Settings) -> None:
    await database.reset()
    await asyncio.to_thread(purge_queues, settings.amqp_url, figure_queues(settings))


def _figure(
    bench: Bench,
    sizes: EnqueueSizes,
    batches: int,
    rates: dict[str, list[float]],
    names: dict[str, str],
    gateway_rounds: list[dict[str, Any]],
    gateway_rss: tuple[int, int],
) -> dict[str, Any]:
    batches_per_run = sizes.clients * batches
    last = gateway_rounds[-1] if gateway_rounds else {"commands": {}, "lag_over": {}, "ticks": 0}
    details: dict[str, Any] = {
        "gateway_mongo_commands_per_batch": {
            name: round(count / batches_per_run, 2) for name, count in sorted(last["commands"].items())
        },
        "gateway_loop_ticks_late_per_run": {
            f"over_{bound}ms": count for bound, count in sorted(last["lag_over"].items(), key=lambda kv: int(kv[0]))
        },
        "gateway_loop_ticks_per_run": last["ticks"],
        "gateway_loop_stalls_over_50ms_per_run": last.get("stalls", {}),
        "gateway_tcp_connects_per_batch": named_connects(last.get("connects", {}), names, batches_per_run),
        "gateway_rss_mib": {"after_warmup": mib(gateway_rss[0]), "after_runs": mib(gateway_rss[1])},
    }
    if "enqueuer" in rates:
        details["enqueuer_without_http_per_second"] = round(median(rates["enqueuer"]), 2)
        details["enqueuer_ratio_to_raw"] = ratio(median(rates["enqueuer"]), median(rates["raw"]))
        details["runs_enqueuer"] = [round(rate, 2) for rate in rates["enqueuer"]]
    return rate_figure(
        "Enqueue: products accepted per second, POST /v1/lps/search",
        "products/s",
        rates["http"],
        rates["raw"],
        store=bench.store.label,
        target={"min": 0.6},
        settings={
            "clients": sizes.clients,
            "batch": sizes.batch,
            "batches_per_client": batches,
            "runs": sizes.runs,
            "raw": "same documents in one insert_many + same messages through the same Publisher (confirms on)",
        },
        details=details,
    )
