"""The demo shop's catalogue, read the way the sources read it, picks the winners its data promises.

Coupang pages are fetched over HTTP here and parsed with the real parser (the browser path is covered
end to end in test_search_e2e); Naver goes through the real Naver source. Both then go through the
real matcher.
"""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import pytest

from actors.matching import match_offers
from actors.search import eligible
from actors.sources import SourceRateLimited
from actors.sources.coupang import search_url
from actors.sources.coupang_parser import PageKind, parse_search_page
from actors.sources.naver import NaverSource
from schemas.offers import Offer
from tools.demo_shop import create_demo_shop_app
from tools.dev import DEMO_CATALOGUE

CATALOGUE = json.loads(DEMO_CATALOGUE.read_text())["keywords"]


@pytest.fixture
async def shop_url(aiohttp_server) -> str:
    server = await aiohttp_server(create_demo_shop_app())
    return str(server.make_url("")).rstrip("/")


def cheapest(product: dict[str, Any], offers: list[Offer]) -> Offer | None:
    match_offers(product, offers)
    return min((offer for offer in offers if eligible(offer)), key=lambda offer: offer.price, default=None)


async def coupang_offers(shop_url: str, keyword: str) -> list[Offer]:
    offers: list[Offer] = []
    async with aiohttp.ClientSession() as http:
        for number in (1, 2, 3):
            async with http.get(search_url(shop_url, keyword, number)) as response:
                page = parse_search_page(await response.text(), base_url=shop_url, status=response.status)
            if page.kind is PageKind.NO_RESULTS:
                break
            assert page.kind is PageKind.RESULTS, page.detail
            offers += page.offers
    return offers


@pytest.mark.parametrize("keyword", list(CATALOGUE))
async def test_coupang_pages_yield_the_expected_lowest_genuine_offer(shop_url: str, keyword: str):
    entry = CATALOGUE[keyword]
    winner = cheapest(entry["request"], await coupang_offers(shop_url, keyword))

    expected = entry["expected_lowest"]["coupang"]
    if expected is None:
        assert winner is None
    else:
        assert winner is not None
        assert (winner.price, winner.product_id) == (expected["price"], expected["product_id"])


@pytest.mark.parametrize("keyword", list(CATALOGUE))
async def test_naver_api_yields_the_expected_lowest_genuine_offer(shop_url: str, keyword: str):
    entry = CATALOGUE[keyword]
    async with aiohttp.ClientSession() as http:
        source = NaverSource(http, base_url=shop_url, client_id="demo", client_secret="demo")
        result = await source.search(entry["request"])
    winner = cheapest(entry["request"], result.offers)

    expected = entry["expected_lowest"]["naver"]
    if expected is None:
        assert winner is None
    else:
        assert winner is not None
        assert (winner.price, winner.product_id) == (expected["price"], expected["product_id"])
        assert "<b>" not in winner.title


async def test_naver_quota_is_a_rate_limited_failure(shop_url: str):
    async with aiohttp.ClientSession() as http:
        source = NaverSource(http, base_url=shop_url, client_id="demo", client_secret="demo")
        with pytest.raises(SourceRateLimited):
            await source.search({"keyword": "quota"})
