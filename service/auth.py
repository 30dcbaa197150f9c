"""Who may call the API and how often: API keys (`LPS_API_KEYS`) and per-client token-bucket rate limits.

Both guard the `/v1/lps` routes only: probes (`/healthz`, `/readyz`), `/metrics` and the API docs stay open, so
orchestrators and scrapers need no key and are never throttled.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware

from infra.api_keys import check_api_keys, role_of
from infra.clock import utcnow
from infra.mongo import deadline, is_unavailable
from infra.settings import Settings
from schemas.codes import ErrorType, KeyRole
from service.errors import ApiError
from service.keys import CLIENT_NAME, CLIENT_ROLE, FAILED_KEYS, SETTINGS, client_of
from service.routes import PREFIX

log = logging.getLogger(__name__)

API_KEY_HEADER = "X-API-Key"


#: Clients whose buckets are kept at most; past it the least recently seen are forgotten (they start full again).
MAX_CLIENTS = 10_000


def is_guarded(request: web.Request) -> bool:
    # The decoded path: every request the router sends to a /v1/lps handler starts with it, however it was spelled.
    return request.path == PREFIX or request.path.startswith(f"{PREFIX}/")


#: The dashboard's pages (its static files are not counted: a page load asks for them alongside).
_UI, _UI_STATIC = "/ui", "/ui/static/"


def is_dashboard_page(request: web.Request) -> bool:
    return (request.path == _UI or request.path.startswith(f"{_UI}/")) and not request.path.startswith(_UI_STATIC)


def _digest(key: str) -> bytes:
    # Digests all have one length, so comparing them tells nothing about a key's length either.
    # surrogatepass: a header value may hold any code point; none may make the comparison raise.
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).digest()


#: Methods a read-only key (`name=key:read`) may use.
READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class ApiKeyMiddleware:
    """Runs inside the error middleware and before the rate limit: a guarded request needs a known `X-API-Key`.

    Missing or unknown keys are HTTP_INVALID_CLIENT_ACCESS (433). The key's name is stored under CLIENT_NAME.
    Refused requests are limited per peer address by the app's FAILED_KEYS (kept in the store, shared by every
    gateway; absent when LPS_AUTH_FAILURE_RATE_PER_SECOND is 0): past its bucket they get 429 with Retry-After, so
    guessing keys costs time. Those buckets are apart from the clients': a peer sending wrong keys never slows down
    a client whose key is right, even from the same address.
    """

    __middleware_version__ = 1  # new-style: called as (request, handler)

    def __init__(self, api_keys: Mapping[str, str], roles: Mapping[str, KeyRole] | None = None) -> None:
        try:
            check_api_keys(api_keys)
        except ValueError as refused:
            raise ValueError(f"LPS_API_KEYS: {refused}") from None
        self._digests = [(name, _digest(key)) for name, key in api_keys.items()]
        self._roles = roles or {}

    def identify(self, presented: str) -> str | None:
        """The name of the configured key equal to `presented`, or None; takes the same time whichever matched."""
        presented_digest = _digest(presented)
        found = None
        for name, digest in self._digests:
            # Every key is compared even after a match: no early exit that would tell which one it was.
            if hmac.compare_digest(presented_digest, digest):
                found = name
        return found

    async def __call__(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if not is_guarded(request):
            return await handler(request)
        presented = request.headers.get(API_KEY_HEADER)
        if not presented:
            await self.refused(request)
            raise ApiError(ErrorType.HTTP_INVALID_CLIENT_ACCESS, f"missing {API_KEY_HEADER} header")
        name = self.identify(presented)
        if name is None:
            await self.refused(request)
            # What was presented is never logged: it may be a real key sent to the wrong gateway, or one with a typo.
            log.info("unknown API key for %s %s from %s", request.method, request.path, request.remote)
            raise ApiError(ErrorType.HTTP_INVALID_CLIENT_ACCESS, "unknown API key")
        request[CLIENT_NAME] = name
        request[CLIENT_ROLE] = role_of(self._roles, name)
        if not KeyRole.may_change(request[CLIENT_ROLE]) and request.method not in READ_METHODS:
            # Decided here for every /v1/lps operation that changes something (search, retry, watches).
            raise ApiError(ErrorType.HTTP_INVALID_CLIENT_ACCESS, "this API key may only read")
        log.debug("%s %s by client %s", request.method, request.path, name)
        return await handler(request)

    async def refused(self, request: web.Request) -> None:
        """Count a refusal against the peer address; past its bucket, answer 429 instead of 433 (the API's keys
        and the dashboard's login form share this)."""
        limits = request.config_dict.get(FAILED_KEYS)
        if limits is None:
            return
        address = request.remote or "unknown"
        try:
            with deadline(request.config_dict[SETTINGS]):
                wait = await limits.take(address, now=utcnow())
        except Exception as error:
            if not is_unavailable(error):
                raise
            # The refusal stands (433); only its count is lost. Not a 503: that would tell a wrong key from a right
            # one, which goes on to its handler.
            log.warning("refused key from %s not counted: MongoDB unavailable (%s)", address, type(error).__name__)
            return
        if wait:
            log.debug("%s over its limit of refused requests", address)
            raise too_many_requests(wait)


@dataclass(slots=True)
class _Bucket:
    tokens: float
    updated: float


class TokenBuckets:
    """One token bucket per client: `burst` requests at once, then `rate` per second on average.

    The buckets live in this gateway process's memory: N gateways behind a load balancer allow N times the rate.
    Memory stays bounded: a bucket that has refilled is the same as a new one, so it is dropped as soon as it is the
    least recently used; past `max_clients` the least recently used go anyway (those clients start full again).
    """

    def __init__(
        self, rate: float, burst: int, *, clock: Callable[[], float] = time.monotonic, max_clients: int = MAX_CLIENTS
    ) -> None:
        if rate <= 0 or burst < 1 or max_clients < 1:
            raise ValueError(f"rate limit needs rate > 0, burst >= 1, max_clients >= 1 (got {rate}, {burst})")
        self._rate = rate
        self._burst = burst
        self._clock = clock
        self._max_clients = max_clients
        # Ordered from the least to the most recently used (a used bucket is re-inserted at the end).
        self._buckets: dict[str, _Bucket] = {}

    def __len__(self) -> int:
        return len(self._buckets)

    def take(self, client: str) -> float:
        """Take one of `client`'s tokens: 0.0 when there was one, else the seconds until there will be one."""
        now = self._clock()
        bucket = self._buckets.pop(client, None) or _Bucket(float(self._burst), now)
        bucket.tokens = min(float(self._burst), bucket.tokens + (now - bucket.updated) * self._rate)
        bucket.updated = now
        self._buckets[client] = bucket
        self._forget_idle(now)
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            return 0.0
        # A refused request takes nothing: the client may come back exactly when the token is there.
        return (1 - bucket.tokens) / self._rate

    def _forget_idle(self, now: float) -> None:
        # Amortised O(1): each bucket is dropped at most once per time it was inserted.
        while len(self._buckets) > 1:
            client = next(iter(self._buckets))
            bucket = self._buckets[client]
            full = bucket.tokens + (now - bucket.updated) * self._rate >= self._burst
            if not full and len(self._buckets) <= self._max_clients:
                return
            del self._buckets[client]


class RateLimitMiddleware:
    """Runs after the API key middleware (so it knows the key's name): a client past its rate gets 429.

    The client is the API key's name, or the peer address when no keys are configured (behind a proxy that is
    the proxy's). Dashboard pages count too, by the peer address (a page's session is read later, by the page):
    a browser cannot get round the limit through /ui. The answer is HTTP_TO_MANY_REQUEST with `Retry-After`:
    whole seconds until a token is there.
    """

    __middleware_version__ = 1  # new-style: called as (request, handler)

    def __init__(self, buckets: TokenBuckets) -> None:
        self._buckets = buckets

    async def __call__(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if is_guarded(request):
            client = client_of(request)
        elif is_dashboard_page(request):
            client = f"dashboard@{request.remote or 'unknown'}"
        else:
            return await handler(request)
        if wait := self._buckets.take(client):
            log.debug("client %s over its rate limit", client)
            raise too_many_requests(wait)
        return await handler(request)


def too_many_requests(wait: float) -> ApiError:
    """HTTP_TO_MANY_REQUEST with `Retry-After`: whole seconds until a token is there."""
    return ApiError(
        ErrorType.HTTP_TO_MANY_REQUEST,
        "too many requests; retry later",
        headers={"Retry-After": str(max(1, math.ceil(wait)))},
    )


def api_key_check(settings: Settings) -> ApiKeyMiddleware:
    """The configured keys with their roles (refusals are limited per address by the app's FAILED_KEYS)."""
    return ApiKeyMiddleware(settings.api_keys, settings.api_key_roles)


#: The gateway's one key check: the API's middleware and the dashboard's sign-in share it, and with it the per-address
#: bucket of refused keys, so a key guessed through `X-API-Key`, the sign-in form or a session cookie counts alike.
KEY_CHECK = web.AppKey("key_check", ApiKeyMiddleware)


def client_middlewares(settings: Settings, keys: ApiKeyMiddleware | None) -> list[Middleware]:
    """The configured guards, in the order they run after the error middleware: API keys (`keys`, the app's one
    KEY_CHECK), then the rate limit."""
    middlewares: list[Middleware] = []
    if keys is not None:
        middlewares.append(keys)
    if settings.rate_limit_per_second > 0:
        buckets = TokenBuckets(settings.rate_limit_per_second, settings.rate_limit_burst)
        middlewares.append(RateLimitMiddleware(buckets))
    return middlewares
