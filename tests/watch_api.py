"""A watch posted through the gateway, as the watch tests post one."""

from __future__ import annotations

from typing import Any

from aiohttp.test_utils import TestClient


async def post(client: TestClient, body: Any) -> tuple[int, dict[str, Any]]:
    response = await client.post("/v1/lps/watches", json=body)
    return response.status, await response.json()
