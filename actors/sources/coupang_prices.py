"""Which price of a Coupang search-result item counts (`sale_price`): the plain sale price every buyer pays, read
from both price markups of the current layout (`Price_priceValue` and, since 2025, the utility classes
`custom-oos fw-…`) and the older layout's; a member, coupon or other labelled price becomes the offer's condition;
a price written as a range's start is the cheapest option's. And the unit price ("(100g당 1,230원)").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from selectolax.lexbor import LexborNode

from actors.sources.coupang_markup import Layout, attribute, first_int, normalized_text

#: An amount written as a price or a grouped number: what a label never holds. A label may hold a count
#: ("2개 이상 구매시 개당", "T멤버십 3개월") or a rate ("정기배송 5% 할인가", "카드 10% 청구할인"); an element
#: holding an amount is another price or a unit price, and a rate alone ("12%") has no words to be a label.
_AMOUNT = re.compile(r"\d[\d,]*\s*만?\s*원|\d{1,3}(?:,\d{3})+")
#: A label is words: at least two letters, so a bare rate ("12"), a count ("10개") or "1+1" is no label.
_LABEL_LETTERS = re.compile(r"[^\W\d_].*[^\W\d_]")
_WON_AMOUNT = re.compile(r"(\d[\d,]*)\s*원")
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
#: Texts beside a price that are part of writing it, not a label.
_PRICE_MARKS = frozenset({"원", "~", "원~"})
#: The condition of a price line out of the sale price's place whose label could not be read.
_UNREAD_LABEL = "a price line of its own"
#: The headline sale price is bold; so is the discount rate, but its "%" already rules it out.
_BOLD = "fw-font-bold"
#: A unit price as the utility markup writes it: "(100g당 1,230원)".
_UNIT_PRICE_TEXT = re.compile(r"당\s*\d[\d,]*\s*원")


def _price(node: LexborNode | None) -> int | None:
    """The KRW amount of a price element; prefers the number followed by 원 when the text holds several."""
    text = normalized_text(node)
    won = _WON_AMOUNT.search(text)
    price = first_int(won.group(1)) if won else first_int(text)
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


def sale_price(item: LexborNode, layout: Layout) -> _Sale | None:
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


def _price_value_sale(item: LexborNode, layout: Layout) -> _Sale | None:
    """The `Price_priceValue` (older layout: `.price-value`) price: the plain one when the item shows it, else the
    first labelled one. The plain sale price sits in the price block itself (older layout: `em.sale`); a
    `Price_priceValue` inside a block of its own is a conditional price line: beside a label, or beside a price in the
    sale price's place."""
    area = item.css_first(_PRICE_AREA)
    priced = [(node, amount) for node in item.css(layout.price) if (amount := _price(node)) is not None]
    placed = [area is None or node.parent is None or node.parent.mem_id == area.mem_id for node, _ in priced]
    candidates: list[tuple[bool, int, _Sale]] = []
    # Beside a price in the sale price's own place, a line out of it is conditional even when its label cannot be
    # read (an allow-list of the place); an item whose only prices sit out of it may be a wrapper Coupang added.
    unread = _UNREAD_LABEL if any(placed) else None
    for index, ((node, amount), in_place) in enumerate(zip(priced, placed, strict=True)):
        label = None if in_place else (_label_beside(node) or unread)
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
        text = normalized_text(node)
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
    """The label of a price line: the element written right before the price, when it is words holding no amount (a
    label precedes its price: "와우할인가 26,900원", "2개 이상 구매시 개당 125,100원", "정기배송 5% 할인가"; an element
    holding a won amount is another price or a unit price, and a rate alone, "12%", is no words), its text or, for an
    image, its alt text. None: no label. `parts`: only an element matching it counts."""
    sibling = _element_before(node)
    if sibling is None or (parts is not None and not sibling.css_matches(parts)):
        return None
    text = normalized_text(sibling) or (attribute(sibling, "alt") if sibling.tag == "img" else None) or ""
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
    if "~" in normalized_text(node):
        return True
    after = node.next
    while after is not None and not after.text().strip():
        after = after.next
    return after is not None and after.text().strip().lstrip("원").lstrip().startswith("~")


def unit_price_node(item: LexborNode, layout: Layout) -> LexborNode | None:
    """The layout's unit-price element, else (utility markup) the shortest `.custom-oos` text like "1개당 530원".

    The shortest, because the flex rows that wrap a unit price carry `.custom-oos` and contain its text too.
    """
    node = item.css_first(layout.unit_price)
    area = item.css_first(_PRICE_AREA) if node is None and layout.utility_prices else None
    if area is None:
        return node
    texts = ((normalized_text(part), part) for part in area.css(_UTILITY_PARTS))
    matches = [(len(text), index, part) for index, (text, part) in enumerate(texts) if _UNIT_PRICE_TEXT.search(text)]
    return min(matches, key=lambda match: match[:2])[2] if matches else None


def unit_price(node: LexborNode | None) -> str | None:
    """The text inside the parentheses of "(10g당 1,234원)"; the whole text if there are none."""
    text = normalized_text(node)
    inner = _PARENTHESIZED.search(text)
    return (inner.group(1).strip() if inner else text) or None
