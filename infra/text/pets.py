"""Which pet a product is for, and at what age, as titles write it: "강아지" as 반려견, 애견 or Dog; "어덜트" as 성묘,
성견 or Adult.

Two closed sets, one concept per animal and per age, like the hues of `infra.text.colours` and the sexes of
`infra.text.sexes`: a keyword's 강아지 names the dog's product wherever a title says so, in any of its spellings,
and another animal or age is still another product ("고양이" for 강아지, "퍼피" for 어덜트).
"""

from __future__ import annotations

#: Each animal's and each age's spellings, lower case, the keyword's usual word first.
PETS: tuple[tuple[str, ...], ...] = (
    ("강아지", "반려견", "애견", "독", "dog", "dogs"),
    ("고양이", "반려묘", "애묘", "캣", "cat", "cats"),
    ("어덜트", "성견", "성묘", "adult"),
    ("퍼피", "자견", "puppy"),
    ("키튼", "자묘", "kitten"),
    ("시니어", "노령견", "노령묘", "senior"),
)
_SPELLINGS_OF = {spelling: pet for pet in PETS for spelling in pet}


def pet_spellings(word: str) -> tuple[str, ...]:
    """Every way an animal or an age is written, when the word is one of them ("반려견": 강아지, 애견, dog …); ()
    otherwise."""
    return _SPELLINGS_OF.get(word, ())
