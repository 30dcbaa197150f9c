"""The embedded store's envelope: at which numbers of stored jobs claims, listing pages and stats stay within their
targets, in memory and in a SQLite file (`--data`).

    python -m bench.store_envelope              # memory 10,000 / 50,000 / 150,000 jobs; file 1,000 / 2,000 / 5,000
    python -m bench.store_envelope --memory 10000 --data-file 1000,3000 --rounds 10

At each size `lps mongo` (in memory, or `--data FILE`) serves a store filled with jobs as a busy catalogue leaves them
(nine in ten DONE, the rest PENDING, with LPS's job indexes), and pymongo times `--rounds` rounds over TCP, each:
a claim (the worker's update of a PENDING job by `_id` and status), a listing page (51 DONE jobs newest first, as
`/ui/jobs?status=DONE` reads them) and the stats' counts (PENDING and RUNNING of each job type, by the `count`
command). A write comes first in every round, as in a running stack: the SQLite engine drops what its planner
learnt on each write. Prints the medians per size, whether each is within its target
(`embedded_store.envelope`), and the largest size with all three within, per mode.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bson import ObjectId
from pymongo import MongoClient

from embedded_store.envelope import CLAIM_MS, PAGE_MS, STATS_MS
from embedded_store.server import create_engine, embedded_mongo
from infra.mongo import JOBS, job_indexes, retention_index
from schemas.codes import JobStatus, JobType

DATABASE = "lps_envelope"
FILL_BATCH = 1000


def stored_job(number: int, now: datetime) -> dict[str, Any]:
    """Nine in ten DONE (ended over the last days), the rest PENDING; SEARCH and OUTBOX jobs."""
    created = now - timedelta(seconds=number)
    job_type = JobType.SEARCH.name if number % 3 else JobType.OUTBOX.name
    job: dict[str, Any] = {
        "_id": ObjectId(),
        "job_type": job_type,
        "product_code": f"ENV-{number}",
        "attempts": 1,
        "created_at": created,
        "updated_at": created,
        "run_after": created,
        "request": {"product_code": f"ENV-{number}", "keyword": f"keyword {number}", "sources": ["naver"]},
    }
    if job_type == JobType.OUTBOX.name:
        job["source_job_id"] = ObjectId()  # one delivery per search (`one_outbox_per_search`)
    if number % 10:
        return job | {"status": JobStatus.DONE.name, "finished_at": created + timedelta(seconds=5)}
    return job | {"status": JobStatus.PENDING.name, "active": True}


async def fill_file(data_file: Path, count: int, now: datetime) -> None:
    """The SQLite file filled in this process (mongoeco's batch insert, the quick way to a size)."""
    from mongoeco import AsyncMongoClient

    async with AsyncMongoClient(create_engine(str(data_file))) as client:
        jobs = client[DATABASE][JOBS]
        await jobs.create_indexes([*job_indexes(), retention_index(30)])
        for first in range(0, count, FILL_BATCH):
            await jobs.insert_many([stored_job(n, now) for n in range(first, min(first + FILL_BATCH, count))])


@dataclass(frozen=True, slots=True)
class Measured:
    mode: str
    stored: int
    claim_ms: float
    page_ms: float
    stats_ms: float

    @property
    def within(self) -> bool:
        return self.claim_ms <= CLAIM_MS and self.page_ms <= PAGE_MS and self.stats_ms <= STATS_MS


def timed_rounds(url: str, rounds: int, fill: int, now: datetime) -> tuple[float, float, float]:
    """Medians (ms) of a claim, a page and the stats' counts over `rounds` rounds; `fill` jobs inserted first over the
    wire (memory mode)."""
    claims, pages, stats = [], [], []
    with MongoClient[dict[str, Any]](url) as client:
        jobs = client[DATABASE][JOBS]
        if fill:
            jobs.create_indexes([*job_indexes(), retention_index(30)])
            for first in range(0, fill, FILL_BATCH):
                jobs.insert_many([stored_job(n, now) for n in range(first, min(first + FILL_BATCH, fill))])
        pending = [job["_id"] for job in jobs.find({"active": True, "status": "PENDING"}, {"_id": 1}).limit(rounds)]
        for job_id in pending:
            started = time.perf_counter()
            jobs.update_one(
                {"_id": job_id, "status": JobStatus.PENDING.name},
                {"$set": {"status": JobStatus.RUNNING.name, "updated_at": datetime.now(UTC)}, "$inc": {"attempts": 1}},
            )
            claimed = time.perf_counter()
            jobs.find({"status": JobStatus.DONE.name}).sort([("created_at", -1), ("_id", -1)]).limit(51).to_list()
            paged = time.perf_counter()
            for status in (JobStatus.PENDING.name, JobStatus.RUNNING.name):
                for job_type in (JobType.SEARCH.name, JobType.OUTBOX.name):
                    query = {"active": True, "status": status, "job_type": job_type}
                    client[DATABASE].command({"count": JOBS, "query": query})
            counted = time.perf_counter()
            claims.append(claimed - started)
            pages.append(paged - claimed)
            stats.append(counted - paged)
    return tuple(statistics.median(times) * 1e3 for times in (claims, pages, stats))  # type: ignore[return-value]


def measure_memory(stored: int, rounds: int) -> Measured:
    now = datetime.now(UTC)
    with embedded_mongo(start_timeout=120) as url:
        claim, page, stats = timed_rounds(url, rounds, stored, now)
    return Measured("memory", stored, claim, page, stats)


def measure_file(stored: int, rounds: int, directory: Path) -> Measured:
    now = datetime.now(UTC)
    data_file = directory / f"envelope-{stored}.sqlite"
    asyncio.run(fill_file(data_file, stored, now))
    # mongoeco's start-up on a file reads every stored document: not timed.
    with embedded_mongo(data_file=str(data_file), start_timeout=600) as url:
        claim, page, stats = timed_rounds(url, rounds, 0, now)
    return Measured("--data", stored, claim, page, stats)


def report(result: Measured) -> None:
    verdict = "within" if result.within else "PAST"
    print(
        f"{result.mode:>7} {result.stored:>8,} jobs: claim {result.claim_ms:7.1f} ms, page {result.page_ms:7.1f} ms, "
        f"stats {result.stats_ms:7.1f} ms  ({verdict} the targets {CLAIM_MS:.0f} / {PAGE_MS:.0f} / {STATS_MS:.0f} ms)",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.store_envelope", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--memory", default="10000,50000,150000", help="stored jobs in memory (comma-separated; '' none)"
    )
    parser.add_argument("--data-file", default="1000,2000,5000", help="stored jobs in a SQLite file ('' none)")
    parser.add_argument("--rounds", type=int, default=20, help="timed rounds (claim, page, stats) per size")
    args = parser.parse_args(argv)
    results: list[Measured] = []
    for size in [int(size) for size in args.memory.split(",") if size]:
        results.append(measure_memory(size, args.rounds))
        report(results[-1])
    with tempfile.TemporaryDirectory(prefix="lps-envelope-") as directory:
        for size in [int(size) for size in args.data_file.split(",") if size]:
            results.append(measure_file(size, args.rounds, Path(directory)))
            report(results[-1])
    for mode in ("memory", "--data"):
        measured = [result for result in results if result.mode == mode]
        if measured:
            within = [result.stored for result in measured if result.within]
            largest = f"{max(within):,} jobs" if within else "none of the sizes measured"
            print(f"{mode}: within every target up to {largest} (of {', '.join(f'{r.stored:,}' for r in measured)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
