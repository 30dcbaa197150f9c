"""A product that works without a cord, as titles write it: "무선" as Wireless, 코드리스 or 블루투스.

A closed concept, like the pets of `infra.text.pets` and the sexes of `infra.text.sexes`: a keyword's 무선 names the
cordless product wherever a title says so, in any of its spellings. Bluetooth is one way to be wireless, so a
keyword's 무선 finds it; the reverse does not hold (a keyboard's 2.4 GHz receiver is wireless without Bluetooth), so a
keyword's 블루투스 is only itself.
"""

from __future__ import annotations

#: The spellings of "without a cord", lower case, the keyword's usual word first.
WIRELESS: tuple[str, ...] = ("무선", "wireless", "와이어리스", "코드리스", "cordless")
#: What a keyword's 무선 finds besides its spellings: a kind of wireless (블투 is sellers' short form).
_KINDS_OF_WIRELESS: tuple[str, ...] = ("블루투스", "bluetooth", "블투")


def wireless_spellings(word: str) -> tuple[str, ...]:
    """Every way "wireless" is written, and its kinds, when the word is one of its spellings ("코드리스": 무선,
    wireless …); () otherwise."""
    return (*WIRELESS, *_KINDS_OF_WIRELESS) if word in WIRELESS else ()
