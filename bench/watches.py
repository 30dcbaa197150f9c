"""`python -m bench.watches`: the watch scheduler's pass costs O(due), not O(all watches).

Stores 1,000 and then 50,000 watches (`every` 6 h, as a back office watching its catalogue would), of which the
same number are due, and times one `WatchScheduler.run_once` as `lps reconciler` runs it (the due query, one
conditional update per due watch, the searches' insert and publish, the runs' notes), plus the due query alone.
Each size is measured `ROUNDS` times: after a pass its searches are deleted and the same watches made due again.
Seeding is `insert_many` in batches of 1,000 through the runner's own client, untimed. On the embedded store by
default (LPS_MONGO_URL unset), a real MongoDB with LPS_MONGO_URL; RabbitMQ at LPS_AMQP_URL. Prints JSON and writes
bench/results/watches.json.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

from bson import ObjectId

from infra.broker import Publisher, create_broker
from infra.clock import utcnow
from infra.enqueue import JobEnqueuer
from infra.jobs import JobRepository
from infra.mongo import WATCHES, MainDatabase, create_client, ensure_indexes
from infra.scheduler import WatchScheduler
from infra.settings import Settings
from infra.watches import WatchRepository
from schemas.codes import JobType
from tools.embedded_mongo import embedded_mongo
from tools.testbed import delete_queues, job_queues

SIZES = (1_000, 50_000)
DUE = 100
ROUNDS = 5
SEED_BATCH = 1_000
SIX_HOURS = 6 * 3600


def _watch(index: int, *, due: bool, now: Any) -> dict[str, Any]:
    offset = timedelta(seconds=-60 - index) if due else timedelta(seconds=60 + index * SIX_HOURS // 50_000)
    return {
        "_id": ObjectId(),
        "product_code": f"BW-{index}",
        "product": {"keyword": f"bench watch {index}", "sources": ["static"]},
        "every": "6h",
        "every_seconds": SIX_HOURS,
        "cron": None,
        "timezone": None,
        "notify": "on_change",
        "priority": None,
        "paused": False,
        "anchor_at": now - timedelta(days=1),
        "next_run_at": now + offset,
        "created_at": now - timedelta(days=1),
        "updated_at": now - timedelta(days=1),
    }


async def _measure_size(settings: Settings, size: int) -> dict[str, Any]:
    client = create_client(settings)
    database = MainDatabase.open(client, settings.mongo_db)
    publisher = Publisher(create_broker(settings, middleware=[]))
    try:
        await ensure_indexes(database, settings)
        await publisher.start(settings.job(job_type).queue for job_type in JobType)
        watches = WatchRepository(database.write)
        scheduler = WatchScheduler(settings, watches, JobEnqueuer(settings, JobRepository(database), publisher))
        now = utcnow()
        seeding = time.perf_counter()
        documents = [_watch(index, due=index < DUE, now=now) for index in range(size)]
        for start in range(0, size, SEED_BATCH):
            await database.write[WATCHES].insert_many(documents[start : start + SEED_BATCH], ordered=False)
        seeded = time.perf_counter() - seeding
        due_ids = [doc["_id"] for doc in documents[:DUE]]
        passes, queries = [], []
        for _ in range(ROUNDS):
            started = time.perf_counter()
            found = await watches.due(utcnow(), settings.watch_batch)
            queries.append(time.perf_counter() - started)
            assert len(found) == DUE, len(found)
            started = time.perf_counter()
            counts = await scheduler.run_once()
            passes.append(time.perf_counter() - started)
            assert counts["watch_searches"] == DUE, counts
            # The same watches due again, their searches gone: the next round is the same pass.
            await database.jobs().delete_many({})
            past = utcnow() - timedelta(seconds=60)
            for watch_id in due_ids:
                await database.write[WATCHES].update_one({"_id": watch_id}, {"$set": {"next_run_at": past}})
        return {
            "watches": size,
            "due": DUE,
            "seed_seconds": round(seeded, 1),
            "pass_ms_median": round(statistics.median(passes) * 1000, 1),
            "pass_ms_all": [round(seconds * 1000, 1) for seconds in passes],
            "due_query_ms_median": round(statistics.median(queries) * 1000, 1),
        }
    finally:
        await publisher.close()
        await client.drop_database(settings.mongo_db)
        await client.close()
        delete_queues(settings.amqp_url, job_queues(settings))


async def measure(settings: Settings) -> list[dict[str, Any]]:
    results = []
    for size in SIZES:
        run = uuid.uuid4().hex[:8]
        sized = settings.with_overrides(mongo_db=f"lps_bench_watches_{run}", queue_prefix=f"lpsbench_{run}_")
        results.append(await _measure_size(sized, size))
        print(json.dumps(results[-1]), flush=True)
    return results


def main() -> None:
    settings = Settings.from_env()
    if settings.mongo_url:
        results = asyncio.run(measure(settings))
    else:
        with embedded_mongo() as url:
            results = asyncio.run(measure(settings.with_overrides(mongo_url=url)))
    out = Path(__file__).parent / "results" / "watches.json"
    out.write_text(json.dumps({"store": "real" if settings.mongo_url else "embedded", "results": results}, indent=2))


if __name__ == "__main__":
    main()
