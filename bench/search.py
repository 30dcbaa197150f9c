"""Figure 3, search: searches per second of one search worker process against the demo shop, versus raw Playwright.

LPS side: one search pool as `lps worker search` starts it (real Dramatiq, its threads, one system
Chromium through the worker's `BrowserPool`), Coupang searches of five catalogue keywords against the
demo shop on loopback (one result page each), submitted through `JobEnqueuer`. A round's time runs from
the submit to the last job's `finished_at`. The first round launches Chromium and only counts for memory.

Raw side (`bench.raw_browser`): a process running the same navigation and parse on the same Chromium
binary with the same concurrency. Rounds of both sides alternate, so the machine's noise hits both.

Memory: the worker's whole process tree (Python and every Chromium process; shared pages count once per
process, so it overstates the real footprint) after the first round and after the last.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from statistics import fmean
from typing import Any

from bench.figures import mib, rate_figure, ratio
from bench.modes import SearchSizes
from bench.raw_browser import KEYWORDS
from bench.stack import (
    REPO,
    Bench,
    BenchDatabase,
    Service,
    demo_shop,
    figure_clients,
    figure_resources,
    probe_deltas,
    settled_probes,
    tree_rss_bytes,
    worker_pool,
)
from infra.enqueue import JobEnqueuer
from infra.jobs import JobRepository
from infra.settings import Settings
from schemas.codes import JobType
from tools.testbed import eventually

#: Seconds one search may take before a round counts as stuck (a search takes ~1.3 s here).
SECONDS_PER_SEARCH = 20.0


@dataclass
class RawBrowser:
    """The `bench.raw_browser` process, driven over its stdin and stdout."""

    process: asyncio.subprocess.Process
    chromium: str = ""

    async def run(self, keywords: list[str]) -> dict[str, Any]:
        """Search these keywords; the answer has `searches`, `seconds` and `offers`."""
        stdin, stdout = self.process.stdin, self.process.stdout
        if stdin is None or stdout is None:
            raise RuntimeError("bench.raw_browser has no pipes")
        stdin.write(json.dumps(keywords, ensure_ascii=False).encode() + b"\n")
        await stdin.drain()
        line = await asyncio.wait_for(stdout.readline(), 30 + len(keywords) * SECONDS_PER_SEARCH)
        if not line:
            raise RuntimeError(f"bench.raw_browser exited with {await self.process.wait()}")
        return json.loads(line)


@contextlib.asynccontextmanager
async def raw_browser(settings: Settings, base_url: str, concurrency: int, bench: Bench) -> AsyncIterator[RawBrowser]:
    log = (bench.directory("logs") / "raw-browser.log").open("ab")
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bench.raw_browser",
        "--base-url",
        base_url,
        "--concurrency",
        str(concurrency),
        "--browser-path",
        settings.browser_path,
        "--navigation-timeout",
        str(settings.browser_navigation_timeout),
        cwd=REPO,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=log,
        start_new_session=True,
    )
    try:
        stdout = process.stdout
        if stdout is None:
            raise RuntimeError("bench.raw_browser has no stdout")
        ready = json.loads(await asyncio.wait_for(stdout.readline(), 60) or b"{}")
        if not ready.get("ready"):
            raise RuntimeError("bench.raw_browser did not start: see its log")
        yield RawBrowser(process, ready["chromium"])
    finally:
        if process.stdin:
            process.stdin.close()  # end of orders: it closes Chromium and exits
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(process.wait(), 20)
        # Its own session: the group holds only it and its Chromium, in case either outlived the goodbye.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        await process.wait()
        log.close()


@dataclass
class SearchRun:
    settings: Settings
    database: BenchDatabase
    enqueuer: JobEnqueuer
    worker: Service
    submitted: int = 0
    rss_after: list[tuple[int, int]] = field(default_factory=list)
    offers: list[float] = field(default_factory=list)


def round_keywords(first: int, count: int) -> list[str]:
    """The keywords of searches `first`..`first + count - 1`: the catalogue in turn, the same for both sides."""
    return [KEYWORDS[index % len(KEYWORDS)] for index in range(first, first + count)]


async def lps_round(run: SearchRun, count: int) -> float:
    """Searches per second of one round, submit to the last `finished_at`."""
    keywords = round_keywords(run.submitted, count)
    products = [
        {"product_code": f"S{run.submitted + number}", "keyword": keyword, "sources": ["coupang"]}
        for number, keyword in enumerate(keywords)
    ]
    codes = [product["product_code"] for product in products]
    started_at = datetime.now(UTC)
    await run.enqueuer.submit_search(products, None)
    run.submitted += count
    collection = run.database.jobs

    async def finished() -> bool:
        query = {"product_code": {"$in": codes}, "status": {"$in": ["DONE", "DEAD"]}}
        return await collection.count_documents(query) >= count

    await eventually(finished, within=30 + count * SECONDS_PER_SEARCH, what=f"{count} searches", interval=0.25)
    jobs = await collection.find(
        {"product_code": {"$in": codes}}, {"status": 1, "finished_at": 1, "result": 1}
    ).to_list()
    failed = [job["_id"] for job in jobs if job["status"] != "DONE"]
    if failed:
        raise RuntimeError(f"{len(failed)} searches did not finish DONE: see the search pool's log")
    run.offers += [job["result"]["sources"]["coupang"]["count"] for job in jobs]
    run.rss_after.append((run.submitted, tree_rss_bytes(run.worker.process.pid)))
    return count / (max(job["finished_at"] for job in jobs) - started_at).total_seconds()


async def measure(bench: Bench, sizes: SearchSizes) -> list[dict[str, Any]]:
    async with contextlib.AsyncExitStack() as stack:
        shop_url = await stack.enter_async_context(demo_shop())
        settings = bench.settings_for(
            "search", coupang_base_url=shop_url, coupang_max_pages=1, search_sources=("coupang",)
        )
        await stack.enter_async_context(figure_resources(settings))
        clients = await stack.enter_async_context(figure_clients(settings, [settings.job(JobType.SEARCH).queue]))
        database, publisher = clients.database, clients.publisher
        worker = await stack.enter_async_context(worker_pool(settings, "search", bench, threads=sizes.threads))
        raw = await stack.enter_async_context(raw_browser(settings, shop_url, sizes.threads, bench))
        run = SearchRun(settings, database, JobEnqueuer(settings, JobRepository(database.main), publisher), worker)
        return await _rounds(bench, run, raw, sizes)
    raise AssertionError("unreachable: the exit stack re-raises")


async def _rounds(bench: Bench, run: SearchRun, raw: RawBrowser, sizes: SearchSizes) -> list[dict[str, Any]]:
    probe_dir = bench.probe_dir(run.settings)
    await lps_round(run, sizes.round_size)  # Chromium starts here: memory only
    await raw.run(round_keywords(0, sizes.raw_warmup))
    before = await settled_probes(probe_dir)
    lps_rates: list[float] = []
    raw_rates: list[float] = []
    raw_offers: list[float] = []
    for number in range(1, sizes.rounds):
        keywords = round_keywords(run.submitted, sizes.raw_round_size)  # what this round's LPS searches start with
        raw_first = number % 2 == 0
        if raw_first:
            answer = await raw.run(keywords)
        lps_rates.append(await lps_round(run, sizes.round_size))
        if not raw_first:
            answer = await raw.run(keywords)
        raw_rates.append(answer["searches"] / answer["seconds"])
        raw_offers.append(answer["offers"] / answer["searches"])
    raw_rss = tree_rss_bytes(raw.process.pid)
    deltas = probe_deltas(before, await settled_probes(probe_dir)).get("search", {})
    searched = run.submitted - sizes.round_size
    details = {
        "offers_per_search": {"lps": round(fmean(run.offers), 1), "raw": round(fmean(raw_offers), 1)},
        "mongo_commands_per_search": {n: round(c / searched, 2) for n, c in sorted(deltas.get("commands", {}).items())},
        "worker_loop_ticks_late": {f"over_{b}ms": n for b, n in sorted(deltas.get("lag_over", {}).items())},
        "worker_loop_ticks": deltas.get("ticks", 0),
        "worker_loop_stalls_over_50ms": deltas.get("stalls", {}),
        "raw_process_rss_mib": mib(raw_rss),
        "chromium": raw.chromium,
    }
    settings = {
        "threads": sizes.threads,
        "round_size": sizes.round_size,
        "rounds_measured": sizes.rounds - 1,
        "raw_round_size": sizes.raw_round_size,
        "coupang_max_pages": 1,
        "browser_max_searches": run.settings.browser_max_searches,
    }
    throughput = rate_figure(
        "Search: searches per second, one search worker process",
        "searches/s",
        lps_rates,
        raw_rates,
        store=bench.store.label,
        target={"min": 0.8},
        settings=settings | {"raw": "same Chromium, fresh context per search, same URL, goto + content + parse"},
        details=details,
    )
    return [throughput, _memory_figure(bench, run, settings)]


def _memory_figure(bench: Bench, run: SearchRun, settings: dict[str, Any]) -> dict[str, Any]:
    (low_at, low), (high_at, high) = run.rss_after[0], run.rss_after[-1]
    return {
        "title": f"Search worker memory: RSS after {high_at} searches vs after {low_at}",
        "store": bench.store.label,
        "unit": "MiB",
        "value": mib(high),
        "baseline": mib(low),
        "ratio": ratio(high, low),
        "ratio_is": f"RSS after {high_at} ÷ RSS after {low_at} (process tree, Chromium included)",
        "target": {"max": 1.15},
        "meets_target": high / low <= 1.15,
        "runs": {"rss_mib_after": {str(count): mib(size) for count, size in run.rss_after}},
        "settings": settings,
        "details": {"searches_low": low_at, "searches_high": high_at, "growth": round(high / low - 1, 3)},
    }
