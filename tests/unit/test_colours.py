"""A colour is read as the product's option wherever it is written, and nothing that names another thing is one."""

from __future__ import annotations

import pytest

from infra.text.colours import COLOUR, is_a_colour


@pytest.mark.parametrize(
    "word", ["화이트", "블랙", "빈카블루", "스페이스그레이", "검정색", "흰색", "black", "grey", "navy"]
)
def test_a_hue_however_written_is_a_colour(word: str):
    assert is_a_colour(word)


@pytest.mark.parametrize(
    "word",
    # a hue glued to more letters is another word; a cream, a fruit, a flavour and a line's name are no colours
    ["블루베리", "그린티", "blueberry", "redmi", "크림", "오렌지", "민트", "골드", "색상", "토마토"],
)
def test_a_word_that_names_another_thing_is_no_colour(word: str):
    assert not is_a_colour(word)


def test_the_first_colour_a_title_writes_is_found_where_it_starts():
    title = "다이슨 슈퍼소닉 뉴럴 헤어드라이어 빈카블루 hd16"
    found = COLOUR.search(title)
    assert found is not None
    assert (found.start(), found.group()) == (title.index("빈카블루"), "빈카블루")
