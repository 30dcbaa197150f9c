"""HTTP handlers of the queues: pausing and resuming a job type's work, and the job counts and queue depths
(`GET /v1/lps/queue/stats`, computed by `compute_stats` at most once per LPS_STATS_MAX_AGE)."""

from __future__ import annotations

import logging
from typing import Any

from aiohttp import web
from aiohttp_apigami import docs, match_info_schema
from marshmallow import Schema, fields

from infra.broker import AMQP_ERRORS, QueueInfo
from infra.clock import utcnow
from infra.mongo import deadline
from infra.proxy_ledger import ProxyLedger
from infra.proxy_urls import parse_proxy
from infra.source_limits import SourceGates
from schemas.codes import ErrorType, JobType
from schemas.examples import (
    error,
)
from schemas.stats import QueuePauseResponseSchema, StatsResponseSchema
from service.errors import envelope_response
from service.keys import (
    DATABASE,
    JOB_COUNTS,
    PUBLISHER,
    QUEUE_OPERATIONS,
    RECONCILER_LOG,
    SETTINGS,
    STATS,
    caller_of,
)
from service.openapi import KEYED, answers

log = logging.getLogger(__name__)


class QueuePath(Schema):
    queue = fields.String(required=True, metadata={"description": "search or outbox"})


_QUEUE_NOT_FOUND = {404: error(ErrorType.LPS_QUEUE_NOT_FOUND, "no such queue; one of: search, outbox")}


@docs(
    tags=["queues"],
    summary="Pause a job type's work: its pools take no new message (in-flight attempts finish); admin only",
    description="Kept in MongoDB, so it holds across pool and gateway restarts; every pool of the type stops within "
    "LPS_PAUSE_POLL_INTERVAL seconds. PENDING jobs stay PENDING with no attempt spent. Recorded in the audit trail.",
    responses=answers(QueuePauseResponseSchema, "pause", 404, examples=_QUEUE_NOT_FOUND),
    security=KEYED,
)
@match_info_schema(QueuePath)
async def pause_queue(request: web.Request) -> web.Response:
    state = await request.app[QUEUE_OPERATIONS].set_paused(request.match_info["queue"], caller_of(request), paused=True)
    return envelope_response(ErrorType.SUCCESS, **state)


@docs(
    tags=["queues"],
    summary="Resume a paused job type's work; admin only",
    responses=answers(QueuePauseResponseSchema, "resume", 404, examples=_QUEUE_NOT_FOUND),
    security=KEYED,
)
@match_info_schema(QueuePath)
async def resume_queue(request: web.Request) -> web.Response:
    caller = caller_of(request)
    state = await request.app[QUEUE_OPERATIONS].set_paused(request.match_info["queue"], caller, paused=False)
    return envelope_response(ErrorType.SUCCESS, **state)


@docs(
    tags=["jobs"],
    summary="Job counts by status and type, and the queues' depths",
    description="Computed at most once per LPS_STATS_MAX_AGE seconds; concurrent callers share one computation. "
    "PENDING and RUNNING are live counts; DONE and DEAD count the jobs that ended so up to `counted_until` "
    "(a few seconds behind: LPS_STATS_SETTLE).",
    responses=answers(StatsResponseSchema, "stats"),
    security=KEYED,
)
async def get_queue_stats(request: web.Request) -> web.Response:
    with deadline(request.app[SETTINGS]):
        stats = await request.app[STATS].get()
    return envelope_response(ErrorType.SUCCESS, **stats)


async def compute_stats(app: web.Application) -> dict[str, Any]:
    """Counts per status and type (every one present), reconciler totals, each source's pacing and circuit breaker,
    each Coupang proxy's outcomes (with LPS_COUPANG_PROXIES), and each queue's depth and consumers.

    PENDING / RUNNING are live; DONE / DEAD are the totals of jobs that ended so, up to `counted_until`
    (infra/job_counts.py): no call aggregates over history.
    """
    counts = await app[JOB_COUNTS].current()
    body: dict[str, Any] = {
        "stats": counts.by_status,
        "by_type": counts.by_type,
        "delayed": counts.delayed,
        "counted_until": counts.ended_counted_until,
        "computed_at": utcnow(),
        "reconciler": await app[RECONCILER_LOG].totals(),
    }
    settings = app[SETTINGS]
    body["sources"] = await SourceGates(app[DATABASE], settings).describe()
    if settings.coupang_proxies:
        labels = [parse_proxy(url).label for url in settings.coupang_proxies]
        body["proxies"] = await ProxyLedger(app[DATABASE].write).describe(labels, utcnow())
    body["queue_type"] = settings.queue_type
    pauses = await app[QUEUE_OPERATIONS].states()
    body["paused"] = {job_type.name.lower(): state.to_api() for job_type, state in pauses.items()}
    specs = {job_type.name.lower(): settings.job(job_type) for job_type in JobType}
    try:
        info = await app[PUBLISHER].queue_info(settings.queues())
    except AMQP_ERRORS:
        log.warning("RabbitMQ unreachable while reading queue stats")
        body["message"] = "RabbitMQ unreachable: queues unknown"
        return body
    # A queue's `delayed` is its job type's delayed count: RabbitMQ's count of `.DQ` misses the messages workers hold.
    body["queues"] = {
        short: _job_type_queues([info[name] for name in spec.queues]) | {"delayed": counts.delayed[short.upper()]}
        for short, spec in specs.items()
    }
    return body


def _job_type_queues(infos: list[QueueInfo]) -> dict[str, int]:
    """One job type's queues as one: its classic queue, or its quorum bands together (messages and dead letters
    added up; consumers the fewest any band has, so a band nobody consumes shows as 0)."""
    return {
        "messages": sum(info.messages for info in infos),
        "consumers": min(info.consumers for info in infos),
        "dead": sum(info.dead for info in infos),
    }
