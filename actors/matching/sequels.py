"""A sequel: the name followed by a number, where the keyword writes none, is another volume, season or generation
of it ("불편한 편의점 2" beside "불편한 편의점", "… 스위치2 에디션" beside "… 스위치").

The first of a series is sold under the name alone or with a 1 ("불편한 편의점 1"), so a 1 is the asked product. A
number glued to a unit or a counter ("2개", "2kg") is a quantity, one joined to another ("1+2", "2 x 3") a set or a
count, and one of 20 or more a size or a code; a digit glued to a Latin letter is part of a name ("비타민D3"). A
number is read in every way sellers write one thing's number (2, 02, 2호, #2, 2세대, 2권, 2탄, 시즌2, 13인치), so
that sellers writing a shade's or a size's number one way vouch for those writing it another. Sellers of the asked
product write its name the same way, so the offers decide together (`actors.matching`): a number is another product
only where fewer of the other accepted offers write it than leave it out, and two or more write the name plain:
where every offer writes its own number after the name (a shade's, a rank's), none is another's sequel.
"""

from __future__ import annotations

import re

from actors.matching.identity import Word

#: How sellers may lead into a thing's number ("시즌2", "#2", "No.2", "02").
_LEAD = r"\s?(?:시즌\s?|#\s?|no\.?\s?)?0?"
#: A number of 2 to 19 right after a word (a space between or none), in any way sellers write a thing's number ("2",
#: "02", "2호", "#2", "2세대", "2권", "2탄", "시즌2", "13인치"), standing alone: not glued to a unit or another
#: counter ("2개", "2.5", "2-3"), nor joined to one by a sign ("2 + 1", "2 x 3").
_NUMBER_AFTER = re.compile(rf"{_LEAD}(?P<number>[2-9]|1\d)(?:세대|권|탄|호|인치)?(?=\s|$|[)\](\[:,])(?!\s[+x×*~])")
#: Any number written right after a word, with whatever follows it ("12 색", "12색", "2개"): what an offer vouches
#: for when another offer's number is judged.
_ANY_NUMBER_AFTER = re.compile(rf"{_LEAD}(?P<number>[1-9]\d*)")
_LATIN_END = re.compile(r"[a-z]$")
#: What an offer of the first of a series writes after its name, if anything: the name alone or with a 1.
_FIRST = frozenset({"1"})


def names_a_number(keyword: str) -> bool:
    """Whether the keyword writes a number: then the model's rules judge the numbers after its name (`identity`)."""
    return any(char.isdigit() for char in keyword)


def sequel_number(title: str, words: tuple[Word, ...]) -> str | None:
    """The number a (lower-case, respelled) title writes right after a word of the keyword, None when it writes none.
    After a Latin letter, only spaced ("비타민D3" is the vitamin's name)."""
    for word in words:
        for found in word.pattern.finditer(title):
            number = _NUMBER_AFTER.match(title, found.end())
            if number and not (_LATIN_END.search(found.group()) and not title[found.end() : found.end() + 1].isspace()):
                return number["number"]
    return None


def numbers_after(title: str, words: tuple[Word, ...]) -> frozenset[str]:
    """Every number a (lower-case, respelled) title writes right after a word of the keyword, however it is written
    and whatever follows it: an offer writing "12색" writes the 12 of another's "12 색"."""
    return frozenset(
        number["number"]
        for word in words
        for found in word.pattern.finditer(title)
        if (number := _ANY_NUMBER_AFTER.match(title, found.end()))
    )


def writes_the_name_plain(numbers: frozenset[str]) -> bool:
    """Whether an offer that writes these numbers after the name (`numbers_after`) sells the first of the series:
    the name alone or with a 1."""
    return numbers <= _FIRST
