"""Dashboard pages: how long each page of /ui takes to answer at a stored size (50,000 jobs in quick and full mode).

The database is filled with the growth figure's mix (`bench.growth.stored_jobs`: 4 DONE searches with 20 offers
from two sources and their 4 DONE deliveries, 1 PENDING and 1 DEAD search per 10 jobs, the ended ones spread over
the last `ENDED_OVER`), one search in `WATCHED_EVERY` of them renamed to one watched product (the product page's),
and the price_history entries of every DONE search, as the search pool records them. The indexes exist throughout,
as in production. Then one gateway (the real app) serves the pages; before measuring, the overview is asked until
its per-minute timeline has walked the window (a gateway that just started catches up in steps).

One client asks each page `requests` times in a row per run: `/ui`, `/ui/jobs`, `/ui/jobs/{id}` (random stored
jobs), `/ui/dead` and `/ui/products/{code}`. The raw baseline makes each page's own store reads from the runner,
without HTTP or templates: the job counts and one step of the timeline's walk (overview), `JobRepository.newest`
(the lists), `JobRepository.get` (a job), `newest` by product and `PriceHistory.latest` (the product).
The target: every page ≤ 200 ms (p50) at the stored size.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import aiohttp
from bson import ObjectId

from bench.figures import latency_figure, latency_summary
from bench.growth import MIX, stored_jobs
from bench.modes import PagesSizes
from bench.reads import RequestFailed, concurrent_latencies
from bench.stack import Bench, BenchDatabase, figure_resources, gateway
from infra.clock import utcnow
from infra.job_counts import JobCounts
from infra.jobs import JobRepository
from infra.mongo import MONGO_UNAVAILABLE, PRICE_HISTORY, MainDatabase, create_client
from infra.price_history import PriceHistory, price_history_documents
from infra.timeline import EndedTimeline
from schemas.codes import JobType
from service.ui.products import PRICE_ENTRIES

log = logging.getLogger("bench.pages")

FIGURE_NAMES = ("pages_overview", "pages_jobs", "pages_job", "pages_dead", "pages_product")
WATCHED = "BENCH-WATCHED"
#: One DONE search in this many stored jobs is the watched product's (100 searches at 50,000).
WATCHED_EVERY = 500
#: The seeded jobs ended evenly over this much of the past (the timeline's window is the last two hours of it).
ENDED_OVER = timedelta(hours=6)
TARGET_MS = 200.0
#: The overview's timeline is asked at most this many times before measuring, to walk the window it keeps.
CATCH_UP_CALLS = 40
LIST_LIMIT = 50


async def seed(database: BenchDatabase, count: int, batch: int) -> tuple[list[ObjectId], int]:
    """`count` jobs of the growth mix and the price_history of their DONE searches: the jobs' ids, and how many
    searches the watched product has."""
    now = utcnow()
    ids: list[ObjectId] = []
    jobs, watched = [], 0
    for index, job in enumerate(stored_jobs(0, count, since=now - ENDED_OVER, until=now)):
        if index % WATCHED_EVERY == 0 and job["job_type"] == JobType.SEARCH.name and job["status"] == "DONE":
            job["product_code"] = WATCHED  # its delivery, built next from this dict, gets the same product
            watched += 1
        jobs.append(job)
    for start in range(0, count, batch):
        chunk = jobs[start : start + batch]
        await database.jobs.insert_many(chunk, ordered=False)
        prices = [entry for job in chunk if "result" in job for entry in price_history_documents(job)]
        if prices:
            await database.main.write[PRICE_HISTORY].insert_many(prices, ordered=False)
        ids += [job["_id"] for job in chunk]
    return ids, watched


class Pages:
    """Each page over HTTP, and the same page's store reads from the runner."""

    def __init__(self, url: str, http: aiohttp.ClientSession, main: MainDatabase, settings: Any, ids: list[ObjectId]):
        self.url, self.http, self.ids = url, http, ids
        self.jobs = JobRepository(main)
        self.prices = PriceHistory(main.read)
        self.counts = JobCounts(
            self.jobs, main.write, settle=settings.stats_settle, catch_up_limit=settings.stats_catch_up_limit
        )
        self.timeline = EndedTimeline(self.jobs, settle=settings.stats_settle, limit=settings.stats_catch_up_limit)

    async def get(self, path: str) -> str:
        async with self.http.get(f"{self.url}{path}") as response:
            body = await response.text()
            if response.status == 503:
                raise RequestFailed(f"GET {path} answered 503")
            if response.status != 200:
                raise RuntimeError(f"GET {path} answered {response.status}: {body[:300]}")
            return body

    def paths(self) -> dict[str, Callable[[], str]]:
        return {
            "pages_overview": lambda: "/ui",
            "pages_jobs": lambda: "/ui/jobs",
            "pages_job": lambda: f"/ui/jobs/{random.choice(self.ids)}",
            "pages_dead": lambda: "/ui/dead",
            "pages_product": lambda: f"/ui/products/{WATCHED}",
        }

    def over_http(self, name: str) -> Callable[[], Awaitable[None]]:
        path = self.paths()[name]

        async def call() -> None:
            await self.get(path())

        return call

    def raw(self, name: str) -> Callable[[], Awaitable[None]]:
        reads: dict[str, Callable[[], Awaitable[Any]]] = {
            "pages_overview": self._overview_reads,
            "pages_jobs": lambda: self.jobs.newest({}, LIST_LIMIT + 1),
            "pages_job": lambda: self.jobs.get(random.choice(self.ids)),
            "pages_dead": lambda: self.jobs.newest({"status": "DEAD"}, LIST_LIMIT + 1),
            "pages_product": self._product_reads,
        }

        async def call() -> None:
            try:
                await reads[name]()
            except MONGO_UNAVAILABLE as error:
                raise RequestFailed(str(error)) from None

        return call

    async def _overview_reads(self) -> None:
        await self.counts.current()
        await self.timeline.last(60)

    async def _product_reads(self) -> None:
        await self.jobs.newest({"product_code": WATCHED, "job_type": JobType.SEARCH.name}, LIST_LIMIT + 1)
        await self.prices.latest(WATCHED, PRICE_ENTRIES)

    async def catch_up(self) -> dict[str, Any]:
        """Ask the timeline (the gateway's and the runner's) until each has walked its window: calls and seconds."""
        started, calls, caught_up = time.perf_counter(), 0, False
        while not caught_up and calls < CATCH_UP_CALLS:
            answer = await self.http_json("/v1/lps/queue/timeline")
            raw = await self.timeline.last(60)
            calls, caught_up = calls + 1, not answer["catching_up"] and not raw.catching_up
        return {"calls": calls, "seconds": round(time.perf_counter() - started, 1), "caught_up": caught_up}

    async def http_json(self, path: str) -> dict[str, Any]:
        async with self.http.get(f"{self.url}{path}") as response:
            return await response.json()


async def measure(bench: Bench, sizes: PagesSizes) -> list[dict[str, Any]]:
    settings = bench.settings_for("pages")
    stored = sizes.jobs_for(bench.store.kind)
    if stored % MIX:
        raise ValueError(f"the stored size must be a multiple of {MIX}: {stored}")
    async with figure_resources(settings):
        database = BenchDatabase(settings)
        client = create_client(settings)  # configured like the gateway's
        try:
            await database.reset()
            started = time.perf_counter()
            ids, watched_searches = await seed(database, stored, sizes.seed_batch)
            seeding = {"jobs": stored, "seconds": round(time.perf_counter() - started, 1)}
            log.info("pages: %d jobs stored in %.0f s", stored, seeding["seconds"])
            main = MainDatabase.open(client, settings.mongo_db)
            async with gateway(settings, bench) as service, aiohttp.ClientSession() as http:
                pages = Pages(service.url, http, main, settings, ids)
                catch_up = await pages.catch_up()
                for name in FIGURE_NAMES:  # warm-up: every page renders once, both sides, before anything is timed
                    await pages.over_http(name)()
                    await pages.raw(name)()
                measured = {
                    name: await _alternate(sizes, pages.over_http(name), pages.raw(name)) for name in FIGURE_NAMES
                }
                watched = await pages.get(f"/ui/products/{WATCHED}")
                details = {
                    "pages_overview": {"seeding": seeding, "timeline_catch_up": catch_up},
                    "pages_product": {
                        "watched_product_searches": watched_searches,
                        "chart_points": watched.count('class="point"'),
                    },
                }
        finally:
            await client.close()
            await database.close()
    return [_figure(bench, sizes, stored, name, *measured[name], details.get(name, {})) for name in FIGURE_NAMES]


async def _alternate(
    sizes: PagesSizes, lps: Callable[[], Awaitable[None]], raw: Callable[[], Awaitable[None]]
) -> tuple[list[dict[str, float]], list[dict[str, float]]]:
    """`runs` runs of each side, alternating which goes first; one client, `requests` requests a run."""
    sides: tuple[list[dict[str, float]], list[dict[str, float]]] = ([], [])
    for run in range(sizes.runs):
        order = [(lps, sides[0]), (raw, sides[1])]
        for call, results in order if run % 2 == 0 else order[::-1]:
            results.append(latency_summary(await concurrent_latencies(1, sizes.requests, call)))
    return sides


_TITLES = {
    "pages_overview": ("GET /ui (overview with the last hour's charts)", "the job counts + one step of the timeline"),
    "pages_jobs": ("GET /ui/jobs (newest 50)", f"JobRepository.newest, no filter, limit {LIST_LIMIT + 1}"),
    "pages_job": ("GET /ui/jobs/{id}", "JobRepository.get by _id"),
    "pages_dead": ("GET /ui/dead (newest 50 DEAD)", f"JobRepository.newest status DEAD, limit {LIST_LIMIT + 1}"),
    "pages_product": (
        "GET /ui/products/{code} (searches + price chart)",
        f"JobRepository.newest by product_code + PriceHistory.latest ({PRICE_ENTRIES})",
    ),
}


def _figure(
    bench: Bench,
    sizes: PagesSizes,
    stored: int,
    name: str,
    lps_runs: list[dict[str, float]],
    raw_runs: list[dict[str, float]],
    details: dict[str, Any],
) -> dict[str, Any]:
    title, raw = _TITLES[name]
    figure = latency_figure(
        f"Dashboard: {title}",
        lps_runs,
        raw_runs,
        store=bench.store.label,
        settings={"stored_jobs": stored, "clients": 1, "requests_per_run": sizes.requests, "runs": sizes.runs},
        details={"raw": raw} | details,
    )
    figure["target"] = {"max": TARGET_MS, "text": f"≤ {TARGET_MS:.0f} ms (p50) at {stored:,} stored jobs"}
    figure["meets_target"] = figure["p50_ms"] <= TARGET_MS
    return figure
