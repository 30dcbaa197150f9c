"""The Coupang source in the real Chromium against the demo shop: it reads the page the browser shows, whole."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import pytest

from actors.proxies import ProxyRotation
from actors.sources import SourceBlocked, SourceParseFailed
from actors.sources.coupang import CoupangSource
from infra.settings import Settings
from schemas.offers import SourceOutcome
from tests.harness import coupang_sources
from tools.demo_shop import create_demo_shop_app
from tools.forward_proxy import create_forward_proxy_app


@pytest.fixture
async def build(aiohttp_server, settings: Settings) -> AsyncIterator[Callable[..., CoupangSource]]:
    shop = await aiohttp_server(create_demo_shop_app())
    async with coupang_sources(settings, str(shop.make_url(""))) as build:
        yield build


@pytest.fixture
def coupang(build: Callable[..., CoupangSource]) -> CoupangSource:
    return build(None)


@pytest.mark.processes
@pytest.mark.parametrize("keyword", ["아이폰 15 128GB", "햇반 210g 24개"], ids=["current layout", "older layout"])
async def test_a_product_list_the_page_fills_after_domcontentloaded_is_read_whole(coupang: CoupangSource, keyword: str):
    served = await coupang.search({"keyword": keyword})
    filled_later = await coupang.search({"keyword": f"scripted=700 {keyword}"})

    assert filled_later.outcome is SourceOutcome.FOUND
    assert [offer.product_id for offer in filled_later.offers] == [offer.product_id for offer in served.offers]
    assert len(served.offers) > 5


@pytest.mark.processes
@pytest.mark.parametrize("second_step_ms", [300, 1200])
async def test_a_list_whose_second_half_the_page_adds_later_is_read_once_it_has_settled(
    coupang: CoupangSource, second_step_ms: int
):
    served = await coupang.search({"keyword": "아이폰 15 128GB"})
    stepped = await coupang.search({"keyword": f"stepped={second_step_ms} 아이폰 15 128GB"})

    assert stepped.incomplete is None
    assert [offer.product_id for offer in stepped.offers] == [offer.product_id for offer in served.offers]


@pytest.mark.processes
async def test_a_list_still_growing_at_the_render_timeout_is_a_partial_answer(build: Callable[..., CoupangSource]):
    coupang = build(None, render_timeout=2.0, settle=1.5)

    # One item a second: however late a loaded machine reads it, far from the whole list of 20.
    answer = await coupang.search({"keyword": "trickled=1000 아이폰 15 128GB"})

    assert isinstance(answer.incomplete, SourceParseFailed)
    assert "still growing" in str(answer.incomplete)
    assert 10 <= len(answer.offers) < 20  # the served half, and what came before the timeout


@pytest.mark.processes
async def test_a_block_on_the_second_page_is_a_block_of_the_search_and_of_its_proxy(
    aiohttp_server, build: Callable[..., CoupangSource]
):
    proxy = await aiohttp_server(create_forward_proxy_app())
    proxies = ProxyRotation.from_urls([f"http://{proxy.host}:{proxy.port}"], cooldown=60.0)
    assert proxies is not None
    coupang = build(proxies, max_pages=2)

    answer = await coupang.search({"keyword": "blocked-from=2 무선 마우스"})

    assert len(answer.offers) == 72  # page 1 was read
    assert isinstance(answer.incomplete, SourceBlocked)
    assert "page 2 and later not read" in str(answer.incomplete)
    assert proxies.all_benched() is not None  # benched as for a block on page 1
