"""Search throughput and memory of one search worker process against the demo shop.

Starts the embedded MongoDB server, the demo shop and one `lps worker search` process (real Dramatiq,
real Chromium), submits searches through the gateway's enqueue path, and measures searches per second
and the worker's resident memory (its whole process tree, Chromium included) after N searches.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import web

from infra.broker import Publisher, create_broker
from infra.demo_shop import create_demo_shop_app
from infra.embedded_mongo import embedded_mongo, free_port
from infra.enqueue import JobEnqueuer
from infra.jobs import JobRepository
from infra.mongo import MainDatabase, create_client, ensure_indexes
from infra.settings import Settings
from schemas.codes import JobType

KEYWORDS = ["아이폰 15 128GB", "코카콜라 제로 355ml 24캔", "갤럭시 S24 울트라 256GB", "다이슨 에어랩", "햇반 210g 24개"]


def tree_rss_bytes(root: int) -> int:
    """Resident memory of a process and all its descendants (Linux /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
    family, frontier = {root}, {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - family
        family |= frontier
    total = 0
    for pid in family:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
    return total


@dataclass
class SearchFigures:
    searches: int
    seconds: float
    rss_after: dict[int, int]

    @property
    def per_second(self) -> float:
        return self.searches / self.seconds


@contextlib.asynccontextmanager
async def demo_shop() -> AsyncIterator[str]:
    runner = web.AppRunner(create_demo_shop_app(), access_log=None)
    await runner.setup()
    port = free_port()
    site = web.TCPSite(runner, "127.0.0.1", port)
    await site.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()


@contextlib.contextmanager
def search_worker(settings: Settings, threads: int, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    env = os.environ | settings.to_env()
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "infra.cli", "worker", "search", "--threads", str(threads)],
            env=env,
            stdout=out,
            stderr=out,
        )
    try:
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()


async def wait_until_finished(jobs: Any, count: int, within: float = 1800) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if await jobs.count_documents({"status": {"$in": ["DONE", "DEAD"]}}) >= count:
            return
        await asyncio.sleep(0.2)
    raise TimeoutError(f"{count} searches did not finish within {within}s")


async def run_searches(settings: Settings, count: int, checkpoints: list[int], worker_pid: int) -> SearchFigures:
    client = create_client(settings)
    database = MainDatabase.open(client, settings.mongo_db)
    await ensure_indexes(database, settings)
    publisher = Publisher(create_broker(settings, middleware=[]))
    await publisher.start([settings.queue_name(JobType.SEARCH)])
    enqueuer = JobEnqueuer(settings, JobRepository(database), publisher)
    jobs = database.jobs()
    rss: dict[int, int] = {}
    started = time.perf_counter()
    try:
        submitted = 0
        for checkpoint in checkpoints:
            batch = [
                {"product_code": f"B{index}", "keyword": KEYWORDS[index % len(KEYWORDS)], "sources": ["coupang"]}
                for index in range(submitted, checkpoint)
            ]
            await enqueuer.submit_search(batch, None)
            submitted = checkpoint
            await wait_until_finished(jobs, checkpoint)
            rss[checkpoint] = tree_rss_bytes(worker_pid)
        seconds = time.perf_counter() - started
        dead = await jobs.count_documents({"status": "DEAD"})
        if dead:
            raise RuntimeError(f"{dead} searches failed: see the worker log")
    finally:
        await publisher.close()
        await client.close()
    return SearchFigures(count, seconds, rss)


async def measure(count: int = 300, threads: int = 2) -> dict[str, Any]:
    checkpoints = sorted({min(30, count), count})
    with embedded_mongo() as mongo_url:
        async with demo_shop() as shop_url:
            settings = Settings.from_env().with_overrides(
                mongo_url=mongo_url,
                mongo_db=f"bench_{uuid.uuid4().hex[:8]}",
                queue_prefix=f"bench_{uuid.uuid4().hex[:8]}_",
                coupang_base_url=shop_url,
                coupang_max_pages=1,
            )
            log = Path("/tmp") / f"lps-bench-search-{os.getpid()}.log"
            with search_worker(settings, threads, log) as worker:
                figures = await run_searches(settings, count, checkpoints, worker.pid)
    low, high = checkpoints[0], checkpoints[-1]
    return {
        "searches": figures.searches,
        "threads": threads,
        "searches_per_second": round(figures.per_second, 2),
        f"rss_mib_after_{low}": round(figures.rss_after[low] / 2**20, 1),
        f"rss_mib_after_{high}": round(figures.rss_after[high] / 2**20, 1),
        "rss_growth": round(figures.rss_after[high] / figures.rss_after[low] - 1, 3),
    }


if __name__ == "__main__":
    print(json.dumps(asyncio.run(measure(int(sys.argv[1]) if len(sys.argv) > 1 else 300)), ensure_ascii=False))
