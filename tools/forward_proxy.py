"""A tiny HTTP forward proxy on loopback: a stand-in for the Coupang browser's egress proxies in dev and tests.

It serves plain-HTTP forward requests (`GET http://shop/np/search?… HTTP/1.1`, what Chromium sends an HTTP proxy for
an `http://` page) and nothing else: no CONNECT tunnels, so no `https://` targets. With a user name and password it
asks for them as a real proxy does (407 and `Proxy-Authenticate: Basic`, which Chromium answers with the
credentials of its context). `deny=True` makes it answer every request itself with a 403 Access Denied page, as an
egress address the shop has banned looks to a browser. Every request it received is counted in `ProxyLog`.

Written here rather than taken from PyPI (proxy.py, mitmproxy): this is ~100 lines on aiohttp, which LPS already
depends on; it runs in the test's own event loop on a free port, and it counts what went through it.
"""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import aiohttp
from aiohttp import web

#: Hop-by-hop headers (RFC 9110 §7.6.1) and the proxy's own: never forwarded.
HOP_HEADERS = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "proxy-connection",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "content-length",
        "content-encoding",
        "host",
    }
)
ACCESS_DENIED = "<html><head><title>Access Denied</title></head><body><h1>Access Denied</h1></body></html>"


@dataclass(slots=True)
class ProxyLog:
    """What reached the proxy: requests it forwarded, denied, or refused for missing credentials."""

    forwarded: list[str] = field(default_factory=list)
    denied: list[str] = field(default_factory=list)
    unauthenticated: int = 0

    @property
    def requests(self) -> int:
        return len(self.forwarded) + len(self.denied)


PROXY_LOG = web.AppKey("proxy_log", ProxyLog)
CREDENTIALS = web.AppKey("proxy_credentials", str)
DENY = web.AppKey("proxy_deny", bool)
CLIENT = web.AppKey("proxy_client", aiohttp.ClientSession)


def _authorized(request: web.Request) -> bool:
    expected = request.app[CREDENTIALS]
    if not expected:
        return True
    scheme, _, value = request.headers.get("Proxy-Authorization", "").partition(" ")
    return scheme.lower() == "basic" and value.strip() == expected


async def forward(request: web.Request) -> web.StreamResponse:
    log = request.app[PROXY_LOG]
    if not _authorized(request):
        log.unauthenticated += 1
        return web.Response(status=407, headers={"Proxy-Authenticate": 'Basic realm="lps-test-proxy"'})
    target = str(request.url)
    if request.app[DENY]:
        log.denied.append(target)
        return web.Response(text=ACCESS_DENIED, status=403, content_type="text/html", headers={"Server": "AkamaiGHost"})
    log.forwarded.append(target)
    headers = {name: value for name, value in request.headers.items() if name.lower() not in HOP_HEADERS}
    body = await request.read()
    async with request.app[CLIENT].request(
        request.method, target, headers=headers, data=body or None, allow_redirects=False
    ) as upstream:
        content = await upstream.read()
        answer = {name: value for name, value in upstream.headers.items() if name.lower() not in HOP_HEADERS}
        return web.Response(body=content, status=upstream.status, headers=answer)


def create_forward_proxy_app(*, username: str = "", password: str = "", deny: bool = False) -> web.Application:
    """The proxy; with `username`, requests without those Basic credentials get 407; with `deny`, 403 for all."""
    app = web.Application()
    app[PROXY_LOG] = ProxyLog()
    app[CREDENTIALS] = base64.b64encode(f"{username}:{password}".encode()).decode() if username else ""
    app[DENY] = deny

    async def client(app: web.Application) -> AsyncIterator[None]:
        async with aiohttp.ClientSession(auto_decompress=False) as session:
            app[CLIENT] = session
            yield

    app.cleanup_ctx.append(client)
    app.router.add_route("*", "/{path:.*}", forward)
    return app
