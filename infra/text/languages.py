"""Which language a product is made in (a keyboard's layout, a game's or a book's edition), as titles write it:
"한글" as 한국어, 국문 or Korean.

A closed set, one concept per language, like the hues of `infra.text.colours`: a keyword's 한글 names the Korean
edition wherever a title says so, in any of its spellings, and another language is still another product.
"""

from __future__ import annotations

#: Each language's spellings, lower case, the keyword's usual word first.
LANGUAGES: tuple[tuple[str, ...], ...] = (
    ("한글", "한국어", "국문", "korean"),
    ("영문", "영어", "english"),
    ("일본어", "일어", "japanese"),
    ("중국어", "중문", "chinese"),
)
_SPELLINGS_OF = {spelling: language for language in LANGUAGES for spelling in language}


def language_spellings(word: str) -> tuple[str, ...]:
    """Every way a language is written, when the word is one of them ("한국어": 한글, 국문, korean …); () otherwise."""
    return _SPELLINGS_OF.get(word, ())
