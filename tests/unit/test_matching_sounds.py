"""A Hangul word read in the Latin letters that spell its sounds, vowels and all (`actors.matching.sounds`): what
tells a loanword of one or two consonants, which the consonant skeletons cannot."""

from __future__ import annotations

from typing import Any

import pytest

from actors.matching import match_offers
from actors.matching.sounds import latin_spelling
from schemas.offers import Offer


def verdict(keyword: str, title: str, price: int = 100_000) -> str | None:
    (matched,) = match_offers({"keyword": keyword}, [Offer(source="static", title=title, price=price)])
    return matched.rejected


@pytest.mark.parametrize(
    ("hangul", "latin"),
    [
        ("이케아", "ikea"),
        ("타이드", "tide"),  # 아이 is the i of a silent-e word
        ("나노", "nano"),
        ("에보", "evo"),
        ("퀵", "quik"),
        ("차지", "charge"),  # an r no vowel follows is unwritten, a final e silent
        ("일리", "illy"),  # a coda ㄹ and the ㄹ after it: a double l
        ("이소이", "isoi"),
    ],
)
def test_a_hangul_word_is_spelled_whole_by_the_latin_letters_of_its_sounds(hangul: str, latin: str):
    spelling = latin_spelling(hangul)
    assert spelling is not None
    assert spelling.fullmatch(latin)


@pytest.mark.parametrize(
    ("hangul", "latin"),
    [
        ("타이드", "tidy"),  # a y is no silent e
        ("나노", "nino"),  # an i is no ㅏ
        ("로즈", "ross"),  # an s is no ㅈ: "ross", "moose" and "bose" are no 로즈, 무지, 버즈 (a reviewer's)
        ("무지", "moose"),
        ("버즈", "bose"),
        ("이케아", "ikeas"),  # whole, to its last letter
        ("이케아", "kea"),  # and from its first
    ],
)
def test_a_latin_word_spelling_other_sounds_is_not_the_hangul_word(hangul: str, latin: str):
    spelling = latin_spelling(hangul)
    assert spelling is not None
    assert not spelling.fullmatch(latin)


def test_only_hangul_syllables_have_a_spelling():
    assert latin_spelling("ikea") is None
    assert latin_spelling("이케아3") is None


@pytest.mark.parametrize(
    ("keyword", "title", "reason"),
    [
        # A keyword's Hangul loanword of one consonant, written in Latin letters (blind readers' answers).
        ("이케아 빌리 책장", "[구매대행] IKEA BILLY 책장, 화이트, 80x28x202 cm", None),
        ("맥과이어스 얼티메이트 퀵 왁스", "Meguiar's Ultimate Quik Wax 450ml 스프레이 왁스", None),
        ("타이드 세탁세제 3.4L", "Tide 오리지널 세탁세제 3.4L", None),
        ("타이드 세탁세제 3.4L", "Tidy 세탁세제 3.4L", "keyword word missing: 타이"),
        # and a keyword's Latin word, written in Hangul
        ("핏빗 charge 6", "구글 핏빗 차지6 피트니스 트래커", None),
        ("핏빗 charge 6", "구글 핏빗 인스파이어3 피트니스 트래커", "keyword word missing: charge"),
    ],
)
def test_a_short_loanword_is_found_in_the_other_script_by_its_sounds(keyword: str, title: str, reason: Any):
    assert verdict(keyword, title) == reason
