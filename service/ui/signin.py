"""Who is using the dashboard, and what keeps a signed-in browser's forms its own.

- Sign-in (with LPS_API_KEYS): the form's key is checked by the gateway's one KEY_CHECK, so a wrong key counts in
  the same per-address bucket as a wrong `X-API-Key` or an unknown session cookie (past it: 429). A right key
  starts a server-side session (`infra.ui_sessions`) whose random token is all the browser keeps (cookie
  `lps_ui_session`: HttpOnly, SameSite=Strict, path /ui, Secure over HTTPS); never the key. Every sign-in starts a
  new session, and sign-out ends it at every gateway.
- Forms: every POST must come from the dashboard's own origin (Origin, else Referer, naming one of LPS_UI_ORIGINS,
  by default the address and port the gateway was reached at, never the request's own Host: cookies are not
  separated by port, pages of other ports on the same host are not the dashboard, and a DNS-rebinding page names
  itself in both Host and Origin) and carry the CSRF token. Signed in, the token is derived from the session (an
  HMAC of its token): it changes at every sign-in and a token planted in a cookie by another page is worth nothing.
  Where nobody signs in (no keys) and on the sign-in form itself, a double-submit cookie.
- Framing: every /ui answer forbids it (`frame-ancestors 'none'`, `X-Frame-Options: DENY`), and no answer but the
  static files is kept by the browser (`Cache-Control: no-store`: after sign-out, Back must ask the gateway, not show
  the signed-in page from the cache): `protect_answer`.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from aiohttp import web
from multidict import MultiDictProxy

from infra.clock import utcnow
from infra.ui_sessions import UiSession
from infra.web_origins import WebOrigin, web_origin
from schemas.codes import KeyRole
from service.auth import KEY_CHECK
from service.keys import CLIENT_NAME, CLIENT_ROLE, SETTINGS, UI_SESSIONS

UI = "/ui"
#: The dashboard's own CSS, scripts and icon: the only answers a browser may keep.
STATIC = f"{UI}/static/"
SESSION_COOKIE = "lps_ui_session"
#: The double-submit token of forms shown to nobody in particular (the sign-in form, a dashboard without keys).
CSRF_COOKIE = "lps_ui_csrf"
#: Every dashboard answer: no page may frame it (clickjacking a re-drive button).
NO_FRAMING_POLICY = "frame-ancestors 'none'"


@dataclass(frozen=True, slots=True)
class Visitor:
    """Who is asking: the signed-in key's name and role and its session; without keys, anyone (name "")."""

    key_name: str
    role: KeyRole | None
    session: UiSession | None

    @property
    def may_change(self) -> bool:
        return KeyRole.may_change(self.role)


VISITOR = web.RequestKey("ui_visitor", Visitor)


class FormRefused(Exception):
    """A dashboard form that is stale, forged, or posted from another origin: nothing was changed."""


async def visitor(request: web.Request) -> Visitor | None:
    """The signed-in visitor (also stored under VISITOR, and the role under CLIENT_ROLE, where the API's checks read
    it), or None when the request must sign in first. An unknown or ended session's cookie counts as a refused key:
    past the address's bucket this raises the API's 429 (ApiError)."""
    settings = request.config_dict[SETTINGS]
    if not settings.api_keys:
        found = Visitor("", None, None)
    else:
        token = request.cookies.get(SESSION_COOKIE)
        if not token:
            return None
        session = await request.config_dict[UI_SESSIONS].find(token, now=utcnow())
        if session is None or session.key_name not in settings.api_keys:
            await request.config_dict[KEY_CHECK].refused(request)
            return None
        role = settings.key_role(session.key_name)
        request[CLIENT_ROLE] = role
        request[CLIENT_NAME] = session.key_name
        found = Visitor(session.key_name, role, session)
    request[VISITOR] = found
    return found


def csrf_token(request: web.Request) -> str:
    """The token the page's forms carry: the session's own, or the double-submit cookie's (a new one if none)."""
    found = request.get(VISITOR)
    if found is not None and found.session is not None:
        return _session_csrf(found.session)
    return request.cookies.get(CSRF_COOKIE) or secrets.token_urlsafe(32)


def _session_csrf(session: UiSession) -> str:
    return hmac.new(session.token.encode(), b"lps-ui-csrf", hashlib.sha256).hexdigest()


def keep_token(request: web.Request, response: web.StreamResponse, token: str) -> None:
    """Set the double-submit cookie when the page's token is one (a session's token needs none)."""
    found = request.get(VISITOR)
    if found is None or found.session is None:
        set_cookie(request, response, CSRF_COOKIE, token)


async def protect_answer(request: web.Request, response: web.StreamResponse) -> None:
    """The dashboard's on_response_prepare: every /ui answer, redirects and static files too, may not be framed by
    another page. A policy the answer already has (a snapshot's `sandbox`) keeps its own and gains this one. Every
    answer but a static file is `no-store`: pages show jobs and who is signed in, and Back after sign-out, or the
    next person at the same browser, must not see them from the cache."""
    policy = response.headers.get("Content-Security-Policy")
    response.headers["Content-Security-Policy"] = f"{policy}; {NO_FRAMING_POLICY}" if policy else NO_FRAMING_POLICY
    response.headers["X-Frame-Options"] = "DENY"
    if not request.path.startswith(STATIC):
        response.headers["Cache-Control"] = "no-store"


def set_cookie(request: web.Request, response: web.StreamResponse, name: str, value: str) -> None:
    # Secure when the request came over HTTPS, so the browser never sends it back over plain HTTP; not always,
    # since a plain-HTTP dashboard (`lps dev`, a loopback gateway) would then never get its cookies back.
    # `request.secure` is the connection's own TLS: a proxy's X-Forwarded-Proto counts only where a middleware
    # that trusts that proxy rewrites the request's scheme (LPS installs none; it would be configured, never assumed).
    response.set_cookie(name, value, path=UI, httponly=True, samesite="Strict", secure=request.secure)


def dashboard_origins(request: web.Request) -> set[WebOrigin]:
    """Where the dashboard's pages may be opened from: LPS_UI_ORIGINS, else the address and port this request reached
    (an address the gateway listens on), with `localhost` for a loopback one.

    Never the request's own Host header: a page of another site that a DNS-rebinding attack points at this gateway
    sends its own name as both Host and Origin. Its name is not an address the gateway listens on."""
    configured = request.config_dict[SETTINGS].ui_origins
    if configured:
        return {origin for item in configured if (origin := web_origin(item)) is not None}
    reached = request.transport.get_extra_info("sockname") if request.transport is not None else None
    if not isinstance(reached, tuple):
        return set()  # not over TCP: no address to compare with
    address = ipaddress.ip_address(reached[0].split("%")[0])
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    hosts = {str(address)} | ({"localhost"} if address.is_loopback else set())
    scheme = "https" if request.secure else "http"
    return {WebOrigin(scheme, host, reached[1]) for host in hosts}


def posted_from_dashboard(request: web.Request) -> bool:
    """The POST came from a page of this dashboard: its Origin (else its Referer) is one of `dashboard_origins`."""
    claimed = request.headers.get("Origin") or request.headers.get("Referer")
    origin = web_origin(claimed) if claimed and claimed != "null" else None
    return origin is not None and origin in dashboard_origins(request)


async def checked_form(request: web.Request) -> MultiDictProxy[Any]:
    """The posted form, once it proved to come from this dashboard (origin and token); FormRefused otherwise."""
    if not posted_from_dashboard(request):
        raise FormRefused("the form was not posted from this dashboard's own pages")
    form = await request.post()
    expected = csrf_token(request) if request.get(VISITOR) is not None else request.cookies.get(CSRF_COOKIE)
    if not expected or not secrets.compare_digest(str(form.get("csrf", "")), expected):
        raise FormRefused("the form is stale or not from this dashboard")
    return form


async def start_session(request: web.Request, response: web.StreamResponse, key_name: str) -> None:
    """A new session for this key (the browser's earlier one, if any, ends): the cookie goes on `response`."""
    if previous := request.cookies.get(SESSION_COOKIE):
        await request.config_dict[UI_SESSIONS].end(previous)
    lifetime = timedelta(seconds=request.config_dict[SETTINGS].ui_session_lifetime)
    session = await request.config_dict[UI_SESSIONS].start(key_name, now=utcnow(), lifetime=lifetime)
    set_cookie(request, response, SESSION_COOKIE, session.token)


async def end_session(request: web.Request, response: web.StreamResponse) -> None:
    if token := request.cookies.get(SESSION_COOKIE):
        await request.config_dict[UI_SESSIONS].end(token)
    response.del_cookie(SESSION_COOKIE, path=UI)
