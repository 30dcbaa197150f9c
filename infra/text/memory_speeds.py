"""A memory module's speed, as titles write it: "DDR5-5600", "DDR5 5600", or by its module name, "PC5-44800".

The module name gives the bandwidth in MB/s of a 64-bit module, eight times the transfer rate the DDR name gives
(PC5-44800 is DDR5-5600, PC4-25600 DDR4-3200; JEDEC rounds the rates of thirds, PC4-21300 is DDR4-2666): three
readers' keywords asked "DDR5 5600" or "DDR5-5600" where the right answer wrote only "PC5-44800". Each is written as
one word, the DDR name dashed ("DDR5-5600"), for keywords and titles alike: either spelling finds the other, the
generation and the rate stay one word (a title's "DDR5-4800 … 5600원" names no DDR5-5600), and a pick's alternatives
keep their shape ("DDR4-2666/DDR4-3200 택1").
"""

from __future__ import annotations

import re

#: A DDR generation with its transfer rate, dashed, spaced or glued ("DDR5-5600", "DDR4 3200", "ddr43200"), its unit
#: perhaps after it ("DDR4 3200MHz").
_DDR_RATE = re.compile(
    r"(?<![0-9a-z가-힣])(?P<name>(?:lp)?ddr(?P<generation>[3-5])x?)[\s-]?(?P<rate>\d{3,4})(?![0-9]|(?!mhz|mt)[a-z])",
    re.IGNORECASE,
)
#: A module name: PC, the generation, then the bandwidth ("PC5-44800", "PC4 25600"); not a label's rate with its
#: grade after it ("PC4-3200AA", "PC5-4800B"), nor a word ending in PC ("조립PC5").
_MODULE_NAME = re.compile(
    r"(?<![0-9a-z가-힣])pc(?P<generation>[3-5])[\s-]?(?P<bandwidth>\d{4,5})(?![0-9a-z])", re.IGNORECASE
)
#: A 64-bit module moves eight bytes a transfer.
_BYTES_A_TRANSFER = 8
#: JEDEC's rates are multiples of 133⅓ MT/s, written without the fraction (2666, 2933).
_RATE_STEP = 400 / 3
#: The rates each generation is made at: a number outside them is no speed of it (a "PC4-3200" label's rate).
_RATES = {"3": range(800, 2401), "4": range(1600, 4801), "5": range(3200, 9601)}


def written_as_one_word(text: str) -> str:
    """The text with each memory speed written as its DDR name, dashed ("DDR5 5600" and "PC5-44800" as "DDR5-5600")."""
    text = _DDR_RATE.sub(_the_ddr_name, text)
    return _MODULE_NAME.sub(_the_module_names_rate, text)


def _the_ddr_name(found: re.Match[str]) -> str:
    if int(found["rate"]) not in _RATES[found["generation"]]:
        return found.group()
    return f"{found['name']}-{found['rate']}"


def _the_module_names_rate(found: re.Match[str]) -> str:
    rate = int(round(int(found["bandwidth"]) / _BYTES_A_TRANSFER / _RATE_STEP) * _RATE_STEP)
    if rate not in _RATES[found["generation"]] or abs(rate * _BYTES_A_TRANSFER - int(found["bandwidth"])) > 100:
        return found.group()
    return f"DDR{found['generation']}-{rate}"
