"""The test tiers' folders (tests/tiers.py): tests/conftest.py refuses a test outside the folder `folder_of` names."""

from __future__ import annotations

import pytest

from tests.tiers import TIERS, folder_of


def test_each_tier_has_its_folder_and_the_processes_tiers_browser_tests_have_theirs():
    assert {tier: folder_of(tier, uses_browser=False) for tier in TIERS} == {
        "unit": "unit",
        "integration": "integration",
        "processes": "processes",
    }
    assert folder_of("processes", uses_browser=True) == "browser"
    with pytest.raises(ValueError, match="not in 'unit'"):
        folder_of("unit", uses_browser=True)  # the browser fixture puts a test in the processes tier
    with pytest.raises(ValueError, match="no such tier: 'slow'"):
        folder_of("slow", uses_browser=False)
