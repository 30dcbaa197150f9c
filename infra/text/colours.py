"""Colours a title writes as the product's option ("화이트", "빈카블루", "검정색", "black"): an option of the product a
keyword names, never another product, so what the matcher reads as the name stops where a colour starts.

Only hues that name nothing else: not 크림 (a cream), 오렌지 (the fruit), 민트 or 와인 (flavours), 골드 (a line's
name: 골드키위). A colour glued to more Hangul is another word (블루베리, 그린티).
"""

from __future__ import annotations

import re

_HUES = (
    "블랙|화이트|그레이|실버|블루|네이비|레드|핑크|퍼플|그린|옐로우|옐로|베이지|브라운|아이보리|차콜|카키|"
    "라벤더|버건디|black|white|gr[ae]y|silver|blue|navy|red|pink|purple|green|yellow|beige|brown|ivory|charcoal|khaki"
)
#: A colour word: a hue, with what is glued before it ("빈카블루", "스페이스그레이"), or a Hangul word for a colour
#: ("검정색", "흰색": what ends in 색).
COLOUR = re.compile(rf"(?<![가-힣a-z])[가-힣a-z]*(?:{_HUES})(?![가-힣a-z])|(?<![가-힣])[가-힣]{{1,3}}색(?![가-힣])")


def is_a_colour(word: str) -> bool:
    """Whether a word is a colour (`COLOUR`), in lower case."""
    return COLOUR.fullmatch(word) is not None
