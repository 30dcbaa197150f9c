"""The dashboard's watches: /ui/watches (every watch, paged, by product-code prefix), one watch's page, an admin's
form to add a watch or edit one, and pause, resume and delete, each after a confirmation page (a read key gets 433,
as from the API).

The form is loaded by the API's own schemas and stored by the API's own functions (`service.watches.create_watches`,
`change_watch`): a watch the form refuses is refused with the API's messages, shown beside their fields.

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
from infra.job_documents import parse_job_id
from infra.mongo import deadline
from schemas.codes import HTTP_STATUS, ErrorType, Priority
from schemas.search_request import PRODUCT_CODE_PATTERN
from schemas.validation import FullMatch
from schemas.watches import Notify, WatchPatchSchema, WatchRequestSchema
from service.errors import ApiError
from service.job_operations import require_admin
from service.keys import SETTINGS, WATCHES, caller_of
from service.ui.pages import error_page, page, posted_form, render
from service.ui.reads import watch_page
from service.ui.signin import UI
from service.watches import change_watch, create_watches

#: Watches per page.
WATCH_PAGE = 50


class WatchAction(StrEnum):
    """What an admin may do to a watch from the dashboard (each after a confirmation)."""

    PAUSE = "pause"
    RESUME = "resume"
    DELETE = "delete"


#: The form's fields of a watch's product, as the API names them.
PRODUCT_FIELDS = ("product_code", "keyword", "model_no", "target_price")
SCHEDULES = ("every", "cron")

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


async def act(request: web.Request) -> web.StreamResponse:
    """POST from the confirmation: pause, resume or delete, then back to the watch (or the list)."""
    form = await posted_form(request)
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


# --- the form: add a watch, edit one ------------------------------------------------------------------------------


def _price(text: str) -> int | str:
    """A typed price as the API would get it: a whole number, or the text itself (refused by the schema's own
    message, "Not a valid integer.")."""
    try:
        return int(text.strip())
    except ValueError:
        return text


def _typed(form: MultiDictProxy[Any]) -> dict[str, Any]:
    """What the form holds, as typed (shown again when it is refused)."""
    typed: dict[str, Any] = {name: str(form.get(name, "")) for name in (*PRODUCT_FIELDS, *SCHEDULES)}
    typed |= {name: str(form.get(name, "")) for name in ("notify", "priority")}
    typed["schedule"] = str(form.get("schedule", "every"))
    typed["sources"] = [str(source) for source in form.getall("sources", [])]
    return typed


def _new_watch_body(typed: dict[str, Any]) -> dict[str, Any]:
    """The POST /v1/lps/watches body the form means: the fields given, the schedule chosen."""
    product: dict[str, Any] = {name: typed[name] for name in ("product_code", "keyword", "model_no") if typed[name]}
    if typed["target_price"].strip():
        product["target_price"] = _price(typed["target_price"])
    if typed["sources"]:
        product["sources"] = typed["sources"]
    body: dict[str, Any] = {"products": [product]}
    if typed[typed["schedule"]] if typed["schedule"] in SCHEDULES else "":
        body[typed["schedule"]] = typed[typed["schedule"]]
    return body | {name: typed[name] for name in ("notify", "priority") if typed[name]}


def _patch_body(typed: dict[str, Any], stored: dict[str, Any]) -> dict[str, Any]:
    """The PATCH /v1/lps/watches/{id} body the form means: only what differs from the stored watch (a schedule sent
    again would start again from now); an emptied optional field is null, which clears it."""
    product = stored.get("product") or {}
    typed_product: dict[str, Any] = {name: typed[name] or None for name in ("keyword", "model_no")}
    typed_product["target_price"] = _price(typed["target_price"]) if typed["target_price"].strip() else None
    typed_product["sources"] = typed["sources"] or None
    body = {name: value for name, value in typed_product.items() if value != product.get(name)}
    chosen = typed["schedule"] if typed["schedule"] in SCHEDULES else "every"
    if typed[chosen] != (stored.get(chosen) or ""):
        body[chosen] = typed[chosen]
    if typed["notify"] and typed["notify"] != stored.get("notify"):
        body["notify"] = typed["notify"]
    if (typed["priority"] or None) != stored.get("priority"):
        body["priority"] = typed["priority"] or None
    return body


def _by_field(errors: Any, field: str = "form") -> dict[str, list[str]]:
    """The API's `errors` (by field, list positions as keys, nested) as messages per form field."""
    if isinstance(errors, list):
        return {field: [str(message) for message in errors]}
    found: dict[str, list[str]] = {}
    for key, value in (errors or {}).items():
        name = field if str(key).isdigit() or key in ("products", "_schema") else str(key)
        for shown, messages in _by_field(value, name).items():
            found.setdefault(shown, []).extend(messages)
    return found


def _form_context(request: web.Request, typed: dict[str, Any], stored: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "typed": typed,
        "watch": stored,
        "enabled_sources": request.config_dict[SETTINGS].search_sources,
        "notify_modes": [str(mode) for mode in Notify],
        "priorities": [priority.name for priority in Priority],
        "errors": {},
        "page": "watches",
    }


def _stored_as_typed(stored: dict[str, Any]) -> dict[str, Any]:
    product = stored.get("product") or {}
    return {
        "product_code": stored["product_code"],
        "keyword": product.get("keyword", ""),
        "model_no": product.get("model_no") or "",
        "target_price": str(product["target_price"]) if product.get("target_price") else "",
        "sources": list(product.get("sources") or []),
        "schedule": "cron" if stored.get("cron") else "every",
        "every": stored.get("every") or "",
        "cron": stored.get("cron") or "",
        "notify": stored.get("notify") or "",
        "priority": stored.get("priority") or "",
    }


async def new_watch_form(request: web.Request) -> tuple[str, dict[str, Any]]:
    require_admin(caller_of(request), "adding a watch")
    blank = {name: "" for name in (*PRODUCT_FIELDS, *SCHEDULES, "priority")} | {"schedule": "every", "sources": []}
    return "watch_form.html", _form_context(request, blank | {"notify": str(Notify.ON_CHANGE)}, None)


async def edit_watch_form(request: web.Request) -> tuple[str, dict[str, Any]]:
    require_admin(caller_of(request), "a change of a watch")
    stored = await _watch(request)
    return "watch_form.html", _form_context(request, _stored_as_typed(stored), stored)


def _save(*, editing: bool) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    async def handler(request: web.Request) -> web.StreamResponse:
        """POST of the form: stored by the API's own rules; refused, the form again with the API's messages."""
        form = await posted_form(request)
        if isinstance(form, web.StreamResponse):
            return form
        typed = _typed(form)
        stored = None
        try:
            require_admin(caller_of(request), "a change of a watch" if editing else "adding a watch")
            if editing:
                stored = await _watch(request)
                typed["product_code"] = stored["product_code"]
            settings = request.config_dict[SETTINGS]
            try:
                if stored is not None:
                    body = WatchPatchSchema(min_interval=settings.watch_min_interval).load(_patch_body(typed, stored))
                    if body:
                        await change_watch(request.config_dict, stored["_id"], body)
                    raise web.HTTPSeeOther(f"{UI}/watches/{stored['watch_id']}")
                body = WatchRequestSchema(min_interval=settings.watch_min_interval).load(_new_watch_body(typed))
                [created] = await create_watches(request.config_dict, body)
            except ValidationError as refused:
                raise ApiError(
                    ErrorType.INVALID_REQUEST_DATA, "invalid request data", errors=refused.messages
                ) from None
        except ApiError as error:
            if error.error_type is not ErrorType.INVALID_REQUEST_DATA:
                return error_page(request, error)
            context = _form_context(request, typed, stored) | {"errors": _by_field(error.errors), "may_change": True}
            return render(request, "watch_form.html", context, HTTP_STATUS[error.error_type])
        raise web.HTTPSeeOther(f"{UI}/watches/{created['watch_id']}")

    return handler


def setup(app: web.Application) -> None:
    """Add the watches' routes to the dashboard's sub-application (paths relative to /ui); the form's before the
    routes whose segments would take `new` and `edit`."""
    app.router.add_get("/watches", page(watches))
    app.router.add_get("/watches/new", page(new_watch_form))
    app.router.add_post("/watches/new", _save(editing=False))
    app.router.add_get("/watches/{watch_id}/edit", page(edit_watch_form))
    app.router.add_post("/watches/{watch_id}/edit", _save(editing=True))
    app.router.add_get("/watches/{watch_id}", page(watch))
    app.router.add_get("/watches/{watch_id}/{action}", page(confirmation))
    app.router.add_post("/watches/{watch_id}/{action}", act)
