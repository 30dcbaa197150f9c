"""A sequel: the name followed by a bare number, where the keyword writes none, is another volume, season or
generation of it ("불편한 편의점 2" beside "불편한 편의점", "… 스위치2 에디션" beside "… 스위치").

The first of a series is sold under the name alone or with a 1 ("불편한 편의점 1"), so a 1 is the asked product. A
number glued to a unit or a counter ("2개", "2kg") is a quantity, one joined to another ("1+2", "2 x 3") a set or a
count, and a number of 20 or more a size (a shirt's 95) or a code. Sellers of the asked product write its name the
same way, so the offers decide together (`actors.matching`): a number is another product only where fewer of the
other accepted offers write it than leave it out.
"""

from __future__ import annotations

import re

from actors.matching.identity import Word

#: A bare number of 2 to 19 right after a word (a space between or none), standing alone: not glued to a unit, a
#: counter or another number ("2개", "2.5", "2-3"), nor joined to one by a sign ("2 + 1", "2 x 3").
_BARE_NUMBER = re.compile(r"\s?([2-9]|1\d)(?=\s|$|[)\]])(?!\s[+x×*~])")


def sequel_number(title: str, keyword: str, words: tuple[Word, ...]) -> str | None:
    """The bare number a (lower-case, respelled) title writes right after a word of the keyword, when the keyword
    writes no number; None when it writes none."""
    if any(char.isdigit() for char in keyword):
        return None
    for word in words:
        for found in word.pattern.finditer(title):
            if number := _BARE_NUMBER.match(title, found.end()):
                return number.group(1)
    return None
