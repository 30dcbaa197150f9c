"""Segments: the words a title or a keyword is made of, as a Korean reader splits them.

A whitespace word is split into Kiwi's morphemes (`infra.text.analyzer`), which are grouped back into
segments a shopper would name: a noun with its number ("버즈3", "s25"), a number with its counter ("4단계",
"84매"), a noun with its prefix and suffix ("새상품", "재입고", "리필용"), a run of verb forms ("아이깨끗해"). A
word that is all ASCII ("SM-S931N", "128gb", "x2") is one segment. The last noun segment of a word is its *head*:
what a Korean compound names ("보호필름" is a film, "필름카메라" a camera).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum, auto
from functools import lru_cache

from infra.text.analyzer import Morpheme, morphemes
from infra.text.units import COUNTERS


class _MorphemeKind(Enum):
    NOUN = auto()
    LATIN = auto()
    DIGIT = auto()
    VERBAL = auto()  # verbs, adjectives, interjections: part of a name that reads like a phrase
    PREFIX = auto()  # 새, 첫, 재, 미, 일시: joins the noun after it
    SUFFIX = auto()  # 용, 형, particles, endings: joins the segment before it
    PUNCTUATION = auto()


_NOUN_TAGS = frozenset({"NNG", "NNP", "NNB", "NR", "NP", "XR", "SH"})
_PREFIX_TAGS = frozenset({"XPN", "MM", "MAG", "MAJ"})


def _tag_kind(tag: str) -> _MorphemeKind:
    base = tag.split("-")[0]  # Kiwi marks irregular inflections as VV-I, VA-R …
    if base in _NOUN_TAGS:
        return _MorphemeKind.NOUN
    if base == "SL":
        return _MorphemeKind.LATIN
    if base == "SN":
        return _MorphemeKind.DIGIT
    if base in _PREFIX_TAGS:
        return _MorphemeKind.PREFIX
    if base.startswith(("XS", "J", "E", "VC", "Z")):
        return _MorphemeKind.SUFFIX
    if base.startswith(("V", "IC")):
        return _MorphemeKind.VERBAL
    return _MorphemeKind.PUNCTUATION  # symbols, and Kiwi's emoji, hashtags, URLs (W_*): none names a thing


@dataclass(frozen=True, slots=True)
class Segment:
    text: str  # as written, lower case
    start: int  # span in the text it came from
    end: int
    #: The last segment of its word that holds a noun or Latin letters: what the word names.
    head: bool


@dataclass(slots=True)
class _Open:
    start: int
    end: int
    first: _MorphemeKind
    last: _MorphemeKind
    named: bool  # holds a noun or Latin letters


def _glues(open_: _Open, kind: _MorphemeKind, morpheme: Morpheme, following: Morpheme | None) -> bool:
    """Whether a content morpheme written right after the open segment belongs to it (`following`: the morpheme
    after it in the word, if any)."""
    if morpheme.start > open_.end:
        return False
    last = open_.last
    if kind is _MorphemeKind.DIGIT and last is _MorphemeKind.NOUN:
        # A model's number (버즈 + 3, 버즈3 + 케이스), not a count after a noun (필름 + 2매, 케이스 + 1+1, 충전기 25W).
        if following is None or following.start > morpheme.end:
            return True
        return following.tag in ("NNG", "NNP") and following.surface not in COUNTERS
    if kind is _MorphemeKind.DIGIT:
        return last is _MorphemeKind.LATIN  # s + 25
    if kind is _MorphemeKind.LATIN:
        return last in (_MorphemeKind.LATIN, _MorphemeKind.DIGIT)  # 25 + fe, m + 35
    if kind is _MorphemeKind.NOUN:
        # A number that starts a segment takes its counter: 4단계, 84매, 6인. A model's number does not take the
        # noun after it: 버즈3 + 케이스 are two segments.
        return last is _MorphemeKind.DIGIT and (open_.first is _MorphemeKind.DIGIT or morpheme.tag == "NNB")
    return kind is _MorphemeKind.VERBAL and last is _MorphemeKind.VERBAL


#: A range Kiwi reads as a serial number ("0-6" of "0-6개월", "2-3" of "2-3인용"), and what it counts glued after it:
#: a bound noun or a counter. Any other serial (a date, a fraction, a time, a range of sizes before "품절") names
#: nothing, and the word after it stays a word of its own ("250-260품절" is sold out).
_RANGE_SERIAL = re.compile(r"\d+-\d+")
#: A size written as a fraction before 호 (a crochet hook's "5/0호"). Not before 인치, which tool and pipe sellers
#: write as '1/2"' or "1/2SQ" as often, nor a range with a slash ("2/3인용", written "2~3인용" too): a reviewer's.
_FRACTION_SIZE = re.compile(r"\d+/\d+")
_FRACTION_COUNTED = frozenset({"호"})
_RANGE_COUNTED = COUNTERS | {"인용", "인"}  # 인 of "1-2인용", which Kiwi reads as 인 + 용


def _kind_of(morpheme: Morpheme, following: Morpheme | None) -> _MorphemeKind:
    """What a morpheme is to the splitter (`following`: the morpheme after it in the word): its tag's kind, but a
    serial number is a number only as a range with what it counts glued after it (`_RANGE_SERIAL`), or a fraction
    before 호 (`_FRACTION_SIZE`)."""
    if morpheme.tag != "W_SERIAL":
        return _tag_kind(morpheme.tag)
    counted = (
        following is not None
        and following.start == morpheme.end
        and (following.tag == "NNB" or following.surface in _RANGE_COUNTED)
    )
    if counted and _RANGE_SERIAL.fullmatch(morpheme.surface):
        return _MorphemeKind.DIGIT
    sized = counted and following is not None and following.surface in _FRACTION_COUNTED
    return _MorphemeKind.DIGIT if sized and _FRACTION_SIZE.fullmatch(morpheme.surface) else _MorphemeKind.PUNCTUATION


def _word_spans(word: tuple[Morpheme, ...]) -> list[tuple[int, int, int]]:
    """The segments of one whitespace-free word's morphemes: (start, end, head chunk) spans, the chunk -1 for a
    segment without a noun or Latin letters. Punctuation inside a word ends a chunk: in "케이스+필름" both are heads."""
    spans: list[tuple[_Open, int]] = []
    current: _Open | None = None
    prefix_start: int | None = None
    chunk = 0
    for position, morpheme in enumerate(word):
        following = word[position + 1] if position + 1 < len(word) else None
        kind = _kind_of(morpheme, following)
        if kind is _MorphemeKind.PUNCTUATION:
            current, prefix_start, chunk = None, None, chunk + 1
            continue
        if kind is _MorphemeKind.SUFFIX:
            if current is not None or prefix_start is not None:
                if current is not None and morpheme.start <= current.end:
                    current.end = max(current.end, morpheme.end)
                continue
            # A word does not start with an ending or a particle: what the analyzer read as one there is a word it
            # does not know ("라지" of "다이어리 라지 하드커버", read as the ending of 이라지), a name of its own.
            kind = _MorphemeKind.NOUN
        if kind is _MorphemeKind.PREFIX:
            prefix_start = morpheme.start if prefix_start is None else prefix_start
            continue
        named = kind in (_MorphemeKind.NOUN, _MorphemeKind.LATIN)
        if prefix_start is None and current is not None and _glues(current, kind, morpheme, following):
            current.end, current.last, current.named = morpheme.end, kind, current.named or named
            continue
        start = morpheme.start if prefix_start is None else prefix_start
        current = _Open(start, morpheme.end, kind, kind, named)
        spans.append((current, chunk))
        prefix_start = None
    if prefix_start is not None:  # a prefix with nothing after it stands alone
        end = word[-1].end
        spans.append((_Open(prefix_start, end, _MorphemeKind.PREFIX, _MorphemeKind.PREFIX, False), chunk))
    return [(span.start, span.end, chunk if span.named else -1) for span, chunk in spans]


_WORD = re.compile(r"\S+")
_EDGE_PUNCTUATION = re.compile(r"^[^\w+]+|[^\w+]+$")


@lru_cache(maxsize=1 << 14)
def segments(text: str) -> tuple[Segment, ...]:
    """Every segment of a normalized (lower-case) text, in order. The text is analysed whole, so that each word is
    read in its context ("재입고" alone reads as a verb; in "재입고 알림" it is the noun)."""
    analysed = morphemes(text) if not text.isascii() else ()
    found: list[Segment] = []
    next_morpheme = 0
    for word in _WORD.finditer(text):
        if word.group().isascii():
            bare = _EDGE_PUNCTUATION.sub("", word.group())
            if any(char.isalnum() for char in bare):  # a lone "+" or "&" joins words; it names nothing
                start = word.start() + word.group().index(bare)
                found.append(Segment(bare, start, start + len(bare), head=True))
            continue
        while next_morpheme < len(analysed) and analysed[next_morpheme].start < word.start():
            next_morpheme += 1
        first = next_morpheme
        while next_morpheme < len(analysed) and analysed[next_morpheme].start < word.end():
            next_morpheme += 1
        spans = [
            (start, min(end, word.end()), chunk) for start, end, chunk in _word_spans(analysed[first:next_morpheme])
        ]
        heads = _heads(text, spans)
        found.extend(
            Segment(text[start:end], start, end, head=index in heads) for index, (start, end, _) in enumerate(spans)
        )
    return tuple(found)


#: What describes a thing rather than names it: a segment without Hangul (a count, a spec, a version, "tpu") or one
#: that starts with a number ("2매").
_DESCRIPTOR = re.compile(r"[^가-힣]*$|\d")


def _heads(text: str, spans: list[tuple[int, int, int]]) -> set[int]:
    """Which spans are heads: in each chunk, the last span that names a thing, passing over what a seller glues after
    the noun to describe it (a count, Latin letters, a version: "보호필름2매", "케이스TPU", "케이스ver2")."""
    heads: set[int] = set()
    for chunk in {chunk for _, _, chunk in spans if chunk >= 0}:
        named = [index for index, (_, _, of) in enumerate(spans) if of == chunk]
        things = [index for index in named if not _DESCRIPTOR.match(text[spans[index][0] : spans[index][1]])]
        heads.add((things or named)[-1])
    return heads


@dataclass(frozen=True, slots=True)
class Aligned:
    """A pattern's match that starts and ends where segments do: a whole word of the text, not part of one."""

    first: int  # index of the segment it starts at
    last: int  # index of the segment it ends at
    text: str


def aligned(pattern: re.Pattern[str], text: str) -> list[Aligned]:
    """The matches of `pattern` in `text` (normalized) that cover whole segments: 리필 in "리필 500ml", not the 커버
    of "커버걸" nor the 중고 of "중고등"."""
    parts = segments(text)
    starts = {segment.start: index for index, segment in enumerate(parts)}
    ends = {segment.end: index for index, segment in enumerate(parts)}
    found = []
    for match in pattern.finditer(text):
        first, last = starts.get(match.start()), ends.get(match.end())
        if first is not None and last is not None and first <= last:
            found.append(Aligned(first, last, match.group()))
    return found
