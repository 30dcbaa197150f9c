"""Figure 2, pipeline: SEARCH jobs per second from POST to DONE, versus a raw Dramatiq no-op actor.

LPS side: the gateway (`bench.gateway`), the search pool and the outbox pool exactly as `lps worker`
starts them (the Dramatiq CLI with `actors.worker:setup`), the deterministic `static` source, and a
receiver in the runner's process that answers every delivery 200 at once. A run posts N products in
batches of 100 and ends when every delivery has arrived; its rate is N over the time from the first
POST to the last SEARCH job's `finished_at`.

Raw side: `dramatiq bench.noop` with the search pool's size (1 process, its threads, prefetch = threads)
on the same RabbitMQ; the same number of messages is published through the same `Publisher`, and the
run ends when the actor has seen them all.

Every LPS process loads `bench.probe`, so each run also counts the MongoDB commands per SEARCH job by
process, the connections opened and the event-loop lag.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiohttp
import dramatiq
from bson import ObjectId

from bench.figures import median, mib, rate_figure
from bench.modes import PipelineSizes
from bench.noop import ACTOR, noop_queue
from bench.probe import LAG_BUCKETS_MS
from bench.stack import (
    Bench,
    BenchDatabase,
    Service,
    figure_clients,
    figure_resources,
    gateway,
    lps_pool,
    named_connects,
    noop,
    pools,
    port_names,
    probe_deltas,
    serve,
    server_pid,
    settled_probes,
    tree_cpu_seconds,
    tree_rss_bytes,
)
from infra.broker import Publisher
from infra.settings import Settings
from schemas.codes import JobType
from tools.testbed import Receiver, eventually

WRITES = frozenset({"insert", "update", "delete", "findAndModify"})
READS = frozenset({"find", "getMore", "aggregate", "count", "distinct"})
ROLES = ("gateway", "search", "outbox")
BATCH = 100
CLIENTS = 8
#: Seconds a run may take per job before it counts as stuck (the embedded store does ~10 jobs/s).
SECONDS_PER_JOB = 2.0


@dataclass(slots=True)
class Pipeline:
    settings: Settings
    bench: Bench
    database: BenchDatabase
    receiver: Receiver
    gateway: Service
    pools: dict[str, Service]
    http: aiohttp.ClientSession
    publisher: Publisher
    counter: Path


async def post_products(pipeline: Pipeline, tag: str, count: int) -> None:
    products = [{"product_code": f"{tag}-{index}", "keyword": f"bench product {index % 50}"} for index in range(count)]
    batches = [products[start : start + BATCH] for start in range(0, count, BATCH)]
    clients = asyncio.Semaphore(CLIENTS)

    async def post(batch: list[dict[str, Any]]) -> None:
        async with clients, pipeline.http.post(f"{pipeline.gateway.url}/v1/lps/search", json={"products": batch}) as r:
            answer = await r.json()
        if r.status != 200 or answer.get("result") != 0:
            raise RuntimeError(f"POST /v1/lps/search answered {r.status}: {str(answer)[:300]}")

    await asyncio.gather(*(post(batch) for batch in batches))


async def lps_run(pipeline: Pipeline, tag: str, jobs: int) -> dict[str, Any]:
    await pipeline.database.reset()
    probe_dir = pipeline.bench.probe_dir(pipeline.settings)
    before = await settled_probes(probe_dir)
    pipeline.receiver.expect(jobs)
    cpu_before = cpu_by_process(pipeline)
    started_at, started = datetime.now(UTC), time.perf_counter()
    await post_products(pipeline, tag, jobs)
    delivered = await pipeline.receiver.wait(within=30 + jobs * SECONDS_PER_JOB) - started
    collection = pipeline.database.jobs

    async def outbox_done() -> bool:
        return await collection.count_documents({"job_type": "OUTBOX", "status": "DONE"}) >= jobs

    await eventually(outbox_done, within=60, what="every OUTBOX job to be DONE", interval=0.3)
    searches = await collection.find({"job_type": "SEARCH"}, {"status": 1, "finished_at": 1}).to_list()
    not_done = [job for job in searches if job.get("status") != "DONE"]
    if len(searches) != jobs or not_done:
        raise RuntimeError(f"{len(not_done)} of {len(searches)} SEARCH jobs not DONE (expected {jobs})")
    done = (max(job["finished_at"] for job in searches) - started_at).total_seconds()
    deltas = probe_deltas(before, await settled_probes(probe_dir))
    cpu_after = cpu_by_process(pipeline)
    return {
        "rate": jobs / done,
        "delivered_rate": jobs / delivered,
        "probe": deltas,
        "cpu_ms_per_job": {role: (cpu_after[role] - cpu_before[role]) * 1000 / jobs for role in cpu_after},
        "wall_ms_per_job": done * 1000 / jobs,
    }


def cpu_by_process(pipeline: Pipeline) -> dict[str, float]:
    """CPU seconds used so far by each process a run goes through: the gateway, the two pools, the embedded store
    (when it is the store), and the runner itself (which posts, and receives the deliveries)."""
    used = {"gateway": tree_cpu_seconds(pipeline.gateway.process.pid)}
    used |= {name: tree_cpu_seconds(pool.process.pid) for name, pool in pipeline.pools.items() if name != "noop"}
    if (store := server_pid(pipeline.bench.store.url)) is not None and pipeline.bench.store.kind == "embedded":
        used["store"] = tree_cpu_seconds(store)
    used["runner"] = time.process_time()  # this process alone: the others are its children
    return used


async def raw_run(pipeline: Pipeline, tag: str, jobs: int) -> float:
    settings = pipeline.settings
    priority = settings.broker_priority(JobType.SEARCH, None)
    messages = [
        dramatiq.Message(
            queue_name=noop_queue(settings),
            actor_name=ACTOR,
            args=(str(ObjectId()),),
            kwargs={},
            options={"broker_priority": priority},
        )
        for _ in range(jobs)
    ]
    pipeline.counter.write_bytes(b"")
    started = time.perf_counter()
    confirmed = 0
    for start in range(0, jobs, BATCH):
        confirmed += len(await pipeline.publisher.publish(messages[start : start + BATCH]))
    if confirmed != jobs:
        raise RuntimeError(f"raw pipeline: {confirmed} of {jobs} messages confirmed")
    deadline = started + 30 + jobs * SECONDS_PER_JOB
    while pipeline.counter.stat().st_size < jobs:
        if time.perf_counter() > deadline:
            raise TimeoutError(f"no-op actor saw {pipeline.counter.stat().st_size} of {jobs} messages")
        await asyncio.sleep(0.005)
    return jobs / (time.perf_counter() - started)


async def measure(bench: Bench, sizes: PipelineSizes) -> dict[str, Any]:
    receiver = Receiver()
    jobs = sizes.jobs_for(bench.store.kind)
    async with contextlib.AsyncExitStack() as stack:
        receiver_url = await stack.enter_async_context(serve(receiver.app()))
        settings = bench.settings_for(
            "pipeline", search_sources=("static",), outbox_url=f"{receiver_url}/results", outbox_secret="bench"
        )
        await stack.enter_async_context(figure_resources(settings))
        clients = await stack.enter_async_context(figure_clients(settings, [noop_queue(settings)]))
        database, publisher = clients.database, clients.publisher
        counter = bench.directory("noop") / f"{settings.mongo_db}.count"
        service = await stack.enter_async_context(gateway(settings, bench))
        wanted = [
            lps_pool(settings, "search", bench, threads=sizes.search_threads),
            lps_pool(settings, "outbox", bench, threads=sizes.outbox_threads),
            noop(settings, bench, threads=sizes.search_threads, counter=counter),
        ]
        search, outbox, raw = await stack.enter_async_context(pools(settings, wanted))
        pipeline = Pipeline(
            settings=settings,
            bench=bench,
            database=database,
            receiver=receiver,
            gateway=service,
            pools={"search": search, "outbox": outbox, "noop": raw},
            http=await stack.enter_async_context(aiohttp.ClientSession()),
            publisher=publisher,
            counter=counter,
        )
        return await _runs(pipeline, sizes, jobs)
    raise AssertionError("unreachable: the exit stack re-raises")


async def _runs(pipeline: Pipeline, sizes: PipelineSizes, jobs: int) -> dict[str, Any]:
    await lps_run(pipeline, "warm", sizes.warmup_jobs)
    await raw_run(pipeline, "warm", sizes.warmup_jobs)
    rss_before = {name: tree_rss_bytes(pool.process.pid) for name, pool in pipeline.pools.items()}
    lps: list[dict[str, Any]] = []
    raw: list[float] = []
    for run in range(sizes.runs):
        if run % 2:  # alternate which side goes first
            raw.append(await raw_run(pipeline, f"r{run}", jobs))
            lps.append(await lps_run(pipeline, f"r{run}", jobs))
        else:
            lps.append(await lps_run(pipeline, f"r{run}", jobs))
            raw.append(await raw_run(pipeline, f"r{run}", jobs))
    rss_after = {name: tree_rss_bytes(pool.process.pid) for name, pool in pipeline.pools.items()}
    return _figure(pipeline, sizes, jobs, lps, raw, rss_before, rss_after)


def per_job(commands: Mapping[str, int], jobs: int) -> dict[str, float]:
    return {name: round(count / jobs, 2) for name, count in sorted(commands.items())}


def round_trips(deltas: Mapping[str, Mapping[str, Any]], jobs: int) -> dict[str, Any]:
    """MongoDB commands per SEARCH job, by process and kind."""
    by_role = {role: per_job(deltas.get(role, {}).get("commands", {}), jobs) for role in ROLES}

    def total(role: str, kinds: frozenset[str] | None = None) -> float:
        return round(sum(n for name, n in by_role[role].items() if kinds is None or name in kinds), 2)

    return {
        "per_process": by_role,
        "writes": {role: total(role, WRITES) for role in ROLES},
        "reads": {role: total(role, READS) for role in ROLES},
        "all": {role: total(role) for role in ROLES},
        # Per job, the hot path is the search pool's attempt; the gateway's writes are per batch of 100.
        "hot_path_writes": total("search", WRITES),
        "post_to_done_writes": round(total("gateway", WRITES) + total("search", WRITES), 2),
        "total": round(sum(total(role) for role in ROLES), 2),
    }


def _figure(
    pipeline: Pipeline,
    sizes: PipelineSizes,
    jobs: int,
    lps: list[dict[str, Any]],
    raw: list[float],
    rss_before: dict[str, int],
    rss_after: dict[str, int],
) -> dict[str, Any]:
    last = lps[-1]
    deltas = last["probe"]
    names = port_names(pipeline.settings, receiver=pipeline.settings.outbox_url or "", gateway=pipeline.gateway.url)
    trips = round_trips(deltas, jobs)
    cpu = {role: round(median([run["cpu_ms_per_job"][role] for run in lps]), 2) for role in last["cpu_ms_per_job"]}
    total_cpu = sum(cpu.values())
    details = {
        # Where a job's time goes: CPU per SEARCH job by process (two cores; the store is one pure-Python process
        # on the embedded default), beside the wall time per job.
        "cpu_ms_per_search_job": cpu,
        "cpu_share": {role: round(ms / total_cpu, 3) for role, ms in cpu.items()} if total_cpu else {},
        "wall_ms_per_search_job": round(median([run["wall_ms_per_job"] for run in lps]), 2),
        "mongo_round_trips_per_search_job": trips,
        "hot_path_writes_target": {"max": 4},
        "delivered_per_second": round(median([run["delivered_rate"] for run in lps]), 2),
        "mongo_connections_opened_per_run": {
            role: deltas.get(role, {}).get("connections_created", 0) for role in ROLES
        },
        "tcp_connects_per_job": {
            role: named_connects(deltas.get(role, {}).get("connects", {}), names, jobs) for role in ROLES
        },
        "loop_ticks_late_per_run": {
            role: {f"over_{b}ms": deltas.get(role, {}).get("lag_over", {}).get(str(b), 0) for b in LAG_BUCKETS_MS}
            | {"ticks": deltas.get(role, {}).get("ticks", 0)}
            for role in ROLES
        },
        "loop_stalls_over_50ms_per_run": {role: deltas.get(role, {}).get("stalls", {}) for role in ROLES},
        "pool_rss_mib": {
            name: {"after_warmup": mib(rss_before[name]), "after_runs": mib(rss_after[name])} for name in rss_before
        },
    }
    return rate_figure(
        "Pipeline: SEARCH jobs per second, POST to DONE (static source, outbox delivering)",
        "jobs/s",
        [run["rate"] for run in lps],
        raw,
        store=pipeline.bench.store.label,
        settings={
            "jobs_per_run": jobs,
            "runs": sizes.runs,
            "search_pool": f"1 process x {sizes.search_threads} threads (prefetch {sizes.search_threads})",
            "outbox_pool": f"1 process x {sizes.outbox_threads} threads",
            "raw": f"dramatiq bench.noop, 1 process x {sizes.search_threads} threads, same broker settings",
        },
        details=details,
    )
