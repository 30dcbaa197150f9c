"""The gateway's Prometheus metrics at `/metrics` (text exposition).

HTTP requests by method, route and status, their latency, and jobs by type and status. The job counts are the
ones `/v1/lps/queue/stats` answers (one shared computation), read by the async handler at scrape time: a collector
that Prometheus' client calls synchronously would block the event loop on MongoDB. Each app has its own registry
(tests build many apps in one process), with the process's own series (memory, CPU, open files, GC) in it too.

`/metrics` is not under `/v1/lps`: API keys and rate limits never apply to it (service/auth.py).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterator
from typing import Any

from aiohttp import web
from aiohttp.typedefs import Handler
from prometheus_client import (
    GC_COLLECTOR,
    PLATFORM_COLLECTOR,
    PROCESS_COLLECTOR,
    CollectorRegistry,
    Counter,
    Histogram,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import choose_encoder
from prometheus_client.registry import Collector

from infra.mongo import MONGO_UNAVAILABLE
from schemas.codes import ACTIVE_STATUSES, ENDED_STATUSES
from service.keys import STATS

log = logging.getLogger(__name__)

PATH = "/metrics"
#: Methods counted by name; anything else is "other" (a client must not create series at will).
KNOWN_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
#: The route label of requests no route matched (404, 405): their paths would be unbounded.
UNMATCHED = "unmatched"
#: What nginx logs when the client went away before the answer; aiohttp cancels the handler then.
CLIENT_CLOSED = 499
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class GatewayMetrics:
    """The series of one gateway app, in their own registry."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        # The process series, as the default registry has them; registered here as collectors, not copied.
        for collector in (PROCESS_COLLECTOR, PLATFORM_COLLECTOR, GC_COLLECTOR):
            self.registry.register(collector)
        self.requests = Counter(
            "lps_http_requests",
            "HTTP requests by method, route (its pattern) and the status answered.",
            ["method", "route", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "lps_http_request_duration_seconds",
            "Time to answer HTTP requests, by method and route.",
            ["method", "route"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.jobs = JobCountsCollector()
        self.registry.register(self.jobs)

    def observe(self, request: web.Request, status: int, seconds: float) -> None:
        method = request.method if request.method in KNOWN_METHODS else "other"
        resource = request.match_info.route.resource
        route = resource.canonical if resource is not None else UNMATCHED
        self.requests.labels(method, route, str(status)).inc()
        self.latency.labels(method, route).observe(seconds)

    def count_jobs(self, by_type: dict[str, dict[str, int]], paused: dict[str, dict[str, Any]] | None = None) -> None:
        self.jobs.counts = by_type
        self.jobs.paused = {queue: bool(state.get("paused")) for queue, state in (paused or {}).items()}


class JobCountsCollector(Collector):
    """The job counts of `/v1/lps/queue/stats`, as two honest series (absent while MongoDB is unreachable):

    - `lps_jobs_active{job_type,status}`, a gauge: the PENDING and RUNNING jobs in hand now;
    - `lps_jobs_ended_total{job_type,status}`, a counter: the jobs that ended DONE or DEAD since the store's first
      (running totals kept in MongoDB, shared by every gateway; a re-driven job counts again when it ends again).
    """

    def __init__(self) -> None:
        self.counts: dict[str, dict[str, int]] = {}
        self.paused: dict[str, bool] = {}

    def collect(self) -> Iterator[Metric]:
        active = GaugeMetricFamily(
            "lps_jobs_active",
            "Jobs in hand (PENDING, RUNNING) by type and status, counted when scraped.",
            labels=["job_type", "status"],
        )
        ended = CounterMetricFamily(
            "lps_jobs_ended",
            "Jobs that ended DONE or DEAD by type and status: running totals kept in MongoDB for the whole fleet.",
            labels=["job_type", "status"],
        )
        for job_type, by_status in self.counts.items():
            for status in ACTIVE_STATUSES:
                active.add_metric([job_type, status.name], by_status.get(status.name, 0))
            for status in ENDED_STATUSES:
                ended.add_metric([job_type, status.name], by_status.get(status.name, 0))
        yield active
        yield ended
        if self.paused:
            paused = GaugeMetricFamily(
                "lps_queue_paused",
                "1 while a queue's work is paused (its pools take no message), else 0.",
                labels=["queue"],
            )
            for queue, is_paused in self.paused.items():
                paused.add_metric([queue], int(is_paused))
            yield paused


METRICS = web.AppKey("metrics", GatewayMetrics)


class RequestMetricsMiddleware:
    """Outermost middleware: counts and times every request with the status its client got.

    Runs around the error middleware, so error envelopes count with their HTTP status; an exception that still
    escapes counts as the 500 aiohttp answers, a request whose client went away as 499.
    """

    __middleware_version__ = 1  # new-style: called as (request, handler)

    def __init__(self, metrics: GatewayMetrics) -> None:
        self._metrics = metrics

    async def __call__(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        started = time.perf_counter()
        status = 500
        try:
            response = await handler(request)
            status = response.status
            return response
        except web.HTTPException as error:
            status = error.status
            raise
        except asyncio.CancelledError:
            status = CLIENT_CLOSED
            raise
        finally:
            self._metrics.observe(request, status, time.perf_counter() - started)


async def metrics_handler(request: web.Request) -> web.Response:
    """The text exposition (OpenMetrics when the scraper asks for it), job counts fresh from MongoDB."""
    metrics = request.app[METRICS]
    try:
        # The same shared computation as /v1/lps/queue/stats: the two always agree.
        stats = await request.app[STATS].get()
        metrics.count_jobs(stats["by_type"], stats.get("paused"))
    except MONGO_UNAVAILABLE as error:
        # Still answer: the HTTP series matter most while MongoDB is down. Stale counts would mislead.
        log.warning("MongoDB unavailable while counting jobs for /metrics: %s", type(error).__name__)
        metrics.count_jobs({})
    encoder, content_type = choose_encoder(request.headers.get("Accept", ""))
    return web.Response(body=encoder(metrics.registry), headers={"Content-Type": content_type})


def setup(app: web.Application, metrics: GatewayMetrics) -> None:
    app[METRICS] = metrics
    app.router.add_get(PATH, metrics_handler, allow_head=False)
