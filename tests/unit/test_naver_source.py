"""Naver's items as an answer: what is left out on purpose, what is skipped and makes the answer incomplete."""

from __future__ import annotations

from typing import Any

import pytest

from actors.sources import SourceParseFailed
from actors.sources.naver import answer_from_items
from schemas.offers import SourceOutcome


def item(
    product_id: Any = "1001", price: Any = "12900", product_type: Any = "1", title: str = "<b>햇반</b> 210g"
) -> Any:
    return {"productId": product_id, "lprice": price, "productType": product_type, "title": title, "link": "https://n"}


def test_readable_new_items_make_a_complete_answer_and_tags_are_stripped():
    answer = answer_from_items([item(), item("1002", 11_500, 2)], wants_used=False)

    assert (answer.outcome, answer.skipped, answer.incomplete) == (SourceOutcome.FOUND, 0, None)
    assert [(offer.product_id, offer.price, offer.title) for offer in answer.offers] == [
        ("1001", 12_900, "햇반 210g"),
        ("1002", 11_500, "햇반 210g"),
    ]


def test_used_discontinued_and_pre_sale_items_are_left_out_on_purpose_not_skipped():
    answer = answer_from_items([item(), item("2", product_type="4"), item("3", product_type=8)], wants_used=False)

    assert [offer.product_id for offer in answer.offers] == ["1001"]
    assert (answer.skipped, answer.incomplete) == (0, None)


@pytest.mark.parametrize(
    "unreadable",
    [
        item(price="가격문의"),
        item(price=""),
        item(price="0"),
        item(product_id=None),
        item(product_id=""),
        item(title=""),
    ],
    ids=["price-text", "price-empty", "price-zero", "no-id", "blank-id", "no-title"],
)
def test_an_item_whose_price_or_id_cannot_be_read_is_skipped_and_the_answer_is_not_complete(unreadable: Any):
    answer = answer_from_items([item("1"), item("2"), unreadable], wants_used=False)

    assert [offer.product_id for offer in answer.offers] == ["1", "2"]
    assert answer.skipped == 1
    assert isinstance(answer.incomplete, SourceParseFailed)
    assert "1 item(s) without a readable price or id" in str(answer.incomplete)


def test_an_answer_whose_items_are_mostly_unreadable_is_a_parse_failure():
    with pytest.raises(SourceParseFailed, match="2 of 3 items"):
        answer_from_items([item("1"), item("2", price="?"), "not an item"], wants_used=False)


def test_no_items_is_no_results():
    answer = answer_from_items([], wants_used=False)
    assert (answer.outcome, answer.offers, answer.incomplete) == (SourceOutcome.NO_RESULTS, [], None)


@pytest.mark.parametrize(
    ("link", "kept"),
    [
        ("https://search.shopping.naver.com/catalog/1001", True),
        ("https://smartstore.naver.com/shop/products/1001", True),
        ("javascript:alert(document.cookie)", False),
        ("data:text/html,<script>alert(1)</script>", False),
        ("https://naver.com.evil.example/p/1001", False),
        ("http://[::1", False),
    ],
)
def test_only_an_http_link_to_naver_is_passed_on_and_the_offer_stays_usable(link: str, kept: bool):
    (offer,) = answer_from_items([item() | {"link": link}], wants_used=False).offers

    assert offer.url == (link if kept else None)
    assert (offer.product_id, offer.price) == ("1001", 12_900)
    assert "url" in offer.as_document() if kept else "url" not in offer.as_document()


def test_an_items_category_path_is_kept_on_its_offer_and_empty_levels_are_left_out():
    filed = item() | {"category1": "식품", "category2": "밀키트", "category3": "즉석밥", "category4": ""}
    bare = item("1002")

    offers = answer_from_items([filed, bare], wants_used=False).offers

    assert [offer.category for offer in offers] == ["식품 > 밀키트 > 즉석밥", None]


def test_an_items_brand_and_maker_are_kept_on_its_offer_when_given():
    named = item() | {"brand": "<b>햇반</b>", "maker": "CJ제일제당"}
    unnamed = item("1002") | {"brand": "", "maker": 7}

    offers = answer_from_items([named, unnamed], wants_used=False).offers

    assert [(offer.brand, offer.maker) for offer in offers] == [("햇반", "CJ제일제당"), (None, None)]
