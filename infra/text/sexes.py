"""Whom a product is made for, by sex, as titles write it: "남성" as 남성용, 맨즈 or Men's.

A closed set, one concept per side, like the hues of `infra.text.colours` and the sizes of `infra.text.sizes`:
a keyword's 남성 names the men's product wherever a title says so, in any of its spellings. The other side's word is
still another product ("여성" for 남성).
"""

from __future__ import annotations

from infra.text.spellings import spellings_lookup

#: Each side's spellings, lower case, the keyword's usual word first.
#: Not 남자 and 여자, which titles write of the buyer's friend ("여자 친구 선물") and of children ("초등 남자 내의")
#: as often; not "woman", 우먼 and "lady" alone, which names hold ("Wonder Woman", "원더 우먼", "Lady M"): reviewers'.
SEXES: tuple[tuple[str, ...], ...] = (
    ("남성", "맨즈", "멘즈", "men", "mens", "men's", "male"),
    ("여성", "우먼즈", "우먼스", "레이디스", "women", "womens", "women's", "ladies"),
)
#: Every way one side is written, when the word is one of them ("맨즈": 남성, men …); () otherwise.
sex_spellings = spellings_lookup(SEXES)
