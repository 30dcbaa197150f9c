"""The Korean edition of a product (a keyboard's layout, a game's, a toy's or a book's edition), as titles write it:
"한글" as 한국어, 국문 or Korean.

A closed set, one concept, like the hues of `infra.text.colours`: a keyword's 한글 names the Korean edition wherever a
title says so, in any of its spellings, unless the title names another language too ("영문 자판 (한국어 설명서)" is
the English layout with a Korean manual: a reviewer's). Only Korean: "영어" names a subject as often as an edition
("어린왕자로 영어 공부하기" is no 영문판).
"""

from __future__ import annotations

import re

#: The Korean edition's spellings, lower case, the keyword's usual word first.
KOREAN: tuple[str, ...] = ("한글", "한국어", "국문", "korean")
#: Another language a title names, which makes what it says of Korean a manual's or a subtitle's; a Hangul name
#: starts a word ("영문자판", "영어판"; not the 일어 of "일어나"), a Latin one stands alone.
OTHER_LANGUAGE = re.compile(
    r"(?<![가-힣])(?:영문|영어|일본어|중국어)|(?<![a-z])(?:english|us|japanese|chinese)(?![a-z])"
)


def language_spellings(word: str) -> tuple[str, ...]:
    """Every way the Korean edition is written, when the word is one of them ("한국어": 한글, 국문, korean); ()
    otherwise."""
    return KOREAN if word in KOREAN else ()
