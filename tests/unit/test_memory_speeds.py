"""A memory module's speed read alike whether a title writes its DDR name or its module name."""

from __future__ import annotations

import pytest

from infra.text.folding import fold
from infra.text.memory_speeds import written_with_its_transfer_rate


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("DDR5-5600", "DDR5 5600"),
        ("DDR4 3200", "DDR4 3200"),
        ("ddr43200", "ddr4 3200"),
        ("LPDDR5X-8533", "LPDDR5X 8533"),
        # the module name gives eight times the rate: PC5-44800 is DDR5-5600, PC4-25600 DDR4-3200
        ("삼성전자 DDR5 16GB PC5-44800", "삼성전자 DDR5 16GB PC5-44800 DDR5 5600"),
        ("PC4-25600 8GB", "PC4-25600 DDR4 3200 8GB"),
        # not a bandwidth no rate gives, nor another word's digits
        ("PC4-25601", "PC4-25601"),
        ("DDR5 16GB", "DDR5 16GB"),
        ("RTX 4060 GDDR6 8GB", "RTX 4060 GDDR6 8GB"),
    ],
)
def test_a_memorys_speed_is_written_as_its_generation_and_transfer_rate(text: str, written: str):
    assert written_with_its_transfer_rate(text) == written


def test_keywords_and_titles_are_folded_alike_so_either_name_finds_the_other():
    # three readers' keywords asked DDR5-5600 where the answer wrote only PC5-44800
    assert "DDR5 5600" in fold("SK하이닉스 DDR5 PC5-44800 16GB")
    assert "DDR5 5600" in fold("SK하이닉스 DDR5-5600 16GB")
