"""Coupang search-result pages as data: what kind of page it is, and the offers it lists.

Pure (no browser, no network) so every markup variation is a unit test over a saved page. The current
layout uses CSS-module class names whose hash suffixes change between deployments, so its selectors
match class-name prefixes (`[class*="ProductUnit_productName"]`), never whole names. Odd markup never
raises: an item without a readable name or price is skipped, and a page we cannot read is UNKNOWN.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import parse_qs, urljoin, urlsplit

from selectolax.lexbor import LexborHTMLParser, LexborNode

from schemas.offers import Delivery, Offer, SourceName

SOURCE = SourceName.COUPANG


class PageKind(StrEnum):
    RESULTS = "RESULTS"
    NO_RESULTS = "NO_RESULTS"
    BLOCKED = "BLOCKED"
    UNKNOWN = "UNKNOWN"  # the page's shape was not understood


@dataclass(slots=True)
class CoupangPage:
    kind: PageKind
    offers: list[Offer]
    detail: str = ""  # a short human reason, e.g. "403", "Access Denied", "no product list"
    #: Items the page listed, parseable or not: a full page means another may follow.
    listed: int = 0


@dataclass(frozen=True, slots=True)
class _Layout:
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


_CURRENT = _Layout(
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
)
_OLDER = _Layout(
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
_LAYOUTS = (_CURRENT, _OLDER)

#: Either layout's list container; a page without one cannot be a results page.
_PRODUCT_LISTS = "#product-list, #productList"
#: Either layout's ad label, accepted in both: tolerating a half-migrated page costs nothing.
_AD_MARKS = '[class*="AdMark"], .ad-badge-text'
_PRODUCT_LINK = 'a[href*="/vp/products/"]'
_PRODUCT_PATH = re.compile(r"/vp/products/(\d+)")

#: Checked against the lower-cased badge `src` in this order, most specific first.
_DELIVERY_MARKERS = (
    ("rocket-install", Delivery.ROCKET_INSTALL),
    ("rocket_install", Delivery.ROCKET_INSTALL),
    ("rocket-fresh", Delivery.ROCKET_FRESH),
    ("global_b", Delivery.ROCKET_DIRECT),
    ("logorocketmerchant", Delivery.ROCKET_SELLER),
    ("logo_rocket_large", Delivery.ROCKET),
)
#: Whole text fragments only: 품절임박 ("almost sold out") and names that contain 품절 are still on sale.
_SOLD_OUT_TEXTS = frozenset({"품절", "일시품절"})

#: 403 is Coupang's refusal; 429 is a rate limit. Both want the longer backoff of a block.
_BLOCKING_STATUSES = frozenset({403, 429})
#: A refusal or challenge stub is a few hundred bytes; a real search page is far larger.
_TINY_PAGE_CHARS = 1024
_MAINTENANCE = "점검"
#: Keyed by the message without whitespace, the form it is compared in, so "검색 결과가 없습니다" matches too.
_NO_RESULTS_TEXTS = {
    "".join(text.split()): text
    for text in ("검색결과가 없습니다", "일치하는 상품이 없습니다", "다른 검색어를 입력하시거나")
}
#: Scripts carry i18n strings such as the no-results message on every page: only rendered text counts.
_INVISIBLE_TAGS = ["script", "style", "noscript", "template"]

_NUMBER = re.compile(r"\d[\d,]*")
_WON_AMOUNT = re.compile(r"(\d[\d,]*)\s*원")
_DECIMAL = re.compile(r"\d+(?:\.\d+)?")
_WIDTH_PERCENT = re.compile(r"width\s*:\s*(\d+(?:\.\d+)?)\s*%")
_PARENTHESIZED = re.compile(r"\(([^()]*)\)")


def parse_search_page(html: str, *, base_url: str, status: int | None = None) -> CoupangPage:
    """Classify a search page and read its offers; `base_url` resolves relative product links.

    A block is checked before anything else because a refusal is never "no results". A maintenance
    notice is only believed on a page without a product list or a no-results message, since a
    keyword such as "타이어 점검" puts 점검 on ordinary pages too.
    """
    if status in _BLOCKING_STATUSES:
        return CoupangPage(PageKind.BLOCKED, [], str(status))
    tree = LexborHTMLParser(html)
    if "access denied" in _normalized_text(tree.css_first("title")).lower():
        return CoupangPage(PageKind.BLOCKED, [], "Access Denied")
    has_product_list = tree.css_first(_PRODUCT_LISTS) is not None
    if not has_product_list and len(html) < _TINY_PAGE_CHARS:
        return CoupangPage(PageKind.BLOCKED, [], "tiny page")
    tree.strip_tags(_INVISIBLE_TAGS)  # nothing below reads scripts or styles
    text = "".join(tree.text().split())
    if marker := _no_results_marker(text):
        return CoupangPage(PageKind.NO_RESULTS, [], marker)
    if not has_product_list and _MAINTENANCE in text:
        return CoupangPage(PageKind.BLOCKED, [], f"maintenance ({_MAINTENANCE})")
    return _parse_products(tree, base_url)


def _no_results_marker(compact_text: str) -> str | None:
    """The no-results message found in the page's whitespace-free text, if any."""
    return next((text for compact, text in _NO_RESULTS_TEXTS.items() if compact in compact_text), None)


def _parse_products(tree: LexborHTMLParser, base_url: str) -> CoupangPage:
    """Offers from the first layout whose item list is present (current layout before the older one)."""
    for layout in _LAYOUTS:
        items = tree.css(layout.items)
        if not items:
            continue
        offers = [offer for item in items if (offer := _parse_item(item, layout, base_url)) is not None]
        if not offers:
            # The list is there but its items changed shape: a parse failure, not an empty result.
            return CoupangPage(PageKind.UNKNOWN, [], f"{layout.name} layout: {len(items)} items, none parseable")
        skipped = len(items) - len(offers)
        detail = f"{layout.name} layout" + (f", {skipped} of {len(items)} items skipped" if skipped else "")
        return CoupangPage(PageKind.RESULTS, offers, detail, listed=len(items))
    return CoupangPage(PageKind.UNKNOWN, [], "no product list")


@dataclass(frozen=True, slots=True)
class _ProductLink:
    url: str
    product_id: str | None
    item_id: str | None
    vendor_item_id: str | None
    ranked: bool


def _parse_item(item: LexborNode, layout: _Layout, base_url: str) -> Offer | None:
    """One item as an Offer, or None when it lacks a name, a price, or anything to link to."""
    title = _normalized_text(item.css_first(layout.title))
    price = _price(item.css_first(layout.price))
    if not title or price is None:
        return None
    link = _product_link(item, base_url)
    data_id = _attribute(item, "data-id") or _attribute(item, "data-product-id")
    product_id = (link.product_id if link else None) or data_id
    if link is not None:
        url = link.url
    elif product_id is not None:
        url = urljoin(base_url, f"/vp/products/{product_id}")  # Coupang's canonical product page
    else:
        return None
    return Offer(
        source=SOURCE,
        title=title,
        price=price,
        url=url,
        product_id=product_id,
        item_id=link.item_id if link else None,
        vendor_item_id=link.vendor_item_id if link else None,
        delivery=_delivery(item, layout.badge_images),
        sold_out=_is_sold_out(item, layout.sold_out),
        is_ad=_is_ad(item, layout, link),
        unit_price=_unit_price(item.css_first(layout.unit_price)),
        rating=_rating(item.css_first(layout.rating)),
        review_count=_first_int(_normalized_text(item.css_first(layout.review_count))),
    )


def _is_ad(item: LexborNode, layout: _Layout, link: _ProductLink | None) -> bool:
    """Labelled as an ad, or (current layout) linked without the `rank=` that organic results carry."""
    if item.css_first(_AD_MARKS) is not None:
        return True
    return layout.unranked_is_ad and link is not None and not link.ranked


def _product_link(item: LexborNode, base_url: str) -> _ProductLink | None:
    """The item's /vp/products/{id}?itemId=…&vendorItemId=… link, resolved against `base_url`."""
    node = item.css_first(_PRODUCT_LINK)
    if node is None:
        return None
    href = _attribute(node, "href") or ""
    try:
        url = urljoin(base_url, href)
        parts = urlsplit(href)
    except ValueError:  # e.g. an unbalanced "[" taken for an IPv6 host
        return None
    query = parse_qs(parts.query, keep_blank_values=True)
    path_id = _PRODUCT_PATH.search(parts.path)
    return _ProductLink(
        url=url,
        product_id=path_id.group(1) if path_id else None,
        item_id=_first_value(query, "itemId"),
        vendor_item_id=_first_value(query, "vendorItemId"),
        ranked="rank" in query,
    )


def _first_value(query: dict[str, list[str]], name: str) -> str | None:
    values = query.get(name)
    return (values[0].strip() or None) if values else None


def _attribute(node: LexborNode, name: str) -> str | None:
    """An attribute's stripped value; None when missing or blank."""
    value = node.attributes.get(name)
    return (value.strip() or None) if value else None


def _normalized_text(node: LexborNode | None) -> str:
    """The node's text as a browser's textContent, with runs of whitespace collapsed to one space."""
    return " ".join(node.text().split()) if node is not None else ""


def _first_int(text: str) -> int | None:
    """The first number in the text, thousands separators allowed: "(1,234)" -> 1234."""
    match = _NUMBER.search(text)
    return int(match.group().replace(",", "")) if match else None


def _price(node: LexborNode | None) -> int | None:
    """The KRW amount of a price element; prefers the number followed by 원 when the text holds several."""
    text = _normalized_text(node)
    won = _WON_AMOUNT.search(text)
    price = _first_int(won.group(1)) if won else _first_int(text)
    return price if price else None  # a zero price is a placeholder, not an offer


def _unit_price(node: LexborNode | None) -> str | None:
    """The text inside the parentheses of "(10g당 1,234원)"; the whole text if there are none."""
    text = _normalized_text(node)
    inner = _PARENTHESIZED.search(text)
    return (inner.group(1).strip() if inner else text) or None


def _delivery(item: LexborNode, badge_images: str) -> Delivery:
    """The delivery type named by the first recognizable badge image; GENERAL without one."""
    for image in item.css(badge_images):
        src = (image.attributes.get("src") or "").lower()
        for marker, delivery in _DELIVERY_MARKERS:
            if marker in src:
                return delivery
    return Delivery.GENERAL


def _is_sold_out(item: LexborNode, sold_out: str) -> bool:
    """A sold-out element, or a text fragment that is exactly 품절 / 일시품절."""
    if item.css_first(sold_out) is not None:
        return True
    fragments = item.text(separator="\n", strip=True).splitlines()
    return not _SOLD_OUT_TEXTS.isdisjoint(fragment.strip() for fragment in fragments)


def _rating(node: LexborNode | None) -> float | None:
    """Stars out of 5: the number in aria-label or the text, else the filled width of the stars (100% = 5)."""
    if node is None:
        return None
    for candidate in (node.attributes.get("aria-label"), node.text()):
        number = _DECIMAL.search(candidate or "")
        if number and 0 <= (value := float(number.group())) <= 5:
            return value
    for styled in node.css("[style]"):  # selectolax includes `node` itself in its own matches
        width = _WIDTH_PERCENT.search(styled.attributes.get("style") or "")
        if width and 0 <= (percent := float(width.group(1))) <= 100:
            return round(percent / 20, 2)
    return None
