"""The operations dashboard at /ui: server-rendered pages over the same repository reads the API uses.

When LPS_API_KEYS is set every page needs a key: the login form keeps it in an HttpOnly, SameSite=Strict cookie,
checked on each request exactly as the API checks `X-API-Key`. Nothing is loaded from the internet.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp_jinja2
import jinja2
from aiohttp import web
from multidict import MultiDict, MultiDictProxy

from schemas.codes import HTTP_STATUS, JobStatus, JobType
from service.auth import ApiKeyMiddleware, api_key_check
from service.errors import ApiError
from service.keys import CLIENT_ROLE, SETTINGS
from service.routes import read_job, read_job_page, redrive_job
from service.ui.live import live, live_context
from service.ui.products import product

#: A dashboard page: gets the request, returns the template and its context.
Page = Callable[[web.Request], Awaitable[tuple[str, dict[str, Any]]]]

UI = "/ui"
KEY_COOKIE = "lps_ui_key"
#: The per-session token every dashboard form carries and every POST checks (SameSite alone is not enough).
CSRF_COOKIE = "lps_ui_csrf"

_KEYS = web.AppKey("ui_keys", ApiKeyMiddleware)


def _cookie(response: web.StreamResponse, name: str, value: str) -> None:
    response.set_cookie(name, value, path=UI, httponly=True, samesite="Strict")


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
    _cookie(response, CSRF_COOKIE, token)
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
            context = {"error": error, "code": error.error_type.value, "page": ""}
            return _render(request, "error.html", context, status=HTTP_STATUS[error.error_type])
        return _render(request, template, context)

    return handler


async def overview(request: web.Request) -> tuple[str, dict[str, Any]]:
    return "overview.html", await live_context(request)


async def jobs(request: web.Request) -> tuple[str, dict[str, Any]]:
    if any(not value for value in request.query.values()):
        # The filter form sends its empty fields ("any"): drop them rather than refuse them.
        given = {key: value for key, value in request.query.items() if value}
        raise web.HTTPSeeOther(str(request.rel_url.with_query(given)))
    found, next_cursor = await read_job_page(request)
    filters = {key: value for key, value in request.query.items() if key != "cursor"}
    context = {"jobs": found, "next_cursor": next_cursor, "filters": filters, "page": "jobs"}
    return "jobs.html", context | {"statuses": [s.name for s in JobStatus], "types": [t.name for t in JobType]}


async def dead(request: web.Request) -> tuple[str, dict[str, Any]]:
    parameters = MultiDict(request.query)
    parameters["status"] = "DEAD"
    found, next_cursor = await read_job_page(request, parameters)
    groups: dict[str, list[dict[str, Any]]] = {}
    for each in found:
        groups.setdefault((each.get("last_error") or {}).get("type", "unknown"), []).append(each)
    filters = {key: value for key, value in request.query.items() if key not in ("cursor", "status")}
    return "dead.html", {"groups": groups, "next_cursor": next_cursor, "filters": filters, "page": "dead"}


async def redrive(request: web.Request) -> web.StreamResponse:
    """POST from the job and dead pages: re-drive one DEAD job by the API's own rules, then show it."""
    if _key_name(request) is None:
        raise web.HTTPSeeOther(f"{UI}/login")
    await _check_csrf(request)
    try:
        redriven = await redrive_job(request, request.match_info["job_id"])
    except ApiError as error:
        context = {"error": error, "code": error.error_type.value, "page": ""}
        return _render(request, "error.html", context, status=HTTP_STATUS[error.error_type])
    raise web.HTTPSeeOther(f"{UI}/jobs/{redriven['job_id']}")


async def job(request: web.Request) -> tuple[str, dict[str, Any]]:
    return "job.html", {"job": await read_job(request, request.match_info["job_id"]), "page": "jobs"}


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
    _cookie(response, KEY_COOKIE, key)
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
    app.router.add_get(f"{UI}/products/{{product_code}}", page(product))
    app.router.add_get(f"{UI}/live", page(live))
    app.router.add_get(f"{UI}/login", login_form)
    app.router.add_post(f"{UI}/login", login)
    app.router.add_static(f"{UI}/static", here / "static")
