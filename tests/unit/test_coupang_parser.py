"""The Coupang search-page parser over saved pages: page kinds, every item field, and odd markup."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from selectolax.lexbor import LexborHTMLParser

from actors.sources.coupang_parser import CoupangPage, PageKind, parse_search_page
from schemas.offers import Delivery, Offer

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "coupang"
BASE_URL = "https://www.coupang.com"


def read(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def parse(name: str, status: int | None = 200) -> CoupangPage:
    return parse_search_page(read(name), base_url=BASE_URL, status=status)


def offers_by_id(name: str) -> dict[str | None, Offer]:
    return {offer.product_id: offer for offer in parse(name).offers}


PAGE_KINDS = [
    ("current_results.html", PageKind.RESULTS, "current layout"),
    ("current_results_rehashed.html", PageKind.RESULTS, "current layout"),
    ("current_ads.html", PageKind.RESULTS, "current layout"),
    ("current_sold_out.html", PageKind.RESULTS, "current layout"),
    ("current_delivery_badges.html", PageKind.RESULTS, "current layout"),
    ("current_ratings_and_unit_prices.html", PageKind.RESULTS, "current layout"),
    # 4500679890 has no name: not a product item, so 1 of its 19 product items is skipped, not 2 of 20.
    (
        "current_mixed.html",
        PageKind.RESULTS,
        "current layout, 1 of 19 items skipped, 1 of 20 list entries not products",
    ),
    # No link and no data-id, and a blank name: 2 entries are not product items; no price and price 0 are skipped.
    (
        "current_missing_fields.html",
        PageKind.RESULTS,
        "current layout, 2 of 8 items skipped, 2 of 10 list entries not products",
    ),
    ("current_utility_prices.html", PageKind.RESULTS, "current layout"),
    ("current_mixed_price_markups.html", PageKind.RESULTS, "current layout"),
    (
        "current_banners_in_list.html",
        PageKind.RESULTS,
        "current layout, 1 of 12 items skipped, 3 of 15 list entries not products",
    ),
    ("older_results.html", PageKind.RESULTS, "older layout"),
    ("no_results_search.html", PageKind.NO_RESULTS, "검색결과가 없습니다"),
    ("no_results_match.html", PageKind.NO_RESULTS, "일치하는 상품이 없습니다"),
    ("no_results_other_keyword.html", PageKind.NO_RESULTS, "다른 검색어를 입력하시거나"),
    ("blocked_access_denied.html", PageKind.BLOCKED, "Access Denied"),
    ("blocked_tiny.html", PageKind.BLOCKED, "tiny page"),
    ("blocked_maintenance.html", PageKind.BLOCKED, "maintenance (점검)"),
    ("unknown_layout.html", PageKind.UNKNOWN, "no product list"),
    ("current_unparseable_items.html", PageKind.UNKNOWN, "current layout: 24 items, none parseable"),
]


@pytest.mark.parametrize(("name", "kind", "detail"), PAGE_KINDS)
def test_every_saved_page_gets_its_kind_and_reason(name: str, kind: PageKind, detail: str) -> None:
    page = parse(name)
    assert (page.kind, page.detail) == (kind, detail)
    assert bool(page.offers) == (kind is PageKind.RESULTS)


def test_every_fixture_file_is_classified_above() -> None:
    assert sorted(path.name for path in FIXTURES.glob("*.html")) == sorted(name for name, _, _ in PAGE_KINDS)


def test_current_layout_reads_every_field_of_an_item() -> None:
    assert parse("current_results.html").offers[0] == Offer(
        source="coupang",
        title="애플 아이폰 15 128GB 블랙",
        price=1_125_000,
        url=(
            "https://www.coupang.com/vp/products/8123456789?itemId=23456789012&vendorItemId=87654321098"
            "&sourceType=search&rank=1&searchRank=1&searchId=299e857433cd2b571759&isAddedCart="
        ),
        product_id="8123456789",
        item_id="23456789012",
        vendor_item_id="87654321098",
        delivery=Delivery.ROCKET,
        sold_out=False,
        is_ad=False,
        unit_price=None,
        rating=4.5,
        review_count=1234,
    )


def test_current_layout_reads_all_items_in_page_order() -> None:
    offers = parse("current_results.html").offers
    assert len(offers) == 36
    assert len({offer.product_id for offer in offers}) == 36
    assert [offer.title for offer in offers[1:3]] == [
        "Apple 2023 아이폰 15 자급제, 블랙, 128GB",
        "Apple 2023 아이폰 15 자급제, 블루, 128GB",
    ]
    assert (offers[-1].title, offers[-1].price, offers[-1].delivery) == (
        "애플 정품 20W USB-C 전원 어댑터",
        25_000,
        Delivery.GENERAL,
    )
    assert [index for index, offer in enumerate(offers) if offer.is_ad] == [4, 17]


def test_new_hash_suffixes_and_div_prices_give_the_same_offers() -> None:
    rehashed = read("current_results_rehashed.html")
    assert "ProductUnit_productName__zz91Q" in rehashed
    assert '<div class="Price_priceValue__' in rehashed
    assert parse("current_results_rehashed.html").offers == parse("current_results.html").offers


def test_the_sale_price_is_read_not_the_crossed_out_base_price() -> None:
    almonds = offers_by_id("current_ratings_and_unit_prices.html")
    assert almonds["6400500600"].price == 17_290  # del: 21,900
    assert almonds["6400563952"].price == 14_160  # del: 17,700, sale price in a div
    assert almonds["6400556033"].price == 14_160  # "원" outside the price element
    assert offers_by_id("older_results.html")["123456"].price == 15_900  # del: 19,800


def test_ads_are_marked_by_admark_or_missing_rank() -> None:
    water = offers_by_id("current_ads.html")
    assert {product_id for product_id, offer in water.items() if offer.is_ad} == {
        "5100200300",  # AdMark, no rank=
        "5100208219",  # AdMark, no rank=
        "5100231976",  # no AdMark: only the missing rank= gives it away
        "5100239895",  # AdMark although the link carries rank=
        "5100279490",  # no AdMark, no rank=
    }
    assert len(water) == 12


def test_older_layout_ads_are_marked_by_badge_text_only() -> None:
    cola = offers_by_id("older_results.html")
    assert {product_id for product_id, offer in cola.items() if offer.is_ad} == {"131375", "170970"}
    assert "rank=" not in cola["178889"].url
    assert cola["178889"].is_ad is False


def test_sold_out_by_class_or_by_the_exact_text() -> None:
    switch = offers_by_id("current_sold_out.html")
    assert {product_id: offer.sold_out for product_id, offer in switch.items()} == {
        "9200100400": False,
        "9200108319": True,  # soldoutText 일시품절
        "9200116238": True,  # badge text 품절
        "9200124157": True,  # badge text 일시품절
        "9200132076": False,  # 품절임박: almost sold out, still on sale
        "9200139995": False,  # [품절대란] in the name
        "9200147914": False,
        "9200155833": True,  # soldoutText 품절
        "9200163752": False,
    }
    assert offers_by_id("older_results.html")["155132"].sold_out is True  # .out-of-stock


def test_every_delivery_badge_maps_to_its_delivery_type() -> None:
    soda = offers_by_id("current_delivery_badges.html")
    assert {product_id: offer.delivery for product_id, offer in soda.items()} == {
        "7300400500": Delivery.ROCKET,
        "7300408419": Delivery.ROCKET_FRESH,
        "7300416338": Delivery.ROCKET_DIRECT,
        "7300424257": Delivery.ROCKET_SELLER,
        "7300432176": Delivery.ROCKET_INSTALL,  # .../rocket-install/...
        "7300440095": Delivery.ROCKET_INSTALL,  # .../rocket_install@2x.png
        "7300448014": Delivery.GENERAL,  # an unrelated badge only
        "7300455933": Delivery.GENERAL,  # no badge
        "7300463852": Delivery.ROCKET,  # an unrelated badge before the rocket one
    }
    cola = offers_by_id("older_results.html")
    assert [cola[pid].delivery for pid in ("123456", "147213", "170970", "178889", "186808")] == [
        Delivery.ROCKET,
        Delivery.ROCKET_FRESH,
        Delivery.ROCKET_SELLER,
        Delivery.GENERAL,
        Delivery.ROCKET_DIRECT,
    ]


def test_ratings_come_from_aria_label_or_star_width() -> None:
    almonds = offers_by_id("current_ratings_and_unit_prices.html")
    assert {product_id: offer.rating for product_id, offer in almonds.items()} == {
        "6400500600": 4.5,  # aria-label="4.5"
        "6400508519": 5.0,  # aria-label="5"
        "6400516438": 4.5,  # width: 90%
        "6400524357": 3.65,  # width: 73%
        "6400532276": None,  # no rating block
        "6400540195": 4.0,
        "6400548114": 4.5,
        "6400556033": 4.5,
        "6400563952": 5.0,
        "6400571871": 3.5,
    }
    cola = offers_by_id("older_results.html")
    assert (cola["123456"].rating, cola["147213"].rating) == (4.5, 4.0)  # em text; empty em with width: 80%


def test_review_counts_drop_parentheses_and_thousands_separators() -> None:
    almonds = offers_by_id("current_ratings_and_unit_prices.html")
    assert [almonds[pid].review_count for pid in ("6400500600", "6400508519", "6400516438", "6400524357")] == [
        1_234,
        12_345,
        7,
        1_234_567,
    ]
    assert almonds["6400532276"].review_count is None
    assert offers_by_id("older_results.html")["131375"].review_count == 45_210


def test_unit_price_is_the_text_inside_the_parentheses() -> None:
    almonds = offers_by_id("current_ratings_and_unit_prices.html")
    assert [almonds[pid].unit_price for pid in ("6400500600", "6400540195", "6400548114", "6400556033")] == [
        "10g당 173원",
        "1개당 530원",
        "100ml당 526원",
        "100g당 2,832원",
    ]
    assert almonds["6400532276"].unit_price is None
    assert offers_by_id("older_results.html")["123456"].unit_price == "100ml당 187원"


def test_a_page_mixing_all_item_kinds() -> None:
    offers = parse("current_mixed.html").offers
    summary = {
        offer.product_id: (offer.price, offer.delivery, offer.is_ad, offer.sold_out, offer.unit_price, offer.rating)
        for offer in offers
    }
    assert summary == {
        "4500600700": (12_900, Delivery.ROCKET, False, False, "10매당 129원", 5.0),
        "4500608619": (15_900, Delivery.ROCKET, True, False, "10매당 227원", 4.5),  # AdMark
        "4500616538": (18_900, Delivery.ROCKET_SELLER, True, False, None, 4.5),  # no rank=
        "4500624457": (11_990, Delivery.ROCKET, False, False, "10매당 120원", 4.8),  # width: 96%
        "4500632376": (9_990, Delivery.ROCKET_FRESH, False, True, None, 4.5),  # soldoutText
        "4500640295": (16_500, Delivery.ROCKET, False, True, None, 4.5),  # text 품절
        "4500648214": (13_450, Delivery.ROCKET_DIRECT, False, False, None, None),
        "4500656133": (19_900, Delivery.ROCKET_INSTALL, False, False, None, None),
        "4500664052": (8_900, Delivery.GENERAL, False, False, "10매당 223원", None),
        # skipped: 4500671971 has no price, 4500679890 no name
        "4500687809": (10_900, Delivery.ROCKET, False, False, None, 5.0),
        "4500695728": (14_900, Delivery.ROCKET, True, False, None, None),  # AdMark and no rank=
        "4500703647": (17_800, Delivery.ROCKET, False, False, None, 4.5),
        "4500711566": (16_900, Delivery.ROCKET_SELLER, False, False, None, 4.0),
        "4500719485": (11_400, Delivery.GENERAL, False, False, None, None),
        "4500727404": (21_500, Delivery.ROCKET, False, False, None, 4.2),  # width: 84%
        "4500735323": (8_450, Delivery.ROCKET, False, False, "10매당 85원", None),
        "4500743242": (15_400, Delivery.ROCKET, False, False, None, 4.5),
        "4500751161": (18_200, Delivery.ROCKET, False, False, None, None),  # 품절임박
    }


def test_items_missing_optional_fields_get_the_defaults() -> None:
    hub = offers_by_id("current_missing_fields.html")["6543210986"]
    assert hub == Offer(
        source="coupang",
        title="아이피타임 UH308 USB 3.0 4포트 허브",
        price=12_500,
        url=(
            "https://www.coupang.com/vp/products/6543210986?itemId=21098765432&vendorItemId=81098765432"
            "&sourceType=search&rank=1&searchRank=1&searchId=b559777babe5b567f618&isAddedCart="
        ),
        product_id="6543210986",
        item_id="21098765432",
        vendor_item_id="81098765432",
    )


def test_ids_and_urls_fall_back_when_the_link_says_less() -> None:
    hubs = offers_by_id("current_missing_fields.html")
    link_without_ids = hubs["6543210987"]
    assert (link_without_ids.item_id, link_without_ids.vendor_item_id) == (None, None)
    assert link_without_ids.url == "https://www.coupang.com/vp/products/6543210987?sourceType=search&rank=2"
    no_link = hubs["6543210988"]  # data-id only
    assert (no_link.url, no_link.is_ad) == ("https://www.coupang.com/vp/products/6543210988", False)
    path_without_id = hubs["6543210989"]  # /vp/products/promo-anker?…: the id comes from data-id
    assert (path_without_id.item_id, path_without_id.vendor_item_id) == ("21098765439", "81098765439")
    assert hubs["6543210990"].url.startswith("https://www.coupang.com/vp/products/6543210990?")  # absolute href
    assert hubs["6543210995"].url.startswith("https://www.coupang.com/vp/products/6543210995?")  # //host/path
    older = offers_by_id("older_results.html")["273917"]  # javascript: link, data-product-id only
    assert (older.url, older.item_id) == ("https://www.coupang.com/vp/products/273917", None)


def test_items_without_a_price_a_name_or_anything_to_link_to_are_skipped() -> None:
    hubs = parse("current_missing_fields.html").offers
    assert [offer.title for offer in hubs] == [
        "아이피타임 UH308 USB 3.0 4포트 허브",
        "벨킨 USB-C 7in1 멀티 허브",
        "유그린 USB 3.0 무전원 4포트 허브",
        "앤커 USB-C 5in1 허브",
        "엑토 USB 3.0 7포트 유전원 허브",
        "오리코 USB-C 10Gbps 4포트 허브",
    ]  # skipped: no link and no data-id, no price element, price 0, blank name


def test_older_layout_reads_every_field_of_an_item() -> None:
    assert parse("older_results.html").offers[0] == Offer(
        source="coupang",
        title="코카콜라 제로 355ml 24캔",
        price=15_900,
        url=(
            "https://www.coupang.com/vp/products/123456?itemId=20001234560&vendorItemId=80001234560"
            "&pickType=&sourceType=search&rank=1&searchId=0b1c2d3e4f5a6b7c8d9e"
        ),
        product_id="123456",
        item_id="20001234560",
        vendor_item_id="80001234560",
        delivery=Delivery.ROCKET,
        unit_price="100ml당 187원",
        rating=4.5,
        review_count=123,
    )


def test_product_links_outside_the_product_list_are_not_offers() -> None:
    assert "/vp/products/7000000001" in read("current_results.html")  # the "함께 본 상품" carousel
    assert "7000000001" not in offers_by_id("current_results.html")


@pytest.mark.parametrize("status", [403, 429])
def test_a_refusing_status_is_blocked_whatever_the_page_says(status: int) -> None:
    assert parse("current_results.html", status=status) == CoupangPage(PageKind.BLOCKED, [], str(status))
    assert parse("blocked_access_denied.html", status=status).detail == str(status)


def test_no_results_messages_inside_scripts_do_not_hide_results() -> None:
    assert '"search.noResult": "검색결과가 없습니다"' in read("current_results.html")
    assert parse("current_results.html").kind is PageKind.RESULTS


def test_a_no_results_page_for_a_keyword_with_점검_is_not_maintenance() -> None:
    assert "'타이어 점검 키트 zx-900'" in read("no_results_other_keyword.html")
    assert parse("no_results_other_keyword.html").kind is PageKind.NO_RESULTS


def test_no_results_message_matches_whatever_its_spacing() -> None:
    html = read("no_results_search.html").replace("검색결과가 없습니다", "검색 결과가\n          없습니다")
    page = parse_search_page(html, base_url=BASE_URL)
    assert (page.kind, page.detail) == (PageKind.NO_RESULTS, "검색결과가 없습니다")


_CHATTY_PAGE = "<html><head><title>쿠팡</title></head><body>" + "<p>안녕하세요</p>" * 100 + "</body></html>"
_PRICE_ON_REQUEST = (
    '<ul id="product-list"><li><div class="ProductUnit_productName__x">상품</div>'
    '<strong class="Price_priceValue__x">가격 문의</strong></li></ul>'
)


@pytest.mark.parametrize(
    ("html", "kind"),
    [
        pytest.param("", PageKind.BLOCKED, id="empty"),
        pytest.param("\x00<<<>>", PageKind.BLOCKED, id="garbage"),
        pytest.param(_CHATTY_PAGE, PageKind.UNKNOWN, id="no-list"),
        pytest.param('<ul id="product-list"></ul>', PageKind.UNKNOWN, id="empty-list"),
        pytest.param(_PRICE_ON_REQUEST, PageKind.UNKNOWN, id="price-without-number"),
    ],
)
def test_odd_input_never_raises(html: str, kind: PageKind) -> None:
    assert parse_search_page(html, base_url=BASE_URL).kind is kind


def test_a_malformed_product_link_falls_back_to_the_data_id() -> None:
    html = (
        '<ul id="product-list"><li data-id="5"><a href="http://[::1/vp/products/5?rank=1">'
        '<div class="ProductUnit_productName__q">상품</div><strong class="Price_priceValue__q">1,000원</strong>'
        "</a></li></ul>"
    )
    [offer] = parse_search_page(html, base_url=BASE_URL).offers
    assert (offer.url, offer.product_id, offer.price, offer.is_ad) == (
        "https://www.coupang.com/vp/products/5",
        "5",
        1000,
        False,
    )


def test_listed_counts_every_item_so_a_full_page_with_skipped_items_still_pages_on() -> None:
    page = parse("current_mixed.html")
    assert page.listed == 20
    assert len(page.offers) == 18
    assert page.skipped == 1  # 4500671971 (no price); 4500679890 has no name, so it is no product item


def test_skipped_counts_product_items_whose_price_or_link_is_unreadable() -> None:
    hubs = parse("current_missing_fields.html")
    assert (hubs.listed, len(hubs.offers), hubs.skipped) == (10, 6, 2)  # 6543210992 no price, 6543210993 price 0
    assert parse("current_results.html").skipped == 0
    assert parse("blocked_access_denied.html").skipped == 0


# ---- Coupang's 2025 utility-class price markup (`custom-oos` inside `PriceArea_priceArea__…`) ----


def test_utility_class_prices_are_read_on_every_item() -> None:
    chicken = parse("current_utility_prices.html").offers
    summary = {
        offer.product_id: (offer.price, offer.unit_price, offer.delivery, offer.is_ad, offer.sold_out)
        for offer in chicken
    }
    assert summary == {
        "3300100100": (39_900, "100g당 3,990원", Delivery.ROCKET, False, False),  # red, del 45,900원, 13%
        "3300108019": (24_900, "100g당 2,490원", Delivery.ROCKET, False, False),  # bluegray: a regular price
        "3300115938": (19_900, "100g당 1,990원", Delivery.ROCKET_SELLER, True, False),  # AdMark, no rank=
        "3300123857": (32_900, "100g당 1,097원", Delivery.ROCKET, False, True),  # bluegray-400, 일시품절
        "3300131776": (15_900, "100g당 3,180원", Delivery.ROCKET, False, False),  # "원" in its own span
        "3300139695": (27_500, "100g당 2,750원", Delivery.ROCKET_FRESH, False, False),  # a 쿠폰할인 label first
        "3300147614": (29_900, "100g당 1,495원", Delivery.ROCKET, False, False),  # not the 와우할인가 26,900원
        "3300155533": (12_900, "100g당 1,290원", Delivery.GENERAL, False, False),  # "12,900원~", 최대 20%
        "3300163452": (21_800, "100g당 2,271원", Delivery.GENERAL, False, False),  # not 배송비 3,000원
        "3300171371": (18_600, "100g당 1,240원", Delivery.ROCKET, False, False),  # not 최대 930원 적립
        "3300179290": (9_900, "100g당 990원", Delivery.ROCKET, True, False),  # AdMark, no rank=
        "3300187209": (13_490, "100g당 1,349원", Delivery.ROCKET, False, False),
    }
    assert [offer.title for offer in chicken[:2]] == [
        "하림 IFF 닭가슴살 냉동 1kg",
        "곰곰 수비드 닭가슴살 오리지널 100g, 10개",
    ]


def test_a_page_mixing_both_price_markups() -> None:
    coffee = parse("current_mixed_price_markups.html")
    assert (coffee.listed, coffee.skipped) == (12, 0)
    assert {offer.product_id: (offer.price, offer.unit_price) for offer in coffee.offers} == {
        "2200300400": (27_800, "1개당 185원"),  # Price_priceValue
        "2200308319": (22_900, "1개당 229원"),  # custom-oos
        "2200316238": (8_990, "1개당 562원"),
        "2200324157": (9_800, "1개당 980원"),
        "2200332076": (17_900, "100g당 1,790원"),
        "2200339995": (14_900, "100g당 5,960원"),
        "2200347914": (12_900, None),  # both markups, the same amount
        "2200355833": (18_900, "10개당 1,890원"),  # Price_priceValue shows the crossed-out 21,000원: not believed
        "2200363752": (11_490, "1개당 57원"),
        "2200371671": (19_900, None),
        "2200379590": (6_590, "1개당 66원"),  # sold out
        "2200387509": (9_900, "1개당 330원"),  # Price_priceValue, unit price in a span.custom-oos
    }


def _utility_item(price_block: str, *, legacy: str = "") -> str:
    """One current-layout item whose PriceArea holds `price_block` (and an optional Price_priceValue before it)."""
    return (
        '<ul id="product-list"><li data-id="77"><a href="/vp/products/77?itemId=1&vendorItemId=2&rank=1">'
        '<div class="ProductUnit_productNameV2__q">상품</div>'
        f'<div class="PriceArea_priceArea__q">{legacy}{price_block}</div></a></li></ul>'
    )


_SALE = '<div class="custom-oos fw-text-[20px]/[24px] fw-font-bold fw-mr-[4px] fw-text-red-700">39,900원</div>'
_LIST_PRICE = '<del class="custom-oos fw-text-[12px]/[14px] fw-text-bluegray-600">45,900원</del>'
_RATE = '<div class="custom-oos fw-text-[12px]/[14px] fw-font-bold fw-text-red-700">12%</div>'
_UNIT = '<span class="custom-oos fw-text-[12px]/[14px] fw-text-bluegray-600">(100g당 1,230원)</span>'
_NOT_PRICES = {
    "list-price": _LIST_PRICE,
    "list-price-in-a-wrapper": f'<div class="custom-oos fw-flex fw-flex-wrap fw-items-center">{_LIST_PRICE}</div>',
    "list-price-inside-del": '<del><span class="custom-oos fw-text-bluegray-600">45,900원</span></del>',
    "discount-rate": _RATE,
    "discount-rate-number-only": '<div class="custom-oos fw-font-bold fw-text-red-700">12</div>',
    "unit-price": _UNIT,
    "unit-price-without-parentheses": '<span class="custom-oos fw-text-bluegray-600">100g당 1,230원</span>',
    "rate-list-and-unit-in-one-row": (
        f'<div class="custom-oos fw-flex fw-flex-wrap fw-items-center fw-gap-y-[2px]">{_RATE}{_LIST_PRICE}{_UNIT}</div>'
    ),
    "delivery-fee": '<span class="custom-oos fw-text-bluegray-600">배송비 3,000원</span>',
    "cashback": '<div class="custom-oos fw-text-bluegray-600">최대 1,995원 적립</div>',
}


@pytest.mark.parametrize("block", _NOT_PRICES.values(), ids=_NOT_PRICES.keys())
def test_list_price_discount_rate_and_unit_price_are_never_the_price(block: str) -> None:
    alone = parse_search_page(_utility_item(block), base_url=BASE_URL)
    assert (alone.kind, alone.offers) == (PageKind.UNKNOWN, [])  # nothing else to read: the item is unreadable
    for html in (_utility_item(block + _SALE), _utility_item(_SALE + block)):
        [offer] = parse_search_page(html, base_url=BASE_URL).offers
        assert offer.price == 39_900


_SHOWN_AMOUNTS = {
    # What an item shows besides its price, as (selector, pattern of the amount in the element's own text).
    "list-price": ("del", re.compile(r"^([\d,]+)원$")),
    "discount-rate": ("span, div", re.compile(r"^(?:최대 )?(\d+)%$")),
    "unit-price": ("span", re.compile(r"^\(?[^()]*당 ([\d,]+)원\)?$")),
}


@pytest.mark.parametrize("name", ["current_utility_prices.html", "current_mixed_price_markups.html"])
@pytest.mark.parametrize("shown", _SHOWN_AMOUNTS.keys())
def test_no_saved_offer_is_priced_at_its_list_price_rate_or_unit_price(name: str, shown: str) -> None:
    selector, pattern = _SHOWN_AMOUNTS[shown]
    prices = {offer.product_id: offer.price for offer in parse(name).offers}
    items = LexborHTMLParser(read(name)).css("#product-list > li")
    found = 0
    for item in items:
        texts = (" ".join(node.text().split()) for node in item.css(selector))
        amounts = {int(match.group(1).replace(",", "")) for text in texts if (match := pattern.match(text))}
        found += bool(amounts)
        assert prices[item.attributes["data-id"]] not in amounts
    assert found >= 5  # the page does show such amounts: the check is not vacuous


@pytest.mark.parametrize(
    ("legacy", "expected"),
    [
        pytest.param('<strong class="Price_priceValue__q">39,900원</strong>', 39_900, id="agreeing"),
        pytest.param('<strong class="Price_priceValue__q">38,900원</strong>', 38_900, id="consistent-legacy-wins"),
        pytest.param('<div class="Price_priceValue__q">45,900원</div>', 39_900, id="legacy-shows-the-list-price"),
        pytest.param('<div class="Price_priceValue__q">47,000원</div>', 39_900, id="legacy-above-the-list-price"),
        pytest.param('<strong class="Price_priceValue__q">가격 문의</strong>', 39_900, id="legacy-unreadable"),
    ],
)
def test_an_item_with_both_markups_prefers_price_value_only_when_consistent(legacy: str, expected: int) -> None:
    html = _utility_item(_RATE + _LIST_PRICE + _SALE + _UNIT, legacy=legacy)
    [offer] = parse_search_page(html, base_url=BASE_URL).offers
    assert (offer.price, offer.unit_price) == (expected, "100g당 1,230원")


def _labelled(label: str, price: str = "35,900원") -> str:
    return (
        f'<span class="custom-oos fw-text-[12px]/[14px] fw-text-red-700">{label}</span>'
        f'<div class="custom-oos fw-text-[16px]/[20px] fw-font-bold fw-text-red-700">{price}</div>'
    )


_LABELS = [
    "와우할인가",
    "쿠폰할인가",
    "정기배송할인가",
    "첫구매 특가",
    "앱전용가",
    "카드할인가",
    "최대 할인가",
    "오늘만 이 가격",
    # A label may hold a count or a rate, never an amount: a multi-buy price, a membership's months, a discount.
    "2개 이상 구매시 개당",
    "T멤버십 3개월 할인가",
    "정기배송 5% 할인가",
    "카드 10% 청구할인",
]


@pytest.mark.parametrize("label", _LABELS)
def test_a_labelled_price_line_is_never_the_sale_price_whatever_its_label(label: str) -> None:
    # An allow-list of the sale price's own place, not a deny-list of labels: a label nobody listed is conditional too.
    [both] = parse_search_page(_utility_item(f"<div>{_labelled(label)}</div>" + _SALE), base_url=BASE_URL).offers
    assert (both.price, both.price_condition) == (39_900, None)


@pytest.mark.parametrize("label", _LABELS)
def test_an_item_showing_only_a_labelled_price_carries_its_condition(label: str) -> None:
    [alone] = parse_search_page(_utility_item(_labelled(label)), base_url=BASE_URL).offers
    assert (alone.price, alone.price_condition) == (35_900, label)


@pytest.mark.parametrize("label", _LABELS)
def test_a_labelled_price_value_line_before_the_sale_price_is_conditional(label: str) -> None:
    conditional = (
        f'<div class="PriceArea_benefitPrice__u7"><span class="PriceArea_benefitLabel__p3">{label}</span>'
        '<strong class="Price_priceValue__A4KOr">9,900<span class="Price_won__c0">원</span></strong></div>'
    )
    plain = '<strong class="Price_priceValue__A4KOr">13,900<span class="Price_won__c0">원</span></strong>'
    delivery = '<div class="DeliveryInfo_delivery__jD"><em>내일(목) 도착 보장</em></div>'
    [both] = parse_search_page(_utility_item(conditional + plain + delivery), base_url=BASE_URL).offers
    [alone] = parse_search_page(_utility_item(conditional + delivery), base_url=BASE_URL).offers
    assert (both.price, both.price_condition) == (13_900, None)
    assert (alone.price, alone.price_condition) == (9_900, label)


def test_a_price_value_line_in_a_block_of_its_own_beside_the_sale_price_is_conditional_without_a_label() -> None:
    # The sale price's own place is the price block itself; a price in a block of its own is some buyers' price.
    unlabelled = (
        '<div class="PriceArea_benefitPrice__u7"><strong class="Price_priceValue__A4KOr">9,900원</strong></div>'
    )
    plain = '<strong class="Price_priceValue__A4KOr">13,900<span class="Price_won__c0">원</span></strong>'
    [both] = parse_search_page(_utility_item(unlabelled + plain), base_url=BASE_URL).offers
    [alone] = parse_search_page(_utility_item(unlabelled), base_url=BASE_URL).offers
    assert (both.price, both.price_condition) == (13_900, None)
    # Alone, a price wrapped in a block may be the sale price in a wrapper Coupang added: a reviewer's.
    assert (alone.price, alone.price_condition) == (9_900, None)


def test_a_price_written_as_a_range_start_is_marked_in_every_markup() -> None:
    utility = '<div class="custom-oos fw-text-[20px]/[24px] fw-font-bold fw-text-red-700">12,900원~</div>'
    price_value = '<strong class="Price_priceValue__A4KOr">12,900<span class="Price_won__c0">원</span>~</strong>'
    for block in (utility, price_value):
        [offer] = parse_search_page(_utility_item(block), base_url=BASE_URL).offers
        assert (offer.price, offer.price_from) == (12_900, True)
    [plain] = parse_search_page(_utility_item(_SALE), base_url=BASE_URL).offers
    assert plain.price_from is None
    older = parse("older_results.html").offers
    assert all(offer.price_from is None for offer in older)
    older_range = (
        '<ul id="productList"><li class="search-product" data-product-id="5"><a class="search-product-link" '
        'href="/vp/products/5?itemId=1&vendorItemId=2&rank=1"><div class="name">로지텍 K380</div>'
        '<em class="sale discount"><strong class="price-value">29,900</strong>원~</em></a></li></ul>'
    )
    [option] = parse_search_page(older_range, base_url=BASE_URL).offers
    assert (option.price, option.price_from) == (29_900, True)


def test_the_utility_fixtures_coupon_line_is_conditional_and_its_range_is_marked() -> None:
    offers = {offer.product_id: offer for offer in parse("current_utility_prices.html").offers}
    assert offers["3300139695"].price_condition == "쿠폰할인"  # the item shows no price without the coupon
    assert offers["3300147614"].price_condition is None  # its 29,900원 beside the 와우할인가 is plain
    assert offers["3300155533"].price_from is True  # "12,900원~"
    assert sum(offer.price_condition is not None for offer in offers.values()) == 1


# ---- Never a silently partial page ----


def test_banners_widgets_and_separators_in_the_list_are_not_skipped_items() -> None:
    tissue = parse("current_banners_in_list.html")
    assert (tissue.kind, tissue.listed, len(tissue.offers), tissue.skipped) == (PageKind.RESULTS, 15, 11, 1)
    assert "1100556033" not in {offer.product_id for offer in tissue.offers}  # 가격 준비중: the one skipped item
    assert "/np/campaigns/82317" in read("current_banners_in_list.html")  # the banner links, but not to a product


def _list_page(readable: int, unreadable: int, others: int = 0) -> str:
    """A current-layout list: priced product items, product items without a price, then non-product entries."""
    items = [
        f'<li data-id="{n}"><a href="/vp/products/{n}?rank={n}"><div class="ProductUnit_productName__q">상품 {n}</div>'
        + (f'<strong class="Price_priceValue__q">{n},900원</strong>' if n <= readable else "")
        + "</a></li>"
        for n in range(1, readable + unreadable + 1)
    ]
    items += ['<li class="ProductList_bannerUnit__q"><a href="/np/campaigns/1"><img alt="배너"></a></li>'] * others
    return f'<ul id="product-list">{"".join(items)}</ul>'


@pytest.mark.parametrize(
    ("readable", "unreadable", "others", "kind", "detail"),
    [
        (12, 0, 0, PageKind.RESULTS, "current layout"),
        (6, 6, 0, PageKind.RESULTS, "current layout, 6 of 12 items skipped"),  # half is not most
        (5, 7, 0, PageKind.UNKNOWN, "current layout: 7 of 12 product items unreadable"),
        (2, 10, 3, PageKind.UNKNOWN, "current layout: 10 of 12 product items unreadable"),
        (3, 2, 10, PageKind.RESULTS, "current layout, 2 of 5 items skipped, 10 of 15 list entries not products"),
        (0, 3, 0, PageKind.UNKNOWN, "current layout: 3 of 3 product items unreadable"),
        (0, 0, 4, PageKind.UNKNOWN, "current layout: 4 items, none parseable"),
    ],
)
def test_a_page_whose_product_items_are_mostly_unreadable_is_not_understood(
    readable: int, unreadable: int, others: int, kind: PageKind, detail: str
) -> None:
    page = parse_search_page(_list_page(readable, unreadable, others), base_url=BASE_URL)
    assert (page.kind, page.detail, len(page.offers)) == (kind, detail, readable if kind is PageKind.RESULTS else 0)
    assert (page.listed, page.skipped) == (readable + unreadable + others, unreadable)


@pytest.mark.parametrize(
    "href",
    ["javascript:alert(document.cookie)", "https://evil.example/vp/products/42", "data:text/html,x", "//evil.example/"],
)
def test_a_product_link_off_coupang_is_replaced_by_its_canonical_page(href: str) -> None:
    item = (
        f'<li data-id="42"><a href="{href}"><div class="ProductUnit_productName__x1">갤럭시 버즈3</div>'
        '<strong class="Price_priceValue__y2">159,000원</strong></a></li>'
    )
    page = f'<html><body><ul id="product-list">{item}</ul>{"<p>쿠팡</p>" * 200}</body></html>'

    (offer,) = parse_search_page(page, base_url=BASE_URL, status=200).offers

    assert (offer.url, offer.price) == ("https://www.coupang.com/vp/products/42", 159_000)


def test_the_label_is_the_element_right_before_a_price_not_any_text_beside_it() -> None:
    delivery = '<span class="custom-oos fw-text-[14px]">모레(금) 도착 예정</span>'
    [after] = parse_search_page(_utility_item(f"<div>{_SALE}{delivery}</div>"), base_url=BASE_URL).offers
    member = _labelled("와우할인가", "26,900원")
    [shared] = parse_search_page(_utility_item(f"<div>{member}{_SALE}</div>"), base_url=BASE_URL).offers
    image = '<img class="custom-oos" src="//image.coupangcdn.com/wow.png" alt="와우할인가">'
    plain = '<div class="custom-oos fw-text-[20px]/[24px] fw-font-bold">35,900원</div>'
    [pictured] = parse_search_page(_utility_item(f"<div>{image}{plain}</div>"), base_url=BASE_URL).offers
    assert (after.price, after.price_condition) == (39_900, None)  # a delivery promise after the price is no label
    assert (shared.price, shared.price_condition) == (39_900, None)  # the member label is its own price's
    assert (pictured.price, pictured.price_condition) == (35_900, "와우할인가")  # a label drawn as an image


def test_a_tilde_in_an_element_of_its_own_after_the_price_is_a_range() -> None:
    tilde = '<span class="custom-oos">~</span>'
    [offer] = parse_search_page(_utility_item(f"<div>{_SALE}{tilde}</div>"), base_url=BASE_URL).offers
    assert offer.price_from is True


def test_a_page_where_most_items_show_only_a_labelled_price_is_not_understood() -> None:
    items = "".join(
        f'<li data-id="{n}"><a href="/vp/products/{n}?rank={n}"><div class="ProductUnit_productName__q">상품 {n}</div>'
        f'<div class="PriceArea_priceArea__q"><div>{_labelled("오늘의 혜택가")}</div></div></a></li>'
        for n in range(1, 4)
    )
    page = parse_search_page(f'<ul id="product-list">{items}</ul>', base_url=BASE_URL)
    assert (page.kind, page.detail) == (
        PageKind.UNKNOWN,
        "current layout: 3 of 3 product items show only a labelled price",
    )


@pytest.mark.parametrize("before", ["12", "1+1", "10개", "3만원 이상 무료배송"])
def test_a_number_a_count_or_an_amount_right_before_the_price_is_no_label(before: str) -> None:
    element = f'<span class="custom-oos fw-text-[12px]/[14px] fw-text-red-700">{before}</span>'
    [offer] = parse_search_page(_utility_item(element + _SALE), base_url=BASE_URL).offers
    assert (offer.price, offer.price_condition) == (39_900, None)
