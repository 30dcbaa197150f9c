"""The demo shop's data and block mode without serving it: every keyword lists what both renderers need,
the expected lowest offers hold, data files add keywords, and block mode refuses a client over its rate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.demo_shop_pages import DATA, IPHONE, coupang_products
from tools import demo_shop
from tools.demo_shop import DEFAULT_DATA_DIR


# ------------------------------------------------------------------------------------------------ the data
def test_every_keyword_lists_the_fields_both_renderers_need():
    assert len(DATA) >= 6
    assert max(len(coupang_products(keyword)) for keyword in DATA) >= 80
    for keyword, entry in DATA.items():
        assert entry["request"]["keyword"] == keyword
        for product in entry["products"]:
            assert {"title", "price", "brand", "maker", "categories"} <= set(product), product
            assert "coupang" in product or "naver" in product
            if "coupang" in product:
                assert {"product_id", "item_id", "vendor_item_id", "delivery"} <= set(product["coupang"])
            if "naver" in product:
                assert {"product_id", "mall_name", "product_type"} <= set(product["naver"])


def test_expected_lowest_is_the_cheapest_genuine_offer_on_each_site():
    """Ads, sold-out items and decoys never win; everything else competes on price."""
    for keyword, entry in DATA.items():
        for site in ("coupang", "naver"):
            genuine = [
                (product[site].get("price", product["price"]), product[site]["product_id"])
                for product in entry["products"]
                if site in product
                and not product.get("decoy")
                and not product[site].get("ad")
                and not product[site].get("sold_out")
            ]
            expected = entry["expected_lowest"][site]
            if expected is None:
                assert not genuine, (keyword, site)
                assert entry["expected_outcome"] == "NO_MATCH"
                continue
            assert (expected["price"], expected["product_id"]) == min(genuine), (keyword, site)
            assert [price for price, _ in genuine].count(expected["price"]) == 1, "a tie makes the winner ambiguous"


def test_data_directory_files_add_keywords_and_refuse_duplicates(tmp_path: Path):
    extra = {"keywords": {"데모 상품": {"layout": "current", "products": []}}}
    (tmp_path / "extra.json").write_text(json.dumps(extra), encoding="utf-8")
    (tmp_path / "products.json").write_text((DEFAULT_DATA_DIR / "products.json").read_text(encoding="utf-8"))

    catalogue = demo_shop.Catalogue.load(tmp_path)
    assert catalogue.find("데모 상품") is not None
    assert catalogue.find(IPHONE) is not None

    (tmp_path / "again.json").write_text(json.dumps(extra), encoding="utf-8")
    with pytest.raises(ValueError, match="defined twice"):
        demo_shop.Catalogue.load(tmp_path)


# ------------------------------------------------------------------------------------------------ the command


def test_block_mode_refuses_a_client_over_the_rate_for_the_block_duration_and_only_that_client():
    block = demo_shop.BlockMode(above=2, duration=30)

    assert [block.refuses("10.0.0.1", at) for at in (0.0, 0.4, 0.8)] == [False, False, True]  # 3 within 1 s
    assert block.refuses("10.0.0.1", 29.0)  # refused for the whole block, however slowly it asks
    assert not block.refuses("10.0.0.2", 0.9)  # another client is not
    assert not block.refuses("10.0.0.1", 30.9)  # the block is over, and the searches made during it did not count
    assert not block.refuses("10.0.0.1", 31.5)
    assert [block.refuses("10.0.0.3", at) for at in (0.0, 1.0, 2.0, 3.0)] == [False] * 4  # at the rate: never


def test_lps_demo_shop_refuses_a_block_rate_that_is_not_a_positive_number():
    from tools.cli import build_parser

    with pytest.raises(SystemExit):
        build_parser().parse_args(["demo-shop", "--block-above", "0"])
    arguments = build_parser().parse_args(["demo-shop", "--block-above", "2", "--block-for", "5"])
    assert (arguments.block_above, arguments.block_for) == (2.0, 5.0)
