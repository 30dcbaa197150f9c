"""The operations dashboard at /ui: server-rendered pages over the same repository reads the API uses.

When LPS_API_KEYS is set every page needs a key: the login form keeps it in an HttpOnly, SameSite=Strict cookie,
checked on each request exactly as the API checks `X-API-Key`. Nothing is loaded from the internet.
"""

from __future__ import annotations

import asyncio
import itertools
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp_jinja2
import jinja2
from aiohttp import web
from multidict import MultiDict, MultiDictProxy, MultiMapping

from infra.jobs import LISTING_WALK
from infra.snapshots import snapshot_ids
from schemas.api import JOB_PAGE_DEFAULT, JOB_PAGE_MAX, SOURCE_NAMES
from schemas.codes import HTTP_STATUS, ErrorType, JobErrorType, JobStatus, JobType
from schemas.offers import SourceOutcome
from service.auth import ApiKeyMiddleware, api_key_check
from service.errors import ApiError
from service.keys import CLIENT_ROLE, SETTINGS
from service.routes import read_job, read_job_page, redrive_job, require_admin
from service.snapshots import snapshot_file
from service.ui.live import live, live_context
from service.ui.products import product

#: A dashboard page: gets the request, returns the template and its context.
Page = Callable[[web.Request], Awaitable[tuple[str, dict[str, Any]]]]

UI = "/ui"
KEY_COOKIE = "lps_ui_key"
#: The per-session token every dashboard form carries and every POST checks (SameSite alone is not enough).
CSRF_COOKIE = "lps_ui_csrf"

_KEYS = web.AppKey("ui_keys", ApiKeyMiddleware)


def _cookie(request: web.Request, response: web.StreamResponse, name: str, value: str) -> None:
    # Secure when the request came over HTTPS, so the browser never sends the key back over plain HTTP; not always,
    # since a plain-HTTP dashboard (`lps dev`, a loopback gateway) would then never get its cookies back.
    # `request.secure` is the connection's own TLS: a proxy's X-Forwarded-Proto counts only where a middleware
    # that trusts that proxy rewrites the request's scheme (LPS installs none; it would be configured, never assumed).
    response.set_cookie(name, value, path=UI, httponly=True, samesite="Strict", secure=request.secure)


def _csrf_token(request: web.Request) -> str:
    return request.cookies.get(CSRF_COOKIE) or secrets.token_urlsafe(32)


def _key_name(request: web.Request) -> str | None:
    """The name of the key in the cookie, or "" when no keys are configured (everyone may look).

    A known key's role is stored under CLIENT_ROLE, as the API's key middleware does: the same checks apply.
    """
    settings = request.app[SETTINGS]
    if not settings.api_keys:
        return ""
    presented = request.cookies.get(KEY_COOKIE)
    name = request.app[_KEYS].identify(presented) if presented else None
    if name is not None:
        request[CLIENT_ROLE] = settings.key_role(name)
    return name


def _render(request: web.Request, template: str, context: dict[str, Any], status: int = 200) -> web.Response:
    token = _csrf_token(request)
    response = aiohttp_jinja2.render_template(template, request, context | {"csrf": token}, status=status)
    _cookie(request, response, CSRF_COOKIE, token)
    return response


async def _check_csrf(request: web.Request) -> MultiDictProxy[Any]:
    form = await request.post()
    expected = request.cookies.get(CSRF_COOKIE)
    if not expected or not secrets.compare_digest(str(form.get("csrf", "")), expected):
        raise web.HTTPForbidden(text="the form is stale or not from this dashboard; reload the page")
    return form


def page(build: Page) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    """A page that needs a signed-in key (when keys are configured); the API's refusals become readable pages."""

    async def handler(request: web.Request) -> web.StreamResponse:
        if _key_name(request) is None:
            raise web.HTTPSeeOther(f"{UI}/login")
        try:
            template, context = await build(request)
            context["may_change"] = request.get(CLIENT_ROLE) != "read"
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


def _drop_empty_fields(request: web.Request) -> None:
    """The filter form sends its empty fields ("any"): drop them rather than refuse them."""
    if any(not value for value in request.query.values()):
        given = [(key, value) for key, value in request.query.items() if value]
        raise web.HTTPSeeOther(str(request.rel_url.with_query(given)))


#: What the filter form offers (filters.html).
FILTER_CHOICES = {
    "statuses": [s.name for s in JobStatus],
    "types": [t.name for t in JobType],
    "sources": list(SOURCE_NAMES),
    "source_outcomes": [*SourceOutcome, JobErrorType.CONFIG.value],
    "walk": LISTING_WALK,
}


async def jobs(request: web.Request) -> tuple[str, dict[str, Any]]:
    _drop_empty_fields(request)
    found, next_cursor = await read_job_page(request)
    short_page = _short_page(found, next_cursor, request.query)
    context = {"jobs": found, "next_cursor": next_cursor, "short_page": short_page, "page": "jobs"}
    return "jobs.html", context | {"filters": _filters(request.query)} | FILTER_CHOICES


def _dead_only(filters: MultiMapping[str] | dict[str, str]) -> MultiDict[str]:
    parameters = MultiDict(filters)
    parameters["status"] = JobStatus.DEAD.name
    return parameters


async def dead(request: web.Request) -> tuple[str, dict[str, Any]]:
    _drop_empty_fields(request)
    found, next_cursor = await read_job_page(request, _dead_only(request.query))
    groups: dict[str, list[dict[str, Any]]] = {}
    for each in found:
        groups.setdefault((each.get("last_error") or {}).get("type", "unknown"), []).append(each)
    context = {"groups": groups, "next_cursor": next_cursor, "page": "dead", "bulk_cap": BULK_REDRIVE_CAP}
    context |= {"short_page": _short_page(found, next_cursor, request.query)}
    return "dead.html", context | {"filters": _filters(request.query, without=("status",))} | FILTER_CHOICES


#: The most jobs one bulk re-drive takes (a confirmation says so; the operator re-drives again for the rest).
BULK_REDRIVE_CAP = 1000
#: The most listing pages one "all matching" collection reads: a rare filter stops there, not at history's end.
_BULK_PAGES = 10
#: Re-drives in flight at once in a bulk re-drive: the store and the broker see a few, not a thousand.
_BULK_CONCURRENCY = 16


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
    listing the dead page shows, in pages, up to BULK_REDRIVE_CAP.
    """
    if "matching" not in fields:
        job_ids = list(dict.fromkeys(fields.getall("job_id", [])))
        if not job_ids or len(job_ids) > BULK_REDRIVE_CAP:
            message = f"tick between 1 and {BULK_REDRIVE_CAP:,} jobs"
            raise ApiError(ErrorType.INVALID_REQUEST_DATA, message, errors={"job_id": [message]})
        return BulkSelection(job_ids, matching=False, filters={}, more=False)
    filters = _filters(fields, without=("matching", "csrf", "job_id", "status", "limit"))
    parameters = _dead_only(filters)
    collected: list[str] = []
    next_cursor: str | None = None
    for _ in range(_BULK_PAGES):
        parameters["limit"] = str(min(JOB_PAGE_MAX, BULK_REDRIVE_CAP - len(collected)))
        found, next_cursor = await read_job_page(request, parameters)
        collected += [each["job_id"] for each in found]
        if next_cursor is None or len(collected) >= BULK_REDRIVE_CAP:
            break
        parameters["cursor"] = next_cursor
    return BulkSelection(collected, matching=True, filters=filters, more=next_cursor is not None)


async def redrive_confirmation(request: web.Request) -> tuple[str, dict[str, Any]]:
    """GET: how many jobs a bulk re-drive would take, and the POST form that does it (nothing changes here)."""
    require_admin(request)
    selection = await _bulk_selection(request, request.query)
    context = {"selection": selection, "page": "dead", "cap": BULK_REDRIVE_CAP, "pages": _BULK_PAGES}
    return "bulk_redrive.html", context


async def bulk_redrive(request: web.Request) -> web.StreamResponse:
    """POST from the confirmation: re-drive each job by the API's own rules; show what became of each."""
    if _key_name(request) is None:
        raise web.HTTPSeeOther(f"{UI}/login")
    form = await _check_csrf(request)
    try:
        require_admin(request)
        selection = await _bulk_selection(request, form)
    except ApiError as error:
        return _error_page(request, error)
    outcomes: dict[str, list[str]] = {}
    for batch in itertools.batched(selection.job_ids, _BULK_CONCURRENCY, strict=False):
        answers = await asyncio.gather(*(_redrive_one(request, each) for each in batch))
        for job_id, outcome in zip(batch, answers, strict=True):
            outcomes.setdefault(outcome, []).append(job_id)
    context = {"outcomes": outcomes, "selection": selection, "page": "dead", "cap": BULK_REDRIVE_CAP}
    return _render(request, "bulk_redriven.html", context)


async def _redrive_one(request: web.Request, job_id: str) -> str:
    """What became of one job, for the result page: re-driven, or refused with the API's reason."""
    try:
        await redrive_job(request, job_id)
    except ApiError as refused:
        return f"refused: {refused.message}"
    return "re-driven"


def _error_page(request: web.Request, error: ApiError) -> web.Response:
    context = {"error": error, "code": error.error_type.value, "page": ""}
    return _render(request, "error.html", context, status=HTTP_STATUS[error.error_type])


async def redrive(request: web.Request) -> web.StreamResponse:
    """POST from the job and dead pages: re-drive one DEAD job by the API's own rules, then show it."""
    if _key_name(request) is None:
        raise web.HTTPSeeOther(f"{UI}/login")
    await _check_csrf(request)
    try:
        redriven = await redrive_job(request, request.match_info["job_id"])
    except ApiError as error:
        return _error_page(request, error)
    raise web.HTTPSeeOther(f"{UI}/jobs/{redriven['job_id']}")


async def job(request: web.Request) -> tuple[str, dict[str, Any]]:
    shown = await read_job(request, request.match_info["job_id"])
    delivery_job = None
    if shown["job_type"] == JobType.SEARCH.name:
        # Through the listing, as GET /v1/lps/jobs?source_job_id= reads it (one point lookup on its index).
        deliveries, _ = await read_job_page(request, MultiDict(source_job_id=shown["job_id"]))
        delivery_job = deliveries[0] if deliveries else None
    return "job.html", {"job": shown, "delivery_job": delivery_job, "snapshots": snapshot_ids(shown), "page": "jobs"}


async def snapshot(request: web.Request) -> web.StreamResponse:
    """A blocked page's HTML or screenshot, as the API serves it (sandboxed), for a signed-in dashboard."""
    if _key_name(request) is None:
        raise web.HTTPSeeOther(f"{UI}/login")
    try:
        return await snapshot_file(request, request.match_info["snapshot_id"], request.match_info["kind"])
    except ApiError as error:
        return _error_page(request, error)


async def login_form(request: web.Request) -> web.StreamResponse:
    return _render(request, "login.html", {"page": "login"})


async def login(request: web.Request) -> web.StreamResponse:
    form = await _check_csrf(request)
    key = str(form.get("key", ""))
    if not request.app[SETTINGS].api_keys or not key or request.app[_KEYS].identify(key) is None:
        if request.app[SETTINGS].api_keys:
            try:
                request.app[_KEYS].refused(request)  # guessing keys here is as slow as through X-API-Key
            except ApiError as limited:
                error = "too many unknown keys from this address; try again later"
                response = _render(request, "login.html", {"page": "login", "error": error}, status=429)
                response.headers.update(limited.headers or {})
                return response
        return _render(request, "login.html", {"page": "login", "error": "unknown key"}, status=403)
    response = web.Response(status=303, headers={"Location": UI})
    _cookie(request, response, KEY_COOKIE, key)
    return response


def _when(value: object) -> str:
    """An API timestamp ("2026-12-01T01:45:46.547000+00:00") as the dashboard shows it: to the second, UTC."""
    return str(value)[:19].replace("T", " ") if value else ""


def _link(value: object) -> str:
    """Only http(s) addresses become links: a scraped `javascript:` URL must not run in an operator's browser."""
    text = str(value or "")
    return text if text.lower().startswith(("https://", "http://")) else "#"


def setup(app: web.Application) -> None:
    """Register the dashboard's routes, its templates (autoescaped) and its static files (shipped in this package)."""
    here = Path(__file__).parent
    aiohttp_jinja2.setup(
        app,
        loader=jinja2.FileSystemLoader(here / "templates"),
        autoescape=jinja2.select_autoescape(default=True),
        filters={"when": _when, "link": _link},
    )
    if app[SETTINGS].api_keys:
        app[_KEYS] = api_key_check(app[SETTINGS])
    app.router.add_get(UI, page(overview))
    app.router.add_get(f"{UI}/jobs", page(jobs))
    app.router.add_get(f"{UI}/jobs/{{job_id}}", page(job))
    app.router.add_post(f"{UI}/jobs/{{job_id}}/redrive", redrive)
    app.router.add_get(f"{UI}/dead", page(dead))
    app.router.add_get(f"{UI}/dead/redrive", page(redrive_confirmation))
    app.router.add_post(f"{UI}/dead/redrive", bulk_redrive)
    app.router.add_get(f"{UI}/snapshots/{{snapshot_id}}/{{kind}}", snapshot)
    app.router.add_get(f"{UI}/products/{{product_code}}", page(product))
    app.router.add_get(f"{UI}/live", page(live))
    app.router.add_get(f"{UI}/login", login_form)
    app.router.add_post(f"{UI}/login", login)
    app.router.add_static(f"{UI}/static", here / "static")
