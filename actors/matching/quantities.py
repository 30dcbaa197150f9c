"""Quantities: numbers with units and pack counts, which a title and its keyword must agree on.

256GB ≠ 512GB, 1L = 1000ml, 30개입 ≠ 10개입; multipliers are pack counts ("330ml x 24", "2개 x 3", "1+1"), and
packs of packs multiply ("12개 x 2박스" is 24).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from math import prod

from infra.text.folding import ENDS_THE_TITLE
from infra.text.units import COLLECTIVE_COUNTERS, CONTAINERS, IMPERIAL_TOLERANCE, PACK_UNITS, PIECE_COUNTERS, UNITS

# How reasons spell units whose lower-cased form reads oddly; any other unit is shown as normalized.
_UNIT_DISPLAY = {"tb": "TB", "gb": "GB", "l": "L", "w": "W", "mah": "mAh"}
# Words that start like a unit but are not one: 개월 (months), 개봉 (opened), 개국 (countries), 정품 (genuine). A
# counter of pieces ends its word (입 aside: "12본입"), since its syllable begins many words: 구강, 구성, 통신, 본품,
# 접시 ("WP660 구강세정기" counts no 660 pieces).
_ENDS_A_COUNTER = "(?!(?!입)[가-힣])"
_UNIT_GUARDS = {
    "개": "(?![월봉국])",
    "정": "(?!품)",
    **dict.fromkeys(
        ("갑", *PIECE_COUNTERS, *(counter for counter in COLLECTIVE_COUNTERS if not counter.isascii())), _ENDS_A_COUNTER
    ),
}


def _unit_pattern(unit: str) -> str:
    # An ASCII unit must end the token: "5gb" is not 5 g, "2lb" is not 2 L, "27gp850" is a model number. Only a
    # multiplier may follow it directly, as in "2kgx3".
    guard = r"(?!(?!x\d)[a-z])" if unit.isascii() else _UNIT_GUARDS.get(unit, "")
    return re.escape(unit) + guard


# Longest first so 개입 wins over 개 and 봉지 over 봉.
_UNIT = "|".join(_unit_pattern(unit) for unit in sorted(UNITS, key=len, reverse=True))
#: An amount as titles write it, thousands with a comma or not ("1,500", "1500", "2.5").
_AMOUNT_WRITTEN = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_MEASURE = rf"(?<![\d.])(?P<number>{_AMOUNT_WRITTEN})\s?(?P<unit>{_UNIT})"
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
STATED = re.compile(
    rf"{_MEASURE}(?P<times>(?:\s?[x×*]\s?\d+{_BARE})*)"
    rf"|(?<![^\s(\[])(?<!\d\s)(?:(?-i:x\s?|X\s)|[×*]\s?)(?P<alone>\d+){_BARE}"
    r"|(?<![\da-z.+-])(?P<bonus>(?:10|[1-9])(?:\+(?:10|[1-9]))+)(?![\da-z.+%-])",
    re.IGNORECASE,
)

_NUMBER = r"\d+(?:\.\d+)?"
#: A bare number in a list of sizes that writes its unit once, after the last ("20/24/28인치", "90/180정/2병",
#: "5~8kg"): the unit of the next number written with one is its unit too.
_UNIT_WRITTEN_ONCE = re.compile(
    rf"(?<![\w.])({_NUMBER})(?=(?:\s?[/~∼]\s?{_NUMBER})*\s?[/~∼]\s?{_NUMBER}\s?(?P<unit>{_UNIT}))", re.IGNORECASE
)
#: A range of sizes ("5~8kg", "6kg~9kg"), its start's unit (if written) and its end's: a pick's options from its start
#: to its end, or one item's band or span ("7~8kg 1통", "17~32인치 모니터암").
SIZE_RANGE = re.compile(
    rf"(?<![\w.]){_NUMBER}\s?(?P<first>{_UNIT})?\s?[~∼]\s?{_NUMBER}\s?(?P<last>{_UNIT})", re.IGNORECASE
)
#: Sizes listed with spaces ("2kg 5kg 10kg 15kg"): a pick's options where a pick is said right after them.
SPACED_SIZES = re.compile(rf"(?<![\w.,])(?:{_NUMBER}\s?(?:{_UNIT})\s)+{_NUMBER}\s?(?:{_UNIT})(?![\w.])", re.IGNORECASE)
#: A fraction of an inch ("1/2인치", "3/8inch"): one size, not two.
_INCH_FRACTION = re.compile(r"(?<![\w./])(\d+)\s?/\s?(2|4|8|16|32|64)\s?(?:인치|inch)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Quantity:
    dimension: str
    amount: Decimal  # in the dimension's base unit
    text: str  # as the title or keyword wrote it, for reasons
    #: The counter of single pieces it was written with (`PIECE_COUNTERS`: 2마리), if any.
    counter: str | None = None
    #: Written as a number of containers (`CONTAINERS`: 2팩, 3박스), which hold pieces a title may count beside them.
    contained: bool = False
    #: Written in an imperial unit ("5lb"): its metric equivalent is written rounded (`same_amount`).
    imperial: bool = False

    def same_amount(self, other: Quantity) -> bool:
        """Whether two quantities of one dimension state the same amount: equal, or, where either was written in an
        imperial unit, within `IMPERIAL_TOLERANCE` of each other ("5lb" and "2.27kg")."""
        if self.amount == other.amount:
            return True
        if not (self.imperial or other.imperial):
            return False
        return abs(self.amount - other.amount) <= IMPERIAL_TOLERANCE * max(self.amount, other.amount)


def _measured(number: str, unit: str) -> Quantity:
    unit = unit.lower()
    amount = Decimal(number.replace(",", "")) * UNITS[unit].factor
    counter = unit if unit in PIECE_COUNTERS else None
    text = number + _UNIT_DISPLAY.get(unit, unit)
    return Quantity(UNITS[unit].dimension, amount, text, counter, unit in CONTAINERS, UNITS[unit].imperial)


def _multiplied(quantity: Quantity, times: str) -> tuple[Quantity, ...]:
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
        return (Quantity("pack", quantity.amount * total, quantity.text + written),)
    return quantity, Quantity("pack", total, written)


_PACK_UNIT = "|".join(_unit_pattern(unit) for unit in sorted(PACK_UNITS, key=len, reverse=True))
#: Packs of packs: "12개 x 2박스", "4입 x 5팩" and "1갑(12개입) x 10갑" sell 24, 20 and 120 units.
_PACKS_OF_PACKS = re.compile(
    rf"(?<![\d.])(?P<each>\d+)\s?(?:{_PACK_UNIT})\)?\s?[x×*]\s?(?P<packs>\d+)\s?(?:{_PACK_UNIT})", re.IGNORECASE
)
#: Coupang's option written after commas, each pack's count then the packs ("20g, 5개입, 2개" is ten bags); not a
#: list of counts to pick from ("5개입, 10개입, 20개입 택1") nor a count given with it ("100개입, 20개입 증정": a
#: reviewer's).
_OPTION_PACKS = re.compile(
    r"(?<![\d.])(?P<each>\d+)\s?개입\s?,\s?(?P<packs>\d+)\s?(?P<unit>개|박스|box|팩|봉지|봉|병|캔)(?![가-힣a-z])"
    r"(?![^,()\[\]]*(?:증정|택|선택|중\s?1))",
    re.IGNORECASE,
)


_COUNTED_UNIT = "|".join(unit for unit, found in UNITS.items() if found.dimension in ("sheets", "tablets", "rolls"))
#: Sheets, tablets or rolls in each pack, then the packs: "1매입 100EA", "1매입 x 100개", "5매입 x 10팩" and
#: "10매입 x 2" sell 100, 100, 50 and 20.
_COUNTED_PER_PACK = re.compile(
    rf"(?<![\d.])(?P<each>\d+)\s?(?P<unit>{_COUNTED_UNIT})입\s?"
    rf"(?:(?:[x×*]\s?)?(?P<packs>\d+)\s?(?:{_PACK_UNIT})|[x×*]\s?(?P<times>\d+){_BARE})",
    re.IGNORECASE,
)


def _counted_in_packs(match: re.Match[str]) -> tuple[Quantity, ...]:
    """The total; with a bare multiplier ("100매입 x 10") also each pack's count and the packs, since a keyword may
    ask either way ("필름 20매" for "10매입 x 2", "물티슈 100매 10팩" for "100매입 x 10": a reviewer's). With the
    packs' unit written ("1매입 x 100개", "5매입 x 10팩") only the total: read as a pack count too, the hundred
    single masks changed how the cluster prices the other offers per unit."""
    unit = UNITS[match["unit"].lower()]
    each = int(match["each"])
    if match["packs"]:
        return (Quantity(unit.dimension, Decimal(each * int(match["packs"])), match.group()),)
    times = int(match["times"])
    return (
        Quantity(unit.dimension, Decimal(each), f"{each}{match['unit']}"),
        Quantity("pack", Decimal(times), f"x{times}"),
        Quantity(unit.dimension, Decimal(each * times), match.group()),
    )


def _option_packs(match: re.Match[str]) -> tuple[Quantity, ...]:
    """Each pack's count, the packs and the total of Coupang's option ("5개입, 2개": 5, 2 and 10), since a keyword may
    ask either way ("진라면 5개입 2개", "김 10봉"); each pack's count first, as the title wrote it before."""
    each, packs = int(match["each"]), int(match["packs"])
    return (
        Quantity("pack", Decimal(each), f"{each}개입"),
        Quantity("pack", Decimal(each * packs), f"{each}개입 x {packs}{match['unit']}"),
        Quantity("pack", Decimal(packs), f"{packs}{match['unit']}"),
    )


def _unbracketed(text: str) -> str:
    """A quantity's text without the bracket a reading spanned ("12개입) x 10갑" reads "12개입 x 10갑")."""
    return text.replace(")", "")


#: Words that make a count an order's minimum or a condition: 최소 (주문/구매) before it, 이상 (or more) or 구매시 (when
#: buying: "1개 (2통 구매시 쉐이커 증정)") after it.
_MINIMUM_BEFORE = re.compile(r"최소\s?(?:주문|구매)?\s?(?:수량)?\s?:?\s?$")
_MINIMUM_AFTER = re.compile(r"\s?(?:이상|구매\s?시)")


def a_minimum_or_condition(text: str, start: int, end: int) -> bool:
    """Whether the count a text writes from `start` to `end` is an order's minimum or a condition ("최소주문 12개",
    "10캔 이상", "100스틱 구매시"), not the count the price buys."""
    return bool(_MINIMUM_BEFORE.search(text, 0, start) or _MINIMUM_AFTER.match(text, end))


@lru_cache(maxsize=4096)
def quantities(text: str) -> tuple[Quantity, ...]:
    """Every quantity a folded text states, in order, pack counts written as multipliers ("x 24", "1+1") included.
    Kept per text: several rules read one title's quantities (`unit_conflict`, `uncounted`, the cluster's pack counts),
    and the result is immutable."""
    packs_of_packs = list(_PACKS_OF_PACKS.finditer(text))
    found: list[tuple[int, Quantity]] = [
        (
            match.start(),
            Quantity("pack", Decimal(int(match["each"]) * int(match["packs"])), _unbracketed(match.group())),
        )
        for match in packs_of_packs
    ]
    per_pack = list(_COUNTED_PER_PACK.finditer(text))
    found.extend((match.start(), quantity) for match in per_pack for quantity in _counted_in_packs(match))
    options = list(_OPTION_PACKS.finditer(text))
    found.extend((match.start(), quantity) for match in options for quantity in _option_packs(match))
    read_whole = packs_of_packs + per_pack + options
    for match in STATED.finditer(text):
        if any(outer.start() <= match.start() < outer.end() for outer in read_whole):
            continue
        counts = not match["unit"] or UNITS[match["unit"].lower()].dimension == "pack"
        if counts and a_minimum_or_condition(text, match.start(), match.end()):
            continue  # an order's minimum ("최소주문 12개", "10캔 이상 주문가능") is not the count the price buys
        if match["unit"]:
            found.extend(
                (match.start(), quantity)
                for quantity in _multiplied(_measured(match["number"], match["unit"]), match["times"])
            )
        elif match["alone"]:
            found.append((match.start(), Quantity("pack", Decimal(match["alone"]), f"x{match['alone']}")))
        else:  # 1+1 is two units for the price, 2+1 three
            terms = match["bonus"].split("+")
            found.append((match.start(), Quantity("pack", Decimal(sum(int(term) for term in terms)), match["bonus"])))
    # 낱 ("single") before a counter and a price, a sale or a 1, or ending the title, is a pack of one ("낱캔 가격",
    # "낱개 1알", "… 검정 낱개"); not "낱개 포장" (each unit wrapped) nor "낱개로 발송" (shipped loose). A double or a
    # triple pack is two or three ("370ml 더블팩").
    found.extend((match.start(), Quantity("pack", Decimal(1), match.group())) for match in _SINGLE.finditer(text))
    found.extend(
        (match.start(), Quantity("pack", Decimal(_PACKED_TIMES[match["times"]]), match.group()))
        for match in _PACKED.finditer(text)
    )
    return tuple(quantity for _, quantity in sorted(found, key=lambda item: item[0]))


#: A single, as sellers write it: 낱개, 낱캔, 낱병 …
_A_SINGLE = r"낱\s?(?:개|캔|병|봉|팩)"
#: One taken out of a pack, counted as one ("낱개 1롤 (6롤 묶음 해체)"); not "낱개 판매 불가" (a reviewer's).
_ONE_TAKEN_OUT = re.compile(rf"{_A_SINGLE}\s?1\s?[가-힣a-z]")
_SINGLE = re.compile(rf"{_A_SINGLE}(?:(?=\s?(?:가격|판매|단위|구매|1\s?(?:개|알|봉|캔|병|롤)))|{ENDS_THE_TITLE})")
_PACKED_TIMES = {"더블": 2, "듀오": 2, "트윈": 2, "트리플": 3}
_PACKED = re.compile(r"(?P<times>더블|듀오|트윈|트리플)\s?팩")

#: A number multiplied or added, or followed by a counter the unit rule does not read ("10P", "10pcs", "100T", "20PET",
#: "10포", "30구", "30알", "2통세트"): the title may count the units it sells.
_MULTIPLIED = re.compile(
    r"[x×*+]\s?\d|\d\s?[x×*+](?!\w)|\d\s?(?:pcs|p|cans?|t|pet|통|포|구|알)(?![a-z])", re.IGNORECASE
)


#: A volume and a weight of one product agree within its density: what shops sell by the ml or the gram (drinks,
#: oils, washes, creams, litter) weighs 0.25 to 4 grams a millilitre. A title that weighs a volume item outside that
#: (a 140g bar of a 946ml liquid soap) sells another form or size of it. Only up to `_CONSUMABLE_VOLUME`: a volume
#: of tens of litres is a container's or a bag's (an ice box of 45L weighing 4.6kg), or a light bulk good's (perlite).
_DENSITIES = (Decimal("0.25"), Decimal(4))
_CONSUMABLE_VOLUME = Decimal(5000)  # ml
_VOLUME_OR_WEIGHT = {"volume": "weight", "weight": "volume"}


def listed_sizes(text: str) -> tuple[Quantity, ...]:
    """The quantities a list of sizes names ("400g / 2kg", "6kg~9kg"), a unit written once after the last being every
    bare number's before it ("20/24/28인치": 20, 24 and 28 inches; "5~8kg": 5 and 8 kg), but a fraction of an inch
    ("1/2인치": a reviewer's)."""
    if any(int(numerator) < int(denominator) for numerator, denominator in _INCH_FRACTION.findall(text)):
        return quantities(text)
    return quantities(_UNIT_WRITTEN_ONCE.sub(lambda match: match.group(1) + match["unit"], text))


def _other_measure(stated: tuple[Quantity, ...], want: Quantity) -> str | None:
    """The weights a title states for a volume the keyword asks (or the reverse) that no density reconciles."""
    other = _VOLUME_OR_WEIGHT.get(want.dimension)
    measured = [quantity for quantity in stated if quantity.dimension == other]
    volumes = [quantity.amount for quantity in (want, *measured) if quantity.dimension == "volume"]
    if any(volume > _CONSUMABLE_VOLUME for volume in volumes):
        return None
    low, high = _DENSITIES
    for quantity in measured:
        grams, millilitres = (quantity.amount, want.amount) if other == "weight" else (want.amount, quantity.amount)
        if millilitres and low <= grams / millilitres <= high:
            return None
    return ", ".join(dict.fromkeys(quantity.text for quantity in measured)) if measured else None


#: A screen's diagonal written in centimetres, as Korean makers label a size ("138cm" for a 55-inch TV, "68cm" for a
#: 27-inch monitor: the visible area, a little under inches times 2.54).
_CENTIMETRES = re.compile(r"(?<![\d.])(\d{2,3}(?:\.\d)?)\s?cm(?![a-z])")
_CM_PER_INCH = Decimal("2.54")
#: How far, in inches, a label in centimetres may stray from the inches it stands for.
_INCH_SLACK = Decimal("1.5")


def _other_diagonal(title: str, want: Quantity) -> str | None:
    """The centimetres a title gives for a screen's size the keyword asks in inches, when none of them is that size
    ("125cm" is a 50-inch set, not a 55-inch one); None when one is, or the title gives none."""
    if want.dimension != "size":
        return None
    given = _CENTIMETRES.findall(title.lower())
    if not given or any(abs(Decimal(cm) / _CM_PER_INCH - want.amount) <= _INCH_SLACK for cm in given):
        return None
    return ", ".join(f"{cm}cm" for cm in dict.fromkeys(given))


def unit_conflict(title: str, wanted: tuple[Quantity, ...], nouns: tuple[str, ...] = ()) -> str | None:
    """A keyword's quantity must appear in the folded title whenever the title states that dimension at all.

    "Appear among" rather than "equal" because titles often state a dimension twice ("12GB 256GB": memory and
    storage; "100매 10팩"), and a title silent about a dimension proves nothing either way, except the count (a
    title that measures one item and counts none sells one), a weight for a volume or the reverse (one no
    density reconciles is another form: `_DENSITIES`), and a screen's size in centimetres for inches ("125cm" is no
    55-inch set: `_other_diagonal`). `nouns`: the keyword's Hangul words, which a title may count in
    (`_counts_otherwise`).
    """
    if not wanted:
        return None
    stated = quantities(title)
    single = _ONE_TAKEN_OUT.search(title)
    for want in wanted:
        if single and want.dimension in _SOLD_BY_THE_PIECE and want.amount > 1:
            # One taken out of a pack ("낱개 1롤 (6롤 묶음 해체)"): whatever else the title counts is that pack.
            return f"{want.dimension} {single.group()} ≠ {want.text}"
        same = [quantity for quantity in stated if quantity.dimension == want.dimension]
        if want.counter and (counted_alike := [quantity for quantity in same if quantity.counter == want.counter]):
            # Counted with the keyword's own counter, that count is the product's: "치킨 1마리 + 치킨무 2개" is one
            # chicken, whatever its side dish counts.
            same = counted_alike
        elif want.contained and (packs := [quantity for quantity in same if quantity.counter is None]):
            # Pieces counted beside containers are what a container holds: "고등어 1팩 (2마리)" is one pack for 2팩;
            # not beside a count of pieces ("볼펜 1갑 (12자루)" is the 12개 asked: a reviewer's).
            same = packs
        if (
            same
            and not any(quantity.same_amount(want) for quantity in same)
            and not _adds_up_in_all(title, want, wanted)
        ):
            texts = ", ".join(dict.fromkeys(quantity.text for quantity in same))
            return f"{want.dimension} {texts} ≠ {want.text}"
        if not same and (weighed := _other_measure(stated, want)):
            return f"{weighed} for {want.text}: another form or size"
        if not same and (diagonal := _other_diagonal(title, want)):
            return f"{diagonal} for {want.text}: another size"
        if not same and stated and _asks_several(want) and not _counts_otherwise(title, stated, want, nouns, wanted):
            # A title that measures its item ("50ml") and counts nothing sells one: its price is not the price of the
            # several the keyword asks for.
            return f"pack: one, not {want.text}"
    return None


#: Measures joined by "+" ("50ml + 20ml", "60ml+60ml+60ml", "1,500ml+500ml"), and each of their terms.
_ONE_MEASURE = rf"(?:{_AMOUNT_WRITTEN})\s?(?:{_UNIT})(?![a-z])"
_SUM = re.compile(rf"(?<![\d.,]){_ONE_MEASURE}(?:\s*\+\s*{_ONE_MEASURE})+", re.IGNORECASE)
_TERM = re.compile(rf"{_MEASURE}(?![a-z])", re.IGNORECASE)
#: A measure added after a "+" that no sum reads: a gift or another size ("50ml(+20ml 증정)", "50ml 본품+10ml").
_ADDED_MEASURE = re.compile(rf"\+\s*{_ONE_MEASURE}", re.IGNORECASE)
#: The keyword's number of sets ("50ml+20ml 2세트", "[2세트]", "2set").
_SETS = r"(?<![\d.]){}\s?(?:세트|set)(?![a-z])"


def _sum_counts(match: re.Match[str], want: Quantity, wanted: tuple[Quantity, ...]) -> int:
    """How many of the asked item a sum of measures holds: its terms equal to the keyword's measure of their
    dimension (a size beside it is a gift's or a set's), or, where the keyword measures none, its terms all."""
    terms = [_measured(term["number"], term["unit"]) for term in _TERM.finditer(match.group())]
    asked = [quantity for quantity in wanted if quantity.dimension == terms[0].dimension and quantity is not want]
    if asked:
        return sum(any(term.same_amount(quantity) for quantity in asked) for term in terms)
    return len(terms)


def _counts_otherwise(
    title: str, stated: tuple[Quantity, ...], want: Quantity, nouns: tuple[str, ...], wanted: tuple[Quantity, ...]
) -> bool:
    """Whether a title that states no pack count counts what it sells all the same: a multiplication or a counter the
    unit rule does not read ("x 100T", "1.05kg+1.05kg", "2통세트"), the keyword's number of tablets, sheets or rolls
    ("세제 60정" for 60개), or a number glued to a counter of one syllable nobody listed ("3판" of pizza) or to one of
    the keyword's nouns ("100티백" for "티백 100개"; not any noun: "2024년식" counts no tyres, a reviewer's). A sum of
    measures counts as many as it holds of the keyword's size (`_sum_counts`, of `wanted`, the keyword's quantities);
    a measure added alone counts nothing; sets of the asked count count ("50ml+20ml 2세트")."""
    if re.search(_SETS.format(int(want.amount)), title, re.IGNORECASE):
        return True
    if any(_sum_counts(match, want, wanted) == want.amount for match in _SUM.finditer(title)):
        return True
    rest = _ADDED_MEASURE.sub(" ", _SUM.sub(" ", title))
    if _MULTIPLIED.search(rest) or _counted(stated, want):
        return True
    if _ONE_SYLLABLE_COUNTER.search(title):
        return True
    glued = _glued_to(nouns)
    return glued is not None and glued.search(title) is not None


@lru_cache(maxsize=256)
def _glued_to(nouns: tuple[str, ...]) -> re.Pattern[str] | None:
    """A number glued to one of a keyword's nouns, compiled once per keyword; None: the keyword has none."""
    return re.compile(rf"\d(?:{'|'.join(map(re.escape, nouns))})") if nouns else None


#: A number glued to one syllable that ends the word: a counter ("3판", "5단"), not a word ("2024년식", "1세대"), nor
#: a unit the rule reads ("40정" counts 40 tablets, not the 60개 asked).
_ONE_SYLLABLE_COUNTER = re.compile(
    rf"\d(?![{''.join(unit for unit in UNITS if len(unit) == 1 and not unit.isascii())}])[가-힣](?![가-힣])"
)


#: What a single (낱개) is one of: a pack's units or a roll; not sheets or tablets ("낱개 포장" wraps each of them).
_SOLD_BY_THE_PIECE = frozenset({"pack", "rolls"})
#: What a title counts one by one besides packs: "식기세척기 세제 60정" counts the 60 tablets a keyword's 60개 asks.
_COUNTED_ONE_BY_ONE = frozenset({"tablets", "sheets", "rolls"})


def _counted(stated: tuple[Quantity, ...], want: Quantity) -> bool:
    """Whether a title that counts no packs counts the keyword's number of pieces in tablets, sheets or rolls."""
    return any(quantity.dimension in _COUNTED_ONE_BY_ONE and quantity.amount == want.amount for quantity in stated)


#: What a title's packs add up to where the keyword counts no packs: a weight ("아몬드 200g x 2봉" is 400g) and rolls
#: ("테이프 크리너 리필 3롤 x 2팩" is 6롤), which are used one by one whatever they are packed in. Not volumes: a
#: drink's size is each can's or bottle's ("250ml x 2" is no 500ml bottle); nor tablets or sheets, whose count names
#: the bottle or the pack sold ("멀티비타민 50정 x 2개" is no 100정 bottle, "미용티슈 250매 x 2개" no 500매 box).
_ADDED_UP = frozenset({"weight", "rolls"})
#: An amount and the count of packs written right after it, after a multiplication sign or a comma, or with a pack's
#: unit ("200g x 2봉", "200g, 2개", "(30롤x2)", "3롤 2팩", "200g (2봉)", "200g 총 2봉"): not a count further on,
#: which may be a gift's or one of a list of options ("30롤 + 물티슈 2팩 증정", "30롤 x 1팩 2팩 3팩 선택"), nor a
#: bare number after it, a ply or a sale ("15롤 3겹", "200g 2+1"), nor a count of kinds or plies ("200g, 2종 택1",
#: "30롤 x 2겹"): reviewers'.
_AMOUNT_IN_PACKS = re.compile(
    rf"{_MEASURE}(?:\s?[,x×*]\s?(?P<packs>\d+)(?:\s?(?:{_PACK_UNIT}))?"
    rf"|\s?(?:[(\[]\s?|총\s?)?(?P<counted>\d+)\s?(?:{_PACK_UNIT}))"
    rf"(?![\d.,+]|\s?(?:{_UNIT})|\s?(?:종|가지|겹|색|ply)(?![가-힣a-z]))",
    re.IGNORECASE,
)


def _adds_up_in_all(title: str, want: Quantity, wanted: tuple[Quantity, ...]) -> bool:
    """Whether a title's packs hold the keyword's amount together (`_ADDED_UP`), written as an amount and the count of
    packs right after it (`_AMOUNT_IN_PACKS`), where the keyword counts no packs."""
    if want.dimension not in _ADDED_UP or any(quantity.dimension == "pack" for quantity in wanted):
        return False
    for packed in _AMOUNT_IN_PACKS.finditer(title):
        each = _measured(packed["number"], packed["unit"])
        packs = int(packed["packs"] or packed["counted"])
        if each.dimension == want.dimension and each.amount * packs == want.amount:
            return True
    return False


def _asks_several(want: Quantity) -> bool:
    return want.dimension == "pack" and want.amount > 1


def uncounted(title: str, wanted: tuple[Quantity, ...], nouns: tuple[str, ...] = ()) -> str | None:
    """A folded title that states no quantity at all, for a keyword that asks for several: it describes the product
    and may sell one ("모나미 153 볼펜 0.7 검정" is no dozen, one tyre no set of four). Judged after the title's words,
    which say more when they differ; `nouns` as in `unit_conflict`."""
    several = next((want for want in wanted if _asks_several(want)), None)
    if several is None or (stated := quantities(title)) or _counts_otherwise(title, stated, several, nouns, wanted):
        return None
    return f"pack: none counted, not {several.text}"


def first_stated(title: str, dimension: str) -> Quantity | None:
    """The first quantity of a dimension a folded title states: a range price's cheapest option lists it first."""
    return next((quantity for quantity in quantities(title) if quantity.dimension == dimension), None)


#: A device's memory and storage written as one sum, glued, before the storage's unit ("8+256GB", "16+1TB").
_MEMORY_AND_STORAGE = re.compile(
    r"(?<![\w.+])(?P<memory>\d{1,2})\+(?P<storage>\d{1,4})\s?(?P<unit>gb|tb)(?![a-z])", re.I
)


def memory_and_storage_written_out(title: str, wanted: tuple[Quantity, ...]) -> str:
    """A folded title with the keyword's memory and storage, written as one sum, written as its two sizes ("Redmi Pad
    Pro 8+256GB" is "8GB 256GB" for "… 8GB 256GB", the fifty-ninth reader's tablet). Only the very two capacities the
    keyword asks: "아이폰 16+256GB" is the 16 Plus for "아이폰 16 256GB", and "16+16GB" two modules (reviewers')."""
    asked = {quantity.amount for quantity in wanted if quantity.dimension == "capacity"}
    if len(asked) < 2:
        return title

    def written_out(found: re.Match[str]) -> str:
        memory, storage = Decimal(found["memory"]), Decimal(found["storage"])
        in_gigabytes = storage * (1024 if found["unit"].lower() == "tb" else 1)
        if memory != in_gigabytes and {memory, in_gigabytes} <= asked:
            return f"{found['memory']}GB {found['storage']}{found['unit']}"
        return found.group()

    return _MEMORY_AND_STORAGE.sub(written_out, title)
