"""The Coupang source in the real Chromium against the demo shop: it reads the page the browser shows."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from actors.sources.coupang import CoupangSource
from infra.settings import Settings
from schemas.offers import SourceOutcome
from tests.harness import coupang_sources
from tools.demo_shop import create_demo_shop_app


@pytest.fixture
async def coupang(aiohttp_server, settings: Settings) -> AsyncIterator[CoupangSource]:
    shop = await aiohttp_server(create_demo_shop_app())
    async with coupang_sources(settings, str(shop.make_url(""))) as build:
        yield build(None)


@pytest.mark.parametrize("keyword", ["아이폰 15 128GB", "햇반 210g 24개"], ids=["current layout", "older layout"])
async def test_a_product_list_the_page_fills_after_domcontentloaded_is_read_whole(coupang: CoupangSource, keyword: str):
    served = await coupang.search({"keyword": keyword})
    filled_later = await coupang.search({"keyword": f"scripted=700 {keyword}"})

    assert filled_later.outcome is SourceOutcome.FOUND
    assert [offer.product_id for offer in filled_later.offers] == [offer.product_id for offer in served.offers]
    assert len(served.offers) > 5
