"""Calls to the gateway as the tests of its answers make them: a valid product, a JSON content type, and an answer
as (status, body)."""

from __future__ import annotations

from typing import Any

from aiohttp.test_utils import TestClient

JSON = {"Content-Type": "application/json"}
PRODUCT = {"product_code": "OK-1", "keyword": "k"}


async def answer(response) -> tuple[int, dict[str, Any]]:
    return response.status, await response.json()


async def search(client: TestClient, products: list[dict[str, Any]]) -> tuple[int, dict[str, Any]]:
    return await answer(await client.post("/v1/lps/search", json={"products": products}))
