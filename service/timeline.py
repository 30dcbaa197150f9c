"""GET /v1/lps/queue/timeline: what ended in each of the last minutes, for the dashboard's live charts.

Read through `infra.timeline.EndedTimeline` (the walk over what ended that the job counts use), never by a scan
of history. The dashboard's overview renders the same answer (`read_timeline`) as SVG.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any

from aiohttp import web
from aiohttp_apigami import docs, querystring_schema
from marshmallow import ValidationError

from infra.mongo import deadline
from infra.settings import Settings
from infra.timeline import EndedTimeline, Timeline, percentile
from schemas.codes import ENDED_STATUSES, ErrorType, JobType, status_names
from schemas.examples import error
from schemas.timeline import TimelineQuerySchema, TimelineResponseSchema
from service.errors import ApiError, envelope_response
from service.keys import JOBS, SETTINGS
from service.openapi import KEYED, answers
from service.routes import PREFIX

TIMELINE = web.AppKey("timeline", EndedTimeline)


async def read_timeline(ended: EndedTimeline, settings: Settings, parameters: Mapping[str, str]) -> dict[str, Any]:
    """The last `minutes` (a query parameter; 60 by default) as the API shows them. A bad query is
    INVALID_REQUEST_DATA."""
    try:
        query = TimelineQuerySchema().load(parameters)
    except ValidationError as invalid:
        raise ApiError(ErrorType.INVALID_REQUEST_DATA, "invalid query", errors=invalid.messages) from None
    with deadline(settings):
        timeline = await ended.last(query["minutes"])
    return timeline_to_api(timeline)


def timeline_to_api(timeline: Timeline) -> dict[str, Any]:
    minutes = []
    for at, tally in zip(timeline.minutes, timeline.tallies, strict=True):
        ended = {job_type.name: dict.fromkeys(status_names(ENDED_STATUSES), 0) for job_type in JobType}
        for job_type, counts in tally.ended.items():
            ended.setdefault(job_type, {}).update(counts)
        attempt_ms = {
            job_type: {"p50": percentile(values, 0.5), "p95": percentile(values, 0.95), "count": len(values)}
            for job_type, values in tally.attempt_ms.items()
            if values
        }
        sources = {source: dict(counts) for source, counts in tally.sources.items()}
        minutes.append({"at": at, "ended": ended, "sources": sources, "attempt_ms": attempt_ms})
    return {"timeline": minutes, "counted_until": timeline.counted_until, "catching_up": timeline.catching_up}


@docs(
    tags=["jobs"],
    summary="What ended in each of the last minutes: jobs DONE / DEAD by type, search outcomes by source, "
    "attempt durations",
    description="Kept by each gateway from a walk over the jobs that ended since its previous answer (one "
    "range on `ended_by_finished_at` from where the previous one stopped), so an answer costs what ended meanwhile, "
    "not the history. "
    "The last minute is still filling; a gateway that just started walks the window in steps (`catching_up`).",
    responses=answers(
        TimelineResponseSchema,
        "timeline",
        400,
        examples={
            400: error(
                ErrorType.INVALID_REQUEST_DATA,
                "invalid query",
                errors={"minutes": ["Must be greater than or equal to 1 and less than or equal to 120."]},
            )
        },
    ),
    security=KEYED,
)
@querystring_schema(TimelineQuerySchema)
async def get_timeline(request: web.Request) -> web.Response:
    timeline = await read_timeline(request.app[TIMELINE], request.app[SETTINGS], request.query)
    return envelope_response(ErrorType.SUCCESS, **timeline)


async def timeline_context(app: web.Application) -> AsyncIterator[None]:
    settings = app[SETTINGS]
    app[TIMELINE] = EndedTimeline(app[JOBS], settle=settings.stats_settle, limit=settings.stats_catch_up_limit)
    yield


def setup(app: web.Application) -> None:
    app.cleanup_ctx.append(timeline_context)
    app.router.add_get(f"{PREFIX}/queue/timeline", get_timeline, allow_head=False)
