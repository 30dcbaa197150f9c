"""Which pet a product is for, as titles write it: "강아지" as 반려견, 애견 or Dog.

A closed set, one concept per animal, like the hues of `infra.text.colours` and the sexes of `infra.text.sexes`: a
keyword's 강아지 names the dog's product wherever a title says so, in any of its spellings, and another animal is
still another product ("고양이" for 강아지).
"""

from __future__ import annotations

from infra.text.spellings import spellings_lookup

#: Each animal's spellings, lower case, the keyword's usual word first.
#: Not the ages (성견, 노령묘, 자견): each Korean word names its animal too, so "어덜트" would find a cat's 성묘 for a
#: dog and "시니어" a dog's 노령견 for a person (a reviewer's); the loanwords find "adult", "senior", "puppy" and
#: "kitten" as 어덜트, 시니어, 퍼피 and 키튼 already.
PETS: tuple[tuple[str, ...], ...] = (
    ("강아지", "반려견", "애견", "독", "dog", "dogs"),
    ("고양이", "반려묘", "애묘", "캣", "cat", "cats"),
)
#: Every way an animal is written, when the word is one of them ("반려견": 강아지, 애견, dog …); () otherwise.
pet_spellings = spellings_lookup(PETS)
