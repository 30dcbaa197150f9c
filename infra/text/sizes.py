"""Sizes as titles write them: the letter, its name in Hangul, the English word, the Korean words ("M", "미디엄",
"Medium", "중형", "중").

A closed set, one concept per size, like the hues of `infra.text.colours`: a keyword's "M" is a size wherever a title
writes it, in its spellings but the Korean words, which a title's other words hold too (`KOREAN_WORDS`).
"""

from __future__ import annotations

from infra.text.spellings import spellings_lookup

#: Each size's spellings, lower case, its letter first.
SIZES: tuple[tuple[str, ...], ...] = (
    ("xs", "엑스스몰", "extra small"),
    ("s", "스몰", "small", "소형", "소"),
    ("m", "미디엄", "미디움", "medium", "중형", "중"),
    ("l", "라지", "large", "대형", "대"),
    ("xl", "엑스라지", "extra large"),
)
#: The Korean words among them, which sellers glue into other words (소형견 is a small dog, 중자 a medium portion,
#: 대용량 a large volume) and write of other things alone (the 중 of "S/M/L 중 택1" is "among"): another keyword's
#: size finds them only as two syllables standing alone, never as one (a reviewer's).
KOREAN_WORDS = frozenset({"소형", "중형", "대형", "소", "중", "대"})
#: A letter size as a title glues it after a word ("블랙L", "화이트XL"), lower case.
LETTERS = r"(?:xs|s|m|l|xl|xxl|xxxl)(?![a-z])"


#: Every way a size is written, when the word is one of them ("m": 미디엄, medium, 중 …); () otherwise.
size_spellings = spellings_lookup(SIZES)
