"""What every dashboard page is made of: `page`, the wrapper that asks for a signed-in key and turns the API's refusals
into readable pages; `render`, a template with the visitor and the forms' CSRF token; the error and form-refused
pages; a posted form once it proved to come from this dashboard; and the redirects to the sign-in form and back.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

import aiohttp_jinja2
from aiohttp import web
from multidict import MultiDictProxy
from yarl import URL

from schemas.codes import HTTP_STATUS
from service.errors import ApiError
from service.ui.signin import UI, VISITOR, FormRefused, Visitor, checked_form, csrf_token, keep_token, visitor

#: A dashboard page: gets the request, returns the template and its context.
Page = Callable[[web.Request], Awaitable[tuple[str, dict[str, Any]]]]


def render(request: web.Request, template: str, context: dict[str, Any], status: int = 200) -> web.Response:
    token = csrf_token(request)
    context = context | {"csrf": token, "visitor": request.get(VISITOR)}
    response = aiohttp_jinja2.render_template(template, request, context, status=status)
    keep_token(request, response, token)
    return response


def see_other(location: str) -> web.Response:
    return web.Response(status=303, headers={"Location": location})


def sign_in_first(request: web.Request) -> web.Response:
    """To the sign-in form, coming back here afterwards (a deep link survives signing in)."""
    return see_other(str(URL(f"{UI}/login").with_query(next=request.path_qs)))


def return_target(value: object) -> str:
    """Where to go after signing in: a path of the dashboard itself, never another site (`//evil`, `/ui@evil`)."""
    target = str(value or "")
    parts = urlsplit(target)
    inside = target == UI or target.startswith((f"{UI}/", f"{UI}?"))
    if not inside or parts.scheme or parts.netloc or "\\" in target:
        return UI
    return target


async def signed_in(request: web.Request) -> Visitor | web.StreamResponse:
    """The visitor, or the answer to give instead: the sign-in form, or 429 past the address's refused keys."""
    try:
        found = await visitor(request)
    except ApiError as limited:
        return error_page(request, limited)
    return found if found is not None else sign_in_first(request)


async def posted_form(request: web.Request) -> MultiDictProxy[Any] | web.StreamResponse:
    """A signed-in visitor's form once it proved to come from this dashboard, or the page that says why not."""
    found = await signed_in(request)
    if not isinstance(found, Visitor):
        return found
    try:
        return await checked_form(request)
    except FormRefused as refused:
        return form_refused_page(request, str(refused))


def form_refused_page(request: web.Request, why: str) -> web.Response:
    """A form that cannot be trusted changed nothing: say so, and offer the way back (never a JSON body)."""
    back = return_target(urlsplit(request.headers.get("Referer", "")).path) if request.get(VISITOR) else UI
    return render(request, "form_refused.html", {"why": why, "back": back, "page": ""}, status=403)


def page(build: Page) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    """A page that needs a signed-in key (when keys are configured); the API's refusals become readable pages."""

    async def handler(request: web.Request) -> web.StreamResponse:
        found = await signed_in(request)
        if not isinstance(found, Visitor):
            return found
        try:
            template, context = await build(request)
            context["may_change"] = found.may_change
        except ApiError as error:
            return error_page(request, error)
        return render(request, template, context)

    return handler


def error_page(request: web.Request, error: ApiError) -> web.Response:
    context = {"error": error, "code": error.error_type.value, "page": ""}
    response = render(request, "error.html", context, status=HTTP_STATUS[error.error_type])
    response.headers.update(error.headers or {})  # a 429's Retry-After
    return response
