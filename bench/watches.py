"""The watch figure (`python -m bench --only watches`): the scheduler's pass costs O(due), not O(all watches).

Stores the mode's numbers of watches (1,000 and 50,000 in quick and full mode; every watch `every: 6h`, their next
runs spread over the coming six hours at the same density per minute at every size), of which the same number are
due, and times one `WatchScheduler.run_once` as `lps reconciler` runs it: its one range query (`paused: false,
next_run_at <= now`, sorted by next_run_at, limited; index `paused_next_run_at`), one conditional update per due
watch, the searches' insert and publish through `JobEnqueuer`, the runs' notes and the journal. The first pass is
untimed warm-up, reported apart. Before each pass the same watches are made due again and their searches deleted.

Raw baseline, from the runner: the pass's store work alone, the same range query and one `update_one` by `_id` per
due watch (no jobs, no broker). Also reported: the range query alone at each size. Runs of both sides alternate.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta
from typing import Any

from bson import ObjectId
from pymongo import ASCENDING, UpdateOne

from bench.figures import growth_figure, median
from bench.modes import WatchSizes
from bench.stack import Bench, BenchDatabase, figure_resources
from infra.broker import Publisher, create_broker
from infra.clock import utcnow
from infra.enqueue import JobEnqueuer
from infra.jobs import JobRepository
from infra.mongo import WATCHES, MainDatabase, create_client
from infra.reconciler_log import ReconcilerLog
from infra.scheduler import WatchScheduler
from infra.settings import Settings
from infra.watches import WatchRepository, new_watch, run_at
from schemas.codes import JobType

log = logging.getLogger(__name__)

SIX_HOURS = 6 * 3600
#: Watches per minute of the coming six hours at the largest size: smaller sizes keep the density (and so the
#: work of reading now's minute) and cover fewer minutes.
DENSITY_AT = 50_000


def _watch(index: int, now: datetime) -> dict[str, Any]:
    """A watch not due: its next run 1 minute to 6 hours ahead."""
    return new_watch(
        f"BW-{index}",
        {"keyword": f"bench watch {index}", "sources": ["static"]},
        now=now - timedelta(days=1),
        every="6h",
        first_run_at=now + timedelta(seconds=60 + index * SIX_HOURS // DENSITY_AT),
    )


async def _make_due(database: MainDatabase, watch_ids: list[ObjectId]) -> None:
    """Due within the last few seconds, as watches whose time came since the previous pass."""
    now = utcnow()
    updates = [
        UpdateOne({"_id": watch_id}, {"$set": run_at(now - timedelta(milliseconds=10 * index))})
        for index, watch_id in enumerate(watch_ids)
    ]
    await database.write[WATCHES].bulk_write(updates, ordered=False)


async def _raw_pass(database: MainDatabase, batch: int) -> int:
    """The pass's store work without LPS: the range query, an update per due one."""
    now = utcnow()
    watches = database.write[WATCHES]
    query = {"paused": False, "next_run_at": {"$lte": now}}
    due = await watches.find(query).sort("next_run_at", ASCENDING).limit(batch).to_list()
    following = run_at(now + timedelta(seconds=SIX_HOURS))
    for watch in due:
        await watches.update_one({"_id": watch["_id"], "next_run_at": watch["next_run_at"]}, {"$set": following})
    return len(due)


async def _range_query(database: MainDatabase, batch: int) -> float:
    """Seconds of the scheduler's query alone: one range of `paused_next_run_at`, sorted, limited."""
    started = time.perf_counter()
    cursor = database.write[WATCHES].find({"paused": False, "next_run_at": {"$lte": utcnow()}})
    await cursor.sort("next_run_at", ASCENDING).limit(batch).to_list()
    return time.perf_counter() - started


async def _measure_size(bench: Bench, sizes: WatchSizes, size: int) -> dict[str, Any]:
    settings = bench.settings_for(f"watches_{size}")
    async with figure_resources(settings):
        seeder = BenchDatabase(settings)
        client = create_client(settings)
        publisher = Publisher(create_broker(settings, middleware=[]))
        try:
            await seeder.reset()
            await publisher.start(settings.job(job_type).queue for job_type in JobType)
            database = MainDatabase.open(client, settings.mongo_db)
            scheduler = WatchScheduler(
                settings,
                WatchRepository(database.write),
                JobEnqueuer(settings, JobRepository(database), publisher),
                ReconcilerLog(database.write),
            )
            seeding = time.perf_counter()
            now = utcnow()
            documents = [_watch(index, now) for index in range(size)]
            for start in range(0, size, sizes.seed_batch):
                await seeder.main.write[WATCHES].insert_many(documents[start : start + sizes.seed_batch], ordered=False)
            seeded = time.perf_counter() - seeding
            due_ids = [document["_id"] for document in documents[: sizes.due]]
            return await _passes(settings, sizes, database, seeder, scheduler, due_ids) | {"seed_s": round(seeded, 1)}
        finally:
            await publisher.close()
            await client.close()
            await seeder.close()


async def _passes(
    settings: Settings,
    sizes: WatchSizes,
    database: MainDatabase,
    seeder: BenchDatabase,
    scheduler: WatchScheduler,
    due_ids: list[ObjectId],
) -> dict[str, Any]:
    batch = settings.watch_batch
    await _make_due(database, due_ids)
    started = time.perf_counter()
    first = await scheduler.run_once()
    first_ms = (time.perf_counter() - started) * 1000
    if first["watch_searches"] != sizes.due:
        raise RuntimeError(f"the first pass ran {dict(first)}, not {sizes.due} searches")
    lps, raw, ranges = [], [], []
    for _ in range(sizes.runs):
        await seeder.jobs.delete_many({})
        await _make_due(database, due_ids)
        started = time.perf_counter()
        counts = await scheduler.run_once()
        lps.append((time.perf_counter() - started) * 1000)
        if counts["watch_searches"] != sizes.due:
            raise RuntimeError(f"a pass ran {dict(counts)}, not {sizes.due} searches")
        await _make_due(database, due_ids)
        ranges.append(await _range_query(database, batch) * 1000)
        started = time.perf_counter()
        found = await _raw_pass(database, batch)
        raw.append((time.perf_counter() - started) * 1000)
        if found != sizes.due:
            raise RuntimeError(f"the raw pass found {found}, not {sizes.due} due watches")
    return {"lps": lps, "raw": raw, "first_pass_ms": round(first_ms, 1), "range_query_ms": round(median(ranges), 1)}


async def measure(bench: Bench, sizes: WatchSizes) -> list[dict[str, Any]]:
    measured = {}
    for size in sizes.stored:
        started = time.perf_counter()
        measured[size] = await _measure_size(bench, sizes, size)
        log.info("watches: measured at %d stored watches in %.0f s", size, time.perf_counter() - started)
    by_size = {str(size): {key: value for key, value in measured[size].items() if key not in ("lps", "raw")}
               for size in sizes.stored}  # fmt: skip
    return [
        growth_figure(
            f"Watch scheduler: one pass with {sizes.due} due (WatchScheduler.run_once)",
            "ms",
            {size: measured[size]["lps"] for size in sizes.stored},
            {size: measured[size]["raw"] for size in sizes.stored},
            store=bench.store.label,
            stored="stored watches",
            settings={
                "stored_watches": list(sizes.stored),
                "due": sizes.due,
                "every": "6h, next runs spread over the coming 6 h (the same density per minute at every size)",
                "runs": sizes.runs,
                "raw": "the same range query and an update_one by _id per due watch, from the runner",
            },
            target={"max": sizes.max_ratio, "of": "ratio"},
            details={"by_size": by_size},
        )
    ]
