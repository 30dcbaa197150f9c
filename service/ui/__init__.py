"""The operations dashboard at /ui: server-rendered pages over the same operations the API uses.

An aiohttp sub-application (`dashboard`, mounted by `setup`), as Sidekiq::Web is over Sidekiq::API: its handlers only
parse a request, call `service.job_operations` and `service.ui.reads` (plain functions over the repositories), and
render a page. What the gateway holds (settings, repositories, the key check) is read through `request.config_dict`:
the sub-application keeps only its templates. The gateway's middlewares run around its handlers as around every
other (request metrics, error envelopes, and the rate limit, which tells dashboard pages by their path).

When LPS_API_KEYS is set every page needs a signed-in key (`service.ui.signin`: a server-side session, never the key
in a cookie), with the role the API gives that key. Nothing is loaded from the internet.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp_jinja2
import jinja2
from aiohttp import web
from markupsafe import Markup
from multidict import MultiDict, MultiDictProxy, MultiMapping
from yarl import URL

from infra.clock import utcnow
from infra.display import utc_text
from infra.job_documents import parse_job_id
from infra.job_listing import LISTING_WALK
from infra.mongo import deadline
from infra.snapshots import snapshot_ids
from infra.waiting import waiting
from schemas.codes import HTTP_STATUS, ErrorType, JobStatus, JobType
from schemas.envelope import json_default
from schemas.job_listing import JOB_PAGE_DEFAULT
from schemas.offers import SOURCE_OUTCOMES
from service.auth import KEY_CHECK
from service.errors import ApiError
from service.job_operations import BULK_PAGES, JobOperations, dead_only, require_admin
from service.keys import DATABASE, JOB_OPERATIONS, SETTINGS, caller_of
from service.snapshots import snapshot_file
from service.ui import queues, watches
from service.ui.live import REFRESH_SECONDS, live, live_context
from service.ui.products import product
from service.ui.reads import (
    KNOWN_ERROR_TYPES,
    NO_ERROR_TYPE,
    dead_totals,
    duration,
    known_error_type,
    listing,
    lives,
    number,
    running_for,
)
from service.ui.signin import (
    STATIC,
    UI,
    VISITOR,
    FormRefused,
    Visitor,
    checked_form,
    csrf_token,
    end_session,
    keep_token,
    protect_answer,
    start_session,
    visitor,
)

#: A dashboard page: gets the request, returns the template and its context.
Page = Callable[[web.Request], Awaitable[tuple[str, dict[str, Any]]]]


def _operations(request: web.Request) -> JobOperations:
    return request.config_dict[JOB_OPERATIONS]


def _render(request: web.Request, template: str, context: dict[str, Any], status: int = 200) -> web.Response:
    token = csrf_token(request)
    context = context | {"csrf": token, "visitor": request.get(VISITOR)}
    response = aiohttp_jinja2.render_template(template, request, context, status=status)
    keep_token(request, response, token)
    return response


def _see_other(location: str) -> web.Response:
    return web.Response(status=303, headers={"Location": location})


def _sign_in_first(request: web.Request) -> web.Response:
    """To the sign-in form, coming back here afterwards (a deep link survives signing in)."""
    return _see_other(str(URL(f"{UI}/login").with_query(next=request.path_qs)))


def _return_target(value: object) -> str:
    """Where to go after signing in: a path of the dashboard itself, never another site (`//evil`, `/ui@evil`)."""
    target = str(value or "")
    parts = urlsplit(target)
    inside = target == UI or target.startswith((f"{UI}/", f"{UI}?"))
    if not inside or parts.scheme or parts.netloc or "\\" in target:
        return UI
    return target


async def _signed_in(request: web.Request) -> Visitor | web.StreamResponse:
    """The visitor, or the answer to give instead: the sign-in form, or 429 past the address's refused keys."""
    try:
        found = await visitor(request)
    except ApiError as limited:
        return _error_page(request, limited)
    return found if found is not None else _sign_in_first(request)


async def _posted_form(request: web.Request) -> MultiDictProxy[Any] | web.StreamResponse:
    """A signed-in visitor's form once it proved to come from this dashboard, or the page that says why not."""
    found = await _signed_in(request)
    if not isinstance(found, Visitor):
        return found
    try:
        return await checked_form(request)
    except FormRefused as refused:
        return _form_refused_page(request, str(refused))


def _form_refused_page(request: web.Request, why: str) -> web.Response:
    """A form that cannot be trusted changed nothing: say so, and offer the way back (never a JSON body)."""
    back = _return_target(urlsplit(request.headers.get("Referer", "")).path) if request.get(VISITOR) else UI
    return _render(request, "form_refused.html", {"why": why, "back": back, "page": ""}, status=403)


def page(build: Page) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    """A page that needs a signed-in key (when keys are configured); the API's refusals become readable pages."""

    async def handler(request: web.Request) -> web.StreamResponse:
        found = await _signed_in(request)
        if not isinstance(found, Visitor):
            return found
        try:
            template, context = await build(request)
            context["may_change"] = found.may_change
        except ApiError as error:
            return _error_page(request, error)
        return _render(request, template, context)

    return handler


async def overview(request: web.Request) -> tuple[str, dict[str, Any]]:
    return "overview.html", await live_context(request)


def _filters(query: MultiMapping[str], *, without: tuple[str, ...] = ()) -> dict[str, str]:
    """The listing filters a page shows and passes on (its cursor is the page's own)."""
    return {key: value for key, value in query.items() if key not in ("cursor", *without)}


def _short_page(found: list[dict[str, Any]], next_cursor: str | None, query: MultiMapping[str]) -> bool:
    """A page with fewer jobs than asked that still has a next one: its walk stopped (a filter read on the way)."""
    return next_cursor is not None and len(found) < int(query.get("limit", JOB_PAGE_DEFAULT))


def _listed(request: web.Request) -> dict[str, Any]:
    """What a list that refreshes itself needs (static/refresh.js): its own address (its filters and cursor kept),
    how often, and when its jobs were read."""
    return {"own_url": request.rel_url.path_qs, "refresh_seconds": REFRESH_SECONDS, "taken_at": utcnow()}


#: Filters whose values are upper-case words: the form takes them in any case.
_UPPER_CASE_FILTERS = ("error_type", "source_outcome")


def _canonical_query(request: web.Request) -> None:
    """The filter form sends its empty fields ("any"): drop them rather than refuse them; an error type or outcome
    typed in lower case is the upper-case one. Either way, to the page's own address with the query as it is meant."""
    given = [
        (key, known_error_type(value) if key in _UPPER_CASE_FILTERS else value)
        for key, value in request.query.items()
        if value.strip()
    ]
    if given != list(request.query.items()):
        raise web.HTTPSeeOther(str(request.rel_url.with_query(given)))


def filter_choices(request: web.Request) -> dict[str, Any]:
    """What the filter form offers (filters.html): the sources this deployment enables, the known error types."""
    return {
        "statuses": [s.name for s in JobStatus],
        "types": [t.name for t in JobType],
        "sources": list(request.config_dict[SETTINGS].search_sources),
        "source_outcomes": SOURCE_OUTCOMES,
        "error_types": KNOWN_ERROR_TYPES,
        "walk": LISTING_WALK,
    }


def _find_job(query: MultiMapping[str]) -> None:
    """The job list's "find by job id": straight to the job's page (a malformed id is refused with 101)."""
    raw = query.get("job_id", "").strip()
    job_id = parse_job_id(raw.lower())
    if job_id is None:
        message = "must be a job id: 24 hex digits"
        raise ApiError(ErrorType.INVALID_REQUEST_DATA, "invalid job id", errors={"job_id": [message]})
    raise web.HTTPSeeOther(f"{UI}/jobs/{job_id}")


async def jobs(request: web.Request) -> tuple[str, dict[str, Any]]:
    _canonical_query(request)
    if "job_id" in request.query:
        _find_job(request.query)
    found, next_cursor = await _operations(request).page(request.query, caller_of(request))
    short_page = _short_page(found, next_cursor, request.query)
    context = {"jobs": found, "next_cursor": next_cursor, "short_page": short_page, "page": "jobs"} | _listed(request)
    return "jobs.html", context | {"filters": _filters(request.query)} | filter_choices(request)


async def dead(request: web.Request) -> tuple[str, dict[str, Any]]:
    _canonical_query(request)
    found, next_cursor = await _operations(request).page(dead_only(request.query), caller_of(request))
    groups: dict[str, list[dict[str, Any]]] = {}
    for each in found:
        groups.setdefault((each.get("last_error") or {}).get("type", NO_ERROR_TYPE), []).append(each)
    with deadline(request.config_dict[SETTINGS]):
        totals = await dead_totals(request.config_dict[DATABASE], list(groups))
    filters = _filters(request.query, without=("status",))
    links = {
        error_type: str(URL(f"{UI}/dead").with_query(filters | {"error_type": error_type}))
        for error_type in groups
        if error_type != NO_ERROR_TYPE
    }
    context = {"groups": groups, "totals": totals, "group_links": links, "next_cursor": next_cursor, "page": "dead"}
    context |= {"short_page": _short_page(found, next_cursor, request.query), "bulk_cap": BULK_REDRIVE_CAP}
    context |= _listed(request)
    return "dead.html", context | {"filters": filters} | filter_choices(request)


#: The most RUNNING jobs the "now running" page shows (the newest first).
RUNNING_SHOWN = 200


async def running(request: web.Request) -> tuple[str, dict[str, Any]]:
    """RUNNING jobs (Sidekiq's Busy page): worker, attempt, how long it has run; through the listing's status index.
    `?job_type=` shows one type's (the overview's consumers of a queue lead there), checked as the listing checks it."""
    parameters = MultiDict(status=JobStatus.RUNNING.name, limit=str(RUNNING_SHOWN))
    job_type = request.query.get("job_type")
    if job_type:
        parameters["job_type"] = job_type
    found, next_cursor = await _operations(request).page(parameters, caller_of(request))
    now = utcnow()
    rows = [(each, running_for(each, now)) for each in found]
    rows.sort(key=lambda row: row[0].get("started_at") or now)
    context = {"rows": rows, "more": next_cursor is not None, "now": now, "job_type": job_type, "page": "running"}
    context |= _listed(request)
    return "running.html", context


#: The most jobs one bulk re-drive takes (a confirmation says so; the operator re-drives again for the rest).
BULK_REDRIVE_CAP = 1000


@dataclass(frozen=True, slots=True)
class BulkSelection:
    """The DEAD jobs a bulk re-drive takes: those ticked, or those matching the dead page's filters."""

    job_ids: list[str]
    #: "All matching" the filters (which may be none: every dead job), rather than ticked jobs.
    matching: bool
    filters: dict[str, str]
    #: More jobs match beyond the cap (or beyond the pages read): re-drive again for them.
    more: bool


async def _bulk_selection(request: web.Request, fields: MultiMapping[str]) -> BulkSelection:
    """Read the selection from a confirmation's query or form: `job_id` (repeated), or `matching` and filters.

    The filters are the listing's own, validated by it (101 for anything else); the jobs are collected by the same
    listing the dead page shows (`JobOperations.dead_matching`), up to BULK_REDRIVE_CAP.
    """
    if "matching" not in fields:
        job_ids = list(dict.fromkeys(fields.getall("job_id", [])))
        if not job_ids or len(job_ids) > BULK_REDRIVE_CAP:
            message = f"tick between 1 and {BULK_REDRIVE_CAP:,} jobs"
            raise ApiError(ErrorType.INVALID_REQUEST_DATA, message, errors={"job_id": [message]})
        return BulkSelection(job_ids, matching=False, filters={}, more=False)
    filters = _filters(fields, without=("matching", "csrf", "job_id", "status", "limit"))
    found, more = await _operations(request).dead_matching(filters, caller_of(request), cap=BULK_REDRIVE_CAP)
    return BulkSelection(found, matching=True, filters=filters, more=more)


@dataclass(frozen=True, slots=True)
class BulkAction:
    """What the dead page does to many jobs at once (re-drive, discard): one confirmation page, one outcome page."""

    name: str
    verb: str
    #: What happens to each job, for the confirmation (HTML).
    effect: Markup
    done: str


BULK_ACTIONS = {
    "redrive": BulkAction(
        "redrive",
        "Re-drive",
        Markup("re-driven: PENDING again with fresh attempts, as <code>POST /v1/lps/jobs/{id}/retry</code> does."),
        "re-driven",
    ),
    "discard": BulkAction(
        "discard",
        "Discard",
        Markup(
            "discarded for good, as <code>DELETE /v1/lps/jobs/{id}</code> does: gone from the lists and the dead "
            'totals. The <a href="/ui/audit?action=discard">audit trail</a> keeps who discarded each, when, its '
            "product and last error type; the products' price history stays."
        ),
        "discarded",
    ),
}


def _bulk_action(request: web.Request) -> BulkAction:
    return BULK_ACTIONS[request.match_info["action"]]


async def redrive_confirmation(request: web.Request) -> tuple[str, dict[str, Any]]:
    """GET: how many jobs a bulk re-drive (or discard) would take, and the POST form that does it (nothing changes
    here)."""
    action = _bulk_action(request)
    require_admin(caller_of(request), action.name)
    selection = await _bulk_selection(request, request.query)
    context = {"selection": selection, "page": "dead", "cap": BULK_REDRIVE_CAP, "pages": BULK_PAGES, "bulk": action}
    return "bulk_redrive.html", context


async def bulk_redrive(request: web.Request) -> web.StreamResponse:
    """POST from the confirmation: re-drive (or discard) each job by the API's own rules; show what became of each."""
    form = await _posted_form(request)
    if isinstance(form, web.StreamResponse):
        return form
    action = _bulk_action(request)
    try:
        require_admin(caller_of(request), action.name)
        selection = await _bulk_selection(request, form)
    except ApiError as error:
        return _error_page(request, error)
    each = _operations(request).discard_each if action.name == "discard" else _operations(request).redrive_each
    outcomes = await each(selection.job_ids, caller_of(request))
    context = {"outcomes": outcomes, "selection": selection, "page": "dead", "cap": BULK_REDRIVE_CAP, "bulk": action}
    return _render(request, "bulk_redriven.html", context)


def _error_page(request: web.Request, error: ApiError) -> web.Response:
    context = {"error": error, "code": error.error_type.value, "page": ""}
    response = _render(request, "error.html", context, status=HTTP_STATUS[error.error_type])
    response.headers.update(error.headers or {})  # a 429's Retry-After
    return response


async def redrive_one_confirmation(request: web.Request) -> tuple[str, dict[str, Any]]:
    """GET from the job and dead pages' Re-drive button: what the re-drive will do, and the POST form that does it
    (nothing changes here), as for the bulk re-drive."""
    require_admin(caller_of(request))
    return "redrive_one.html", {"job": await _operations(request).get(request.match_info["job_id"]), "page": "jobs"}


async def redrive(request: web.Request) -> web.StreamResponse:
    """POST from the confirmation: re-drive one DEAD job by the API's own rules, then show it."""
    form = await _posted_form(request)
    if isinstance(form, web.StreamResponse):
        return form
    try:
        redriven = await _operations(request).redrive(request.match_info["job_id"], caller_of(request))
    except ApiError as error:
        return _error_page(request, error)
    raise web.HTTPSeeOther(f"{UI}/jobs/{redriven['job_id']}")


async def discard_one_confirmation(request: web.Request) -> tuple[str, dict[str, Any]]:
    """GET from the job page's Discard button: what discarding does, and the POST form that does it."""
    require_admin(caller_of(request), "discard")
    return "discard_one.html", {"job": await _operations(request).get(request.match_info["job_id"]), "page": "dead"}


async def discard_one(request: web.Request) -> web.StreamResponse:
    """POST from the confirmation: discard one DEAD job by the API's own rules, then to the dead page."""
    form = await _posted_form(request)
    if isinstance(form, web.StreamResponse):
        return form
    try:
        await _operations(request).discard(request.match_info["job_id"], caller_of(request))
    except ApiError as error:
        return _error_page(request, error)
    raise web.HTTPSeeOther(f"{UI}/dead")


async def job(request: web.Request) -> tuple[str, dict[str, Any]]:
    operations = _operations(request)
    shown = await operations.get(request.match_info["job_id"])
    delivery_job = None
    if shown["job_type"] == JobType.SEARCH.name:
        # Through the listing, as GET /v1/lps/jobs?source_job_id= reads it (one point lookup on its index).
        deliveries, _ = await operations.page(MultiDict(source_job_id=shown["job_id"]), caller_of(request))
        delivery_job = deliveries[0] if deliveries else None
    now = utcnow()
    context: dict[str, Any] = {
        "job": shown,
        "delivery_job": delivery_job,
        "snapshots": snapshot_ids(shown),
        "page": "jobs",
        "now": now,
        "waiting": waiting(shown, now),
        "lives": lives(shown),
        "running_for": running_for(shown, now),
        # The document as GET /v1/lps/jobs/{id} answers it, for copying.
        "raw": json.dumps(shown, default=json_default, indent=2, ensure_ascii=False),
    }
    return "job.html", context


async def snapshot(request: web.Request) -> web.StreamResponse:
    """A blocked page's HTML or screenshot, as the API serves it (sandboxed), for a signed-in dashboard."""
    found = await _signed_in(request)
    if not isinstance(found, Visitor):
        return found
    try:
        snapshot_id, kind = request.match_info["snapshot_id"], request.match_info["kind"]
        return await snapshot_file(request.config_dict[DATABASE], request.config_dict[SETTINGS], snapshot_id, kind)
    except ApiError as error:
        return _error_page(request, error)


async def login_form(request: web.Request) -> web.StreamResponse:
    return _render(request, "login.html", {"page": "login", "next": _return_target(request.query.get("next"))})


async def login(request: web.Request) -> web.StreamResponse:
    """The sign-in form's POST: a known key starts a new session; a wrong one counts against the address."""
    try:
        form = await checked_form(request)
    except FormRefused as refused:
        return _form_refused_page(request, str(refused))
    key, target = str(form.get("key", "")), _return_target(form.get("next"))
    context = {"page": "login", "next": target}
    if not request.config_dict[SETTINGS].api_keys:
        raise web.HTTPSeeOther(UI)  # nobody signs in where no keys are configured
    keys = request.config_dict[KEY_CHECK]
    name = keys.identify(key) if key else None
    if name is None:
        try:
            await keys.refused(request)  # guessing keys here is as slow as through X-API-Key, and counted with it
        except ApiError as limited:
            error = "too many unknown keys from this address; try again later"
            response = _render(request, "login.html", context | {"error": error}, status=429)
            response.headers.update(limited.headers or {})
            return response
        return _render(request, "login.html", context | {"error": "unknown key"}, status=403)
    response = _see_other(target)
    await start_session(request, response, name)
    return response


async def logout(request: web.Request) -> web.StreamResponse:
    """Sign-out: the session ends at every gateway, and the browser forgets its cookie."""
    form = await _posted_form(request)
    if isinstance(form, web.StreamResponse):
        return form
    response = _see_other(f"{UI}/login")
    await end_session(request, response)
    return response


def _link(value: object) -> str:
    """Only http(s) addresses become links: a scraped `javascript:` URL must not run in an operator's browser."""
    text = str(value or "")
    return text if text.lower().startswith(("https://", "http://")) else "#"


def dashboard() -> web.Application:
    """The dashboard as a sub-application (routes relative to /ui): its routes, its templates (autoescaped), its
    static files (shipped in this package), and no page of it in a frame nor in the browser's cache (`protect_answer`:
    its signal runs for every answer under /ui, redirects, 404s and the gateway middlewares' refusals too)."""
    here = Path(__file__).parent
    app = web.Application()
    aiohttp_jinja2.setup(
        app,
        loader=jinja2.FileSystemLoader(here / "templates"),
        autoescape=jinja2.select_autoescape(default=True),
        filters={"when": utc_text, "link": _link, "number": number, "listing": listing, "duration": duration},
    )
    app.on_response_prepare.append(protect_answer)
    app.router.add_get("", page(overview))
    app.router.add_get("/jobs", page(jobs))
    app.router.add_get("/jobs/{job_id}", page(job))
    app.router.add_get("/jobs/{job_id}/redrive", page(redrive_one_confirmation))
    app.router.add_post("/jobs/{job_id}/redrive", redrive)
    app.router.add_get("/dead", page(dead))
    app.router.add_get("/jobs/{job_id}/discard", page(discard_one_confirmation))
    app.router.add_post("/jobs/{job_id}/discard", discard_one)
    app.router.add_get("/dead/{action:redrive|discard}", page(redrive_confirmation))
    app.router.add_post("/dead/{action:redrive|discard}", bulk_redrive)
    app.router.add_get("/snapshots/{snapshot_id}/{kind}", snapshot)
    app.router.add_get("/products/{product_code}", page(product))
    app.router.add_get("/running", page(running))
    watches.setup(app, page, posted=_posted_form, error_page=_error_page, render=_render)
    queues.setup(app, page, posted=_posted_form, error_page=_error_page)
    app.router.add_get("/live", page(live))
    app.router.add_get("/login", login_form)
    app.router.add_post("/login", login)
    app.router.add_post("/logout", logout)
    app.router.add_static(STATIC.removeprefix(UI).rstrip("/"), here / "static")
    return app


def setup(app: web.Application) -> None:
    """Mount the dashboard at /ui, and the browser's icon at the site's root."""
    app.add_subapp(UI, dashboard())
    app.router.add_get("/favicon.ico", favicon)


async def favicon(request: web.Request) -> web.StreamResponse:
    """The browser's icon request at the site's root: the dashboard's icon, not a 404 on every page load."""
    headers = {"Content-Type": "image/x-icon", "Cache-Control": "max-age=86400"}
    return web.FileResponse(Path(__file__).parent / "static" / "favicon.ico", headers=headers)
