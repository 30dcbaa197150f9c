"""How an insert into the persistent embedded store (`lps mongo --data FILE`) costs as its collection grows.

    python -m bench.store_flatness                       # 1,000, 10,000 and 30,000 stored jobs
    python -m bench.store_flatness --sizes 0,2000 --inserts 100

One SQLite file grows through the sizes. At each size the store is filled in this process (mongoeco's batch
insert, the quick way to a size), then `lps mongo --data FILE` serves it as a process of its own and pymongo
times `--inserts` one-document inserts of new SEARCH jobs over TCP, each followed by the claim LPS makes of a job
(an update by `_id`), with LPS's job indexes in place (`infra.mongo`). Every write to the file (an update too)
counts, as in the dev stack: mongoeco drops what it knows about a collection on any write, so a cost that an
update brings back shows on the next insert. Prints one line per size and the ratio of the largest to the
smallest: flat is a ratio near 1.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bson import ObjectId
from pymongo import MongoClient

from embedded_store.server import create_engine, embedded_mongo
from infra.mongo import JOBS, job_indexes, retention_index
from schemas.codes import JobStatus, JobType

DATABASE = "lps_flatness"
#: Documents per in-process batch while filling the store to a size.
FILL_BATCH = 1000


def new_search(number: int) -> dict[str, Any]:
    """A PENDING SEARCH job as the gateway inserts it (the fields the indexes read, and a request)."""
    now = datetime.now(UTC)
    return {
        "_id": ObjectId(),
        "job_type": JobType.SEARCH.name,
        "product_code": f"FLAT-{number}",
        "status": JobStatus.PENDING.name,
        "active": True,
        "attempts": 0,
        "created_at": now,
        "run_after": now,
        "request": {"product_code": f"FLAT-{number}", "keyword": f"keyword {number}", "sources": ["naver"]},
    }


async def fill(data_file: Path, start: int, stop: int) -> None:
    """Add jobs `start`..`stop` to the file, with the engine `lps mongo --data` serves, in this process."""
    from mongoeco import AsyncMongoClient

    async with AsyncMongoClient(create_engine(str(data_file))) as client:
        jobs = client[DATABASE][JOBS]
        for first in range(start, stop, FILL_BATCH):
            await jobs.insert_many([new_search(n) for n in range(first, min(first + FILL_BATCH, stop))])


@dataclass(frozen=True, slots=True)
class Measured:
    stored: int
    #: Milliseconds per insert (median of the inserts timed), and per claim after it.
    insert_ms: float
    claim_ms: float


def measure(data_file: Path, stored: int, inserts: int) -> Measured:
    """Serve the file with `lps mongo --data`; time `inserts` inserts, each with a claim after it."""
    insert_times, claim_times = [], []
    # mongoeco's start-up on a file reads every stored document (its scalar index entries are rebuilt): not timed.
    with (
        embedded_mongo(data_file=str(data_file), start_timeout=600) as url,
        MongoClient[dict[str, Any]](url) as client,
    ):
        jobs = client[DATABASE][JOBS]
        jobs.create_indexes([*job_indexes(), retention_index(30)])  # idempotent: already there after the first size
        for number in range(inserts):
            job = new_search(stored + number + 10_000_000)
            started = time.perf_counter()
            jobs.insert_one(job)
            inserted = time.perf_counter()
            jobs.update_one(
                {"_id": job["_id"], "status": JobStatus.PENDING.name}, {"$set": {"status": JobStatus.RUNNING.name}}
            )
            claimed = time.perf_counter()
            insert_times.append(inserted - started)
            claim_times.append(claimed - inserted)
    return Measured(stored, statistics.median(insert_times) * 1e3, statistics.median(claim_times) * 1e3)


def run(sizes: list[int], inserts: int, directory: Path) -> list[Measured]:
    data_file = directory / "flatness.sqlite"
    results: list[Measured] = []
    stored = 0
    for size in sorted(sizes):
        if size > stored:
            asyncio.run(fill(data_file, stored, size))
        stored = max(stored, size)
        result = measure(data_file, stored, inserts)
        print(
            f"{result.stored:>7,} stored: {result.insert_ms:6.2f} ms per insert, {result.claim_ms:6.2f} ms per claim",
            flush=True,
        )
        results.append(result)
        stored += inserts
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.store_flatness", description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000,10000,30000", help="stored jobs to measure at (comma-separated)")
    parser.add_argument("--inserts", type=int, default=200, help="inserts timed at each size")
    parser.add_argument("--dir", type=Path, help="where the SQLite file goes (default: a temporary directory)")
    args = parser.parse_args(argv)
    sizes = [int(size) for size in args.sizes.split(",")]
    if args.dir is not None:
        results = run(sizes, args.inserts, args.dir)
    else:
        with tempfile.TemporaryDirectory(prefix="lps-flatness-") as directory:
            results = run(sizes, args.inserts, Path(directory))
    if len(results) > 1:
        ratio = results[-1].insert_ms / results[0].insert_ms
        print(f"insert cost at {results[-1].stored:,} / at {results[0].stored:,}: {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
