"""Reading a request's JSON body: declared as UTF-8 JSON, received in time, parsed strictly and validated, each kind
of bad input with its own result code; and a product naming a source this deployment does not enable."""

from __future__ import annotations

import asyncio
import codecs
import json
from typing import Any

from aiohttp import web
from marshmallow import Schema, ValidationError

from schemas.codes import ErrorType
from schemas.search_request import BatchTooLarge
from schemas.validation import printable
from service.errors import ApiError
from service.keys import (
    SETTINGS,
)


async def load_json_body(request: web.Request, schema: Schema) -> dict[str, Any]:
    """Parse and validate a JSON body; each kind of bad input gets its own result code."""
    refuse_other_media_types(request)
    timeout = request.app[SETTINGS].body_read_timeout
    try:
        async with asyncio.timeout(timeout):
            raw = await request.read()  # over client_max_size: HTTPRequestEntityTooLarge -> 419
    except TimeoutError:
        # 419 like a body that is too large: the request as sent cannot be taken, whatever its content would be.
        raise ApiError(
            ErrorType.HTTP_INVALID_CLIENT_REQUEST, f"request body not received within {timeout:g} s", close=True
        ) from None
    try:
        # Decoded here, strictly: json.loads(bytes) decodes with "surrogatepass", which lets CESU-8 encoded
        # surrogates (b"\xed\xa0\x80") through as text that no UTF-8 answer and no BSON document can hold.
        # JSON between systems is UTF-8 (RFC 8259); a leading byte order mark is tolerated.
        data = json.loads(raw.decode("utf-8-sig"))
    except ValueError:  # includes UnicodeDecodeError
        raise ApiError(ErrorType.JSON_PARSE_ERROR, "request body is not valid JSON (UTF-8)") from None
    except RecursionError:
        # The decoder recurses once per nesting level; no valid request nests more than four deep.
        raise ApiError(ErrorType.JSON_PARSE_ERROR, "request body nests too deeply") from None
    try:
        return schema.load(data)
    except BatchTooLarge as error:
        raise ApiError(ErrorType.HTTP_INVALID_CLIENT_REQUEST, str(error)) from None
    except ValidationError as error:
        raise ApiError(ErrorType.INVALID_REQUEST_DATA, "invalid request data", errors=error.messages) from None


def refuse_other_media_types(request: web.Request) -> None:
    """A body must be declared `application/json` (charset, if named, UTF-8): JSON_PARSE_ERROR otherwise.

    Checked before the body is read. Without it, with keys off (the default), any web page could POST searches
    from a visitor's browser: text/plain and the form types are "simple" requests that browsers send across
    origins without asking first, while application/json needs a CORS preflight this gateway never grants.
    400 / JSON_PARSE_ERROR rather than HTTP 415, which the contract does not have: the body is not declared JSON.
    """
    charset = request.charset
    if request.content_type != "application/json" or (charset is not None and not _is_utf8(charset)):
        declared = request.headers.get("Content-Type", "none")
        raise ApiError(
            ErrorType.JSON_PARSE_ERROR,
            f"Content-Type must be application/json (UTF-8), not {printable(declared)}",
        )


def _is_utf8(charset: str) -> bool:
    try:
        return codecs.lookup(charset).name == "utf-8"
    except LookupError:
        return False


def refuse_disabled_sources(products: list[dict[str, Any]], enabled: tuple[str, ...]) -> None:
    """A product may only name sources this deployment enables (LPS_SEARCH_SOURCES): never a test-only one."""
    errors = {}
    for index, product in enumerate(products):
        if refused := [name for name in product.get("sources") or () if name not in enabled]:
            message = f"not enabled in this deployment: {', '.join(refused)} (enabled: {', '.join(enabled)})"
            errors[index] = {"sources": [message]}
    if errors:
        raise ApiError(ErrorType.INVALID_REQUEST_DATA, "invalid request data", errors={"products": errors})
