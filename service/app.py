"""The gateway's app factory: `create_app(settings)` builds everything; clients live in cleanup contexts."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import AsyncIterator
from functools import partial
from typing import Any

from aiohttp import web
from aiohttp.typedefs import Middleware
from aiohttp_apigami import setup_aiohttp_apispec
from aiohttp_apigami.constants import SWAGGER_DICT

from infra.audit import AuditTrail
from infra.auth_failures import FailedKeyLimits
from infra.broker import Publisher, create_broker
from infra.enqueue import JobEnqueuer
from infra.job_counts import JobCounts
from infra.jobs import JobRepository
from infra.mongo import MONGO_UNAVAILABLE, MainDatabase, create_client, ensure_indexes
from infra.reconciler_log import ReconcilerLog
from infra.scheduler import WatchScheduler
from infra.settings import Settings
from infra.text import analyzer
from infra.ui_sessions import UiSessions
from infra.watches import WatchRepository
from schemas.schedule import every_pattern
from schemas.search_request import MAX_BODY_BYTES
from service import metrics, openapi, queue_routes, routes, snapshots, timeline, watches
from service.auth import API_KEY_HEADER, KEY_CHECK, api_key_check, client_middlewares
from service.errors import error_middleware
from service.job_operations import JobOperations
from service.keys import (
    DATABASE,
    ENQUEUER,
    FAILED_KEYS,
    JOB_COUNTS,
    JOB_OPERATIONS,
    JOBS,
    LISTING_SLOTS,
    PUBLISHER,
    QUEUE_OPERATIONS,
    RECONCILER_LOG,
    SCHEDULER,
    SETTINGS,
    STATS,
    UI_SESSIONS,
    WATCHES,
)
from service.queue_operations import QueueOperations
from service.shared import SharedResult
from service.ui import app as dashboard

log = logging.getLogger(__name__)

#: Seconds between attempts to create the indexes when MongoDB was down at start-up.
INDEX_RETRY_INTERVAL = 5.0
#: The Server header of every answer: aiohttp's default names its and Python's versions, a gift to an attacker
#: matching known flaws.
SERVER_HEADER = "lps"


async def neutral_server_header(request: web.Request, response: web.StreamResponse) -> None:
    response.headers["Server"] = SERVER_HEADER


async def analyzer_context(app: web.Application) -> AsyncIterator[None]:
    """Start loading the Korean analyzer (~3 s, once per process) as the gateway starts, in a thread: a job's `words`
    and a listing's `q=` are split by it (infra/text/search_words.py). A search that comes before the load is done
    waits for the same load; nothing else waits."""
    # A daemon thread, not the loop's executor: a gateway stopped while it loads does not wait for it.
    threading.Thread(target=_load_analyzer, name="lps-analyzer-load", daemon=True).start()
    yield


def _load_analyzer() -> None:
    try:
        analyzer.load()
    except Exception:
        # Searches are still recorded, without the words q= finds them by (infra/enqueue.py): say why once, here.
        log.critical("the Korean analyzer could not load: q= finds no new search", exc_info=True)


async def mongo_context(app: web.Application) -> AsyncIterator[None]:
    settings = app[SETTINGS]
    client = create_client(settings)
    database = MainDatabase.open(client, settings.mongo_db)
    app[DATABASE] = database
    app[JOBS] = JobRepository(database)
    app[JOB_COUNTS] = JobCounts(
        app[JOBS], database.write, settle=settings.stats_settle, catch_up_limit=settings.stats_catch_up_limit
    )
    app[RECONCILER_LOG] = ReconcilerLog(database.read)
    app[UI_SESSIONS] = UiSessions(database.write)
    if settings.api_keys and settings.auth_failure_rate_per_second > 0:
        app[FAILED_KEYS] = FailedKeyLimits(
            database.write, rate=settings.auth_failure_rate_per_second, burst=settings.auth_failure_burst
        )
    index_task = None
    try:
        await ensure_indexes(database, settings)
    except MONGO_UNAVAILABLE as error:
        # Start anyway (answering 503s while MongoDB is down) and create the indexes once it is back.
        log.warning(
            "MongoDB unavailable at start-up (%s): indexes will be created when it is back", type(error).__name__
        )
        index_task = asyncio.create_task(_ensure_indexes_until_done(database, settings))
    yield
    if index_task is not None:
        index_task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await index_task
    await client.close()


async def _ensure_indexes_until_done(database: MainDatabase, settings: Settings) -> None:
    while True:
        await asyncio.sleep(INDEX_RETRY_INTERVAL)
        try:
            await ensure_indexes(database, settings)
            log.info("indexes created")
            return
        except MONGO_UNAVAILABLE as error:
            log.warning("cannot create indexes yet (%s); retrying", type(error).__name__)


async def broker_context(app: web.Application) -> AsyncIterator[None]:
    settings = app[SETTINGS]
    publisher = Publisher(create_broker(settings, middleware=[]))
    await publisher.start(settings.queues())
    app[PUBLISHER] = publisher
    yield
    await publisher.close()


async def enqueuer_context(app: web.Application) -> AsyncIterator[None]:
    app[ENQUEUER] = JobEnqueuer(app[SETTINGS], app[JOBS], app[PUBLISHER])
    audit = AuditTrail(app[DATABASE].write)
    app[JOB_OPERATIONS] = JobOperations(app[SETTINGS], app[JOBS], app[ENQUEUER], app[LISTING_SLOTS], audit)
    app[QUEUE_OPERATIONS] = QueueOperations(app[SETTINGS], app[DATABASE])
    app[WATCHES] = WatchRepository(app[DATABASE].write)
    # Its own journal on the primary (the app's RECONCILER_LOG reads): a first run's counts are written.
    journal = ReconcilerLog(app[DATABASE].write)
    app[SCHEDULER] = WatchScheduler(app[SETTINGS], app[WATCHES], app[ENQUEUER], journal)
    settings = app[SETTINGS]
    app[STATS] = SharedResult(
        partial(queue_routes.compute_stats, app), max_age=settings.stats_max_age, max_stale=settings.stats_max_stale
    )
    yield


async def stats_refresh_context(app: web.Application) -> AsyncIterator[None]:
    """One background computation of the stats every LPS_STATS_MAX_AGE seconds: a stats or /metrics request always
    finds figures at most that old (plus one computation) and never waits while the store counts."""
    stats = app[STATS]
    refresher = asyncio.create_task(stats.keep_fresh()) if stats.refreshes_in_background else None
    yield
    if refresher is not None:
        refresher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await refresher


def create_app(settings: Settings) -> web.Application:
    gateway_metrics = metrics.GatewayMetrics()
    # Request metrics outermost, so they count the status the client got; the error middleware next, so the
    # guards' refusals are envelopes too.
    keys = api_key_check(settings) if settings.api_keys else None
    middlewares: list[Middleware] = [
        metrics.RequestMetricsMiddleware(gateway_metrics),
        error_middleware,
        *client_middlewares(settings, keys),
    ]
    app = web.Application(client_max_size=MAX_BODY_BYTES, middlewares=middlewares)
    app[SETTINGS] = settings
    if keys is not None:
        app[KEY_CHECK] = keys
    app.on_response_prepare.append(neutral_server_header)
    app.cleanup_ctx.extend([analyzer_context, mongo_context, broker_context, enqueuer_context, stats_refresh_context])
    routes.setup(app)
    timeline.setup(app)
    watches.setup(app)
    snapshots.setup(app)
    dashboard.setup(app)
    metrics.setup(app, gateway_metrics)
    setup_aiohttp_apispec(
        app,
        title="LPS — Lowest Price Search",
        version="1",
        openapi_version="3.0.2",
        url="/api/docs/swagger.json",
        swagger_path="/api/docs",
        in_place=True,
        # Merged into the document by apispec (top-level options are deep-updated into it).
        components={"securitySchemes": {openapi.API_KEY_SCHEME: API_KEY_SECURITY_SCHEME}},
    )
    _drop_swagger2_keys(app[SWAGGER_DICT])
    _move_examples_into_content(app[SWAGGER_DICT])
    for (path, method), example in (routes.REQUEST_EXAMPLES | watches.REQUEST_EXAMPLES).items():
        app[SWAGGER_DICT]["paths"][path][method]["requestBody"]["content"]["application/json"]["example"] = example
    if not settings.api_keys:
        _make_keys_optional(app[SWAGGER_DICT])
    _document_enabled_sources(app[SWAGGER_DICT], settings.search_sources)
    _document_watch_schedules(app[SWAGGER_DICT], settings.watch_min_interval)
    return app


API_KEY_SECURITY_SCHEME = {
    "type": "apiKey",
    "in": "header",
    "name": API_KEY_HEADER,
    "description": "One of the keys in LPS_API_KEYS; a missing or unknown key is answered 433. A deployment "
    "without keys takes requests without it.",
}


def _document_enabled_sources(document: dict[str, Any], enabled: tuple[str, ...]) -> None:
    """A product (a search's, a watch's, a watch's change) may name only the sources this deployment enables
    (request_body.refuse_disabled_sources): every schema's `sources` lists those, not every source the code knows, or a
    client following the document gets 400 for a valid-looking request."""
    for schema in document["components"]["schemas"].values():
        items = schema.get("properties", {}).get("sources", {}).get("items", {})
        if "enum" in items:
            items["enum"] = list(enabled)


def _document_watch_schedules(document: dict[str, Any], min_interval: float) -> None:
    """`every`'s pattern with this deployment's LPS_WATCH_MIN_INTERVAL, and "every or cron, not both" on a new
    watch: what the gateway takes is what the document says."""
    schemas = document["components"]["schemas"]
    for name in ("WatchRequest", "WatchPatch"):
        schemas[name]["properties"]["every"]["pattern"] = every_pattern(min_interval)
    schemas["WatchRequest"]["oneOf"] = [{"required": ["every"]}, {"required": ["cron"]}]
    # below_target needs every product's target_price (OpenAPI 3.0 has no if/then: one of three cases).
    schemas["WatchRequest"]["anyOf"] = [
        {"not": {"required": ["notify"]}},
        {"properties": {"notify": {"enum": ["always", "on_change"]}}},
        {
            "properties": {
                "products": {
                    "items": {"required": ["target_price"], "properties": {"target_price": {"type": "integer"}}}
                }
            }
        },
    ]
    # A change gives every or cron, not both; and never below_target with target_price cleared (null).
    below_target_without_target = {
        "required": ["notify", "target_price"],
        "properties": {"notify": {"enum": ["below_target"]}, "target_price": {"enum": [None]}},
    }
    schemas["WatchPatch"]["not"] = {"anyOf": [{"required": ["every", "cron"]}, below_target_without_target]}


def _drop_swagger2_keys(document: dict[str, Any]) -> None:
    """aiohttp-apigami writes Swagger 2's `produces` into every operation; OpenAPI 3 has no such key."""
    for operations in document["paths"].values():
        for operation in operations.values():
            if isinstance(operation, dict):
                operation.pop("produces", None)


def _move_examples_into_content(document: dict[str, Any]) -> None:
    """aiohttp-apigami copies a response's `examples` beside its content (Swagger 2's place); OpenAPI 3 and
    Swagger UI read them in the media type."""
    for operations in document["paths"].values():
        for operation in operations.values():
            if isinstance(operation, dict):
                for response in operation.get("responses", {}).values():
                    if "examples" in response:
                        response["content"]["application/json"]["examples"] = response.pop("examples")


def _make_keys_optional(document: dict[str, Any]) -> None:
    """Without LPS_API_KEYS the key is not needed: say so (`{}` is the requirement "none"), as the gateway behaves."""
    for operations in document["paths"].values():
        for operation in operations.values():
            if isinstance(operation, dict) and "security" in operation:
                operation["security"] = [*operation["security"], {}]
