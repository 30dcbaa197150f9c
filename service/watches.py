"""HTTP handlers of watches (prefix /v1/lps/watches): products searched on a schedule."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any

from aiohttp import ChainMapProxy, web
from aiohttp_apigami import docs, match_info_schema, querystring_schema, request_schema, response_schema
from bson import ObjectId
from marshmallow import Schema, ValidationError, fields

from infra.clock import utcnow
from infra.job_documents import parse_job_id
from infra.mongo import deadline
from infra.watches import new_watch, next_run, run_at, schedule_fields, to_millis
from schemas.codes import ErrorType
from schemas.envelope import EnvelopeSchema
from schemas.examples import WATCH_NOT_FOUND_EXAMPLES, WATCH_PATCH, WATCH_REQUEST
from schemas.watches import (
    CLEARABLE_FIELDS,
    Notify,
    WatchCreateResponseSchema,
    WatchListQuerySchema,
    WatchListResponseSchema,
    WatchPatchSchema,
    WatchRequestSchema,
    WatchResponseSchema,
    watch_to_api,
)
from service.errors import ApiError, envelope_response
from service.keys import SCHEDULER, SETTINGS, WATCHES
from service.openapi import KEYED, answers
from service.request_body import load_json_body, refuse_disabled_sources
from service.routes import PREFIX

log = logging.getLogger(__name__)

_PRODUCT_FIELDS = ("keyword", "model_no", "target_price", "sources")

#: The request body examples of these routes' OpenAPI operations (put in place by service.app).
REQUEST_EXAMPLES = {
    (f"{PREFIX}/watches", "post"): WATCH_REQUEST,
    (f"{PREFIX}/watches/{{watch_id}}", "patch"): WATCH_PATCH,
}


def _watch_responses(schema: type[Schema], success: str, *statuses: int) -> dict[int, dict[str, Any]]:
    """A watch operation's documented answers: the API's, with 404 meaning no such watch."""
    responses = answers(schema, success, 404, *statuses, examples={404: WATCH_NOT_FOUND_EXAMPLES})
    responses[404] |= {"description": "LPS_WATCH_NOT_FOUND (1502): unknown or malformed watch_id"}
    return responses


class WatchIdPath(Schema):
    watch_id = fields.String(required=True, metadata={"description": "24 hex digits"})


def _new_watch(product: dict[str, Any], body: dict[str, Any], now: datetime, timezone: str) -> dict[str, Any]:
    """A new watch: due at once (its first search), then on its schedule counted from now."""
    return new_watch(
        product["product_code"],
        {key: product[key] for key in _PRODUCT_FIELDS if product.get(key) is not None},
        now=now,
        every=body.get("every"),
        cron=body.get("cron"),
        timezone=timezone,
        notify=body.get("notify") or Notify.ON_CHANGE,
        priority=body["priority"].value if body.get("priority") else None,
    )


@docs(
    tags=["watches"],
    summary="Watch products: search each on a schedule, deliver only when its price moves (notify)",
    description="One watch per product_code; a product that already has one gets that watch back with "
    "duplicate=true. A new watch's first search starts at once. At most 1,000 products (result 101 beyond).",
    responses=answers(WatchCreateResponseSchema, "watch_create", 400, 419),
    security=KEYED,
)
@request_schema(WatchRequestSchema, required=True)
@response_schema(WatchCreateResponseSchema, 200)
async def post_watches(request: web.Request) -> web.Response:
    settings = request.app[SETTINGS]
    body = await load_json_body(request, WatchRequestSchema(min_interval=settings.watch_min_interval))
    return envelope_response(ErrorType.SUCCESS, watches=await create_watches(request.config_dict, body))


async def create_watches(gateway: ChainMapProxy, body: dict[str, Any]) -> list[dict[str, Any]]:
    """A loaded WatchRequestSchema body, stored and each new watch's first run started: what POST answers
    (`product_code`, `watch_id`, `duplicate` per product). The API and the dashboard's form both come here."""
    settings = gateway[SETTINGS]
    refuse_disabled_sources(body["products"], settings.search_sources)
    now = to_millis(utcnow())
    first_by_code: dict[str, dict[str, Any]] = {}
    for product in body["products"]:
        first_by_code.setdefault(product["product_code"], product)
    documents = [_new_watch(product, body, now, settings.timezone) for product in first_by_code.values()]
    with deadline(settings):
        created, existing = await gateway[WATCHES].insert(documents)
    await _first_run(gateway, created, now)
    ids = {doc["product_code"]: doc["_id"] for doc in created} | {code: doc["_id"] for code, doc in existing.items()}
    answered: set[str] = set()
    watches = []
    for product in body["products"]:
        code = product["product_code"]
        duplicate = code in existing or code in answered
        answered.add(code)
        watches.append({"product_code": code, "watch_id": str(ids[code]), "duplicate": duplicate})
    return watches


@docs(
    tags=["watches"],
    summary="Watches in creation order, by product_code",
    description="One page of at most `limit` watches; `next_cursor` (absent on the last page) asks for the next.",
    responses=answers(WatchListResponseSchema, "watch_list", 400),
    security=KEYED,
)
@querystring_schema(WatchListQuerySchema)
@response_schema(WatchListResponseSchema, 200)
async def list_watches(request: web.Request) -> web.Response:
    repeated = {key: ["given more than once"] for key in request.query if len(request.query.getall(key)) > 1}
    try:
        if repeated:
            raise ValidationError(repeated)
        query = WatchListQuerySchema().load(request.query)
    except ValidationError as error:
        raise ApiError(ErrorType.INVALID_REQUEST_DATA, "invalid query", errors=error.messages) from None
    limit = query["limit"]
    after = ObjectId(query["cursor"]) if "cursor" in query else None
    with deadline(request.app[SETTINGS]):
        page = await request.app[WATCHES].page(product_code=query.get("product_code"), after=after, limit=limit + 1)
    next_cursor = str(page[limit - 1]["_id"]) if len(page) > limit else None
    return envelope_response(
        ErrorType.SUCCESS, watches=[watch_to_api(watch) for watch in page[:limit]], next_cursor=next_cursor
    )


def _watch_id(request: web.Request) -> ObjectId:
    watch_id = parse_job_id(request.match_info["watch_id"])
    if watch_id is None:
        raise ApiError(ErrorType.LPS_WATCH_NOT_FOUND, "no such watch")
    return watch_id


def _found(watch: dict[str, Any] | None) -> dict[str, Any]:
    if watch is None:
        raise ApiError(ErrorType.LPS_WATCH_NOT_FOUND, "no such watch")
    return watch


@docs(
    tags=["watches"],
    summary="One watch: its schedule, next run, last delivered result and last lowest prices",
    responses=_watch_responses(WatchResponseSchema, "watch"),
    security=KEYED,
)
@match_info_schema(WatchIdPath)
@response_schema(WatchResponseSchema, 200)
async def get_watch(request: web.Request) -> web.Response:
    watch_id = _watch_id(request)
    settings = request.app[SETTINGS]
    with deadline(settings):
        watch = _found(await request.app[WATCHES].get(watch_id))
        prices = await request.app[WATCHES].lowest_prices(watch["product_code"], settings.watch_history)
    return envelope_response(ErrorType.SUCCESS, watch=watch_to_api(watch | {"lowest_prices": prices}))


@docs(
    tags=["watches"],
    summary="Change a watch: product fields, schedule (starts again from now), notify, priority; null clears "
    "model_no, target_price, sources or priority",
    description="A below_target watch keeps a target_price: clearing it, or asking below_target of a watch "
    "without one, is refused with 400 / result 101 naming target_price.",
    responses=_watch_responses(WatchResponseSchema, "watch", 400, 419),
    security=KEYED,
)
@match_info_schema(WatchIdPath)
@request_schema(WatchPatchSchema, required=True)
@response_schema(WatchResponseSchema, 200)
async def patch_watch(request: web.Request) -> web.Response:
    watch_id = _watch_id(request)
    settings = request.app[SETTINGS]
    body = await load_json_body(request, WatchPatchSchema(min_interval=settings.watch_min_interval))
    changed = await change_watch(request.config_dict, watch_id, body)
    return envelope_response(ErrorType.SUCCESS, watch=watch_to_api(changed))


async def change_watch(gateway: ChainMapProxy, watch_id: ObjectId, body: dict[str, Any]) -> dict[str, Any]:
    """A loaded WatchPatchSchema body applied to the watch (the fields given; null clears CLEARABLE_FIELDS): the
    watch as stored now. The API's PATCH and the dashboard's edit form both come here."""
    settings = gateway[SETTINGS]
    given = {key: value for key, value in body.items() if value is not None}
    cleared = [key for key in CLEARABLE_FIELDS if key in body and body[key] is None]
    refuse_disabled_sources([given], settings.search_sources)
    now = to_millis(utcnow())
    watches = gateway[WATCHES]
    with deadline(settings):
        watch = _found(await watches.get(watch_id))
        changes: dict[str, Any] = {f"product.{key}": given[key] for key in _PRODUCT_FIELDS if key in given}
        if "notify" in given:
            changes["notify"] = str(given["notify"])
        if "priority" in given or "priority" in cleared:
            changes["priority"] = given["priority"].value if "priority" in given else None
        if "every" in given or "cron" in given:
            schedule = schedule_fields(every=given.get("every"), cron=given.get("cron"), timezone=settings.timezone)
            changes |= schedule | {"anchor_at": now}
            rescheduled = watch | changes
            changes |= run_at(
                next_run(rescheduled, now, timezone=settings.timezone, max_jitter=settings.watch_max_jitter)
            )
        only_if = _still_has_a_target(watch, given, cleared)
        clear = [f"product.{key}" for key in cleared if key in _PRODUCT_FIELDS]
        changed = await watches.change(watch_id, changes, now, clear=clear, only_if=only_if)
        if changed is None:
            _found(await watches.get(watch_id))
            raise _target_required()  # changed meanwhile: its notify or target_price no longer allows this
    return changed


def _target_required() -> ApiError:
    return ApiError(
        ErrorType.INVALID_REQUEST_DATA,
        "invalid request data",
        errors={"target_price": ["required when notify is below_target"]},
    )


def _still_has_a_target(watch: dict[str, Any], given: dict[str, Any], cleared: list[str]) -> dict[str, Any]:
    """Refuse a change that leaves a below_target watch without target_price (101); otherwise the condition on the
    stored watch this was decided by, for the update (a concurrent change of the other field is not overlooked)."""
    notify = given.get("notify") or Notify(watch["notify"])
    stored_target = (watch.get("product") or {}).get("target_price")
    target = None if "target_price" in cleared else given.get("target_price", stored_target)
    if notify is Notify.BELOW_TARGET and target is None:
        raise _target_required()
    if notify is Notify.BELOW_TARGET and "target_price" not in given:
        return {"product.target_price": {"$ne": None}}  # relies on the stored one
    if "target_price" in cleared and "notify" not in given:
        return {"notify": {"$ne": str(Notify.BELOW_TARGET)}}  # relies on the stored notify
    return {}


async def _set_paused(request: web.Request, paused: bool) -> web.Response:
    watch_id = _watch_id(request)
    watches = request.app[WATCHES]
    with deadline(request.app[SETTINGS]):
        changed = await (watches.pause if paused else watches.resume)(watch_id, utcnow())
    return envelope_response(ErrorType.SUCCESS, watch=watch_to_api(_found(changed)))


@docs(
    tags=["watches"],
    summary="Pause a watch: no search starts until it is resumed",
    responses=_watch_responses(WatchResponseSchema, "watch"),
    security=KEYED,
)
@match_info_schema(WatchIdPath)
@response_schema(WatchResponseSchema, 200)
async def pause_watch(request: web.Request) -> web.Response:
    return await _set_paused(request, True)


@docs(
    tags=["watches"],
    summary="Resume a watch: a run missed while paused starts at once (one search), then on its schedule",
    responses=_watch_responses(WatchResponseSchema, "watch"),
    security=KEYED,
)
@match_info_schema(WatchIdPath)
@response_schema(WatchResponseSchema, 200)
async def resume_watch(request: web.Request) -> web.Response:
    return await _set_paused(request, False)


@docs(
    tags=["watches"],
    summary="Delete a watch: no more searches (a search already started still finishes; its result is not delivered)",
    responses=_watch_responses(EnvelopeSchema, "watch_deleted"),
    security=KEYED,
)
@match_info_schema(WatchIdPath)
async def delete_watch(request: web.Request) -> web.Response:
    watch_id = _watch_id(request)
    with deadline(request.app[SETTINGS]):
        if not await request.app[WATCHES].delete(watch_id):
            raise ApiError(ErrorType.LPS_WATCH_NOT_FOUND, "no such watch")
    return envelope_response(ErrorType.SUCCESS)


#: First runs of new watches still being started (a task each, kept so that none is collected half-way).
FIRST_RUNS: web.AppKey[set[asyncio.Future[Any]]] = web.AppKey("watch_first_runs")


async def _first_run(gateway: ChainMapProxy, created: list[dict[str, Any]], now: datetime) -> None:
    """New watches' first run: the scheduler's own conditional update (a scheduler pass racing it cannot double it).

    In a task of its own, outside the request's store deadline, so that it is started and recorded on the watches
    (`runs`, `last_job_id`) however the request ends: a store too slow for the deadline, or a client that went away,
    once answered 503 after the search had gone out and left `runs: 0`. The answer waits for it up to the deadline;
    the watches are stored either way (and the scheduler runs any whose run was never taken).
    """
    if not created:
        return
    task = asyncio.ensure_future(gateway[SCHEDULER].run(created, now))
    gateway[FIRST_RUNS].add(task)
    task.add_done_callback(gateway[FIRST_RUNS].discard)
    task.add_done_callback(_log_first_run_failure)
    # Past the deadline (or failed, logged by the callback), the answer still names the stored watches.
    with contextlib.suppress(Exception):
        await asyncio.wait_for(asyncio.shield(task), gateway[SETTINGS].mongo_timeout_ms / 1000)


def _log_first_run_failure(task: asyncio.Future[Any]) -> None:
    if not task.cancelled() and (error := task.exception()) is not None:
        log.warning("a new watch's first run failed (%s): the scheduler runs it", type(error).__name__)


async def first_runs_context(app: web.Application) -> AsyncIterator[None]:
    """Shutdown waits (bounded) for first runs still being started, so none is cut off half-recorded."""
    app[FIRST_RUNS] = set()
    yield
    pending: set[asyncio.Future[Any]] = app[FIRST_RUNS]
    if pending:
        await asyncio.wait(pending, timeout=app[SETTINGS].mongo_timeout_ms / 1000)


def setup(app: web.Application) -> None:
    app.cleanup_ctx.append(first_runs_context)
    # Any one path segment reaches the handler: a malformed id is "no such watch", not "no such route".
    one = f"{PREFIX}/watches/{{watch_id:[^/]+}}"
    app.router.add_routes(
        [
            web.post(f"{PREFIX}/watches", post_watches),
            web.get(f"{PREFIX}/watches", list_watches, allow_head=False),
            web.get(one, get_watch, allow_head=False),
            web.patch(one, patch_watch),
            web.delete(one, delete_watch),
            web.post(f"{one}/pause", pause_watch),
            web.post(f"{one}/resume", resume_watch),
        ]
    )
