"""Another line of the product named inside its name: 센트룸 실버 우먼 for 센트룸 우먼, 포엥 어린이 암체어 for 포엥
암체어, 김치왕교자 for 왕교자.

A word alone cannot tell a line from what sellers put inside a name (a maker's line, a category noun, a marketing
word): refusing every word between the keyword's words was measured to refuse about fifty right answers for eight
wrong ones. So the offers decide together (`actors.matching`): a noun between two words the keyword writes side by
side names another line when other accepted offers write those words side by side and none writes that noun.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from actors.matching.identity import Word
from infra.text.analyzer import Morpheme, morphemes
from infra.text.units import LATIN_UNITS


@dataclass(frozen=True, slots=True)
class NamePair:
    """Two words the keyword writes side by side inside the product's name ("포엥 암체어", "비비고 왕교자")."""

    first: Word
    second: Word
    #: The first is the keyword's first word, its maker: sellers put the maker's line or a category word after it
    #: ("LG전자 코드제로", "빙그레 단지우유 바나나맛우유"), so only a word glued to the second counts there.
    after_the_maker: bool


def name_pairs(keyword: str, words: tuple[Word, ...]) -> tuple[NamePair, ...]:
    """The keyword's words that stand side by side in it, where a word put between them would change the name: not
    before a size, count or stage ("블랙 260", "2단계"), nor after a model's number, which names the model whole ("MX
    Master 3S 퍼포먼스 무선")."""
    pairs = []
    for first, second in pairwise(words):
        written = first.pattern.search(keyword)
        following = second.pattern.search(keyword, written.end()) if written else None
        if written is None or following is None or keyword[written.end() : following.start()].strip(" /"):
            continue
        if second.text[0].isdigit() or any(char.isdigit() for char in first.text):
            continue
        pairs.append(NamePair(first, second, after_the_maker=first is words[0]))
    return tuple(pairs)


#: What a word inside a name is made of: nouns and Latin words, not a verb or an adjective ("오뚜기 고소한 참기름").
_NAME_TAGS = frozenset({"NNG", "NNP", "SL"})
_LETTER = re.compile(r"[a-z가-힣]")
#: An age or grade written as a number and a plus ("어덜트 7+": the senior formula), not a bonus ("1+1").
_GRADE = re.compile(r"(?<![\d+])\d{1,2}\+(?![\d+])")
#: Hangul glued right before the keyword's word ("김치왕교자" for 왕교자): Kiwi reads such a name as one noun.
_GLUED_BEFORE = re.compile(r"(?<![가-힣])[가-힣]{2,}$")


@lru_cache(maxsize=1 << 12)
def _name_morphemes(text: str) -> tuple[Morpheme, ...]:
    return tuple(morpheme for morpheme in morphemes(text) if morpheme.tag in _NAME_TAGS)


def _nouns_between(text: str, start: int, end: int) -> str:
    """What a text writes from `start` to `end` from its first noun or grade to its last ("" for none): not a unit,
    nor a one-letter Latin word (the "M" of a size), nor a "noun" without letters."""
    spans = [
        (morpheme.start, morpheme.end)
        for morpheme in _name_morphemes(text)
        if start <= morpheme.start and morpheme.end <= end
        and morpheme.surface not in LATIN_UNITS
        and not (morpheme.surface.isascii() and len(morpheme.surface) < 2)
        and _LETTER.search(morpheme.surface)  # Kiwi may tag "1+1" a proper noun
    ]  # fmt: skip
    spans += [grade.span() for grade in _GRADE.finditer(text, start, end)]
    return text[min(spans)[0] : max(spans)[1]] if spans else ""


def inside_the_name(title: str, pairs: tuple[NamePair, ...]) -> dict[NamePair, str]:
    """For each pair the title names in order, the words it writes between them ("" for none), where the two stand
    nearest each other ("BRITA 브리타 마렐라" writes nothing between 브리타 and 마렐라)."""
    undashed = title.replace("-", "")
    found: dict[NamePair, str] = {}
    for pair in pairs:
        nearest: tuple[int, int] | None = None
        for first in pair.first.pattern.finditer(undashed):
            if nearest is not None and first.start() >= nearest[1]:
                break
            second = pair.second.pattern.search(undashed, first.end())
            if second is None:
                break
            nearest = (first.end(), second.start())
        if nearest is None:
            continue
        start, end = nearest
        between = "" if pair.after_the_maker else _nouns_between(undashed, start, end)
        if not between and (glued := _GLUED_BEFORE.search(undashed, start, end)):
            between = glued.group()
        found[pair] = between
    return found
