"""Figure 4, reads: p50 and p99 latency of `GET /v1/lps/jobs/{id}` and `GET /v1/lps/queue/stats`.

The figure's database is filled with stored jobs first (a mix of finished searches with results,
pending and dead searches, and deliveries; the indexes are created afterwards, as a gateway starting
on an existing database finds them), then the gateway starts. 100 concurrent clients each make their
requests one after another. The raw baseline makes the same reads from the runner's process without
HTTP: the handler's own repository calls (`JobRepository.get`; for the stats, the job counts,
the reconciler totals and the queue depths through a `Publisher`), with the same concurrency.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import aiohttp
from bson import ObjectId

from bench.figures import latency_figure, latency_summary
from bench.modes import ReadsSizes
from bench.stack import Bench, BenchDatabase, figure_resources, gateway, probe_deltas, settled_probes
from infra.broker import Publisher, create_broker
from infra.job_counts import JobCounts
from infra.job_documents import history_entry, new_job
from infra.jobs import JobRepository
from infra.mongo import MONGO_UNAVAILABLE, MainDatabase, create_client, ensure_indexes
from infra.reconciler_log import ReconcilerLog
from infra.settings import Settings
from schemas.codes import JobType

SEED_BATCH = 100


def stored_job(index: int, now: datetime) -> dict[str, Any]:
    """One job as the collection holds it after a while: 80 % DONE searches, the rest pending, dead, deliveries."""
    kind = index % 20
    job_type = JobType.OUTBOX if kind in (18, 19) else JobType.SEARCH
    job = new_job(
        job_type,
        job_id=ObjectId(),
        product_code=f"P{index}",
        priority="NORMAL",
        max_attempts=5,
        now=now - timedelta(seconds=index),
        message_id=f"m{index}",
        product={"keyword": f"product {index}", "target_price": 50_000} if job_type is JobType.SEARCH else None,
        source_job_id=ObjectId() if job_type is JobType.OUTBOX else None,
    )
    if kind == 0:
        return job  # PENDING, still active
    job.pop("active")
    job |= {"attempts": 1, "worker": "bench:1:Thread-1", "started_at": now, "finished_at": now, "enqueued_at": now}
    if kind == 1:
        error = {"type": "BLOCKED", "message": "coupang blocked the search: 403", "at": now}
        job |= {"status": "DEAD", "last_error": error}
        job["history"] = [history_entry(job, finished_at=now, outcome="DEAD", error=error)]
        return job
    job["status"] = "DONE"
    job["history"] = [history_entry(job, finished_at=now, outcome="DONE")]
    if job_type is JobType.OUTBOX:
        job["delivery"] = {"status_code": 200, "ms": 4, "delivered_at": now}
    else:
        job["result"] = _result(index, now)
    return job


def _result(index: int, now: datetime) -> dict[str, Any]:
    offers = [
        {
            "source": "static",
            "title": f"product {index} offer {rank}",
            "price": 40_000 + rank * 1_500,
            "url": f"https://static.invalid/products/{index}-{rank}",
            "product_id": f"{index}-{rank}",
            "delivery": "ROCKET",
            "sold_out": False,
            "is_ad": rank == 0,
        }
        for rank in range(5)
    ]
    return {
        "outcome": "FOUND",
        "lowest": offers[1],
        "offers": offers,
        "sources": {"static": {"outcome": "FOUND", "count": 5, "ms": 3}},
        "searched_at": now,
    }


async def seed(database: BenchDatabase, count: int) -> list[ObjectId]:
    """Fill the jobs collection; the indexes come last (cheaper on the embedded store, same end state)."""
    now = datetime.now(UTC)
    await database.main.write.drop_collection("jobs")
    ids: list[ObjectId] = []
    for start in range(0, count, SEED_BATCH):
        documents = [stored_job(index, now) for index in range(start, min(start + SEED_BATCH, count))]
        await database.jobs.insert_many(documents, ordered=False)
        ids += [document["_id"] for document in documents]
    await ensure_indexes(database.main, database.settings)
    return ids


class RequestFailed(Exception):
    """The server gave up on a request (MongoDB too slow or unreachable): counted, and its time kept."""


@dataclass(slots=True)
class Latencies:
    seconds: list[float] = field(default_factory=list)
    errors: int = 0


async def concurrent_latencies(clients: int, requests: int, call: Callable[[], Awaitable[None]]) -> Latencies:
    """`clients` concurrent loops, each making `requests` calls in turn; every call's latency in seconds."""
    measured = Latencies()

    async def client() -> None:
        for _ in range(requests):
            started = time.perf_counter()
            try:
                await call()
            except RequestFailed:
                measured.errors += 1  # a refusal after a wait is part of what a client sees
            measured.seconds.append(time.perf_counter() - started)

    await asyncio.gather(*(client() for _ in range(clients)))
    return measured


async def measure(bench: Bench, sizes: ReadsSizes) -> list[dict[str, Any]]:
    settings = bench.settings_for("reads")
    stored = sizes.jobs_for(bench.store.kind)
    async with figure_resources(settings):
        database = BenchDatabase(settings)
        client = create_client(settings)  # configured like the gateway's
        publisher = Publisher(create_broker(settings, middleware=[]))
        try:
            ids = await seed(database, stored)
            await publisher.start(settings.job(job_type).queue for job_type in JobType)
            main = MainDatabase.open(client, settings.mongo_db)
            async with (
                gateway(settings, bench) as service,
                aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=sizes.clients)) as http,
            ):
                counts = JobCounts(
                    JobRepository(main),
                    main.write,
                    settle=settings.stats_settle,
                    catch_up_limit=settings.stats_catch_up_limit,
                )
                sides = _Sides(
                    service.url, http, JobRepository(main), counts, ReconcilerLog(main.read), publisher, settings
                )
                return await _figures(bench, sizes, sides, ids, stored)
        finally:
            await publisher.close()
            await client.close()
            await database.close()


class _Sides:
    """The four request kinds: each endpoint over HTTP, and its handler's reads without HTTP."""

    def __init__(
        self,
        url: str,
        http: aiohttp.ClientSession,
        jobs: JobRepository,
        counts: JobCounts,
        reconciler: ReconcilerLog,
        publisher: Publisher,
        settings: Settings,
    ) -> None:
        self.url, self.http, self.jobs, self.reconciler, self.publisher = url, http, jobs, reconciler, publisher
        self.counts = counts
        self.settings = settings
        self.queues = [settings.job(job_type).queue for job_type in JobType]

    async def _get(self, path: str) -> None:
        async with self.http.get(f"{self.url}{path}") as response:
            await response.read()
            if response.status == 503:
                raise RequestFailed(f"GET {path} answered 503")
            if response.status != 200:
                raise RuntimeError(f"GET {path} answered {response.status}")

    def http_job(self, ids: list[ObjectId]) -> Callable[[], Awaitable[None]]:
        return lambda: self._get(f"/v1/lps/jobs/{random.choice(ids)}")

    def raw_job(self, ids: list[ObjectId]) -> Callable[[], Awaitable[None]]:
        async def call() -> None:
            try:
                job = await self.jobs.get(random.choice(ids))
            except MONGO_UNAVAILABLE as error:
                raise RequestFailed(str(error)) from None
            if job is None:
                raise RuntimeError("a stored job was not found")

        return call

    def http_stats(self) -> Callable[[], Awaitable[None]]:
        return lambda: self._get("/v1/lps/queue/stats")

    def raw_stats(self) -> Callable[[], Awaitable[None]]:
        async def call() -> None:
            try:
                await self.counts.current()
                await self.reconciler.totals()
            except MONGO_UNAVAILABLE as error:
                raise RequestFailed(str(error)) from None
            await self.publisher.queue_info(self.queues)

        return call


async def _figures(bench: Bench, sizes: ReadsSizes, sides: _Sides, ids: list[ObjectId], stored: int) -> list[dict]:
    # Warm-up at full concurrency: both sides open their connections before anything is timed.
    await concurrent_latencies(sizes.clients, 1, sides.http_job(ids))
    await concurrent_latencies(sizes.clients, 1, sides.raw_job(ids))
    probe_dir = bench.probe_dir(sides.settings)
    before = await settled_probes(probe_dir)
    job_runs = await _alternate(
        sizes.runs, sizes.clients, sizes.job_requests_per_client, sides.http_job(ids), sides.raw_job(ids)
    )
    job_counters = probe_deltas(before, await settled_probes(probe_dir)).get("gateway", {})
    stats_runs = await _alternate(
        sizes.stats_runs, sizes.clients, sizes.stats_requests_per_client, sides.http_stats(), sides.raw_stats()
    )
    stats_counters = probe_deltas(before, await settled_probes(probe_dir)).get("gateway", {})
    # One client alone: what a request costs when nothing queues in front of it.
    solo_job = latency_summary(await concurrent_latencies(1, 10, sides.http_job(ids)))
    solo_job_raw = latency_summary(await concurrent_latencies(1, 10, sides.raw_job(ids)))
    solo_stats = latency_summary(await concurrent_latencies(1, 3, sides.http_stats()))
    solo_stats_raw = latency_summary(await concurrent_latencies(1, 3, sides.raw_stats()))
    common = {"stored_jobs": stored, "concurrent_clients": sizes.clients}
    job_requests = sizes.runs * sizes.clients * sizes.job_requests_per_client
    stats_requests = sizes.stats_runs * sizes.clients * sizes.stats_requests_per_client
    return [
        latency_figure(
            "Reads: GET /v1/lps/jobs/{id} latency",
            *job_runs,
            store=bench.store.label,
            settings=common | {"requests_per_client": sizes.job_requests_per_client, "runs": sizes.runs},
            details={
                "raw": "JobRepository.get (the handler's one read) from the runner, same concurrency",
                "single_client_p50_ms": {"lps": solo_job["p50_ms"], "raw": solo_job_raw["p50_ms"]},
            }
            | _gateway_details(job_counters, job_requests),
        ),
        latency_figure(
            "Reads: GET /v1/lps/queue/stats latency",
            *stats_runs,
            store=bench.store.label,
            settings=common | {"requests_per_client": sizes.stats_requests_per_client, "runs": sizes.stats_runs},
            details={
                "raw": "the handler's reads (job counts, reconciler totals, queue depths), no HTTP",
                "single_client_p50_ms": {"lps": solo_stats["p50_ms"], "raw": solo_stats_raw["p50_ms"]},
            }
            | _gateway_details(_minus(stats_counters, job_counters), stats_requests),
        ),
    ]


def _minus(later: dict[str, Any], earlier: dict[str, Any]) -> dict[str, Any]:
    """Counters of the stats runs alone (the later reading also holds the job runs)."""
    return {
        "commands": dict(Counter(later.get("commands", {})) - Counter(earlier.get("commands", {}))),
        "lag_over": dict(Counter(later.get("lag_over", {})) - Counter(earlier.get("lag_over", {}))),
        "stalls": dict(Counter(later.get("stalls", {})) - Counter(earlier.get("stalls", {}))),
        "ticks": later.get("ticks", 0) - earlier.get("ticks", 0),
    }


def _gateway_details(counters: dict[str, Any], requests: int) -> dict[str, Any]:
    commands = counters.get("commands", {})
    return {
        "gateway_mongo_commands_per_request": {name: round(n / requests, 2) for name, n in sorted(commands.items())},
        "gateway_loop_ticks_late": {f"over_{b}ms": n for b, n in sorted(counters.get("lag_over", {}).items())},
        "gateway_loop_ticks": counters.get("ticks", 0),
        "gateway_loop_stalls_over_50ms": counters.get("stalls", {}),
    }


async def _alternate(
    runs: int, clients: int, requests: int, lps: Callable[[], Awaitable[None]], raw: Callable[[], Awaitable[None]]
) -> tuple[list[dict[str, float]], list[dict[str, float]]]:
    lps_runs: list[dict[str, float]] = []
    raw_runs: list[dict[str, float]] = []
    for run in range(runs):
        order = [(lps, lps_runs), (raw, raw_runs)]
        for call, results in order if run % 2 == 0 else order[::-1]:
            results.append(latency_summary(await concurrent_latencies(clients, requests, call)))
    return lps_runs, raw_runs
