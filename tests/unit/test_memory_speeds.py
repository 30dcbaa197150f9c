"""A memory module's speed read alike whether a title writes its DDR name or its module name."""

from __future__ import annotations

import pytest

from infra.text.folding import fold
from infra.text.memory_speeds import written_as_one_word


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("DDR5-5600", "DDR5-5600"),
        ("DDR4 3200", "DDR4-3200"),
        ("ddr43200", "ddr4-3200"),
        ("DDR4 3200MHz", "DDR4-3200MHz"),
        ("LPDDR5X 8533", "LPDDR5X-8533"),
        # the module name gives eight times the rate: PC5-44800 is DDR5-5600, PC4-25600 DDR4-3200, and JEDEC rounds
        # the rates of thirds (a reviewer's)
        ("삼성전자 DDR5 16GB PC5-44800", "삼성전자 DDR5 16GB DDR5-5600"),
        ("PC4-25600 8GB", "DDR4-3200 8GB"),
        ("PC4-21300", "DDR4-2666"),
        ("PC3-10600", "DDR3-1333"),
        ("PC4-23400", "DDR4-2933"),
        # not a label's rate with its grade after it, a word ending in PC, a rate no generation is made at, nor
        # a graphics memory or a size
        ("PC4-3200AA", "PC4-3200AA"),
        ("PC5-4800B-SA0", "PC5-4800B-SA0"),
        ("조립PC5 1000W", "조립PC5 1000W"),
        ("PC4-3200", "PC4-3200"),
        ("RTX 4060 GDDR6 8GB", "RTX 4060 GDDR6 8GB"),
        ("DDR5 16GB", "DDR5 16GB"),
    ],
)
def test_a_memorys_speed_is_written_as_its_dashed_ddr_name(text: str, written: str):
    assert written_as_one_word(text) == written


def test_keywords_and_titles_are_folded_alike_so_either_name_finds_the_other():
    # three readers' keywords asked DDR5-5600 where the answer wrote only PC5-44800
    assert "DDR5-5600" in fold("SK하이닉스 DDR5 PC5-44800 16GB")
    assert "DDR5-5600" in fold("SK하이닉스 DDR5 5600 16GB")
