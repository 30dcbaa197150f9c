"""Serving the gateway: aiohttp's own runner, but for requests its HTTP parser refuses.

A request aiohttp cannot parse (a NUL or DEL byte in a header, a bad request line) never reaches the app's
middlewares: aiohttp answers it with a plain-text 400 of its own and logs an 11-line traceback at ERROR, per
request, for anyone who cares to send such bytes. aiohttp has no hook for it (aio-libs/aiohttp#3287, open), so the
gateway's connections are aiohttp's `RequestHandler` with that one answer changed: the LPS error envelope (400 / 101,
`Server: lps`) and at most a few WARNING lines a minute, each one line naming the client and the parser's reason
(never the refused bytes: a header may hold a key), and how many such requests it stands for.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Callable
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from schemas.codes import ErrorType
from service.app import SERVER_HEADER
from service.auth import TokenBuckets
from service.errors import envelope_response

log = logging.getLogger(__name__)

#: Lines about refused requests: this many at once, then one a minute on average, whatever their rate.
REFUSED_LINES_BURST = 5
REFUSED_LINES_PER_SECOND = 1 / 60


class RefusedRequestLog:
    """One WARNING line per refused request while within its budget; past it, refusals are counted and the next
    line says how many it stands for."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._budget = TokenBuckets(REFUSED_LINES_PER_SECOND, REFUSED_LINES_BURST, clock=clock)
        self._unsaid = 0

    def refused(self, client: str | None, reason: str) -> None:
        if self._budget.take("lines"):
            self._unsaid += 1
            return
        more = f" (and {self._unsaid} more since the last such line)" if self._unsaid else ""
        self._unsaid = 0
        log.warning("refused a malformed HTTP request from %s: %s%s", client or "?", reason, more)


#: A quoted piece of the request inside the parser's words ("b'X-API-Key: …'", "bytearray(b'/v1/…')", "'GE T'").
_QUOTED_BYTES = re.compile(r"""(?:bytearray\()?b?(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")\)?""")


def parser_reason(exc: HttpProcessingError) -> str:
    """The parser's first line without the refused bytes it quotes ("Got more than 8190 bytes when reading", "Invalid
    HTTP header"): they may hold a key, and a client must not see its own bytes echoed."""
    lines = (exc.message or "").strip().splitlines()
    reason = " ".join(_QUOTED_BYTES.sub("", lines[0]).split()).rstrip(" :.") if lines else ""
    return reason or "unparsable request"


class _Connection(web.RequestHandler):
    """aiohttp's connection handler, answering what its HTTP parser refused the LPS way."""

    __slots__ = ("refused_log",)

    refused_log: RefusedRequestLog

    def handle_error(
        self,
        request: web.BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        if not isinstance(exc, HttpProcessingError) or not 400 <= status < 500:
            return super().handle_error(request, status, exc, message)
        reason = parser_reason(exc)
        self.refused_log.refused(request.remote, reason)
        response = envelope_response(
            ErrorType.INVALID_REQUEST_DATA,
            http_status=status,
            headers={"Server": SERVER_HEADER},
            message=f"malformed HTTP request: {reason}",
        )
        response.force_close()  # what follows on this connection cannot be trusted to start a request
        return response


class _GatewayServer(web.Server):
    """aiohttp's protocol factory, making `_Connection`s."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.refused_log = RefusedRequestLog()

    def __call__(self) -> web.RequestHandler:
        # What web.Server.__call__ does, with the connection class changed.
        connection = _Connection(self, loop=self._loop, **self._kwargs)
        connection.refused_log = self.refused_log
        return connection


class GatewayRunner(web.AppRunner):
    """web.AppRunner whose server makes the gateway's connections (`_make_server` is BaseRunner's hook for this)."""

    async def _make_server(self) -> web.Server:
        made = await super()._make_server()  # the app started and frozen, its handler arguments merged: aiohttp's own
        return _GatewayServer(
            made.request_handler,
            request_factory=made.request_factory,
            handler_cancellation=made.handler_cancellation,
            loop=made._loop,
            **made._kwargs,
        )


def run_gateway(app: web.Application, *, host: str, port: int) -> None:
    """`web.run_app(app, host=host, port=port, access_log=None)` through GatewayRunner: serves until SIGINT or
    SIGTERM, then stops gracefully (the runner's cleanup) and returns."""

    async def serve() -> None:
        runner = GatewayRunner(app, handle_signals=True, access_log=None)
        await runner.setup()
        try:
            site = web.TCPSite(runner, host, port)
            await site.start()
            print(f"======== Running on {site.name} ========\n(Press CTRL+C to quit)", flush=True)
            await asyncio.Event().wait()  # until a signal's GracefulExit
        finally:
            await runner.cleanup()

    with contextlib.suppress(web.GracefulExit, KeyboardInterrupt):
        asyncio.run(serve())
