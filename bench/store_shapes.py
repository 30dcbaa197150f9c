"""What the embedded store's patch does for LPS's production-shaped queries that issue 34 introduced, against mongoeco's
own engine, at two sizes (in process, no wire: the engines' own cost).

    python -m bench.store_shapes                    # 1,000 and 20,000 stored
    python -m bench.store_shapes --sizes 1000,50000 --runs 5

- the watch scheduler's due pass: `paused: false, next_run_at <= now`, sorted by next_run_at, limit 100, over watches
  whose next runs spread over six hours, 100 due (index `paused_next_run_at`);
- a batch by id: `update_many({_id: {$in: 100 ids}})` over as many jobs with LPS's job indexes (`mark_enqueued`).

Prints the median milliseconds of each, patched and unpatched, per size: flat in the stored size is the target.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from bson import ObjectId

from infra.mongo import JOBS, WATCHES, job_indexes, watch_indexes
from infra.watches import new_watch

DUE = 100
BATCH = 1000


async def _measure(engine: Any, size: int, runs: int) -> tuple[float, float]:
    from mongoeco import AsyncMongoClient

    now = datetime.now(UTC)
    async with AsyncMongoClient(engine) as client:
        watches, jobs = client.bench[WATCHES], client.bench[JOBS]
        await watches.create_indexes(watch_indexes())
        await jobs.create_indexes(job_indexes())
        documents = [
            new_watch(f"W{n}", {"keyword": "k", "sources": ["static"]}, now=now, every="6h",
                      first_run_at=now + timedelta(seconds=60 + n * 21600 // size))
            for n in range(size)
        ]  # fmt: skip
        for start in range(0, size, BATCH):
            await watches.insert_many(documents[start : start + BATCH])
        stored = [
            {"_id": ObjectId(), "product_code": f"P{n}", "job_type": "SEARCH", "status": "DONE", "created_at": now}
            for n in range(size)
        ]
        for start in range(0, size, BATCH):
            await jobs.insert_many(stored[start : start + BATCH])
        due_times, batch_times = [], []
        for run in range(runs + 1):  # the first run is warm-up
            due_ids = [document["_id"] for document in documents[run * DUE : (run + 1) * DUE]]
            await watches.update_many({"_id": {"$in": due_ids}}, {"$set": {"next_run_at": now - timedelta(seconds=1)}})
            started = time.perf_counter()
            query = {"paused": False, "next_run_at": {"$lte": datetime.now(UTC)}}
            found = await watches.find(query).sort("next_run_at", 1).limit(DUE).to_list()
            due_time = time.perf_counter() - started
            assert len(found) == DUE, len(found)
            await watches.update_many({"_id": {"$in": due_ids}}, {"$set": {"next_run_at": now + timedelta(days=1)}})
            ids = [job["_id"] for job in stored[run * DUE : (run + 1) * DUE]]
            started = time.perf_counter()
            await jobs.update_many({"_id": {"$in": ids}}, {"$set": {"enqueued_at": now}})
            batch_time = time.perf_counter() - started
            if run:
                due_times.append(due_time)
                batch_times.append(batch_time)
    return statistics.median(due_times) * 1e3, statistics.median(batch_times) * 1e3


def main(argv: list[str] | None = None) -> int:
    from mongoeco.engines.memory import MemoryEngine

    from embedded_store.server import create_engine

    parser = argparse.ArgumentParser(prog="python -m bench.store_shapes", description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000,20000", help="stored watches and jobs (comma-separated)")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    for size in (int(size) for size in args.sizes.split(",")):
        for label, engine in (("patched", create_engine()), ("mongoeco", MemoryEngine(change_log_max_entries=100))):
            due_ms, batch_ms = asyncio.run(_measure(engine, size, args.runs))
            print(
                f"{size:>7,} stored, {label:>8}: due pass {due_ms:7.1f} ms, update_many of 100 ids {batch_ms:7.1f} ms"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
