"""Coupang search-result pages as data: what kind of page it is, and the offers it lists.

Pure (no browser, no network) so every markup variation is a unit test over a saved page. The current
layout uses CSS-module class names whose hash suffixes change between deployments, so its selectors
match class-name prefixes (`[class*="ProductUnit_productName"]`), never whole names. Since 2025 some or all
items of a current-layout page show their prices in utility classes (`custom-oos fw-…`) instead of
`Price_priceValue`, so both are read (see `_sale_price`). Odd markup never raises: an item without a readable
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
    #: Whether items may carry the 2025 utility-class price markup (`.custom-oos` inside the PriceArea block).
    utility_prices: bool = False


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
    utility_prices=True,
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
#: An amount written as a price, a rate or a grouped number: what a label never holds. A label may hold a count
#: ("2개 이상 구매시 개당", "T멤버십 3개월"); an element holding an amount is another price, a rate or a unit price.
_AMOUNT = re.compile(r"\d[\d,]*\s*만?\s*(?:원|%)|\d{1,3}(?:,\d{3})+")
#: A label is words: at least two letters, so a bare rate ("12"), a count ("10개") or "1+1" is no label.
_LABEL_LETTERS = re.compile(r"[^\W\d_].*[^\W\d_]")
_WON_AMOUNT = re.compile(r"(\d[\d,]*)\s*원")
_DECIMAL = re.compile(r"\d+(?:\.\d+)?")
_WIDTH_PERCENT = re.compile(r"width\s*:\s*(\d+(?:\.\d+)?)\s*%")
_PARENTHESIZED = re.compile(r"\(([^()]*)\)")

#: The current layout's price block; the suffix is a CSS-module hash.
_PRICE_AREA = '[class*="PriceArea_priceArea"]'
#: Every part of the 2025 utility-class price markup carries this class: the discount rate, the `del` list price,
#: the sale price, the unit price, and the flex rows that wrap them. Inside a `del` it is never the sale price.
_UTILITY_PARTS = ".custom-oos:not(del):not(del *)"
#: A sale price's whole text: one amount, 원 optional (it may sit in a sibling), or an option range
#: "12,900원~" / "12,900원~15,900원" whose first amount is the lowest. Labels ("배송비 3,000원", "최대 930원 적립"),
#: rates ("12%") and unit prices ("(100g당 1,230원)") do not match.
_SALE_TEXT = re.compile(r"~?\s*(\d[\d,]*)\s*원?\s*(?:~\s*(?:\d[\d,]*\s*원?)?)?")
#: A bare number below this is a rate or a count that lost its "%", not a price.
_MIN_BARE_PRICE = 100
#: Items a page needs before "most of them" says something about its markup rather than about a few listings.
_MOST_OF_A_PAGE = 3
#: Texts beside a price that are part of writing it, not a label.
_PRICE_MARKS = frozenset({"원", "~", "원~"})
#: The headline sale price is bold; so is the discount rate, but its "%" already rules it out.
_BOLD = "fw-font-bold"
#: A unit price as the utility markup writes it: "(100g당 1,230원)".
_UNIT_PRICE_TEXT = re.compile(r"당\s*\d[\d,]*\s*원")


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
    """Offers from the first layout whose item list is present (current layout before the older one).

    Only product items count towards `skipped` and the majority rule: a list also holds banners, widget headers
    and separators, which are not products and whose number varies from page to page. `listed` still counts
    every list element, because it is the list's length that says whether another page may follow.
    """
    for layout in _LAYOUTS:
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


def _is_product_item(item: LexborNode, layout: _Layout) -> bool:
    """A list entry that names a product and identifies it (product link, `data-id` or `data-product-id`).

    Entries without both are banners, widget headers or separators: not products, so never "skipped". A
    product link whose id cannot be read still makes a product item, one whose link is unreadable.
    """
    if not _normalized_text(item.css_first(layout.title)):
        return False
    has_id = _attribute(item, "data-id") or _attribute(item, "data-product-id")
    return bool(has_id) or item.css_first(_PRODUCT_LINK) is not None


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
    sale = _sale_price(item, layout)
    if not title or sale is None:
        return None
    link = _product_link(item, base_url)
    data_id = _attribute(item, "data-id") or _attribute(item, "data-product-id")
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
        unit_price=_unit_price(_unit_price_node(item, layout)),
        rating=_rating(item.css_first(layout.rating)),
        review_count=_first_int(_normalized_text(item.css_first(layout.review_count))),
    )


def _own_hosts(base_url: str) -> tuple[str, ...]:
    """Where a Coupang product link may lead: Coupang, or the host pages are served from (the demo shop)."""
    return ("coupang.com", urlsplit(base_url).hostname or "coupang.com")


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


@dataclass(frozen=True, slots=True)
class _Sale:
    """The price an item shows."""

    amount: int
    #: The label beside it when it is not the plain sale price (와우할인가, 정기배송할인가, 첫구매 …): the item showed
    #: no price every buyer pays. None: the plain sale price.
    condition: str | None = None
    #: Written as a range's start ("12,900원~"): the cheapest option's price.
    from_: bool = False


def _sale_price(item: LexborNode, layout: _Layout) -> _Sale | None:
    """The item's sale price from either price markup of its layout.

    Only the price in the sale price's own place is what every buyer pays (`_price_value_sale`,
    `_utility_sale_price`); any other price line is labelled (member, coupon, subscription, first purchase, app, card,
    "최대 할인가" …) and conditional, whatever its label says. An item may carry `Price_priceValue`, the utility-class
    markup, or (while Coupang migrates) both. With both, a plain price beats a conditional one; of two plain ones,
    `Price_priceValue` is preferred only if it is consistent: equal to the utility-class sale price, or below every
    crossed-out list price the item shows. One that equals or exceeds a list price is a list price in disguise (or
    stale), and the utility-class price, which is what the page renders, is read instead.
    """
    legacy = _price_value_sale(item, layout)
    utility = _utility_sale_price(item) if layout.utility_prices else None
    if legacy is None or utility is None:
        return legacy if utility is None else utility
    if (legacy.condition is None) != (utility.condition is None):
        return legacy if legacy.condition is None else utility
    if legacy.amount == utility.amount:
        return legacy
    list_prices = [amount for node in item.css("del") if (amount := _price(node)) is not None]
    return legacy if all(legacy.amount < amount for amount in list_prices) else utility


def _price_value_sale(item: LexborNode, layout: _Layout) -> _Sale | None:
    """The `Price_priceValue` (older layout: `.price-value`) price: the plain one when the item shows it, else the
    first labelled one. The plain sale price sits in the price block itself (older layout: `em.sale`); a
    `Price_priceValue` inside a block of its own beside a label is a conditional price line."""
    area = item.css_first(_PRICE_AREA)
    candidates: list[tuple[bool, int, _Sale]] = []
    for index, node in enumerate(item.css(layout.price)):
        amount = _price(node)
        if amount is None:
            continue
        parent = node.parent
        in_place = area is None or parent is None or parent.mem_id == area.mem_id
        label = None if in_place else _label_beside(node)
        sale = _Sale(amount, label, _written_as_range(node))
        candidates.append((label is not None, index, sale))
    return min(candidates, key=lambda candidate: candidate[:2])[2] if candidates else None


def _utility_sale_price(item: LexborNode) -> _Sale | None:
    """The sale price in the 2025 utility-class markup, or None if the item has none.

    The sale price is the `.custom-oos` element of the PriceArea block whose whole text is one won amount.
    That excludes the `del` list price (and any wrapper holding a `del`), the discount rate ("12%"), the unit
    price ("(100g당 1,230원)"), labelled amounts such as "배송비 3,000원" or "최대 930원 적립", and the flex rows
    that wrap several parts. Colour classes are not relied on: red (discounted), bluegray (regular) and the
    sold-out grey all mark the same element. A candidate beside a label (a `.custom-oos` text holding no amount) is a
    conditional price, whatever the label says; the plain ones come first, then amounts written with 원, then bold.
    """
    area = item.css_first(_PRICE_AREA)
    if area is None:
        return None
    candidates: list[tuple[bool, bool, bool, int, _Sale]] = []
    for index, node in enumerate(area.css(_UTILITY_PARTS)):
        if node.css_first("del") is not None:
            continue
        text = _normalized_text(node)
        match = _SALE_TEXT.fullmatch(text)
        if match is None:
            continue
        amount = int(match.group(1).replace(",", ""))
        has_won = "원" in text
        if not amount or (not has_won and amount < _MIN_BARE_PRICE):
            continue
        bold = _BOLD in (node.attributes.get("class") or "")
        label = _label_beside(node, parts=_UTILITY_PARTS)
        sale = _Sale(amount, label, _written_as_range(node))
        candidates.append((label is not None, not has_won, not bold, index, sale))
    return min(candidates, key=lambda candidate: candidate[:4])[-1] if candidates else None


def _label_beside(node: LexborNode, parts: str | None = None) -> str | None:
    """The label of a price line: the element written right before the price, when it holds no amount (a label
    precedes its price: "와우할인가 26,900원", "2개 이상 구매시 개당 125,100원"; an element holding an amount is another
    price, a rate or a unit price), its text or, for an image, its alt text. None: no label. `parts`: only an element
    matching it counts."""
    sibling = _element_before(node)
    if sibling is None or (parts is not None and not sibling.css_matches(parts)):
        return None
    text = _normalized_text(sibling) or (_attribute(sibling, "alt") if sibling.tag == "img" else None) or ""
    if text and _LABEL_LETTERS.search(text) and not _AMOUNT.search(text) and text not in _PRICE_MARKS:
        return text
    return None


def _element_before(node: LexborNode) -> LexborNode | None:
    sibling = node.prev
    while sibling is not None and sibling.tag == "-text" and not sibling.text().strip():
        sibling = sibling.prev
    return sibling if sibling is not None and sibling.tag != "-text" else None


def _written_as_range(node: LexborNode) -> bool:
    """Whether a price element is written as a range's start: "12,900원~" in it, or a "~" (or "원~") right after it."""
    if "~" in _normalized_text(node):
        return True
    after = node.next
    while after is not None and not after.text().strip():
        after = after.next
    return after is not None and after.text().strip().lstrip("원").lstrip().startswith("~")


def _unit_price_node(item: LexborNode, layout: _Layout) -> LexborNode | None:
    """The layout's unit-price element, else (utility markup) the shortest `.custom-oos` text like "1개당 530원".

    The shortest, because the flex rows that wrap a unit price carry `.custom-oos` and contain its text too.
    """
    node = item.css_first(layout.unit_price)
    area = item.css_first(_PRICE_AREA) if node is None and layout.utility_prices else None
    if area is None:
        return node
    texts = ((_normalized_text(part), part) for part in area.css(_UTILITY_PARTS))
    matches = [(len(text), index, part) for index, (text, part) in enumerate(texts) if _UNIT_PRICE_TEXT.search(text)]
    return min(matches, key=lambda match: match[:2])[2] if matches else None


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
