"""The dashboard's watches: /ui/watches (every watch, paged, by product-code prefix), one watch's page, and an
admin's pause, resume and delete, each after a confirmation page (a read key gets 433, as from the API).

Handlers only turn the request into calls of `service.ui.reads` and `WatchRepository`, and their answers into pages.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from enum import StrEnum
from typing import Any

from aiohttp import web
from bson import ObjectId
from marshmallow import ValidationError
from multidict import MultiDictProxy

from infra.clock import utcnow
from infra.jobs import parse_job_id
from infra.mongo import deadline
from schemas.api import PRODUCT_CODE_PATTERN, FullMatch
from schemas.codes import ErrorType
from service.errors import ApiError
from service.job_operations import require_admin
from service.keys import SETTINGS, WATCHES, caller_of
from service.ui.reads import watch_page
from service.ui.signin import UI

#: Watches per page.
WATCH_PAGE = 50


class WatchAction(StrEnum):
    """What an admin may do to a watch from the dashboard (each after a confirmation)."""

    PAUSE = "pause"
    RESUME = "resume"
    DELETE = "delete"


Page = Callable[[web.Request], Awaitable[tuple[str, dict[str, Any]]]]
PageWrapper = Callable[[Page], Callable[[web.Request], Awaitable[web.StreamResponse]]]
PostedForm = Callable[[web.Request], Awaitable[MultiDictProxy[Any] | web.StreamResponse]]
ErrorPage = Callable[[web.Request, ApiError], web.Response]

_CODE = FullMatch(PRODUCT_CODE_PATTERN)


def _product_code(value: str | None, name: str) -> str | None:
    """A product code (or prefix) from the query, checked before it reaches a query (101 otherwise)."""
    if not value:
        return None
    try:
        return str(_CODE(value))
    except ValidationError as error:
        raise ApiError(ErrorType.INVALID_REQUEST_DATA, "invalid query", errors={name: error.messages}) from None


def _watch_id(request: web.Request) -> ObjectId:
    watch_id = parse_job_id(request.match_info["watch_id"])
    if watch_id is None:
        raise ApiError(ErrorType.LPS_WATCH_NOT_FOUND, "no such watch")
    return watch_id


def _shown(document: dict[str, Any]) -> dict[str, Any]:
    """A stored watch as the pages show it: its times stay datetimes (for "in 3 min"), its id is `watch_id`."""
    return document | {"watch_id": str(document["_id"])}


async def _watch(request: web.Request) -> dict[str, Any]:
    with deadline(request.config_dict[SETTINGS]):
        found = await request.config_dict[WATCHES].get(_watch_id(request))
    if found is None:
        raise ApiError(ErrorType.LPS_WATCH_NOT_FOUND, "no such watch")
    return _shown(found)


def _action(request: web.Request) -> WatchAction:
    try:
        return WatchAction(request.match_info["action"])
    except ValueError:
        raise web.HTTPNotFound() from None


async def watches(request: web.Request) -> tuple[str, dict[str, Any]]:
    prefix = _product_code(request.query.get("product_code_prefix", "").strip(), "product_code_prefix")
    after = _product_code(request.query.get("cursor"), "cursor")
    with deadline(request.config_dict[SETTINGS]):
        found = await watch_page(request.config_dict[WATCHES], prefix=prefix, after=after, limit=WATCH_PAGE)
    context = {
        "watches": [_shown(each) for each in found.watches],
        "next_cursor": found.next_cursor,
        "prefix": prefix or "",
        "page": "watches",
        "now": utcnow(),
    }
    return "watches.html", context


async def watch(request: web.Request) -> tuple[str, dict[str, Any]]:
    return "watch.html", {"watch": await _watch(request), "page": "watches", "now": utcnow()}


async def confirmation(request: web.Request) -> tuple[str, dict[str, Any]]:
    """GET: what the action will do to the watch, and the POST form that does it (nothing changes here)."""
    action = _action(request)
    require_admin(caller_of(request), f"{action} of a watch")
    return "watch_action.html", {"watch": await _watch(request), "action": action, "page": "watches"}


def _act(posted: PostedForm, error_page: ErrorPage) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    async def handler(request: web.Request) -> web.StreamResponse:
        """POST from the confirmation: pause, resume or delete, then back to the watch (or the list)."""
        form = await posted(request)
        if isinstance(form, web.StreamResponse):
            return form
        try:
            action = _action(request)
            require_admin(caller_of(request), f"{action} of a watch")
            watch_id = _watch_id(request)
            repository, now = request.config_dict[WATCHES], utcnow()
            with deadline(request.config_dict[SETTINGS]):
                if action is WatchAction.DELETE:
                    done: object = await repository.delete(watch_id) or None
                else:
                    done = await (repository.pause if action is WatchAction.PAUSE else repository.resume)(watch_id, now)
            if done is None:
                raise ApiError(ErrorType.LPS_WATCH_NOT_FOUND, "no such watch")
        except ApiError as error:
            return error_page(request, error)
        raise web.HTTPSeeOther(f"{UI}/watches" if action is WatchAction.DELETE else f"{UI}/watches/{watch_id}")

    return handler


def setup(app: web.Application, page: PageWrapper, *, posted: PostedForm, error_page: ErrorPage) -> None:
    """Add the watches' routes to the dashboard's sub-application (paths relative to /ui)."""
    app.router.add_get("/watches", page(watches))
    app.router.add_get("/watches/{watch_id}", page(watch))
    app.router.add_get("/watches/{watch_id}/{action}", page(confirmation))
    app.router.add_post("/watches/{watch_id}/{action}", _act(posted, error_page))
