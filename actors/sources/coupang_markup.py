"""Coupang's search-result markup: where each of its two layouts (current, older) keeps each part of an item
(`Layout`), the selectors both layouts share, and how a node's text and attributes are read.

The current layout's CSS-module class names carry hash suffixes that change between deployments, so its selectors
match class-name prefixes, never whole names. Read by `actors.sources.coupang_parser` (pages, items, links) and
`actors.sources.coupang_prices` (which price counts).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from selectolax.lexbor import LexborNode


@dataclass(frozen=True, slots=True)
class Layout:
    """Where one generation of Coupang's markup keeps each part of a search-result item."""

    name: str
    items: str
    title: str
    price: str
    unit_price: str
    badge_images: str
    sold_out: str
    rating: str
    review_count: str
    #: The current layout gives organic results a `rank=` link parameter and ads none, even unlabelled ones.
    unranked_is_ad: bool
    #: Whether items may carry the 2025 utility-class price markup (`.custom-oos` inside the PriceArea block).
    utility_prices: bool = False


_CURRENT = Layout(
    name="current",
    items="#product-list > li",
    title='[class*="ProductUnit_productName"]',
    # The crossed-out base price sits in a `del` and may carry a similar class: never read it as the price.
    price='[class*="Price_priceValue"]:not(del):not(del *), strong[class*="priceValue"]:not(del *)',
    unit_price='[class*="UnitPrice_unitPrice"]',
    badge_images='[class*="ImageBadge_default"] img',
    sold_out='[class*="soldoutText" i]',
    rating='[class*="ProductRating_star"]',
    review_count='[class*="ProductRating_ratingCount"]',
    unranked_is_ad=True,
    utility_prices=True,
)
_OLDER = Layout(
    name="older",
    items="#productList > li",
    title=".name",
    price=".price-value:not(del):not(del *)",
    unit_price=".unit-price",
    badge_images=".badge img",
    sold_out=".out-of-stock",
    rating=".rating",
    review_count=".rating-total-count",
    unranked_is_ad=False,
)
LAYOUTS = (_CURRENT, _OLDER)

#: Either layout's list container; a page without one cannot be a results page.
PRODUCT_LISTS = "#product-list, #productList"
#: Either layout's ad label, accepted in both: tolerating a half-migrated page costs nothing.
AD_MARKS = '[class*="AdMark"], .ad-badge-text'
PRODUCT_LINK = 'a[href*="/vp/products/"]'

_NUMBER = re.compile(r"\d[\d,]*")


def attribute(node: LexborNode, name: str) -> str | None:
    """An attribute's stripped value; None when missing or blank."""
    value = node.attributes.get(name)
    return (value.strip() or None) if value else None


def normalized_text(node: LexborNode | None) -> str:
    """The node's text as a browser's textContent, with runs of whitespace collapsed to one space."""
    return " ".join(node.text().split()) if node is not None else ""


def first_int(text: str) -> int | None:
    """The first number in the text, thousands separators allowed: "(1,234)" -> 1234."""
    match = _NUMBER.search(text)
    return int(match.group().replace(",", "")) if match else None
