"""Segments: the words a title or a keyword is made of, as a Korean reader splits them.

A whitespace word is split into Kiwi's morphemes (`actors.matching.analyzer`), which are grouped back into
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

from actors.matching.analyzer import Morpheme, morphemes


class _Kind(Enum):
    NOUN = auto()
    LATIN = auto()
    DIGIT = auto()
    VERBAL = auto()  # verbs, adjectives, interjections: part of a name that reads like a phrase
    PREFIX = auto()  # 새, 첫, 재, 미, 일시: joins the noun after it
    SUFFIX = auto()  # 용, 형, particles, endings: joins the segment before it
    PUNCTUATION = auto()


_NOUN_TAGS = frozenset({"NNG", "NNP", "NNB", "NR", "NP", "XR", "SH"})
_PREFIX_TAGS = frozenset({"XPN", "MM", "MAG", "MAJ"})


def _kind(tag: str) -> _Kind:
    base = tag.split("-")[0]  # Kiwi marks irregular inflections as VV-I, VA-R …
    if base in _NOUN_TAGS:
        return _Kind.NOUN
    if base == "SL" or base.startswith("W_"):
        return _Kind.LATIN
    if base == "SN":
        return _Kind.DIGIT
    if base in _PREFIX_TAGS:
        return _Kind.PREFIX
    if base.startswith(("XS", "J", "E", "VC", "Z")):
        return _Kind.SUFFIX
    if base.startswith(("V", "IC")):
        return _Kind.VERBAL
    return _Kind.PUNCTUATION


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
    first: _Kind
    last: _Kind
    named: bool  # holds a noun or Latin letters


def _glues(open_: _Open, kind: _Kind, morpheme: Morpheme) -> bool:
    """Whether a content morpheme written right after the open segment belongs to it."""
    if morpheme.start > open_.end:
        return False
    last = open_.last
    if kind is _Kind.DIGIT:
        return last in (_Kind.LATIN, _Kind.NOUN)  # s + 25, 버즈 + 3
    if kind is _Kind.LATIN:
        return last in (_Kind.LATIN, _Kind.DIGIT)  # 25 + fe, m + 35
    if kind is _Kind.NOUN:
        # A number that starts a segment takes its counter: 4단계, 84매, 6인. A model's number does not take the
        # noun after it: 버즈3 + 케이스 are two segments.
        return last is _Kind.DIGIT and (open_.first is _Kind.DIGIT or morpheme.tag == "NNB")
    return kind is _Kind.VERBAL and last is _Kind.VERBAL


def _word_spans(word: tuple[Morpheme, ...]) -> list[tuple[int, int, int]]:
    """The segments of one whitespace-free word's morphemes: (start, end, head chunk) spans, the chunk -1 for a
    segment without a noun or Latin letters. Punctuation inside a word ends a chunk: in "케이스+필름" both are heads."""
    spans: list[tuple[_Open, int]] = []
    current: _Open | None = None
    prefix_start: int | None = None
    chunk = 0
    for morpheme in word:
        kind = _kind(morpheme.tag)
        if kind is _Kind.PUNCTUATION:
            current, prefix_start, chunk = None, None, chunk + 1
            continue
        if kind is _Kind.SUFFIX:
            if current is not None and morpheme.start <= current.end:
                current.end = max(current.end, morpheme.end)
            continue
        if kind is _Kind.PREFIX:
            prefix_start = morpheme.start if prefix_start is None else prefix_start
            continue
        named = kind in (_Kind.NOUN, _Kind.LATIN)
        if prefix_start is None and current is not None and _glues(current, kind, morpheme):
            current.end, current.last, current.named = morpheme.end, kind, current.named or named
            continue
        start = morpheme.start if prefix_start is None else prefix_start
        current = _Open(start, morpheme.end, kind, kind, named)
        spans.append((current, chunk))
        prefix_start = None
    if prefix_start is not None:  # a prefix with nothing after it stands alone
        end = word[-1].end
        spans.append((_Open(prefix_start, end, _Kind.PREFIX, _Kind.PREFIX, False), chunk))
    return [(span.start, span.end, chunk if span.named else -1) for span, chunk in spans]


_WORD = re.compile(r"\S+")
_EDGE_PUNCTUATION = re.compile(r"^[^\w+]+|[^\w+]+$")


@lru_cache(maxsize=1 << 14)
def segments(text: str) -> tuple[Segment, ...]:
    """Every segment of a normalized (lower-case) text, in order. The text is analysed whole, so that each word is
    read in its context ("재입고" alone reads as a verb; in "재입고 알림" it is the noun)."""
    analysed = morphemes(text) if not text.isascii() else ()
    found: list[Segment] = []
    for word in _WORD.finditer(text):
        if word.group().isascii():
            bare = _EDGE_PUNCTUATION.sub("", word.group())
            if bare:
                start = word.start() + word.group().index(bare)
                found.append(Segment(bare, start, start + len(bare), head=True))
            continue
        inside = tuple(m for m in analysed if word.start() <= m.start < word.end())
        spans = _word_spans(inside)
        heads = {chunk: index for index, (_, _, chunk) in enumerate(spans) if chunk >= 0}
        for index, (start, end, chunk) in enumerate(spans):
            end = min(end, word.end())
            found.append(Segment(text[start:end], start, end, head=chunk >= 0 and heads[chunk] == index))
    return tuple(found)


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
