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
from math import prod
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


def _fold(text: str) -> str:
    """Titles and keywords as one comparable form that keeps letter case: no markup, NFKC, one dash, single spaces.

    Case survives for the one rule that needs it: "x2" after product words is a count, "X5" a model name.
    """
    # Unescape first so entity-encoded tags ("&lt;b&gt;") are stripped too.
    text = _TAG.sub("", html.unescape(text))
    text = unicodedata.normalize("NFKC", text).translate(_DASHES)
    return _SPACES.sub(" ", text).strip()


def _normalize(text: str) -> str:
    """The comparable form in lower case, which every rule but the pack counts reads."""
    return _fold(text).lower()


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
# The same terms standing as words of their own, whitespace or the text's edge on both sides.
_EXCLUDED_WORD = re.compile(
    "|".join(rf"(?P<x{index}>(?<!\S)(?:{pattern})(?!\S))" for index, (_, pattern) in enumerate(_EXCLUSIONS))
)
_EXCLUSION_CATEGORY = {f"x{index}": category for index, (category, _) in enumerate(_EXCLUSIONS)}


def _named_exclusions(keyword: str) -> frozenset[str]:
    """The exclusion concepts a normalized keyword names as words of their own (their regex group names).

    "아이폰 15 케이스" and "... tempered glass" ask for the accessory; the brand 커버걸 does not ask for covers,
    nor 필름카메라 for film. Korean writes compounds without spaces, so a term inside a longer word is part
    of that word; only a whole word is the keyword asking for the concept.
    """
    return frozenset(match.lastgroup for match in _EXCLUDED_WORD.finditer(keyword) if match.lastgroup)


def _compound_words(keyword: str) -> re.Pattern[str] | None:
    """The keyword's words that contain an exclusion term without being one: 커버걸, 필름카메라.

    Titles repeat the keyword's words, and the 커버 in a title's 커버걸 is the brand again, not a cover; these
    words are blanked out of a title before its exclusion terms are read.
    """
    words = {word for word in keyword.split() if _EXCLUDED.search(word) and not _EXCLUDED_WORD.fullmatch(word)}
    if not words:
        return None
    # Longest first, so a word that contains another is blanked whole.
    return re.compile("|".join(re.escape(word) for word in sorted(words, key=len, reverse=True)))


def _excluded_term(title: str, allowed: frozenset[str], compounds: re.Pattern[str] | None) -> str | None:
    if compounds:
        title = compounds.sub(" ", title)
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
    # An ASCII unit must end the token: "5gb" is not 5 g, "2lb" is not 2 L, "27gp850" is a model number. Only a
    # multiplier may follow it directly, as in "2kgx3".
    guard = r"(?!(?!x\d)[a-z])" if unit.isascii() else _UNIT_GUARDS.get(unit, "")
    return re.escape(unit) + guard


# Longest first so 개입 wins over 개 and 봉지 over 봉.
_UNIT = "|".join(_unit_pattern(unit) for unit in sorted(_UNITS, key=len, reverse=True))
_MEASURE = rf"(?<![\d.])(?P<number>\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|\d+(?:\.\d+)?)\s?(?P<unit>{_UNIT})"
# A count after a multiplication sign is a pack count only when it is bare: "x 10개입" is a quantity of its own,
# "x 40cm" a size, "x 2세트" or "x 2종" something else, "x 1.5" and "x 1,000" not a count.
_BARE = rf"(?![\w.]|,\d|\s(?:{_UNIT}))"
#: Every way a text states a quantity or a pack count, leftmost first, so a multiplier belongs to the quantity
#: before it and is never read twice:
#: - "330ml x 24", "1L*12", "2kgX3", "2개 x 3", "355ml x 24 x 2": a quantity, then bare counts;
#: - "샴푸 x2", "샴푸 X 2", "(×2)": a bare count after the product's words. Not after a number ("1920 x 1080",
#:   "27 x 40cm", "S24 x 2" are sizes and models), and a capital X written against its digits is a model name
#:   ("BMW X5", "ThinkPad X1"). A small "x5" there is read as a count: that is how sellers write counts;
#: - "1+1", "2+1", "1+1+1": buy N get M, with small terms that are not part of a longer number or a model
#:   ("16+16GB", "3.0+2", "S9+1").
#: It reads folded text, case kept ("355ML" is a volume); case matters only where a pattern says so, (?-i:…).
_STATED = re.compile(
    rf"{_MEASURE}(?P<times>(?:\s?[x×*]\s?\d+{_BARE})*)"
    rf"|(?<![^\s(\[])(?<!\d\s)(?:(?-i:x\s?|X\s)|[×*]\s?)(?P<alone>\d+){_BARE}"
    r"|(?<![\da-z.+-])(?P<bonus>(?:10|[1-9])(?:\+(?:10|[1-9]))+)(?![\da-z.+%-])",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class _Quantity:
    dimension: str
    amount: Decimal  # in the dimension's base unit
    text: str  # as the title or keyword wrote it, for reasons


def _measured(number: str, unit: str) -> _Quantity:
    unit = unit.lower()
    amount = Decimal(number.replace(",", "")) * _UNITS[unit].factor
    return _Quantity(_UNITS[unit].dimension, amount, number + _UNIT_DISPLAY.get(unit, unit))


def _multiplied(quantity: _Quantity, times: str) -> tuple[_Quantity, ...]:
    """What "quantity x n (x m …)" states.

    "330ml x 24" is 24 cans of 330ml: the volume stays and 24 is the pack count. "2개 x 3" is three packs of
    two, and the offer's price buys six units, so the title states a pack of 6 and neither 2 nor 3: a keyword
    for 6개 matches it, one for 2개 or 3개 (a price for two or three units) does not.
    """
    counts = [int(count) for count in re.findall(r"\d+", times)]
    if not counts:
        return (quantity,)
    written = "".join(f"x{count}" for count in counts)
    total = Decimal(prod(counts))
    if quantity.dimension == "pack":
        return (_Quantity("pack", quantity.amount * total, quantity.text + written),)
    return quantity, _Quantity("pack", total, written)


def _quantities(text: str) -> tuple[_Quantity, ...]:
    """Every quantity a folded text states, pack counts written as multipliers ("x 24", "1+1") included."""
    found: list[_Quantity] = []
    for match in _STATED.finditer(text):
        if match["unit"]:
            found.extend(_multiplied(_measured(match["number"], match["unit"]), match["times"]))
        elif match["alone"]:
            found.append(_Quantity("pack", Decimal(match["alone"]), f"x{match['alone']}"))
        else:  # 1+1 is two units for the price, 2+1 three
            terms = match["bonus"].split("+")
            found.append(_Quantity("pack", Decimal(sum(int(term) for term in terms)), match["bonus"]))
    return tuple(found)


def _unit_conflict(title: str, wanted: tuple[_Quantity, ...]) -> str | None:
    """A keyword's quantity must appear in the folded title whenever the title states that dimension at all.

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
    """Every word of a folded keyword the title must contain, in lower case.

    Search pages mix in neighbours of the product (아이폰 14 for 아이폰 15, 펩시 for 코카콜라); a title missing
    a word the back office typed is another product. Quantities are left to the unit rule (1L = 1000ml).
    Titles write "아이폰15", "코카-콜라" and "코카 콜라", so words are looked for with dashes ignored and, where
    no digit is at a word's edge, with spaces ignored too. A number must stand alone: "15" is not in "150".
    Pack counts are the unit rule's too, so the "x" and "24" of "355ml x 24" and the "1+1" are no words.
    """
    stated = [match.span() for match in _STATED.finditer(keyword)]
    words = []
    for token in re.finditer(r"\S+", keyword):
        compact = _SEPARATORS.sub("", token.group().lower())
        if not compact or any(start <= token.start() and token.end() <= end for start, end in stated):
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
    compounds: re.Pattern[str] | None  # keyword words that merely contain an exclusion term
    quantities: tuple[_Quantity, ...]
    words: tuple[_Word, ...]
    target_price: int | None


def _wanted(product: Mapping[str, Any]) -> _Wanted:
    folded = _fold(product.get("keyword") or "")
    keyword = folded.lower()
    model_no = (product.get("model_no") or "").strip()
    return _Wanted(
        model_no=model_no,
        model=_model_pattern(model_no),
        allowed=_named_exclusions(keyword),
        compounds=_compound_words(keyword),
        quantities=_quantities(folded),
        words=_keyword_words(folded),
        target_price=product.get("target_price") or None,
    )


def _rejection(offer: Offer, wanted: _Wanted) -> str | None:
    """Why this offer is not the product, or None when it is."""
    if offer.is_ad:
        return "ad"
    if offer.sold_out:
        return "sold out"
    folded = _fold(offer.title)
    title = folded.lower()
    if wanted.model and not wanted.model.search(title):
        return f"model number {wanted.model_no} missing"
    return (
        _excluded_term(title, wanted.allowed, wanted.compounds)
        or _unit_conflict(folded, wanted.quantities)
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
