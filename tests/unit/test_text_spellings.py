"""The closed sets of concepts written several ways (pets, sexes, wireless, materials, connectors): any spelling
finds every spelling of its own concept, and nothing of another."""

from __future__ import annotations

from infra.text.connectors import connector_spellings
from infra.text.materials import material_spellings
from infra.text.pets import pet_spellings
from infra.text.sexes import sex_spellings
from infra.text.spellings import spellings_lookup
from infra.text.wireless import wireless_spellings


def test_any_spelling_finds_its_whole_concept_and_no_other():
    lookup = spellings_lookup([("강아지", "dog"), ("고양이", "cat")])

    assert lookup("dog") == lookup("강아지") == ("강아지", "dog")
    assert lookup("cat") == ("고양이", "cat")
    assert lookup("토끼") == ()


def test_each_closed_set_is_looked_up_by_any_of_its_spellings():
    assert "강아지" in pet_spellings("반려견")
    assert "고양이" not in pet_spellings("반려견")
    assert "남성" in sex_spellings("맨즈")
    assert "cordless" in wireless_spellings("무선")
    assert "스테인리스" in material_spellings("스텐")
    assert "알루미늄" not in material_spellings("스텐")
    assert "usbc" in connector_spellings("c타입")
    assert wireless_spellings("블루투스") == ()
