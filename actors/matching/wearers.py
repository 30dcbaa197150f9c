"""Who a product is for: a child's version of it is another product (a kids' cap, a junior racket, a toddler's shoe),
smaller and cheaper, sold on the same page under the same name ("MLB 키즈 루키 볼캡" beside "MLB 루키 볼캡").

A child's word counts where it stands before a word of the keyword, inside or ahead of the product's name; after the
name it describes who may use the product ("아토팜 크림 160ml 키즈 보습크림"). A brand for children is written so
by most of its sellers, so the offers decide together (`actors.matching`): an offer is another product only where
fewer of the other accepted offers write the word than leave it out.

A version for one sex, where the keyword names none ("나이키 우먼스 코르테즈" for "나이키 코르테즈"), is as often the
product sold in that sex's sizes as another model, so it only leaves the lowest in doubt (`for_one_sex`).
"""

from __future__ import annotations

import re

from actors.matching.identity import Word
from infra.text.sexes import SEXES

#: A child's version, as brands name the line they make for children ("MLB 키즈", "나이키 키즈", "주니어 26" for a
#: racket, "토들러"). Not the plain nouns 어린이, 유아 and 아동, which describe a product made only for children as
#: often ("일룸 어린이 링키 책상" is the 링키 desk: a reviewer's) and inside a name are left to the lines rule; not
#: 베이비, also a colour ("베이비핑크") and a brand's word ("베이비뵨"). Only a word of its own or with 용 ("키즈용";
#: not a publisher's "[주니어김영사]" nor "키즈카페"), nor a brand's word ("Youth To The People"): a reviewer's.
_CHILD = re.compile(
    r"(?<![가-힣])(?:키즈|주니어|토들러)(?=용|[^가-힣a-z]|$)|(?<![a-z])(?:kids?|junior|jr|youth(?!\sto\b)|toddler)(?![a-z])"
)
#: A product for grown-ups and children alike, said beside the child's word on either side ("[성인/키즈 공용]",
#: "키즈/어른", "adult & kids").
_FOR_BOTH = re.compile(r"성인|어른|공용|겸용|adult|unisex")
#: How far on either side of the child's word "for both" is looked for.
_FOR_BOTH_REACH = 10


#: The plain nouns for a child (어린이, 유아, 아동) and a Hangul "youth" (유스): a product made only for children writes
#: them as often as a child's version does ("일룸 어린이 링키 책상"), so they count only for a doubt.
_PLAIN_CHILD = re.compile(r"(?<![가-힣])(?:어린이|유아|아동|유스)(?=용|[^가-힣a-z]|$)")


def for_a_child(title: str, keyword: str, words: tuple[Word, ...], *, plain: bool = False) -> str | None:
    """The child's word a (lower-case, respelled) title writes before a word of the keyword (where the title first
    writes it: "크림 … 키즈 보습크림" names the cream before the child), which the keyword does not write and which
    is not said of a product for both; None when it writes none. `plain`: the plain nouns (`_PLAIN_CHILD`) instead
    of a brand's child words, for a doubt."""
    firsts = [found.start() for word in words if (found := word.pattern.search(title))]
    for found in (_PLAIN_CHILD if plain else _CHILD).finditer(title):
        beside = title[max(0, found.start() - _FOR_BOTH_REACH) : found.end() + _FOR_BOTH_REACH]
        if found.group() in keyword or _FOR_BOTH.search(beside):
            continue
        if any(first >= found.end() for first in firsts):
            return found.group()
    return None


#: Each sex as a fragrance's version is named, in French ("Eros Pour Femme", "뿌르 팜므", "뿌르옴므"), in the order of
#: `SEXES`. Not in `infra.text.sexes`, whose spellings a keyword's word is found by: "불가리 뿌르옴므" names one
#: fragrance, which a title writing 남성 is not.
_FRENCH_VERSIONS = (
    r"(?<![a-z가-힣])(?:pour|뿌르|푸르)\s?(?:homme|옴므)",
    r"(?<![a-z가-힣])(?:pour|뿌르|푸르)\s?(?:femme|팜므)",
)


def _sex_pattern(spellings: tuple[str, ...], french: str) -> re.Pattern[str]:
    """One sex's `spellings` as a title writes them: a Latin one as a word of its own ("men" is not in "women"), a
    Hangul one not glued after another syllable ("우먼스" of "스포츠우먼스" is none) but with anything after it
    ("여성용"); and its `french` version's name."""
    return re.compile(
        "|".join(
            [
                rf"(?<![a-z]){re.escape(spelling)}(?![a-z])" if spelling.isascii() else rf"(?<![가-힣]){spelling}"
                for spelling in spellings
            ]
            + [french]
        )
    )


#: Each sex in any spelling, its fragrance's French version too: a keyword writing one names the product for it
#: (`identity` finds a keyword's sex word in `infra.text.sexes`'s spellings only).
_EITHER_SEX = tuple(_sex_pattern(side, french) for side, french in zip(SEXES, _FRENCH_VERSIONS, strict=True))
#: Each sex as brands name a version for it, a possessive or a plural ("우먼스", "맨즈", "Women's", "Ladies"): not the
#: plain nouns 남성 and 여성, which sellers write of a product made for one sex anyway ("남성 손목시계", "남성
#: 스니커즈": beside offers that leave them out they flagged right answers only), nor a bare "men", "women" or "male",
#: a line's name or a plug's gender ("NIVEA MEN", "Male to Female": a reviewer's). A fragrance's French version
#: counts too (`_FRENCH_VERSIONS`, joined to each side's pattern below).
_VERSION_SPELLINGS = frozenset({"맨즈", "멘즈", "mens", "우먼즈", "우먼스", "레이디스", "womens", "ladies"})
_A_VERSION_FOR_ONE_SEX = tuple(
    _sex_pattern(tuple(spelling for spelling in side if spelling in _VERSION_SPELLINGS), french)
    for side, french in zip(SEXES, _FRENCH_VERSIONS, strict=True)
)


def names_a_sex(title: str) -> tuple[str, ...]:
    """The spellings of the sex a (lower-case) title names in any spelling ("남성", "mens", "pour femme"; the side of
    `infra.text.sexes` it names), () for none or both."""
    named = [side for side, pattern in zip(SEXES, _EITHER_SEX, strict=True) if pattern.search(title)]
    return named[0] if len(named) == 1 else ()


#: A product for both sexes, said so ("남녀공용", "남여 공용", "Unisex"): its sizes run for both (a reviewer's: not the
#: children's "for adults too", 성인 or 겸용, which say other things of a shoe).
_FOR_BOTH_SEXES = re.compile(r"남녀|남여|유니섹스|unisex")


def for_one_sex(title: str, keyword: str) -> str | None:
    """The word naming a version for one sex that a (lower-case) title writes where the keyword names neither sex
    ("우먼스", "men's"); None when it writes none, both sexes (a unisex product), or what it says is for both
    ("남녀공용")."""
    if any(side.search(keyword) for side in _EITHER_SEX) or _FOR_BOTH_SEXES.search(title) or not names_a_sex(title):
        return None
    written = [found for side in _A_VERSION_FOR_ONE_SEX if (found := side.search(title))]
    return written[0].group() if written else None
