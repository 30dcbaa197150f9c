"""Units a quantity is written with (256GB, 1L, 30개입): what the matcher's quantities compare, and what the word
splitter (infra.text.words) glues to a number ("2매" is a count, not a model's number)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True, slots=True)
class Unit:
    dimension: str  # also the reason's label
    factor: Decimal  # base units in one of this unit, so 1TB and 1024GB compare equal
    #: An imperial unit, which sellers convert rounded ("5lb" is written "2.27kg" or "2.3kg"): an amount in it is
    #: compared within `IMPERIAL_TOLERANCE`.
    imperial: bool = False


#: How far apart (a share of the larger) an amount written in an imperial unit and its metric equivalent may be:
#: sellers round the metric one to two or three figures (5 lb is 2.268 kg: "2.27kg", "2.3kg"; not "2.2kg").
IMPERIAL_TOLERANCE = Decimal("0.02")


# 24캔, 24can, 24개, 24입 and 24펫 (PET bottles) state the same thing. Sheets, tablets and rolls are counted apart so
# that "물티슈 100매 10팩" or "60정 3개" do not mix two counts into one.
PACK_UNITS = (
    "개입", "개", "입", "캔", "cans", "can", "병", "페트", "펫", "팩", "봉지", "봉", "갑", "박스", "box", "ea",
    "packs", "pack", "pk",
)  # fmt: skip
#: Units that count containers, which hold pieces a title may count beside them ("1팩 (2마리)", "1갑 (12개입)").
CONTAINERS = frozenset({"팩", "봉지", "봉", "갑", "박스", "box", "pack", "packs", "pk"})
#: Korean counters of single pieces: 12자루 (pens), 2마리, 12본, 100통 (garlic bulbs) count what 12개 counts. Not 구,
#: which counts a multi-tap's outlets, a toaster's slots and a tray's cells as often as eggs and balls ("2구 토스터").
#: Not packs: "24본 x 2박스" is no pack of packs.
PIECE_COUNTERS = ("자루", "마리", "본", "통")
#: Counters of pairs (earplugs, gloves, socks): not compared as a count, since a kids' pack of socks counted so won
#: for the adults' one, which its missing count word refused; a keyword's count of pairs is found as packs of pairs
#: only as written ("100쌍 x 2박스" is 200쌍; `identity._count_in_packs`). Only 쌍 is among `COUNTERS` (a number
#: before it is a count, not a model's number); 켤레 and 족 were left as the splitter reads them.
PAIR_COUNTERS = ("쌍", "켤레", "족")
#: Counters that name a fixed number of pieces, as Korean trade counts them: a dozen (다스, 더즌, 다즌) is 12, a 접
#: (garlic bulbs, dried persimmons, cabbages) 100. Not 판 (a tray of eggs holds 30, 20 or 15, a pizza is one) nor 타
#: (also "1타 강사", the top lecturer).
COLLECTIVE_COUNTERS = {"다스": 12, "더즌": 12, "다즌": 12, "dozen": 12, "접": 100}
UNITS: dict[str, Unit] = {
    **dict.fromkeys(("tb", "테라"), Unit("capacity", Decimal(1024))),
    **dict.fromkeys(("gb", "기가"), Unit("capacity", Decimal(1))),
    **dict.fromkeys(("l", "리터"), Unit("volume", Decimal(1000))),
    **dict.fromkeys(("ml", "cc"), Unit("volume", Decimal(1))),
    **dict.fromkeys(("kg", "킬로", "키로"), Unit("weight", Decimal(1000))),
    **dict.fromkeys(("g", "그램"), Unit("weight", Decimal(1))),
    "mg": Unit("weight", Decimal("0.001")),
    # Not oz, which weighs a powder and measures a drink alike.
    **dict.fromkeys(("lb", "lbs", "파운드"), Unit("weight", Decimal("453.59237"), imperial=True)),
    **dict.fromkeys(PACK_UNITS + PIECE_COUNTERS, Unit("pack", Decimal(1))),
    **{counter: Unit("pack", Decimal(pieces)) for counter, pieces in COLLECTIVE_COUNTERS.items()},
    **dict.fromkeys(("매", "장"), Unit("sheets", Decimal(1))),
    **dict.fromkeys(("정", "캡슐", "소프트젤", "softgels", "softgel"), Unit("tablets", Decimal(1))),
    "롤": Unit("rolls", Decimal(1)),
    **dict.fromkeys(("인치", "inch"), Unit("size", Decimal(1))),
    "w": Unit("power", Decimal(1)),
    "mah": Unit("battery", Decimal(1)),
}
#: Units written in Hangul, counters among them: a number glued before one is a count ("2매"), not a model's number.
COUNTERS = frozenset(unit for unit in UNITS if not unit.isascii()) | {"쌍", "세트", "구", "인분"}
#: Units written in Latin letters: a letter suffix glued to a number that is one of these is a quantity, not a
#: model's variant ("256gb", not "s25fe").
LATIN_UNITS = frozenset(unit for unit in UNITS if unit.isascii())
#: Every measure's symbol a number may carry, compared or not (lengths, data, frequency, imperial weights, charge):
#: glued to a model's number, a measure ("0.5mm"), not a variant. Not the one-letter m and v, which are also a model's
#: mark and version ("S5M2", "K2V2").
MEASURE_SYMBOLS = LATIN_UNITS | {
    "mm", "cm", "km", "kb", "mb", "hz", "khz", "mhz", "ghz", "oz", "lb", "lbs", "ah", "wh", "kwh",
}  # fmt: skip
