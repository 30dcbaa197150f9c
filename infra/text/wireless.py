"""A product that works without a cord, as titles write it: "무선" as Wireless, 코드리스 or Cordless.

A closed concept, like the pets of `infra.text.pets` and the sexes of `infra.text.sexes`: a keyword's 무선 names the
cordless product wherever a title says so, in any of its spellings. Not Bluetooth, though it is one way to be
wireless: titles name it for what a product connects to ("차량용 블루투스 FM 송신기 고속 충전기" is no wireless
charger, "노래방 유선 마이크 블루투스 스피커 세트" no wireless microphone: a reviewer's).
"""

from __future__ import annotations

from infra.text.spellings import spellings_lookup

#: The spellings of "without a cord", lower case, the keyword's usual word first.
WIRELESS: tuple[str, ...] = ("무선", "wireless", "와이어리스", "코드리스", "cordless")

#: Every way "wireless" is written, when the word is one of them ("코드리스": 무선, wireless …); () otherwise.
wireless_spellings = spellings_lookup((WIRELESS,))
