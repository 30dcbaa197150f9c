"""The sign-in form (/ui/login), signing in with a key and signing out (/ui/logout): the handlers over the sessions
and forms of `service.ui.signin` (which the pages themselves build on, so these live apart from it).
"""

from __future__ import annotations

from aiohttp import web

from service.auth import KEY_CHECK
from service.errors import ApiError
from service.keys import SETTINGS
from service.ui.pages import form_refused_page, posted_form, render, return_target, see_other
from service.ui.signin import UI, FormRefused, checked_form, end_session, start_session


async def login_form(request: web.Request) -> web.StreamResponse:
    return render(request, "login.html", {"page": "login", "next": return_target(request.query.get("next"))})


async def login(request: web.Request) -> web.StreamResponse:
    """The sign-in form's POST: a known key starts a new session; a wrong one counts against the address."""
    try:
        form = await checked_form(request)
    except FormRefused as refused:
        return form_refused_page(request, str(refused))
    key, target = str(form.get("key", "")), return_target(form.get("next"))
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
            response = render(request, "login.html", context | {"error": error}, status=429)
            response.headers.update(limited.headers or {})
            return response
        return render(request, "login.html", context | {"error": "unknown key"}, status=403)
    response = see_other(target)
    await start_session(request, response, name)
    return response


async def logout(request: web.Request) -> web.StreamResponse:
    """Sign-out: the session ends at every gateway, and the browser forgets its cookie."""
    form = await posted_form(request)
    if isinstance(form, web.StreamResponse):
        return form
    response = see_other(f"{UI}/login")
    await end_session(request, response)
    return response
