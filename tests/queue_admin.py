"""The admin API's queue calls (pause, resume) as the tests of pausing make them."""

from __future__ import annotations

from typing import Any

from aiohttp.test_utils import TestClient


async def _post(client: TestClient, path: str, key: str | None = None) -> tuple[int, dict[str, Any]]:
    response = await client.post(path, headers={"X-API-Key": key} if key else {})
    return response.status, await response.json()
