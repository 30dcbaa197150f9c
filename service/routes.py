"""The gateway's route table (prefix /v1/lps, and the probes), and the handlers of searches and jobs.

The queues' handlers are in `service.queue_routes`, the probes in `service.health`, watches in `service.watches`.
"""

from __future__ import annotations

from dataclasses import asdict

from aiohttp import web
from aiohttp_apigami import docs, match_info_schema, querystring_schema, request_schema
from marshmallow import Schema, fields

from infra.mongo import deadline
from schemas.codes import ErrorType
from schemas.examples import (
    SEARCH_REQUEST,
    error,
)
from schemas.job_listing import (
    DeadJobsQuerySchema,
    DiscardResponseSchema,
    JobListQuerySchema,
    JobListResponseSchema,
    RedrivePageResponseSchema,
)
from schemas.jobs import JobResponseSchema
from schemas.search_request import SearchRequestSchema, SearchResponseSchema
from service.errors import envelope_response
from service.health import healthz, readyz
from service.keys import (
    ENQUEUER,
    JOB_OPERATIONS,
    LISTING_SLOTS,
    SETTINGS,
    caller_of,
)
from service.listing_slots import ListingSlots
from service.openapi import KEYED, answers
from service.queue_routes import get_queue_stats, pause_queue, resume_queue
from service.request_body import load_json_body, refuse_disabled_sources

PREFIX = "/v1/lps"


#: Request bodies' examples by (path, method): Swagger UI's "Try it out" posts them (service.app puts them in).
REQUEST_EXAMPLES = {(f"{PREFIX}/search", "post"): SEARCH_REQUEST}


class JobIdPath(Schema):
    job_id = fields.String(required=True, metadata={"description": "24 hex digits"})


@docs(
    tags=["search"],
    summary="Enqueue lowest-price searches",
    description="One SEARCH job per distinct product_code; a product with an active job gets that job back "
    "with duplicate=true.",
    responses=answers(SearchResponseSchema, "search", 400, 419),
    security=KEYED,
)
@request_schema(SearchRequestSchema, required=True)
async def post_search(request: web.Request) -> web.Response:
    body = await load_json_body(request, SearchRequestSchema())
    refuse_disabled_sources(body["products"], request.app[SETTINGS].search_sources)
    priority = body["priority"].value if body["priority"] else None
    # The deadline starts once the body is in: a slow upload must not eat the store's budget.
    with deadline(request.app[SETTINGS]):
        submissions = await request.app[ENQUEUER].submit_search(body["products"], priority)
    return envelope_response(ErrorType.SUCCESS, jobs=[asdict(s) for s in submissions])


@docs(
    tags=["jobs"],
    summary="Jobs, newest first, filtered by status, type, product code (or prefix), error type, a source's outcome, "
    "the search they deliver, whether they are delayed and a time range",
    description="One page of at most `limit` jobs; `next_cursor` (absent on the last page) asks for the next.",
    responses=answers(
        JobListResponseSchema,
        "jobs",
        400,
        examples={
            400: error(
                ErrorType.INVALID_REQUEST_DATA,
                "invalid query",
                errors={"status": ["Must be one of: PENDING, RUNNING, DONE, DEAD."]},
            )
        },
    ),
    security=KEYED,
)
@querystring_schema(JobListQuerySchema)
async def list_jobs(request: web.Request) -> web.Response:
    jobs, next_cursor = await request.app[JOB_OPERATIONS].page(request.query, caller_of(request))
    return envelope_response(ErrorType.SUCCESS, jobs=jobs, next_cursor=next_cursor)


@docs(
    tags=["jobs"],
    summary="One job with its attempts, last error and result",
    responses=answers(JobResponseSchema, "job", 404),
    security=KEYED,
)
@match_info_schema(JobIdPath)
async def get_job(request: web.Request) -> web.Response:
    return envelope_response(ErrorType.SUCCESS, job=await request.app[JOB_OPERATIONS].get(request.match_info["job_id"]))


@docs(
    tags=["jobs"],
    summary="Re-drive a DEAD job: PENDING again with fresh attempts, history kept",
    responses=answers(JobResponseSchema, "retry", 404, 409),
    security=KEYED,
)
@match_info_schema(JobIdPath)
async def retry_job(request: web.Request) -> web.Response:
    redriven = await request.app[JOB_OPERATIONS].redrive(request.match_info["job_id"], caller_of(request))
    return envelope_response(ErrorType.SUCCESS, job=redriven)


@docs(
    tags=["jobs"],
    summary="Re-drive one page of the DEAD jobs the listing's filters match; admin only",
    description="Each job is re-driven as by POST /v1/lps/jobs/{job_id}/retry, and refused for the same reasons (it "
    "then stays DEAD and is reported with the refusal's result). Pages go on by `next_cursor`, as the listing's do. "
    "`lps redrive --dead` uses it; the dashboard's dead page does the same with a confirmation page.",
    responses=answers(RedrivePageResponseSchema, "redrive", 400),
    security=KEYED,
)
@querystring_schema(DeadJobsQuerySchema)
async def redrive_jobs(request: web.Request) -> web.Response:
    outcomes, next_cursor = await request.app[JOB_OPERATIONS].redrive_page(request.query, caller_of(request))
    return envelope_response(ErrorType.SUCCESS, jobs=outcomes, next_cursor=next_cursor)


@docs(
    tags=["jobs"],
    summary="Discard a DEAD job for good; admin only",
    description="The job is deleted (gone from lists and the dead page's totals); an audit record keeps who discarded "
    "it, when, its product code and last error type. Its product's price history stays. 409 for any job not DEAD.",
    responses=answers(
        DiscardResponseSchema,
        "discard",
        404,
        409,
        examples={
            409: error(ErrorType.LPS_JOB_NOT_DISCARDABLE, "only a DEAD job can be discarded; this one is PENDING")
        },
    ),
    security=KEYED,
)
@match_info_schema(JobIdPath)
async def discard_job(request: web.Request) -> web.Response:
    gone = await request.app[JOB_OPERATIONS].discard(request.match_info["job_id"], caller_of(request))
    return envelope_response(ErrorType.SUCCESS, discarded=gone)


def setup(app: web.Application) -> None:
    app[LISTING_SLOTS] = ListingSlots(app[SETTINGS].listing_concurrency)
    app.router.add_post(f"{PREFIX}/search", post_search)
    app.router.add_routes(
        [
            web.get(f"{PREFIX}/jobs", list_jobs, allow_head=False),
            web.post(f"{PREFIX}/jobs/redrive", redrive_jobs),
            # Any one path segment reaches the handler: a malformed id is "no such job", not "no such route".
            web.get(f"{PREFIX}/jobs/{{job_id:[^/]+}}", get_job, allow_head=False),
            web.post(f"{PREFIX}/jobs/{{job_id:[^/]+}}/retry", retry_job),
            web.delete(f"{PREFIX}/jobs/{{job_id:[^/]+}}", discard_job),
            web.get(f"{PREFIX}/queue/stats", get_queue_stats, allow_head=False),
            web.post(f"{PREFIX}/queues/{{queue:[^/]+}}/pause", pause_queue),
            web.post(f"{PREFIX}/queues/{{queue:[^/]+}}/resume", resume_queue),
            # HEAD too: load balancers and uptime checks often probe with it.
            web.get("/healthz", healthz),
            web.get("/readyz", readyz),
        ]
    )
