"""Every error answer is an envelope with the contract's result code and HTTP status (docs/http-api.md); no
stack traces."""

from __future__ import annotations

import json
import logging
from typing import Any

from aiohttp import web
from aiohttp.typedefs import Handler

from infra.mongo import is_unavailable
from schemas.codes import HTTP_STATUS, ErrorType
from schemas.envelope import envelope, json_default

log = logging.getLogger(__name__)


class ApiError(Exception):
    """Raised by handlers; answered as `{"result": error_type, "message": ..., "errors": ...}`."""

    def __init__(
        self,
        error_type: ErrorType,
        message: str,
        *,
        errors: Any = None,
        headers: dict[str, str] | None = None,
        close: bool = False,
    ) -> None:
        super().__init__(message)
        self.error_type = error_type
        self.message = message
        self.errors = errors
        self.headers = headers
        #: Close the connection after answering (what is left of the request cannot be trusted to arrive).
        self.close = close


def envelope_response(
    result: ErrorType, *, http_status: int | None = None, headers: dict[str, str] | None = None, **body: Any
) -> web.Response:
    document = envelope(result, **body)
    try:
        data = json.dumps(document, ensure_ascii=False, default=json_default).encode("utf-8")
    except UnicodeEncodeError:
        # A lone surrogate in some text (a field name echoed in `errors`, say) has no UTF-8 form; as a JSON
        # escape it does. Never an answer that cannot be written: that would end as aiohttp's plain-text 500.
        data = json.dumps(document, ensure_ascii=True, default=json_default).encode("ascii")
    return web.Response(
        body=data,
        status=http_status or HTTP_STATUS[result],
        content_type="application/json",
        charset="utf-8",
        headers=headers,
    )


@web.middleware
async def error_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Outermost middleware: turns every failure into an envelope."""
    try:
        return await handler(request)
    except ApiError as error:
        response = envelope_response(
            error.error_type, headers=error.headers, message=error.message, errors=error.errors
        )
        if error.close:
            # Answer, then hang up: left alone, aiohttp would linger up to 10 s more reading a body that is not
            # coming. The transport sends what it holds before it closes.
            await response.prepare(request)
            await response.write_eof()
            request.protocol.force_close()
        return response
    except web.HTTPRequestEntityTooLarge:
        return envelope_response(ErrorType.HTTP_INVALID_CLIENT_REQUEST, message="request body too large")
    except web.HTTPException as error:
        if error.status < 400:
            raise
        # Unknown route or method: a client error that keeps its HTTP status.
        return envelope_response(
            ErrorType.INVALID_REQUEST_DATA, http_status=error.status, headers=_allow(error), message=error.reason
        )
    except Exception as error:
        if is_unavailable(error):
            log.warning("MongoDB unavailable: %s", type(error).__name__)
            return envelope_response(ErrorType.DB_RUN_FAILED, message="database unavailable, try again later")
        log.exception("unhandled error in %s %s", request.method, request.path)
        return envelope_response(ErrorType.INTERNAL_EXCEPTION, message="internal error")


def _allow(error: web.HTTPException) -> dict[str, str] | None:
    allow = error.headers.get("Allow")
    return {"Allow": allow} if allow else None
