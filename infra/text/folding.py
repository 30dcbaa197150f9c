"""Titles and keywords as one comparable form: no markup, NFKC, no invisible characters, one kind of dash, single
spaces, Latin letters without their accents, Latin words without apostrophes, a model's generation in Roman numerals
as its number, a fragrance's concentration as one word, a memory's speed by its transfer rate, a times sign between
numbers as x."""

from __future__ import annotations

import html
import re
import unicodedata

from infra.text.fragrances import named_alike
from infra.text.memory_speeds import written_as_one_word

# Only ASCII tag names, so Korean sellers' brackets such as "<당일발송>" survive as text.
_TAG = re.compile(r"</?[a-z][a-z0-9]*(?:\s[^<>]*)?/?>", re.IGNORECASE)
# Dashes NFKC leaves alone (hyphen, figure dash, en/em dash, minus …); full-width forms are folded by NFKC.
_DASHES = str.maketrans(dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58", "-"))
_SPACES = re.compile(r"\s+")
#: Characters that show nothing (a zero-width space or joiner, a byte-order mark, a soft hyphen: Unicode's format
#: characters, NFKC keeps them): pasted into a title, one splits a word a reader sees whole ("코카\u200b콜라").
_INVISIBLE = dict.fromkeys(code for code in (0x00AD, 0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF))
#: A model's generation in Roman numerals after its name, as sellers write it ("Emberton III" is Emberton3, "A7C II"
#: is A7C2, "Mark IV" is Mark4): spaced or dashed after a word that ends in a letter, and glued to it as its number.
#: Not after a number ("Z50 II", "Z50II" stay as written: "Z50 2" would find the 2 of "2년"), never inside a word
#: ("Wii").
_ROMAN = re.compile(r"(?<=[a-z가-힣])[\s-](iv|iii|ii)(?![0-9a-z])", re.IGNORECASE)
_ROMAN_VALUES = {"ii": "2", "iii": "3", "iv": "4"}
#: A Latin letter with an accent ("POÄNG", "Nestlé", "Häagen-Dazs"): sellers write a maker's name as the maker does,
#: back offices and Korean spellings without its accents.
_ACCENTED = re.compile(r"[\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f]")  # not × and ÷
#: An apostrophe inside a Latin word ("Hill's", "HILL’S", "L'Oreal"): sellers drop it or write another one, and a
#: Korean reader reads the word whole (힐스), so keywords and titles are compared without it.
_APOSTROPHE = re.compile(r"(?<=[a-z])['’](?=[a-z])", re.IGNORECASE)
#: What a model number or a word may be written with or without.
SEPARATORS = re.compile(r"[\s-]+")


def fold(text: str) -> str:
    """The comparable form, letter case kept: "x2" after product words is a count, "X5" a model name."""
    # Unescape first so entity-encoded tags ("&lt;b&gt;") are stripped too.
    text = _TAG.sub("", html.unescape(text))
    text = unicodedata.normalize("NFKC", text).translate(_DASHES).translate(_INVISIBLE)
    text = _ACCENTED.sub(_without_accent, text)
    text = _APOSTROPHE.sub("", text)
    text = _ROMAN.sub(lambda numeral: _ROMAN_VALUES[numeral.group(1).lower()], text)
    text = _DEGREES.sub("도", text)
    text = _CENTIMETRES.sub("cm", text)
    text = _MILLIMETRES.sub("mm", text)
    text = named_alike(text)
    text = written_as_one_word(text)
    text = _TIMES.sub("x", text)
    return _SPACES.sub(" ", text).strip()


#: An angle's degree sign is the word a Korean title writes for it ("10.5°" is "10.5도", a driver's loft); not a
#: temperature's ("85°C").
_DEGREES = re.compile(r"(?<=\d)\s?°(?!\s?[cfCF](?![a-zA-Z]))")


#: A length written with its unit's Hangul name is the unit's symbol ("28센치" is "28cm", "3미리" is "3mm"): keywords
#: and titles write either. Not 밀리 (also "500밀리" for millilitres) and not a spaced 미리 ("3 미리 주문": in advance).
_CENTIMETRES = re.compile(r"(?<=\d)\s?(?:센티미터|센치미터|센치|센티)(?![가-힣])")
_MILLIMETRES = re.compile(r"(?<=\d)(?:밀리미터|미리)(?![가-힣])")


#: A times sign between a size's numbers, in any of its spellings ("150*200", "150×200" are "150x200").
_TIMES = re.compile(r"(?<=\d)\s?[×*]\s?(?=\d)")


def _without_accent(letter: re.Match[str]) -> str:
    """The letter without its accent marks ("ä" is "a"); a letter that has none ("ß", "æ") as it is."""
    return "".join(char for char in unicodedata.normalize("NFD", letter.group()) if not unicodedata.combining(char))


def normalize(text: str) -> str:
    """The comparable form in lower case, which every rule but the pack counts reads."""
    return fold(text).lower()


#: Nothing follows but brackets: a pattern ending with it matches the last word of a title ("… 부품 (정품)").
ENDS_THE_TITLE = r"(?=\s*(?:[(\[][^()\[\]]*[)\]]\s*)*$)"


def english(*words: str) -> str:
    """A pattern of English words that count only whole: "case" does not fire inside "showcase" or "briefcase"."""
    return r"(?<![a-z])(?:" + "|".join(words) + r")(?![a-z])"
