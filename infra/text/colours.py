"""Colours a title writes as the product's option ("화이트", "빈카블루", "검정색", "black"): an option of the product a
keyword names, never another product, so what the matcher reads as the name stops where a colour starts; and one hue
however it is written: the loanword, the native word, the Sino-Korean word or the English one ("검정" is "블랙",
"흰색" is "화이트").

Only hues that name nothing else: not 크림 (a cream), 오렌지 (the fruit), 민트 or 와인 (flavours), 골드 (a line's
name: 골드키위), 브라운 (a name: 닥터브라운). A colour glued to more Hangul is another word (블루베리, 그린티).
"""

from __future__ import annotations

import re

from infra.text.sizes import LETTERS
from infra.text.spellings import spellings_lookup

#: Each hue's spellings, its loanword first: what a keyword's colour is found as in a title.
HUES: tuple[tuple[str, ...], ...] = (
    ("블랙", "검정색", "검정", "검은색", "흑색", "black", "bk"),
    ("화이트", "흰색", "하얀색", "백색", "white"),
    ("그레이", "회색", "gray", "grey"),
    ("실버", "은색", "silver"),
    ("블루", "파란색", "파랑", "청색", "blue"),
    ("네이비", "남색", "navy"),
    ("레드", "빨간색", "빨강", "적색", "red"),
    ("핑크", "분홍색", "분홍", "pink"),
    ("그린", "초록색", "초록", "녹색", "green"),
    ("옐로우", "옐로", "노란색", "노랑", "yellow"),
    ("퍼플", "보라색", "보라", "purple"),
    ("베이지", "beige"),
    ("아이보리", "ivory"),
    ("차콜", "charcoal"),
    ("카키", "khaki"),
    ("라벤더", "lavender"),
    ("버건디", "burgundy"),
)
#: Where a hue's word ends: nothing glued after it but what keeps it a colour, 색, 컬러, 계열 or 톤 ("블랙컬러"), a
#: particle ("블랙과 네이비") or a letter size ("화이트XL"). The 블루 of 블루투스, the 블랙 of 블랙야크 and the 핑크 of
#: 핑크퐁 are names, not colours.
HUE_END = rf"(?:(?=색|컬러|color|계열|톤|[과와](?![가-힣])|{LETTERS})|(?![가-힣a-z]))"
#: A hue's word, with the shade's name glued before it ("빈카블루", "스페이스그레이", "흰색", "검정색").
HUE = re.compile(
    "(?<![가-힣a-z])[가-힣]*(?:"
    + "|".join(sorted((spelling for hue in HUES for spelling in hue), key=len, reverse=True))
    + ")"
    + HUE_END
)
#: A colour word: a hue's (`HUE`), or any Hangul word for a colour ("갈색", "하늘색": what ends in 색).
COLOUR = re.compile(rf"{HUE.pattern}|(?<![가-힣])[가-힣]{{1,3}}색(?![가-힣])")


def is_a_colour(word: str) -> bool:
    """Whether a word is a colour (`COLOUR`), in lower case."""
    return COLOUR.fullmatch(word) is not None


#: Every way a hue is written, when the word is one of them, in lower case ("검정": 블랙, 검정색, black …);
#: () for a word that is no hue's whole name (a shade such as "빈카블루" is its own).
hue_spellings = spellings_lookup(HUES)
