"""`lps demo-shop`'s app over HTTP: the Coupang-like pages follow the documented markup, the Naver-like API
behaves like Naver's, the special keywords misbehave as documented, and the data's expected winners hold."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

import pytest
from aiohttp.test_utils import TestClient
from selectolax.lexbor import LexborHTMLParser, LexborNode

from tests.demo_shop_pages import COLA, DATA, DYSON, GALAXY, HETBAN, IPHONE, MOUSE, coupang_products, search_page
from tests.demo_shop_pages import shop as shop
from tools import demo_shop
from tools.demo_shop import create_demo_shop_app

NAVER_HEADERS = {"X-Naver-Client-Id": "demo-id", "X-Naver-Client-Secret": "demo-secret"}
#: A CSS-module class name: Component_element__hash.
CSS_MODULE = re.compile(r"^[A-Z][A-Za-z]+_[a-z][A-Za-z]+__[A-Za-z0-9]{5}$")
#: The badge rules of docs/sources.md: a fragment of the badge image's src names the delivery type.
BADGE_FRAGMENTS = [
    ("logo_rocket_large", "ROCKET"),
    ("rocket-fresh", "ROCKET_FRESH"),
    ("global_b", "ROCKET_DIRECT"),
    ("logoRocketMerchant", "ROCKET_SELLER"),
    ("rocket-install", "ROCKET_INSTALL"),
    ("rocket_install", "ROCKET_INSTALL"),
]
NO_RESULTS_TEXTS = ("검색결과가 없습니다", "일치하는 상품이 없습니다", "다른 검색어를 입력하시거나")


def naver_products(keyword: str) -> list[dict[str, Any]]:
    return [product for product in DATA[keyword]["products"] if "naver" in product]


async def naver(shop: TestClient, query: str, headers: dict[str, str] = NAVER_HEADERS, **params: Any):
    return await shop.get("/v1/search/shop.json", params={"query": query, **params}, headers=headers)


def _number(text: str) -> int:
    return int(re.sub(r"\D", "", text))


def read_current_item(item: LexborNode) -> dict[str, Any]:
    """What the documented selectors of the current layout find in one item (docs/sources.md)."""
    link = item.css_first('a[href*="/vp/products/"]').attributes["href"]
    badge = item.css_first('[class^="ImageBadge_default"] > img')
    star = item.css_first('[class*="ProductRating_star"]')
    count = item.css_first('[class*="ProductRating_ratingCount"]')
    unit = item.css_first('[class*="UnitPrice_unitPrice"]')
    base = item.css_first('[class*="PriceArea"] del')
    rating = None
    if star is not None:
        width = re.search(r"width:\s*(\d+)%", star.html)
        rating = float(star.attributes.get("aria-label") or int(width.group(1)) / 20)
    return {
        "product_id": item.attributes["data-id"],
        "link": link,
        "title": item.css_first('[class*="ProductUnit_productName"]').text(strip=True),
        "price": _number(item.css_first('[class*="Price_priceValue"]').text()),
        "base_price": _number(base.text()) if base else None,
        "unit_price": unit.text(strip=True) if unit else None,
        "delivery": _delivery(badge.attributes["src"]) if badge else "GENERAL",
        "rating": rating,
        "review_count": _number(count.text()) if count else None,
        "ad": item.css_first('[class*="AdMark"]') is not None,
        "sold_out": item.css_first('[class*="soldoutText"]') is not None,
    }


def read_old_item(item: LexborNode) -> dict[str, Any]:
    badge = item.css_first("span.badge.rocket > img")
    rating = item.css_first("em.rating")
    count = item.css_first("span.rating-total-count")
    unit = item.css_first("span.unit-price")
    base = item.css_first("del.base-price")
    return {
        "product_id": item.attributes["data-product-id"],
        "link": item.css_first("a.search-product-link").attributes["href"],
        "title": item.css_first("div.name").text(strip=True),
        "price": _number(item.css_first("strong.price-value").text()),
        "base_price": _number(base.text()) if base else None,
        "unit_price": unit.text(strip=True) if unit else None,
        "delivery": _delivery(badge.attributes["src"]) if badge else "GENERAL",
        "rating": float(rating.text()) if rating else None,
        "review_count": _number(count.text()) if count else None,
        "ad": item.css_first("span.ad-badge-text") is not None,
        "sold_out": item.css_first("div.out-of-stock") is not None,
    }


def _delivery(src: str) -> str:
    return next(kind for fragment, kind in BADGE_FRAGMENTS if fragment in src)


def expected_item(product: dict[str, Any]) -> dict[str, Any]:
    coupang = product["coupang"]
    return {
        "product_id": coupang["product_id"],
        "title": product["title"],
        "price": product["price"],
        "base_price": product.get("base_price"),
        "unit_price": coupang.get("unit_price"),
        "delivery": coupang["delivery"],
        "rating": coupang.get("rating"),
        "review_count": coupang.get("review_count"),
        "ad": coupang.get("ad", False),
        "sold_out": coupang.get("sold_out", False),
    }


async def read_all_pages(shop: TestClient, keyword: str, **params: Any) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for page in range(1, 10):
        _, text = await search_page(shop, keyword, page=page, **params)
        tree = LexborHTMLParser(text)
        current = [read_current_item(item) for item in tree.css("#product-list > li")]
        old = [read_old_item(item) for item in tree.css("ul#productList > li.search-product")]
        if not current and not old:
            return items
        items.extend(current or old)
    raise AssertionError("pagination never ended")


# ------------------------------------------------------------------------------------------------ Coupang pages


async def test_current_layout_items_follow_the_documented_selectors_with_hash_suffixed_classes(shop):
    status, text = await search_page(shop, IPHONE)
    tree = LexborHTMLParser(text)
    items = tree.css("#product-list > li")

    assert status == 200
    assert len(items) == len(coupang_products(IPHONE))
    classes = {
        name for node in tree.css("#product-list, #product-list *") for name in node.attributes.get("class", "").split()
    }
    assert classes
    assert all(CSS_MODULE.match(name) for name in classes), sorted(classes)
    assert tree.css_first("ul#productList") is None


async def test_build_parameter_changes_every_hash_suffix_but_keeps_the_prefixes(shop):
    _, first = await search_page(shop, IPHONE)
    _, second = await search_page(shop, IPHONE, build="next-deployment")

    def class_names(text: str) -> set[str]:
        tree = LexborHTMLParser(text)
        return {name for node in tree.css("#product-list *") for name in node.attributes.get("class", "").split()}

    before, after = class_names(first), class_names(second)
    assert before.isdisjoint(after)
    assert {name.split("__")[0] for name in before} == {name.split("__")[0] for name in after}


async def test_current_layout_renders_every_field_of_the_data(shop):
    for keyword in (IPHONE, COLA, GALAXY, DYSON, MOUSE):
        seen = await read_all_pages(shop, keyword)
        for item in seen:
            del item["link"]
        assert seen == [expected_item(product) for product in coupang_products(keyword)], keyword


async def test_older_layout_is_served_for_keywords_whose_data_says_so(shop):
    status, text = await search_page(shop, HETBAN)
    tree = LexborHTMLParser(text)

    assert DATA[HETBAN]["layout"] == "old"
    assert status == 200
    assert tree.css_first("#product-list") is None
    assert len(tree.css("ul#productList > li.search-product[data-product-id]")) == len(coupang_products(HETBAN))
    seen = await read_all_pages(shop, HETBAN)
    for item in seen:
        del item["link"]
    assert seen == [expected_item(product) for product in coupang_products(HETBAN)]


async def test_layout_parameter_switches_a_keyword_between_layouts(shop):
    _, old = await search_page(shop, IPHONE, layout="old")
    _, current = await search_page(shop, HETBAN, layout="current")

    assert len(LexborHTMLParser(old).css("ul#productList > li.search-product")) == len(coupang_products(IPHONE))
    assert len(LexborHTMLParser(current).css("#product-list > li")) == len(coupang_products(HETBAN))


@pytest.mark.parametrize("layout", ["current", "old"])
async def test_ads_carry_an_ad_mark_and_a_link_without_rank(shop, layout):
    items = await read_all_pages(shop, IPHONE, layout=layout)
    ads = [item for item in items if item["ad"]]
    organic = [item for item in items if not item["ad"]]

    assert len(ads) == 2
    assert all("rank=" not in item["link"] for item in ads)
    assert [re.search(r"[?&]rank=(\d+)", item["link"]).group(1) for item in organic] == [
        str(rank) for rank in range(1, len(organic) + 1)
    ]
    assert all(item["link"].startswith(f"/vp/products/{item['product_id']}?itemId=") for item in items)
    assert all("vendorItemId=" in item["link"] for item in items)


async def test_sold_out_items_say_일시품절_and_still_show_a_price(shop):
    _, text = await search_page(shop, IPHONE)
    sold_out = [
        item for item in LexborHTMLParser(text).css("#product-list > li") if item.css_first('[class*="soldoutText"]')
    ]

    assert len(sold_out) == 1
    assert sold_out[0].css_first('[class*="soldoutText"]').text() == "일시품절"
    assert sold_out[0].css_first('[class*="Price_priceValue"]').text() == "979,000원"


async def test_every_delivery_type_has_its_badge_somewhere_in_the_catalogue(shop):
    deliveries = set()
    for keyword in (IPHONE, COLA, DYSON, MOUSE):
        deliveries |= {item["delivery"] for item in await read_all_pages(shop, keyword)}

    assert deliveries == {"ROCKET", "ROCKET_FRESH", "ROCKET_DIRECT", "ROCKET_SELLER", "ROCKET_INSTALL", "GENERAL"}


async def test_rating_is_readable_from_the_star_width_when_the_aria_label_is_missing(shop):
    _, text = await search_page(shop, IPHONE)
    stars = LexborHTMLParser(text).css('[class*="ProductRating_star"]')
    without_label = [star for star in stars if "aria-label" not in star.attributes]

    assert without_label
    assert all(re.search(r"width: \d+%", star.html) for star in without_label)


async def test_price_is_sometimes_a_div_as_on_the_real_site(shop):
    _, text = await search_page(shop, IPHONE)
    tags = {node.tag for node in LexborHTMLParser(text).css('[class*="Price_priceValue"]')}

    assert tags == {"strong", "div"}


async def test_pagination_splits_items_by_list_size_and_ends_with_the_no_results_page(shop):
    pages = []
    for page in (1, 2, 3, 4):
        status, text = await search_page(shop, MOUSE, page=page)
        pages.append(
            (status, [li.attributes["data-id"] for li in LexborHTMLParser(text).css("#product-list > li")], text)
        )

    assert [len(ids) for _, ids, _ in pages] == [36, 36, 18, 0]
    assert all(status == 200 for status, _, _ in pages)
    assert "검색결과가 없습니다" in pages[3][2]
    every_id = [product_id for _, ids, _ in pages for product_id in ids]
    assert every_id == [product["coupang"]["product_id"] for product in coupang_products(MOUSE)]
    assert 'data-page-total="3"' in pages[0][2]


async def test_list_size_changes_the_page_size_up_to_72(shop):
    sizes = {}
    for list_size in (72, 500):
        for page in (1, 2):
            _, text = await search_page(shop, MOUSE, page=page, listSize=list_size)
            sizes[list_size, page] = len(LexborHTMLParser(text).css("#product-list > li"))

    assert sizes == {(72, 1): 72, (72, 2): 18, (500, 1): 72, (500, 2): 18}


async def test_ranks_continue_across_pages(shop):
    items = await read_all_pages(shop, MOUSE)
    ranks = [int(re.search(r"[?&]rank=(\d+)", item["link"]).group(1)) for item in items if not item["ad"]]

    assert ranks == list(range(1, len(ranks) + 1))


async def test_keywords_match_ignoring_case_and_extra_spaces(shop):
    _, text = await search_page(shop, "  아이폰   15 128gb ")

    assert len(LexborHTMLParser(text).css("#product-list > li")) == len(coupang_products(IPHONE))


async def test_result_pages_are_tens_of_kilobytes_and_carry_no_block_or_no_results_text(shop):
    for keyword in DATA:
        status, text = await search_page(shop, keyword)
        assert status == 200
        assert len(text.encode()) > 20_000, keyword
        assert "점검" not in text
        assert "Access Denied" not in text
        assert not any(marker in text for marker in NO_RESULTS_TEXTS), keyword


async def test_unknown_keyword_is_a_full_size_no_results_page(shop):
    status, text = await search_page(shop, "존재하지 않는 상품 XYZ")
    tree = LexborHTMLParser(text)

    assert status == 200
    assert "검색결과가 없습니다" in text
    assert "다른 검색어를 입력하시거나" in text
    assert tree.css_first("#product-list") is None
    assert tree.css_first("#productList") is None
    # A no-results page is the whole site around a message, not a tiny page that would read as a block.
    assert len(text.encode()) > 10_000


async def test_blocked_keyword_is_a_tiny_403_access_denied_page(shop):
    response = await shop.get("/np/search", params={"q": "blocked"})
    text = await response.text()

    assert response.status == 403
    assert "<title>Access Denied</title>" in text
    assert len(text.encode()) < 1000
    assert "product" not in text.lower()


async def test_maintenance_keyword_is_a_page_about_점검_without_products(shop):
    status, text = await search_page(shop, "maintenance")

    assert status == 200
    assert "점검" in text
    assert "product" not in text.lower()
    assert len(text) > 1200  # characters: not a tiny page, so only its text says what it is
    assert not any(marker in text for marker in NO_RESULTS_TEXTS)


async def test_weird_layout_keyword_shows_products_in_markup_no_parser_knows(shop):
    status, text = await search_page(shop, "weird layout")
    tree = LexborHTMLParser(text)

    assert status == 200
    assert len(text.encode()) > 20_000
    assert "1,016,000" in text  # products are there...
    for selector in (  # ...but none where a parser of either layout looks
        "#product-list",
        "#productList",
        "li.search-product",
        '[class*="ProductUnit_"]',
        '[class*="Price_priceValue"]',
        'a[href*="/vp/products/"]',
    ):
        assert tree.css_first(selector) is None, selector
    assert not any(marker in text for marker in NO_RESULTS_TEXTS)


async def test_slow_keyword_waits_then_answers_for_the_rest_of_the_keyword(shop):
    started = time.monotonic()
    status, text = await search_page(shop, f"slow=0.3 {IPHONE}")

    assert time.monotonic() - started >= 0.3
    assert status == 200
    assert len(LexborHTMLParser(text).css("#product-list > li")) == len(coupang_products(IPHONE))


async def test_delay_parameter_slows_any_request_and_is_bounded(shop, monkeypatch):
    started = time.monotonic()
    await search_page(shop, IPHONE, delay="0.2")
    assert time.monotonic() - started >= 0.2

    monkeypatch.setattr(demo_shop, "MAX_DELAY", 0.1)
    started = time.monotonic()
    await search_page(shop, "slow=20")
    assert time.monotonic() - started < 5


# ------------------------------------------------------------------------------------------------ Naver API
async def test_naver_requires_both_client_headers(shop):
    missing_both = await naver(shop, IPHONE, headers={})
    missing_secret = await naver(shop, IPHONE, headers={"X-Naver-Client-Id": "demo-id"})

    for response in (missing_both, missing_secret):
        assert response.status == 401
        body = await response.json()
        assert body["errorCode"] == "024"
        assert "errorMessage" in body


async def test_naver_items_carry_the_api_fields_with_keyword_words_in_bold(shop):
    response = await naver(shop, IPHONE, display=100)
    body = await response.json()
    first = body["items"][0]

    assert response.status == 200
    assert set(body) == {"lastBuildDate", "total", "start", "display", "items"}
    assert body["total"] == len(naver_products(IPHONE))
    assert body["start"] == 1
    assert body["display"] == len(body["items"])
    assert set(first) == {
        "title", "link", "image", "lprice", "hprice", "mallName", "productId", "productType", "brand", "maker",
        "category1", "category2", "category3", "category4",
    }  # fmt: skip
    assert first["title"] == "Apple <b>아이폰</b> <b>15</b> <b>128GB</b> [자급제]"
    assert first["lprice"] == "1009000"
    assert first["hprice"] == "1250000"
    assert first["productType"] == "1"
    assert first["mallName"] == "네이버"
    assert [item["productId"] for item in body["items"]] == [p["naver"]["product_id"] for p in naver_products(IPHONE)]


async def test_naver_unknown_query_has_no_items(shop):
    body = await (await naver(shop, "존재하지 않는 상품 XYZ")).json()

    assert body["total"] == 0
    assert body["items"] == []


@pytest.mark.parametrize(("sort", "reverse"), [("asc", False), ("dsc", True)])
async def test_naver_sort_asc_and_dsc_order_by_lowest_price(shop, sort, reverse):
    body = await (await naver(shop, IPHONE, display=100, sort=sort)).json()
    prices = [int(item["lprice"]) for item in body["items"]]

    assert prices == sorted(prices, reverse=reverse)
    assert len(prices) == len(naver_products(IPHONE))


async def test_naver_sort_date_orders_newest_product_id_first(shop):
    body = await (await naver(shop, IPHONE, display=100, sort="date")).json()
    ids = [int(item["productId"]) for item in body["items"]]

    assert ids == sorted(ids, reverse=True)


async def test_naver_display_and_start_page_through_the_items(shop):
    everything = (await (await naver(shop, MOUSE, display=100)).json())["items"]
    first = await (await naver(shop, MOUSE, display=10)).json()
    second = await (await naver(shop, MOUSE, display=10, start=11)).json()
    past_the_end = await (await naver(shop, MOUSE, display=10, start=len(everything) + 1)).json()

    assert len(everything) > 20
    assert first["items"] + second["items"] == everything[:20]
    assert (second["start"], second["display"], second["total"]) == (11, 10, len(everything))
    assert past_the_end["items"] == []
    assert past_the_end["display"] == 0


@pytest.mark.parametrize(
    ("params", "code"),
    [({"display": 101}, "SE02"), ({"display": 0}, "SE02"), ({"start": 1001}, "SE03"), ({"sort": "cheap"}, "SE04")],
)
async def test_naver_rejects_out_of_range_parameters_like_naver(shop, params, code):
    response = await naver(shop, IPHONE, **params)

    assert response.status == 400
    assert (await response.json())["errorCode"] == code


async def test_naver_exclude_used_drops_product_types_4_to_6(shop):
    everything = (await (await naver(shop, IPHONE, display=100)).json())["items"]
    without_used = await (await naver(shop, IPHONE, display=100, exclude="used")).json()

    assert {"4"} <= {item["productType"] for item in everything}
    assert without_used["items"] == [item for item in everything if item["productType"] not in {"4", "5", "6"}]
    assert without_used["total"] == len(without_used["items"])


async def test_naver_exclude_rental_and_cbshop_drop_rental_and_cross_border_items(shop):
    rental = {p["naver"]["product_id"] for p in naver_products(IPHONE) if p["naver"].get("rental")}
    cross_border = {p["naver"]["product_id"] for p in naver_products(IPHONE) if p["naver"].get("cross_border")}
    everything = (await (await naver(shop, IPHONE, display=100)).json())["items"]
    kept = (await (await naver(shop, IPHONE, display=100, exclude="used:rental:cbshop")).json())["items"]

    assert rental
    assert cross_border
    assert rental | cross_border <= {item["productId"] for item in everything}
    assert not (rental | cross_border) & {item["productId"] for item in kept}
    assert all(item["productType"] not in {"4", "5", "6"} for item in kept)


async def test_naver_quota_keyword_answers_429_with_naver_error_json(shop):
    response = await naver(shop, "quota")

    assert response.status == 429
    assert (await response.json()) == {
        "errorMessage": "Rate limit exceeded. (속도 제한을 초과했습니다.)",
        "errorCode": "012",
    }


# ------------------------------------------------------------------------------------------------ the data


async def test_expected_winners_are_on_the_first_page_and_in_the_naver_answer(shop):
    for keyword, entry in DATA.items():
        expected = entry["expected_lowest"]
        if expected["coupang"]:
            _, text = await search_page(shop, keyword)
            tree = LexborHTMLParser(text)
            items = [read_current_item(li) for li in tree.css("#product-list > li")] or [
                read_old_item(li) for li in tree.css("ul#productList > li.search-product")
            ]
            winner = next(item for item in items if item["product_id"] == expected["coupang"]["product_id"])
            assert winner["price"] == expected["coupang"]["price"]
            assert not winner["ad"]
            assert not winner["sold_out"]
        if expected["naver"]:
            body = await (await naver(shop, keyword, display=100, exclude="used:rental:cbshop")).json()
            winner = next(item for item in body["items"] if item["productId"] == expected["naver"]["product_id"])
            assert int(winner["lprice"]) == expected["naver"]["price"]


# ------------------------------------------------------------------------------------------------ the command
async def test_healthz_answers_200(shop):
    response = await shop.get("/healthz")

    assert response.status == 200
    assert (await response.json())["status"] == "ok"


async def test_in_block_mode_a_burst_of_coupang_searches_gets_access_denied_pages_and_naver_is_not_affected(
    aiohttp_client,
):
    shop = await aiohttp_client(create_demo_shop_app(block_above=1, block_for=30))

    # Concurrent requests on loopback arrive within milliseconds: far more than 1 a second.
    responses = await asyncio.gather(*(shop.get("/np/search", params={"q": IPHONE}) for _ in range(3)))
    statuses = sorted(response.status for response in responses)
    denied = await shop.get("/np/search", params={"q": IPHONE})
    naver = await shop.get("/v1/search/shop.json", params={"query": IPHONE}, headers=NAVER_HEADERS)

    assert statuses == [200, 403, 403]
    assert denied.status == 403
    assert "<title>Access Denied</title>" in await denied.text()
    assert naver.status == 200
    log = shop.app[demo_shop.SHOP_LOG]
    assert [request.status for request in log.of("coupang")] == [200, 403, 403, 403]  # in order of arrival
    assert [request.status for request in log.of("naver")] == [200]


async def test_the_shop_writes_down_every_search_request_it_receives(shop):
    await shop.get("/np/search", params={"q": "blocked"})
    await shop.get("/v1/search/shop.json", params={"query": IPHONE}, headers=NAVER_HEADERS)
    await shop.get("/healthz")

    log = shop.app[demo_shop.SHOP_LOG]
    assert [(request.route, request.status) for request in log.requests] == [("coupang", 403), ("naver", 200)]
    assert log.requests[0].at <= log.requests[1].at
    assert log.requests[0].peer == "127.0.0.1"
