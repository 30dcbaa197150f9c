"""Calls to the gateway as the tests of its answers make them: a valid product, a JSON content type, and an answer
as (status, body); and the gateway served as `lps gateway` serves it, for what must reach its own connections."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestClient

from infra.settings import Settings
from service.app import create_app
from service.http_server import GatewayRunner
from tests.ports import free_port

JSON = {"Content-Type": "application/json"}
PRODUCT = {"product_code": "OK-1", "keyword": "k"}


async def answer(response) -> tuple[int, dict[str, Any]]:
    return response.status, await response.json()


async def search(client: TestClient, products: list[dict[str, Any]]) -> tuple[int, dict[str, Any]]:
    return await answer(await client.post("/v1/lps/search", json={"products": products}))


@contextlib.asynccontextmanager
async def serving_gateway(settings: Settings) -> AsyncIterator[int]:
    """The gateway served as `lps gateway` serves it (its runner, its connections: what aiohttp's HTTP parser refuses
    is answered with the envelope), on a free loopback port."""
    runner = GatewayRunner(create_app(settings), access_log=None)
    await runner.setup()
    try:
        port = free_port()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        yield port
    finally:
        await runner.cleanup()
