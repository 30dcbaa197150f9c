"""Matching: which shopping offers really are the product a back office asked about.

Every offer gets a verdict in `Offer.rejected` (None: accepted) that names the one rule it broke, so a person
auditing a result can see why an offer did or did not win. Rules run in a fixed order and the first one that
fails gives the reason, which keeps verdicts deterministic.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from schemas.offers import Offer

#: An offer under this share of the target price is almost never the product itself: it is an accessory or a
#: single part, a monthly rental fee, a deposit or a bait price. 30 % still lets deep genuine sales through.
SUSPICIOUS_PRICE_PERCENT = 30

# --- normalization -----------------------------------------------------------------------------------------

# Only ASCII tag names, so Korean sellers' brackets such as "<당일발송>" survive as text.
_TAG = re.compile(r"</?[a-z][a-z0-9]*(?:\s[^<>]*)?/?>", re.IGNORECASE)
# Dashes NFKC leaves alone (hyphen, figure dash, en/em dash, minus …); full-width forms are folded by NFKC.
_DASHES = str.maketrans(dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58", "-"))
_SPACES = re.compile(r"\s+")
# What a model number may be written with or without.
_SEPARATORS = re.compile(r"[\s-]+")


def _normalize(text: str) -> str:
    """One comparable form for titles and keywords: no markup, NFKC, one dash, single spaces, lower case."""
    # Unescape first so entity-encoded tags ("&lt;b&gt;") are stripped too.
    text = _TAG.sub("", html.unescape(text))
    text = unicodedata.normalize("NFKC", text).translate(_DASHES).lower()
    return _SPACES.sub(" ", text).strip()


# --- excluded items: accessories, used, refurbished, rental … ---------------------------------------------


def _english(*words: str) -> str:
    """English words count only whole, so "case" does not fire inside "showcase" or "briefcase"."""
    return r"(?<![a-z])(?:" + "|".join(words) + r")(?![a-z])"


# "케이스+필름 증정" / "case included": a gift bundled with the product does not make the offer an accessory.
_NOT_A_GIFT = r"(?!(?:\s*[+&,/]\s*[^\s+&,/]+)*\s*(?:증정|포함|사은품|included))"


def _accessory(pattern: str) -> tuple[str, str]:
    return "accessory", f"(?:{pattern}){_NOT_A_GIFT}"


#: (reason category, pattern). One entry is one concept in all its spellings: a keyword that names the concept
#: in any spelling ("아이폰 15 케이스") allows every spelling of it in titles ("... Clear Case").
#: Lookarounds keep ordinary words that merely contain a term from being read as that term.
_EXCLUSIONS: tuple[tuple[str, str], ...] = (
    _accessory("케이스|" + _english("cases?")),
    _accessory("커버(?!력)|" + _english("covers?")),  # 커버력: a cosmetic's coverage
    _accessory("(?:보호|액정)?필름|" + _english("films?", r"screen\s?protectors?")),
    _accessory("강화유리|" + _english(r"tempered\sglass")),
    _accessory("거치대|" + _english("holders?", "mounts?")),
    _accessory(r"스킨(?!\s?케어)|" + _english(r"skins?(?!\s?care)")),  # 스킨케어: skin care, not a device skin
    _accessory("파우치|" + _english("pouch(?:es)?")),
    ("compatible", "호환|" + _english("compatible")),
    ("replacement", "교체용|" + _english("replacements?")),
    ("refill", "리필|" + _english("refills?")),
    ("used", "중고(?!등)|" + _english("used", r"pre[\s-]?owned")),  # 중고등: middle and high school (books)
    ("refurbished", "(?<!슬)리퍼(?:브|비시)?|" + _english("refurb(?:ished)?", "renewed")),  # 슬리퍼: slippers
    # 무료반품 / 반품불가 / 반품 가능: return-policy words in the title of a new item.
    ("returned", r"(?<!무료)(?<!무료 )반품(?!\s?(?:불가|가능|무료|보장|안내|비용))"),
    ("display", "전시|진열(?:상품|품)|오픈박스|" + _english(r"open\s?box")),  # 진열대 alone is a shelf
    ("rental", "렌탈|대여|" + _english("rental")),
)
_EXCLUDED = re.compile("|".join(f"(?P<x{index}>{pattern})" for index, (_, pattern) in enumerate(_EXCLUSIONS)))
_EXCLUSION_CATEGORY = {f"x{index}": category for index, (category, _) in enumerate(_EXCLUSIONS)}


def _named_exclusions(text: str) -> frozenset[str]:
    """The exclusion concepts a normalized text names (their regex group names)."""
    return frozenset(match.lastgroup for match in _EXCLUDED.finditer(text) if match.lastgroup)


def _excluded_term(title: str, allowed: frozenset[str]) -> str | None:
    for match in _EXCLUDED.finditer(title):
        if match.lastgroup and match.lastgroup not in allowed:
            return f"{_EXCLUSION_CATEGORY[match.lastgroup]}: {match.group()}"
    return None


# --- numbers with units ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Unit:
    dimension: str  # also the reason's label
    factor: Decimal  # base units in one of this unit, so 1TB and 1024GB compare equal


# 24캔, 24개 and 24입 state the same thing. Sheets, tablets and rolls are counted apart so that
# "물티슈 100매 10팩" or "60정 3개" do not mix two counts into one.
_PACK_UNITS = ("개입", "개", "입", "캔", "병", "팩", "봉지", "봉", "박스", "box", "ea")
_UNITS: dict[str, _Unit] = {
    **dict.fromkeys(("tb", "테라"), _Unit("capacity", Decimal(1024))),
    **dict.fromkeys(("gb", "기가"), _Unit("capacity", Decimal(1))),
    **dict.fromkeys(("l", "리터"), _Unit("volume", Decimal(1000))),
    **dict.fromkeys(("ml", "cc"), _Unit("volume", Decimal(1))),
    **dict.fromkeys(("kg", "킬로", "키로"), _Unit("weight", Decimal(1000))),
    **dict.fromkeys(("g", "그램"), _Unit("weight", Decimal(1))),
    "mg": _Unit("weight", Decimal("0.001")),
    **dict.fromkeys(_PACK_UNITS, _Unit("pack", Decimal(1))),
    **dict.fromkeys(("매", "장"), _Unit("sheets", Decimal(1))),
    **dict.fromkeys(("정", "캡슐"), _Unit("tablets", Decimal(1))),
    "롤": _Unit("rolls", Decimal(1)),
    **dict.fromkeys(("인치", "inch"), _Unit("size", Decimal(1))),
    "w": _Unit("power", Decimal(1)),
    "mah": _Unit("battery", Decimal(1)),
}
# How reasons spell units whose lower-cased form reads oddly; any other unit is shown as normalized.
_UNIT_DISPLAY = {"tb": "TB", "gb": "GB", "l": "L", "w": "W", "mah": "mAh"}
# Words that start like a unit but are not one: 개월 (months), 개봉 (opened), 개국 (countries), 정품 (genuine).
_UNIT_GUARDS = {"개": "(?![월봉국])", "정": "(?!품)"}


def _unit_pattern(unit: str) -> str:
    # An ASCII unit must end the token: "5gb" is not 5 g, "2lb" is not 2 L, "27gp850" is a model number.
    guard = r"(?![a-z])" if unit.isascii() else _UNIT_GUARDS.get(unit, "")
    return re.escape(unit) + guard


_QUANTITY = re.compile(
    r"(?<![\d.])(?P<number>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s?(?P<unit>"
    # Longest first so 개입 wins over 개 and 봉지 over 봉.
    + "|".join(_unit_pattern(unit) for unit in sorted(_UNITS, key=len, reverse=True))
    + ")"
)


@dataclass(frozen=True, slots=True)
class _Quantity:
    dimension: str
    amount: Decimal  # in the dimension's base unit
    text: str  # as the title or keyword wrote it, for reasons


def _quantities(text: str) -> tuple[_Quantity, ...]:
    found = []
    for match in _QUANTITY.finditer(text):
        number, unit = match["number"], match["unit"]
        amount = Decimal(number.replace(",", "")) * _UNITS[unit].factor
        found.append(_Quantity(_UNITS[unit].dimension, amount, number + _UNIT_DISPLAY.get(unit, unit)))
    return tuple(found)


def _unit_conflict(title: str, wanted: tuple[_Quantity, ...]) -> str | None:
    """A keyword's quantity must appear in the title whenever the title states that dimension at all.

    "Appear among" rather than "equal" because titles often state a dimension twice ("12GB 256GB": memory and
    storage; "100매 10팩"), and a title silent about a dimension proves nothing either way.
    """
    if not wanted:
        return None
    stated = _quantities(title)
    for want in wanted:
        same = [quantity for quantity in stated if quantity.dimension == want.dimension]
        if same and all(quantity.amount != want.amount for quantity in same):
            texts = ", ".join(dict.fromkeys(quantity.text for quantity in same))
            return f"{want.dimension} {texts} ≠ {want.text}"
    return None


# --- keyword words -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Word:
    text: str
    pattern: re.Pattern[str]
    #: A digit at either edge: spaces must still separate it ("아이폰 15 128GB" is not "아이폰 15128gb").
    digit_edged: bool


#: Words sellers write in either script. Deliberately small: a miss only costs one offer, a wrong pair a bad match.
_SPELLINGS: dict[str, tuple[str, ...]] = {
    "아이폰": ("iphone",),
    "아이패드": ("ipad",),
    "맥북": ("macbook",),
    "애플": ("apple",),
    "갤럭시": ("galaxy",),
    "삼성": ("samsung",),
    "엘지": ("lg",),
    "다이슨": ("dyson",),
    "에어팟": ("airpods",),
    "울트라": ("ultra",),
    "프로": ("pro",),
    "맥스": ("max",),
    "플러스": ("plus",),
    "미니": ("mini",),
    "케이스": ("case",),
}


def _keyword_words(keyword: str) -> tuple[_Word, ...]:
    """Every keyword word the title must contain.

    Search pages mix in neighbours of the product (아이폰 14 for 아이폰 15, 펩시 for 코카콜라); a title missing
    a word the back office typed is another product. Quantities are left to the unit rule (1L = 1000ml).
    Titles write "아이폰15", "코카-콜라" and "코카 콜라", so words are looked for with dashes ignored and, where
    no digit is at a word's edge, with spaces ignored too. A number must stand alone: "15" is not in "150".
    """
    words = []
    for word in keyword.split():
        compact = _SEPARATORS.sub("", word)
        if not compact or _QUANTITY.fullmatch(word):
            continue
        lead = r"(?<!\d)" if compact[0].isdigit() else ""
        tail = r"(?!\d)" if compact[-1].isdigit() else ""
        spellings = "|".join(re.escape(spelling) for spelling in (compact, *_SPELLINGS.get(compact, ())))
        words.append(_Word(compact, re.compile(f"{lead}(?:{spellings}){tail}"), bool(lead or tail)))
    return tuple(words)


def _missing_word(title: str, words: tuple[_Word, ...]) -> str | None:
    undashed = title.replace("-", "")
    compact = undashed.replace(" ", "")
    for word in words:
        if not (word.pattern.search(undashed) or (not word.digit_edged and word.pattern.search(compact))):
            return f"keyword word missing: {word.text}"
    return None


# --- model number and price --------------------------------------------------------------------------------


def _model_pattern(model_no: str) -> re.Pattern[str] | None:
    """A pattern for "SM-S928N" that also finds "sms928n", "SM S928N" and the same with an en dash."""
    compact = _SEPARATORS.sub("", _normalize(model_no))
    if not compact:
        return None
    body = r"[\s-]*".join(re.escape(char) for char in compact)
    # Not the tail of a longer code ("XSM-S928N"), and a trailing digit must end the number: "DW-5600" is not
    # "DW-56001". A trailing letter may run on, as in colour and region suffixes ("SM-S928NZKEKOO").
    tail = r"(?!\d)" if compact[-1].isdigit() else ""
    return re.compile(rf"(?<![0-9a-z]){body}{tail}")


def _suspicious_price(price: int, target_price: int | None) -> str | None:
    if price <= 0:
        return "no price"  # a parse gap, and it would otherwise always be the lowest
    if target_price and price * 100 < target_price * SUSPICIOUS_PRICE_PERCENT:
        return f"price {price:,} is under {SUSPICIOUS_PRICE_PERCENT}% of target {target_price:,}"
    return None


# --- the matcher -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Wanted:
    """The product side of matching, normalized once per call."""

    model_no: str
    model: re.Pattern[str] | None
    allowed: frozenset[str]  # exclusion concepts the keyword itself asks for
    quantities: tuple[_Quantity, ...]
    words: tuple[_Word, ...]
    target_price: int | None


def _wanted(product: Mapping[str, Any]) -> _Wanted:
    keyword = _normalize(product.get("keyword") or "")
    model_no = (product.get("model_no") or "").strip()
    return _Wanted(
        model_no=model_no,
        model=_model_pattern(model_no),
        allowed=_named_exclusions(keyword),
        quantities=_quantities(keyword),
        words=_keyword_words(keyword),
        target_price=product.get("target_price") or None,
    )


def _rejection(offer: Offer, wanted: _Wanted) -> str | None:
    """Why this offer is not the product, or None when it is."""
    if offer.is_ad:
        return "ad"
    if offer.sold_out:
        return "sold out"
    title = _normalize(offer.title)
    if wanted.model and not wanted.model.search(title):
        return f"model number {wanted.model_no} missing"
    return (
        _excluded_term(title, wanted.allowed)
        or _unit_conflict(title, wanted.quantities)
        or _missing_word(title, wanted.words)
        or _suspicious_price(offer.price, wanted.target_price)
    )


def match_offers(product: Mapping[str, Any], offers: Iterable[Offer]) -> list[Offer]:
    """Set `rejected` on every offer (None: it is the product) and return them in input order."""
    wanted = _wanted(product)
    matched = list(offers)
    for offer in matched:
        offer.rejected = _rejection(offer, wanted)
    return matched
