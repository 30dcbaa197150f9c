"""HTTP handlers of the gateway (prefix /v1/lps) plus health and readiness probes."""

from __future__ import annotations

import asyncio
import codecs
import json
import logging
from dataclasses import asdict
from typing import Any

from aiohttp import web
from aiohttp_apigami import docs, match_info_schema, querystring_schema, request_schema
from marshmallow import Schema, ValidationError, fields
from pymongo.errors import PyMongoError

from infra.broker import AMQP_ERRORS, QueueInfo
from infra.clock import utcnow
from infra.mongo import deadline, is_unavailable
from infra.proxy_ledger import ProxyLedger
from infra.proxy_urls import parse_proxy
from infra.source_limits import SourceGates
from schemas.codes import ErrorType, JobType
from schemas.envelope import ErrorResponseSchema
from schemas.examples import (
    ERROR_EXAMPLES,
    NOT_READY_EXAMPLES,
    SEARCH_REQUEST,
    SUCCESS_EXAMPLES,
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
from schemas.search_request import BatchTooLarge, SearchRequestSchema, SearchResponseSchema
from schemas.stats import HealthResponseSchema, QueuePauseResponseSchema, StatsResponseSchema
from schemas.validation import printable
from service.errors import ApiError, envelope_response
from service.keys import (
    DATABASE,
    ENQUEUER,
    JOB_COUNTS,
    JOB_OPERATIONS,
    LISTING_SLOTS,
    PUBLISHER,
    QUEUE_OPERATIONS,
    RECONCILER_LOG,
    SETTINGS,
    STATS,
    caller_of,
)
from service.listing_slots import ListingSlots

log = logging.getLogger(__name__)

PREFIX = "/v1/lps"

#: Request bodies' examples by (path, method): Swagger UI's "Try it out" posts them (service.app puts them in).
REQUEST_EXAMPLES = {(f"{PREFIX}/search", "post"): SEARCH_REQUEST}

#: The security scheme of the /v1/lps operations (components.securitySchemes, see service.app).
API_KEY_SCHEME = "ApiKey"
#: Each /v1/lps operation's requirement; service.app makes it optional when no keys are configured.
_KEYED: list[dict[str, list[str]]] = [{API_KEY_SCHEME: []}]

#: What each error status means, shown with its examples (schemas.examples.ERROR_EXAMPLES).
_ERROR_DESCRIPTIONS: dict[int, dict[str, Any]] = {
    400: {
        "description": "JSON_PARSE_ERROR (100): body not JSON, not UTF-8, too deeply nested, or not sent as "
        "application/json; INVALID_REQUEST_DATA (101): schema violations, listed by field in `errors`",
    },
    404: {"description": "LPS_JOB_NOT_FOUND (1500): unknown or malformed job_id"},
    409: {
        "description": "LPS_JOB_NOT_RETRYABLE (1501): the job is not DEAD; DB_ALREADY_SAME_KEY (11): "
        "its product already has another active search job",
    },
    419: {
        "description": "HTTP_INVALID_CLIENT_REQUEST (419): body or batch too large, or body not received in time",
    },
    429: {
        "description": "HTTP_TO_MANY_REQUEST (429): over the client's rate limit, or too many requests refused "
        "for their key from this address",
        "headers": {
            "Retry-After": {"description": "seconds until a request is taken again", "schema": {"type": "integer"}}
        },
    },
    433: {
        "description": "HTTP_INVALID_CLIENT_ACCESS (433): X-API-Key missing or unknown (when LPS_API_KEYS is set), "
        "or a read-only key (`:read`) on a request that changes something",
    },
    500: {"description": "INTERNAL_EXCEPTION (102): an unexpected error (logged by the gateway)"},
    503: {
        "description": "DB_RUN_FAILED (10): MongoDB unreachable or past LPS_MONGO_TIMEOUT_MS. For a search: "
        "not known to be recorded; POST the same products again (jobs that did land come back duplicate=true)",
    },
}
#: Every /v1/lps operation can meet these: the guards (429, 433) and the store (503), and a bug (500).
_ALWAYS = (429, 433, 500, 503)


def _responses(
    schema: type[Schema], success: str, *statuses: int, examples: dict[int, dict[str, Any]] | None = None
) -> dict[int, dict[str, Any]]:
    """An operation's documented answers: 200 with its examples, and each error status with its own
    (`examples` replaces a status's shared ones)."""
    success_response = {"schema": schema, "description": "SUCCESS (0)", "examples": SUCCESS_EXAMPLES[success]}
    return {200: success_response, **_error_responses(*statuses, examples=examples)}


def _error_responses(*statuses: int, examples: dict[int, dict[str, Any]] | None = None) -> dict[int, dict[str, Any]]:
    """The documented error answers of an operation: these statuses and those every operation can meet."""
    responses = {}
    for status in sorted({*statuses, *_ALWAYS}):
        shown = (examples or {}).get(status, ERROR_EXAMPLES[status])
        responses[status] = {"schema": ErrorResponseSchema, **_ERROR_DESCRIPTIONS[status], "examples": shown}
    return responses


class JobIdPath(Schema):
    job_id = fields.String(required=True, metadata={"description": "24 hex digits"})


async def load_json_body(request: web.Request, schema: Schema) -> dict[str, Any]:
    """Parse and validate a JSON body; each kind of bad input gets its own result code."""
    refuse_other_media_types(request)
    timeout = request.app[SETTINGS].body_read_timeout
    try:
        async with asyncio.timeout(timeout):
            raw = await request.read()  # over client_max_size: HTTPRequestEntityTooLarge -> 419
    except TimeoutError:
        # 419 like a body that is too large: the request as sent cannot be taken, whatever its content would be.
        raise ApiError(
            ErrorType.HTTP_INVALID_CLIENT_REQUEST, f"request body not received within {timeout:g} s", close=True
        ) from None
    try:
        # Decoded here, strictly: json.loads(bytes) decodes with "surrogatepass", which lets CESU-8 encoded
        # surrogates (b"\xed\xa0\x80") through as text that no UTF-8 answer and no BSON document can hold.
        # JSON between systems is UTF-8 (RFC 8259); a leading byte order mark is tolerated.
        data = json.loads(raw.decode("utf-8-sig"))
    except ValueError:  # includes UnicodeDecodeError
        raise ApiError(ErrorType.JSON_PARSE_ERROR, "request body is not valid JSON (UTF-8)") from None
    except RecursionError:
        # The decoder recurses once per nesting level; no valid request nests more than four deep.
        raise ApiError(ErrorType.JSON_PARSE_ERROR, "request body nests too deeply") from None
    try:
        return schema.load(data)
    except BatchTooLarge as error:
        raise ApiError(ErrorType.HTTP_INVALID_CLIENT_REQUEST, str(error)) from None
    except ValidationError as error:
        raise ApiError(ErrorType.INVALID_REQUEST_DATA, "invalid request data", errors=error.messages) from None


def refuse_other_media_types(request: web.Request) -> None:
    """A body must be declared `application/json` (charset, if named, UTF-8): JSON_PARSE_ERROR otherwise.

    Checked before the body is read. Without it, with keys off (the default), any web page could POST searches
    from a visitor's browser: text/plain and the form types are "simple" requests that browsers send across
    origins without asking first, while application/json needs a CORS preflight this gateway never grants.
    400 / JSON_PARSE_ERROR rather than HTTP 415, which the contract does not have: the body is not declared JSON.
    """
    charset = request.charset
    if request.content_type != "application/json" or (charset is not None and not _is_utf8(charset)):
        declared = request.headers.get("Content-Type", "none")
        raise ApiError(
            ErrorType.JSON_PARSE_ERROR,
            f"Content-Type must be application/json (UTF-8), not {printable(declared)}",
        )


def _is_utf8(charset: str) -> bool:
    try:
        return codecs.lookup(charset).name == "utf-8"
    except LookupError:
        return False


def refuse_disabled_sources(products: list[dict[str, Any]], enabled: tuple[str, ...]) -> None:
    """A product may only name sources this deployment enables (LPS_SEARCH_SOURCES): never a test-only one."""
    errors = {}
    for index, product in enumerate(products):
        if refused := [name for name in product.get("sources") or () if name not in enabled]:
            message = f"not enabled in this deployment: {', '.join(refused)} (enabled: {', '.join(enabled)})"
            errors[index] = {"sources": [message]}
    if errors:
        raise ApiError(ErrorType.INVALID_REQUEST_DATA, "invalid request data", errors={"products": errors})


@docs(
    tags=["search"],
    summary="Enqueue lowest-price searches",
    description="One SEARCH job per distinct product_code; a product with an active job gets that job back "
    "with duplicate=true.",
    responses=_responses(SearchResponseSchema, "search", 400, 419),
    security=_KEYED,
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
    responses=_responses(
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
    security=_KEYED,
)
@querystring_schema(JobListQuerySchema)
async def list_jobs(request: web.Request) -> web.Response:
    jobs, next_cursor = await request.app[JOB_OPERATIONS].page(request.query, caller_of(request))
    return envelope_response(ErrorType.SUCCESS, jobs=jobs, next_cursor=next_cursor)


@docs(
    tags=["jobs"],
    summary="One job with its attempts, last error and result",
    responses=_responses(JobResponseSchema, "job", 404),
    security=_KEYED,
)
@match_info_schema(JobIdPath)
async def get_job(request: web.Request) -> web.Response:
    return envelope_response(ErrorType.SUCCESS, job=await request.app[JOB_OPERATIONS].get(request.match_info["job_id"]))


@docs(
    tags=["jobs"],
    summary="Re-drive a DEAD job: PENDING again with fresh attempts, history kept",
    responses=_responses(JobResponseSchema, "retry", 404, 409),
    security=_KEYED,
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
    responses=_responses(RedrivePageResponseSchema, "redrive", 400),
    security=_KEYED,
)
@querystring_schema(DeadJobsQuerySchema)
async def redrive_jobs(request: web.Request) -> web.Response:
    outcomes, next_cursor = await request.app[JOB_OPERATIONS].redrive_page(request.query, caller_of(request))
    return envelope_response(ErrorType.SUCCESS, jobs=outcomes, next_cursor=next_cursor)


class QueuePath(Schema):
    queue = fields.String(required=True, metadata={"description": "search or outbox"})


_QUEUE_NOT_FOUND = {404: error(ErrorType.LPS_QUEUE_NOT_FOUND, "no such queue; one of: search, outbox")}


@docs(
    tags=["queues"],
    summary="Pause a job type's work: its pools take no new message (in-flight attempts finish); admin only",
    description="Kept in MongoDB, so it holds across pool and gateway restarts; every pool of the type stops within "
    "LPS_PAUSE_POLL_INTERVAL seconds. PENDING jobs stay PENDING with no attempt spent. Recorded in the audit trail.",
    responses=_responses(QueuePauseResponseSchema, "pause", 404, examples=_QUEUE_NOT_FOUND),
    security=_KEYED,
)
@match_info_schema(QueuePath)
async def pause_queue(request: web.Request) -> web.Response:
    state = await request.app[QUEUE_OPERATIONS].set_paused(request.match_info["queue"], caller_of(request), paused=True)
    return envelope_response(ErrorType.SUCCESS, **state)


@docs(
    tags=["queues"],
    summary="Resume a paused job type's work; admin only",
    responses=_responses(QueuePauseResponseSchema, "resume", 404, examples=_QUEUE_NOT_FOUND),
    security=_KEYED,
)
@match_info_schema(QueuePath)
async def resume_queue(request: web.Request) -> web.Response:
    caller = caller_of(request)
    state = await request.app[QUEUE_OPERATIONS].set_paused(request.match_info["queue"], caller, paused=False)
    return envelope_response(ErrorType.SUCCESS, **state)


@docs(
    tags=["jobs"],
    summary="Discard a DEAD job for good; admin only",
    description="The job is deleted (gone from lists and the dead page's totals); an audit record keeps who discarded "
    "it, when, its product code and last error type. Its product's price history stays. 409 for any job not DEAD.",
    responses=_responses(
        DiscardResponseSchema,
        "discard",
        404,
        409,
        examples={
            409: error(ErrorType.LPS_JOB_NOT_DISCARDABLE, "only a DEAD job can be discarded; this one is PENDING")
        },
    ),
    security=_KEYED,
)
@match_info_schema(JobIdPath)
async def discard_job(request: web.Request) -> web.Response:
    gone = await request.app[JOB_OPERATIONS].discard(request.match_info["job_id"], caller_of(request))
    return envelope_response(ErrorType.SUCCESS, discarded=gone)


@docs(
    tags=["jobs"],
    summary="Job counts by status and type, and the queues' depths",
    description="Computed at most once per LPS_STATS_MAX_AGE seconds; concurrent callers share one computation. "
    "PENDING and RUNNING are live counts; DONE and DEAD count the jobs that ended so up to `counted_until` "
    "(a few seconds behind: LPS_STATS_SETTLE).",
    responses=_responses(StatsResponseSchema, "stats"),
    security=_KEYED,
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


@docs(
    tags=["health"],
    summary="Liveness: the process is up (HEAD answers too)",
    responses={200: {"schema": HealthResponseSchema, "description": "up", "examples": SUCCESS_EXAMPLES["healthz"]}},
)
async def healthz(request: web.Request) -> web.Response:
    return envelope_response(ErrorType.SUCCESS, status="up")


@docs(
    tags=["health"],
    summary="Readiness: MongoDB and RabbitMQ reachable",
    responses={
        200: {"schema": HealthResponseSchema, "description": "ready", "examples": SUCCESS_EXAMPLES["readyz"]},
        503: {
            "schema": HealthResponseSchema,
            "description": "not ready: `checks` names what is unreachable; result DB_RUN_FAILED (10) when MongoDB "
            "is, else FAIL (1) when RabbitMQ is",
            "examples": NOT_READY_EXAMPLES,
        },
    },
)
async def readyz(request: web.Request) -> web.Response:
    checks: dict[str, str] = {}
    try:
        with deadline(request.app[SETTINGS]):
            await request.app[DATABASE].write.command("ping")
        checks["mongo"] = "ok"
    except PyMongoError as error:
        if not is_unavailable(error):
            raise
        checks["mongo"] = "unreachable"
    try:
        await request.app[PUBLISHER].ping()
        checks["rabbitmq"] = "ok"
    except AMQP_ERRORS:
        checks["rabbitmq"] = "unreachable"
    queue_type = request.app[SETTINGS].queue_type
    if all(state == "ok" for state in checks.values()):
        return envelope_response(ErrorType.SUCCESS, checks=checks, queue_type=queue_type)
    result = ErrorType.DB_RUN_FAILED if checks["mongo"] != "ok" else ErrorType.FAIL
    return envelope_response(result, http_status=503, checks=checks, queue_type=queue_type, message="not ready")


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
