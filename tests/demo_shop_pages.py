"""The demo shop's catalogue (tools/demo_data) by keyword, and its result pages fetched from a shop served in the test's
event loop."""

from __future__ import annotations

import json
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from tools.demo_shop import DEFAULT_DATA_DIR, create_demo_shop_app

DATA = json.loads((DEFAULT_DATA_DIR / "products.json").read_text(encoding="utf-8"))["keywords"]
IPHONE, COLA, GALAXY, DYSON, MOUSE, HETBAN = (
    "아이폰 15 128GB",
    "코카콜라 제로 355ml 24캔",
    "갤럭시 S24 울트라 256GB",
    "다이슨 에어랩",
    "무선 마우스",
    "햇반 210g 24개",
)


@pytest.fixture
async def shop(aiohttp_client) -> TestClient:
    return await aiohttp_client(create_demo_shop_app())


def coupang_products(keyword: str) -> list[dict[str, Any]]:
    return [product for product in DATA[keyword]["products"] if "coupang" in product]


async def search_page(shop: TestClient, keyword: str, **params: Any) -> tuple[int, str]:
    response = await shop.get("/np/search", params={"q": keyword, **params})
    return response.status, await response.text()
