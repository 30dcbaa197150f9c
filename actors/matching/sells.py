"""What a title sells: the product, or a part, an accessory, a used or rented one.

Exclusions are concepts, each one idea in all its spellings (`_CONCEPTS`). A concept counts only as a whole
segment of the title (`actors.matching.words.aligned`): the 커버 of the brand 커버걸 and the 중고 of 중고등 are not
covers or used goods. The keyword allows a concept it names itself ("아이폰 15 케이스", "갤럭시버즈3케이스", "… 중고").

Parts and accessories are judged by what the title sells, not by which words it contains:
- an accessory noun counts as the *head* of its word only ("보호필름" is a film; "필름카메라" a camera, "케이스포함" an
  inclusion note), and not when the title says it comes with the product (bundled: "케이스 포함", "충전기
  미포함", "필름 증정", "with 충전 케이스", "+ 케이스");
- the first accessory a title sells decides: when the keyword names it ("… 케이스"), later accessory nouns are the
  case's features ("케이스 … 카드수납 거치대");
- whatever its noun, a title that sells something *for* the product ("M35용", "S24 울트라 전용", "교체용") sells a
  part; nouns nobody listed are also caught by the price they ask (`actors.matching.prices`).
The accessory nouns below are hints for the common cases, not the rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum, auto

from actors.matching.identity import Word
from actors.matching.words import Aligned, Segment, aligned, segments


def _english(*words: str) -> str:
    """English words count only whole, so "case" does not fire inside "showcase" or "briefcase"."""
    return r"(?<![a-z])(?:" + "|".join(words) + r")(?![a-z])"


class _Kind(Enum):
    #: Something a title sells instead of the product: only as the head of a word, and not when it is bundled.
    ACCESSORY = auto()
    #: A kind of the product sold on its own (a refill): only as the head of a word, bundled or not.
    SOLD_ALONE = auto()
    #: A condition of the item (used, rented …) or its relation to the product (compatible): as any whole segment.
    CONDITION = auto()


@dataclass(frozen=True, slots=True)
class _Concept:
    category: str  # the verdict's first word
    pattern: re.Pattern[str]
    kind: _Kind


def _accessory(pattern: str) -> _Concept:
    return _Concept("accessory", re.compile(pattern), _Kind.ACCESSORY)


def _condition(category: str, pattern: str) -> _Concept:
    return _Concept(category, re.compile(pattern), _Kind.CONDITION)


_CONCEPTS: tuple[_Concept, ...] = (
    # A charging case is where earbuds live: a title naming one sells earbuds, unless it says the case comes alone.
    _accessory(r"충전\s?케이스(?=[\s()\[\]]*(?:단품|분실))"),
    _accessory("(?<!충전)(?<!충전 )케이스|" + _english("cases?")),
    _accessory("커버(?!력)|" + _english("covers?")),  # 커버력: a cosmetic's coverage
    _accessory("(?:액정)?(?:보호)?필름|" + _english("films?", r"screen\sprotectors?")),
    _accessory("강화유리|" + _english(r"tempered\sglass")),
    _accessory("거치대|" + _english("holders?", "mounts?")),
    _accessory(r"스킨|" + _english("skins?")),  # 스킨케어 is one word of its own
    _accessory("파우치|" + _english("pouch(?:es)?")),
    _accessory("범퍼|" + _english("bumpers?")),
    _accessory("그립톡|그립|" + _english("grips?")),
    _accessory("(?:고속)?충전기|충전독|" + _english("chargers?")),
    _accessory("케이블|" + _english("cables?")),
    _accessory("스트랩|" + _english("straps?")),
    _accessory("스탠드|" + _english("stands?")),
    _accessory("펜슬|펜|스타일러스|" + _english("pens?", "pencils?", "styluse?s?")),
    _accessory("이어팁|이어캡|" + _english("ear\\s?tips?")),
    _accessory("키링|" + _english("keyrings?")),
    _accessory("어댑터|젠더|" + _english("adapters?")),
    _condition("compatible", "호환(?:용)?|" + _english("compatible")),
    # 교체 가능 / 교체형: a replaceable part of the product, not a replacement sold alone.
    _condition("replacement", r"교체용|교환용|교체(?!\s?(?:가능|형))|" + _english("replacements?")),
    _Concept("refill", re.compile("리필(?:용)?|" + _english("refills?")), _Kind.SOLD_ALONE),
    _condition("used", "중고|" + _english("used", r"pre[\s-]?owned")),
    _condition("refurbished", "(?<!슬)리퍼(?:브|비시)?|" + _english("refurb(?:ished)?", "renewed")),
    # 무료반품 / 반품불가 / 반품 가능: return-policy words in the title of a new item.
    _condition("returned", r"(?<!무료)(?<!무료 )반품(?!\s?(?:불가|가능|무료|보장|안내|비용))"),
    _condition("display", "전시|진열(?:상품|품)|오픈박스|" + _english(r"open\s?box")),  # 진열대 alone is a shelf
    _condition("rental", "렌탈|대여|" + _english("rental")),
)

#: Words saying an accessory comes with the product or without it: either way the title sells the product.
_BUNDLED_AFTER = re.compile(r"(?:미|불)?포함|증정|사은품|별매|별도|동봉|구성품?|내장|탑재|included")
_BUNDLED_BEFORE = re.compile(r"[+&]\s*$")
_WITH = frozenset({"with", "w/"})


def _named(text: str) -> list[tuple[int, Aligned]]:
    """Every concept a normalized text names, as (concept index, match), in the text's order: a condition as any
    whole segment, an accessory or a thing sold alone as the head of a word."""
    parts = segments(text)
    found = [
        (index, match)
        for index, concept in enumerate(_CONCEPTS)
        for match in aligned(concept.pattern, text)
        if concept.kind is _Kind.CONDITION or parts[match.last].head
    ]
    return sorted(found, key=lambda item: (item[1].first, item[0]))


@dataclass(frozen=True, slots=True)
class Allowed:
    """The concepts a keyword names itself (indexes into `_CONCEPTS`), and the noun it ends with."""

    concepts: frozenset[int]
    #: The keyword's last noun ("면도날" of "… 프로글라이드 면도날 8개입"): a thing sold alone written before it is
    #: what kind of it the title sells ("리필 면도날" are the blades), not another product.
    head: str | None

    @property
    def accessory(self) -> bool:
        """The keyword names an accessory ("아이폰 15 케이스") rather than the product it is for."""
        return any(_CONCEPTS[index].kind is _Kind.ACCESSORY for index in self.concepts)


def allowed_by(keyword: str) -> Allowed:
    """What a normalized keyword asks for: "갤럭시버즈3케이스" asks for a case and "… 중고" for a used one; "필름카메라"
    asks for a camera, not a film, and "커버걸" for nothing."""
    nouns = [segment.text for segment in segments(keyword) if segment.head and not segment.text[0].isdigit()]
    return Allowed(frozenset(index for index, _ in _named(keyword)), nouns[-1] if nouns else None)


def _bundled(title: str, match: Aligned, accessory_segments: set[int]) -> bool:
    """Whether the accessory is said to come with (or without) the product: followed, past other accessories,
    by 포함 / 미포함 / 증정 …, or preceded by "with" or "+"."""
    parts = segments(title)
    after = match.last + 1
    while after in accessory_segments:
        after += 1
    if after < len(parts) and _BUNDLED_AFTER.match(title, parts[after].start):
        return True
    before = parts[max(0, match.first - 2) : match.first]
    return any(part.text in _WITH for part in before) or bool(_BUNDLED_BEFORE.search(title[: parts[match.first].start]))


def excluded(title: str, allowed: Allowed) -> str | None:
    """The concept a normalized title names that the keyword does not ask for: "accessory: 케이스", "used: 중고"."""
    named = _named(title)
    accessory_segments = {match.last for index, match in named if _CONCEPTS[index].kind is _Kind.ACCESSORY}
    sells_what_the_keyword_names = False
    parts = segments(title)
    for index, match in named:
        concept = _CONCEPTS[index]
        if concept.kind is _Kind.SOLD_ALONE and _modifies(parts, match, allowed.head):
            continue
        if concept.kind is _Kind.ACCESSORY:
            if sells_what_the_keyword_names or _bundled(title, match, accessory_segments):
                continue
            # The first accessory it sells decides: the asked one makes the rest its features.
            sells_what_the_keyword_names = index in allowed.concepts
        if index not in allowed.concepts:
            return f"{concept.category}: {match.text}"
    return None


def _modifies(parts: tuple[Segment, ...], match: Aligned, noun: str | None) -> bool:
    """Whether the match is written right before the keyword's own noun, as its modifier ("리필 면도날")."""
    return noun is not None and match.last + 1 < len(parts) and parts[match.last + 1].text == noun


_FOR_IT = re.compile(r"용(?![가-힣])|\s?(?:전용|용)(?![가-힣])")


def sold_for_it(title: str, keyword: str, words: tuple[Word, ...]) -> str | None:
    """A title that sells something for the product: a word of the keyword followed by 용 or 전용 ("M35용 필름",
    "S24 울트라 전용 거치대"), where the keyword itself does not say so ("쿠쿠 전기밥솥 6인용")."""
    undashed, asked = title.replace("-", ""), keyword.replace("-", "")
    for word in words:
        for match in word.pattern.finditer(undashed):
            marker = _FOR_IT.match(undashed, match.end())
            if marker is None:
                continue
            if any(_FOR_IT.match(asked, own.end()) for own in word.pattern.finditer(asked)):
                continue
            return f"sold for the product: {match.group()}{marker.group()}"
    return None
