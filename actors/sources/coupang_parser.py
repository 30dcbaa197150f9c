"""Coupang search-result pages as data: what kind of page it is, and the offers it lists.

Pure (no browser, no network) so every markup variation is a unit test over a saved page. The current
layout uses CSS-module class names whose hash suffixes change between deployments, so its selectors
match class-name prefixes (`[class*="ProductUnit_productName"]`), never whole names (both layouts' selectors:
`actors.sources.coupang_markup`). Since 2025 some or all items of a current-layout page show their prices in
utility classes (`custom-oos fw-…`) instead of `Price_priceValue`, so both are read (which price counts:
`actors.sources.coupang_prices`). Odd markup never raises: an item without a readable
name or price is skipped, and a page we cannot read is UNKNOWN; so is a page whose product items are mostly
unreadable, so that a markup change shows as a parse failure rather than as a page of a few offers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import parse_qs, urljoin, urlsplit

from selectolax.lexbor import LexborHTMLParser, LexborNode

from actors.sources import own_url
from actors.sources.coupang_markup import (
    AD_MARKS,
    LAYOUTS,
    PRODUCT_LINK,
    PRODUCT_LISTS,
    Layout,
    attribute,
    first_int,
    normalized_text,
)
from actors.sources.coupang_prices import sale_price, unit_price, unit_price_node
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
    #: Product items (a product id or link, and a name) whose price or link could not be read. Banners, widget
    #: headers and separators in the list are not product items and never count here.
    skipped: int = 0


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

_DECIMAL = re.compile(r"\d+(?:\.\d+)?")
_WIDTH_PERCENT = re.compile(r"width\s*:\s*(\d+(?:\.\d+)?)\s*%")

#: Items a page needs before "most of them" says something about its markup rather than about a few listings.
_MOST_OF_A_PAGE = 3


def parse_search_page(html: str, *, base_url: str, status: int | None = None) -> CoupangPage:
    """Classify a search page and read its offers; `base_url` resolves relative product links.

    A block is checked before anything else because a refusal is never "no results". A maintenance
    notice is only believed on a page without a product list or a no-results message, since a
    keyword such as "타이어 점검" puts 점검 on ordinary pages too.
    """
    if status in _BLOCKING_STATUSES:
        return CoupangPage(PageKind.BLOCKED, [], str(status))
    tree = LexborHTMLParser(html)
    if "access denied" in normalized_text(tree.css_first("title")).lower():
        return CoupangPage(PageKind.BLOCKED, [], "Access Denied")
    has_product_list = tree.css_first(PRODUCT_LISTS) is not None
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
    """Offers from the first layout whose item list is present (current layout before the older one).

    Only product items count towards `skipped` and the majority rule: a list also holds banners, widget headers
    and separators, which are not products and whose number varies from page to page. `listed` still counts
    every list element, because it is the list's length that says whether another page may follow.
    """
    for layout in LAYOUTS:
        items = tree.css(layout.items)
        if not items:
            continue
        offers: list[Offer] = []
        products = 0
        for item in items:
            offer = _parse_item(item, layout, base_url)
            if offer is not None:
                offers.append(offer)
            if offer is not None or _is_product_item(item, layout):
                products += 1
        listed, skipped = len(items), products - len(offers)
        if not products:
            # The list is there but nothing in it looks like a product: the items changed shape.
            return CoupangPage(PageKind.UNKNOWN, [], f"{layout.name} layout: {listed} items, none parseable", listed)
        if skipped * 2 > products:
            # Most products unreadable is a markup change, not a page of a few offers: a parse failure.
            detail = f"{layout.name} layout: {skipped} of {products} product items unreadable"
            return CoupangPage(PageKind.UNKNOWN, [], detail, listed, skipped)
        conditional = sum(offer.price_condition is not None for offer in offers)
        if products >= _MOST_OF_A_PAGE and conditional * 2 > products:
            # Most prices beside a label is a markup change too (a plain price moved out of its place), not a page
            # where nobody pays the plain price: refusing every offer would answer NO_MATCH where the page was not read.
            detail = f"{layout.name} layout: {conditional} of {products} product items show only a labelled price"
            return CoupangPage(PageKind.UNKNOWN, [], detail, listed, skipped)
        detail = f"{layout.name} layout"
        if skipped:
            detail += f", {skipped} of {products} items skipped"
        if products < listed:
            detail += f", {listed - products} of {listed} list entries not products"
        return CoupangPage(PageKind.RESULTS, offers, detail, listed, skipped)
    return CoupangPage(PageKind.UNKNOWN, [], "no product list")


def _is_product_item(item: LexborNode, layout: Layout) -> bool:
    """A list entry that names a product and identifies it (product link, `data-id` or `data-product-id`).

    Entries without both are banners, widget headers or separators: not products, so never "skipped". A
    product link whose id cannot be read still makes a product item, one whose link is unreadable.
    """
    if not normalized_text(item.css_first(layout.title)):
        return False
    has_id = attribute(item, "data-id") or attribute(item, "data-product-id")
    return bool(has_id) or item.css_first(PRODUCT_LINK) is not None


@dataclass(frozen=True, slots=True)
class _ProductLink:
    url: str
    product_id: str | None
    item_id: str | None
    vendor_item_id: str | None
    ranked: bool


def _parse_item(item: LexborNode, layout: Layout, base_url: str) -> Offer | None:
    """One item as an Offer, or None when it lacks a name, a price, or anything to link to."""
    title = normalized_text(item.css_first(layout.title))
    sale = sale_price(item, layout)
    if not title or sale is None:
        return None
    link = _product_link(item, base_url)
    data_id = attribute(item, "data-id") or attribute(item, "data-product-id")
    product_id = (link.product_id if link else None) or data_id
    if link is not None and own_url(link.url, _own_hosts(base_url)):
        url = link.url
    elif product_id is not None:
        url = urljoin(base_url, f"/vp/products/{product_id}")  # Coupang's canonical product page
    else:
        return None
    return Offer(
        source=SOURCE,
        title=title,
        price=sale.amount,
        url=url,
        product_id=product_id,
        item_id=link.item_id if link else None,
        vendor_item_id=link.vendor_item_id if link else None,
        delivery=_delivery(item, layout.badge_images),
        sold_out=_is_sold_out(item, layout.sold_out),
        is_ad=_is_ad(item, layout, link),
        price_condition=sale.condition,
        price_from=sale.from_ or None,
        unit_price=unit_price(unit_price_node(item, layout)),
        rating=_rating(item.css_first(layout.rating)),
        review_count=first_int(normalized_text(item.css_first(layout.review_count))),
    )


def _own_hosts(base_url: str) -> tuple[str, ...]:
    """Where a Coupang product link may lead: Coupang, or the host pages are served from (the demo shop)."""
    return ("coupang.com", urlsplit(base_url).hostname or "coupang.com")


def _is_ad(item: LexborNode, layout: Layout, link: _ProductLink | None) -> bool:
    """Labelled as an ad, or (current layout) linked without the `rank=` that organic results carry."""
    if item.css_first(AD_MARKS) is not None:
        return True
    return layout.unranked_is_ad and link is not None and not link.ranked


def _product_link(item: LexborNode, base_url: str) -> _ProductLink | None:
    """The item's /vp/products/{id}?itemId=…&vendorItemId=… link, resolved against `base_url`."""
    node = item.css_first(PRODUCT_LINK)
    if node is None:
        return None
    href = attribute(node, "href") or ""
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
