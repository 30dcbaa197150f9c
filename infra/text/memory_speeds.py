"""A memory module's speed, as titles write it: "DDR5-5600", "DDR5 5600" or by its module name, "PC5-44800".

The module name gives the bandwidth in MB/s of a 64-bit module, eight times the transfer rate the DDR name gives
(PC5-44800 is DDR5-5600, PC4-25600 DDR4-3200): three readers' keywords asked "DDR5 5600" or "DDR5-5600" where the
right answer wrote only "PC5-44800". Both are written out as the generation and the rate apart ("ddr5 5600"), for
keywords and titles alike, so either finds the other; the module name stays beside it.
"""

from __future__ import annotations

import re

#: A DDR generation with its transfer rate, dashed, spaced or glued ("DDR5-5600", "DDR4 3200", "ddr43200").
_DDR_RATE = re.compile(r"(?<![a-z0-9])(?P<name>(?:lp)?ddr[2-5]x?)[\s-]?(?P<rate>\d{3,4})(?![0-9])", re.IGNORECASE)
#: A module name: PC, the generation, then the bandwidth ("PC5-44800", "PC4 25600").
_MODULE_NAME = re.compile(r"(?<![a-z0-9])pc(?P<generation>[2-5])[\s-]?(?P<bandwidth>\d{4,5})(?![0-9])", re.IGNORECASE)
#: A 64-bit module moves eight bytes a transfer.
_BYTES_A_TRANSFER = 8


def written_with_its_transfer_rate(text: str) -> str:
    """The text with each DDR name written as its generation and rate apart ("DDR5-5600" as "DDR5 5600") and each
    module name followed by that ("PC5-44800" as "PC5-44800 DDR5 5600")."""
    text = _DDR_RATE.sub(lambda found: f"{found['name']} {found['rate']}", text)
    return _MODULE_NAME.sub(_with_the_ddr_name, text)


def _with_the_ddr_name(found: re.Match[str]) -> str:
    bandwidth = int(found["bandwidth"])
    if bandwidth % _BYTES_A_TRANSFER:
        return found.group()
    return f"{found.group()} DDR{found['generation']} {bandwidth // _BYTES_A_TRANSFER}"
