"""SEARCH jobs: ask every source of the product concurrently, pick the lowest eligible offer."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

import dramatiq

from actors import metrics
from actors.errors import JobError, PermanentJobError, RetryableJobError
from actors.matching import match_offers
from actors.outbox import outbox_job_for
from actors.runtime import WorkerRuntime
from actors.sources import Source, SourceError
from actors.sources.coupang import CoupangSource
from actors.sources.naver import NaverSource
from actors.sources.static import StaticSource
from infra.clock import utcnow
from schemas.codes import JobErrorType
from schemas.envelope import drop_none
from schemas.offers import Offer, SearchOutcome, SourceName, SourceOutcome, SourceResult

log = logging.getLogger(__name__)


def build_sources(runtime: WorkerRuntime) -> dict[str, Source]:
    """The sources this deployment enables (LPS_SEARCH_SOURCES); built on the worker's loop at its first search."""
    settings = runtime.settings
    enabled = set(settings.search_sources)
    builders: dict[SourceName, Callable[[], Source]] = {
        SourceName.STATIC: lambda: StaticSource(
            blocked_backoff_factor=settings.blocked_backoff_factor, test_directives=settings.test_directives
        ),
        SourceName.COUPANG: lambda: CoupangSource(
            runtime.browser,
            runtime.snapshots,
            base_url=settings.coupang_base_url,
            max_pages=settings.coupang_max_pages,
            blocked_backoff_factor=settings.blocked_backoff_factor,
        ),
        SourceName.NAVER: lambda: NaverSource(
            runtime.http,
            base_url=settings.naver_base_url,
            client_id=settings.naver_client_id,
            client_secret=settings.naver_client_secret,
            display=settings.naver_display,
            sort=settings.naver_sort,
        ),
    }
    return {name: build() for name, build in builders.items() if name in enabled}


def eligible(offer: Offer) -> bool:
    """The matcher refused nothing about it (ads and sold-out offers are refused there too)."""
    return offer.rejected is None and not offer.is_ad and not offer.sold_out


def summarize(results: dict[str, SourceResult], searched_at: Any) -> dict[str, Any]:
    offers = [offer for result in results.values() for offer in result.offers]
    winners = sorted((offer for offer in offers if eligible(offer)), key=lambda offer: offer.price)
    if winners:
        outcome = SearchOutcome.FOUND
    elif offers:
        outcome = SearchOutcome.NO_MATCH
    else:
        outcome = SearchOutcome.NO_RESULTS
    return drop_none(
        {
            "outcome": str(outcome),
            "lowest": winners[0].as_document() if winners else None,
            "offers": [offer.as_document() for offer in sorted(offers, key=lambda offer: offer.price)],
            "searched_at": searched_at,
        }
    )


async def _timed(source: Source, product: dict[str, Any]) -> tuple[SourceResult | BaseException, int]:
    started = time.perf_counter()
    try:
        result: SourceResult | BaseException = await source.search(product)
    except Exception as error:
        result = error
    return result, int((time.perf_counter() - started) * 1000)


async def work_search(job: dict[str, Any], runtime: WorkerRuntime) -> dict[str, Any]:
    """One attempt. Fails only when every source failed; a source's failure is otherwise recorded."""
    product = job["product"]
    names = product.get("sources") or runtime.settings.search_sources
    sources = runtime.sources
    unknown = [name for name in names if name not in sources]
    if unknown:
        # The gateway refuses such products; a job stored before LPS_SEARCH_SOURCES changed ends here.
        raise PermanentJobError(
            f"sources not enabled in this deployment: {', '.join(unknown)}", error_type=JobErrorType.CONFIG
        )
    outcomes = await asyncio.gather(*(_timed(sources[name], product) for name in names))

    answered: dict[str, SourceResult] = {}
    per_source: dict[str, dict[str, Any]] = {}
    failures: list[BaseException] = []
    for name, (outcome, ms) in zip(names, outcomes, strict=True):
        if isinstance(outcome, SourceResult):
            match_offers(product, outcome.offers)
            answered[name] = outcome
            per_source[name] = {"outcome": str(outcome.outcome), "count": len(outcome.offers), "ms": ms}
        else:
            failures.append(outcome)
            kind = outcome.outcome if isinstance(outcome, SourceError) else SourceOutcome.ERROR
            per_source[name] = {"outcome": str(kind), "count": 0, "ms": ms, "error": str(outcome)[:300]}
    metrics.sources_searched(per_source)
    summary = ", ".join(
        f"{name} {entry['outcome']} ({entry['count']} offers, {entry['ms']} ms)" for name, entry in per_source.items()
    )
    log.info("searched %s: %s", job["product_code"], summary)
    if not answered:
        raise _most_telling(failures)
    result = summarize(answered, utcnow())
    result["sources"] = per_source
    return {"result": result}


def _most_telling(failures: list[BaseException]) -> BaseException:
    """The error a job fails with when all its sources failed: a permanent one, else the longest backoff."""
    for failure in failures:
        if isinstance(failure, JobError) and not isinstance(failure, RetryableJobError):
            return failure
    retryable = [f for f in failures if isinstance(f, RetryableJobError)]
    if retryable:
        return max(retryable, key=lambda f: f.backoff_factor)
    return failures[0]


async def after_search(job: dict[str, Any], runtime: WorkerRuntime) -> list[dramatiq.Message]:
    """A DONE search: its prices go into price_history, and its result out through the outbox."""
    await runtime.price_history.record(job)
    return await spawn_outbox(job, runtime)


async def spawn_outbox(job: dict[str, Any], runtime: WorkerRuntime) -> list[dramatiq.Message]:
    """One OUTBOX job per DONE search (a unique index keeps it one), when delivery is configured."""
    if not runtime.settings.outbox_url:
        return []
    document, message = outbox_job_for(job, runtime.settings)
    return [message] if await runtime.jobs.insert_follow_up(document) else []
