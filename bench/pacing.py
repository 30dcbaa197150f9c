"""Figure 6, pacing: what fleet-wide pacing and the circuit breaker save against a shop that starts refusing.

Both sides: N Coupang searches (one result page each, five catalogue keywords in turn) submitted at once
through `JobEnqueuer` to two search pools (`lps worker search`, the Dramatiq CLI, two threads and one system
Chromium each), against `lps demo-shop --block-above 2 --block-for 30` on loopback: a client over 2 searches
within one second gets 403 Access Denied for 30 s. All searches come from 127.0.0.1, so the shop sees the
whole fleet as one client, as a real shop sees one egress address.

LPS side: `LPS_SOURCE_RATES=coupang=<pace>` (2/s: the shop's own limit), with the adaptive pace and the circuit
breaker on (their defaults). Baseline: the same run with neither (no
pacing, `LPS_BREAKER_THRESHOLD=0`). Each side gets a fresh shop (no block carried over), a fresh database and
fresh pools. Time runs from the submit to the last job's `finished_at`.
"""

from __future__ import annotations

import contextlib
import time
from collections import Counter
from datetime import UTC, datetime
from typing import Any

from bench.modes import PacingSizes
from bench.search import round_keywords
from bench.stack import Bench, figure_clients, figure_resources, lps_pool, pools, serve
from infra.enqueue import JobEnqueuer
from infra.jobs import JobRepository
from infra.settings import Settings
from infra.source_rates import parse_source_rates
from schemas.codes import JobStatus, JobType
from tools.demo_shop import SHOP_LOG, create_demo_shop_app
from tools.testbed import eventually

SUBMIT_BATCH = 100


def side_settings(bench: Bench, sizes: PacingSizes, shop_url: str, *, paced: bool) -> Settings:
    """One side's settings: pacing at `sizes.pace` (adapting) and the breaker on, or neither."""
    timings = {
        name: value
        for name, value in (
            ("retry_min_backoff", sizes.retry_min_backoff),
            ("retry_max_backoff", sizes.retry_max_backoff),
            ("breaker_cooldown", sizes.breaker_cooldown),
        )
        if value is not None
    }
    return bench.settings_for(
        "pacing_paced" if paced else "pacing_unpaced",
        coupang_base_url=shop_url,
        coupang_max_pages=1,
        search_sources=("coupang",),
        search_metrics_port=0,  # two pools on one machine
        source_rates=parse_source_rates(f"coupang={sizes.pace}") if paced else {},
        breaker_threshold=bench.base.breaker_threshold if paced else 0.0,
        **timings,
    )


async def run_side(bench: Bench, sizes: PacingSizes, *, paced: bool) -> dict[str, Any]:
    """Submit every search at once, wait until each is DONE or DEAD, and say what it cost."""
    shop_app = create_demo_shop_app(block_above=sizes.rate, block_for=sizes.block_for)
    async with contextlib.AsyncExitStack() as stack:
        shop_url = await stack.enter_async_context(serve(shop_app))
        settings = side_settings(bench, sizes, shop_url, paced=paced)
        await stack.enter_async_context(figure_resources(settings))
        clients = await stack.enter_async_context(figure_clients(settings, [settings.job(JobType.SEARCH).queue]))
        database, publisher = clients.database, clients.publisher
        search_pools = [lps_pool(settings, "search", bench, threads=sizes.threads) for _ in range(sizes.pools)]
        await stack.enter_async_context(pools(settings, search_pools))
        enqueuer = JobEnqueuer(settings, JobRepository(database.main), publisher)
        products = [
            {"product_code": f"P{number}", "keyword": keyword, "sources": ["coupang"]}
            for number, keyword in enumerate(round_keywords(0, sizes.searches))
        ]
        started_at, started = datetime.now(UTC), time.perf_counter()
        for first in range(0, len(products), SUBMIT_BATCH):
            await enqueuer.submit_search(products[first : first + SUBMIT_BATCH], None)

        async def finished() -> bool:
            ended = {"status": {"$in": [JobStatus.DONE.name, JobStatus.DEAD.name]}}
            return await database.jobs.count_documents(ended) >= sizes.searches

        await eventually(finished, within=sizes.timeout, what=f"{sizes.searches} searches to end", interval=1.0)
        jobs = await database.jobs.find({}, {"status": 1, "attempts": 1, "finished_at": 1, "result": 1}).to_list()
        seconds = (max(job["finished_at"] for job in jobs) - started_at).total_seconds()
        statuses = Counter(job["status"] for job in jobs)
        complete = sum(
            1 for job in jobs if job["status"] == JobStatus.DONE.name and (job.get("result") or {}).get("complete")
        )
        arrivals = shop_app[SHOP_LOG].of("coupang")
        return {
            "searches": len(jobs),
            "done_complete": complete,
            "done_complete_share": round(complete / len(jobs), 4),
            "dead": statuses.get("DEAD", 0),
            "attempts": sum(job["attempts"] for job in jobs),
            "attempts_per_job": round(sum(job["attempts"] for job in jobs) / len(jobs), 3),
            "seconds": round(seconds, 1),
            "runner_seconds": round(time.perf_counter() - started, 1),
            "shop_requests": len(arrivals),
            "shop_refused_403": sum(1 for request in arrivals if request.status == 403),
            "settings": {
                "source_rates": {name: str(rate) for name, rate in settings.source_rates.items()},
                "breaker_threshold": settings.breaker_threshold,
                "breaker_window": settings.breaker_window,
                "breaker_cooldown": settings.breaker_cooldown,
                "retry_min_backoff": settings.retry_min_backoff,
                "retry_max_backoff": settings.retry_max_backoff,
                "blocked_backoff_factor": settings.blocked_backoff_factor,
                "search_max_attempts": settings.search_max_attempts,
                "source_wait": settings.source_wait,
                "pace_recovery": settings.pace_recovery,
            },
        }
    raise AssertionError("unreachable: the exit stack re-raises")


def pacing_figure(bench: Bench, sizes: PacingSizes, paced: dict[str, Any], unpaced: dict[str, Any]) -> dict[str, Any]:
    value, baseline = paced["attempts_per_job"], unpaced["attempts_per_job"]
    meets = value <= sizes.max_attempts_per_job and paced["done_complete_share"] >= sizes.min_done_complete
    return {
        "title": (
            f"Pacing: attempts per SEARCH job, {sizes.searches} searches, {sizes.pools} pools × {sizes.threads} "
            f"threads, shop blocking above {sizes.rate}/s for {sizes.block_for:g} s, paced at {sizes.pace} "
            "(baseline: no pacing, no breaker)"
        ),
        "store": bench.store.label,
        "unit": "attempts/job",
        "value": value,
        "baseline": baseline,
        "ratio": round(baseline / value, 3) if value else 0.0,
        "ratio_is": "attempts per job without pacing and breaker ÷ with them (larger: more saved)",
        "target": {
            "max": sizes.max_attempts_per_job,
            "text": (f"≤ {sizes.max_attempts_per_job} attempts/job and ≥ {sizes.min_done_complete:.0%} DONE complete"),
        },
        "meets_target": meets,
        "runs": {"lps": [paced], "raw": [unpaced]},
        "settings": {
            "searches": sizes.searches,
            "pools": sizes.pools,
            "threads_per_pool": sizes.threads,
            "shop": f"--block-above {sizes.rate} --block-for {sizes.block_for:g}",
            "coupang_max_pages": 1,
            "lps": f"LPS_SOURCE_RATES=coupang={sizes.pace}, adaptive pace and breaker on",
            "raw": "no LPS_SOURCE_RATES, LPS_BREAKER_THRESHOLD=0",
        },
        "details": {
            "done_complete_share": {"lps": paced["done_complete_share"], "raw": unpaced["done_complete_share"]},
            "dead": {"lps": paced["dead"], "raw": unpaced["dead"]},
            "seconds": {"lps": paced["seconds"], "raw": unpaced["seconds"]},
            "shop_refused_403": {"lps": paced["shop_refused_403"], "raw": unpaced["shop_refused_403"]},
        },
    }


async def measure(bench: Bench, sizes: PacingSizes) -> list[dict[str, Any]]:
    paced = await run_side(bench, sizes, paced=True)
    unpaced = await run_side(bench, sizes, paced=False)
    return [pacing_figure(bench, sizes, paced, unpaced)]
