"""A Hangul word read in the Latin letters that spell its sounds, vowels and all (`actors.matching.sounds`): what
tells a loanword of one or two consonants, which the consonant skeletons cannot."""

from __future__ import annotations

from typing import Any

import pytest

from actors.matching import match_offers
from actors.matching.loanwords import Spellings
from actors.matching.sounds import initialism_readings, latin_spelling
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
        ("블루레이", "bluray"),  # ㄹㄹ across two syllables is one l
        ("아이비", "ivy"),
        ("타일러", "tyler"),  # 아이 for one vowel, then ㄹㄹ for one l (a second reader's)
        ("데일리", "daily"),
        ("스톤", "stone"),
        ("일리", "illy"),  # a coda ㄹ and the ㄹ after it: a double l
        ("이소이", "isoi"),
        ("팟", "pot"),  # ㅏ before a final consonant: the short o of American English
        ("탑", "top"),
        ("라이트", "lite"),
        ("백", "bag"),  # a final g is written ㄱ (a reviewer's: BAG, TAG)
        ("택", "tag"),
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
        # a reviewer's: an h is written ㅎ, a final r and a double l's first l are unwritten, a silent e follows no
        # final consonant, ㅡ and ㅜ are no o
        ("바지", "buggy"),
        ("고기", "coke"),
        ("코코", "choco"),
        ("에이스", "ash"),
        ("일리", "elle"),
        ("오리", "holly"),
        ("이리", "illy"),
        ("아토", "otto"),
        ("나누", "nano"),
        ("비어", "bio"),
        ("데이", "the"),
        ("라이트", "led"),  # an e is no 아이
        ("핏", "pot"),
        ("나노", "nono"),  # an open ㅏ is never an o
    ],
)
def test_a_latin_word_spelling_other_sounds_is_not_the_hangul_word(hangul: str, latin: str):
    spelling = latin_spelling(hangul)
    assert spelling is not None
    assert not spelling.fullmatch(latin)


def test_only_hangul_syllables_with_a_consonant_have_a_spelling():
    assert latin_spelling("ikea") is None
    assert latin_spelling("이케아3") is None
    # vowels only: YOU, YEAR and EYE would be 여우, 여아 and 이어 (a reviewer's)
    assert latin_spelling("여우") is None
    assert latin_spelling("이어") is None


@pytest.mark.parametrize(
    ("keyword", "title", "reason"),
    [
        # A keyword's Hangul loanword of one consonant, written in Latin letters (blind readers' answers).
        ("이케아 빌리 책장", "[구매대행] IKEA BILLY 책장, 화이트, 80x28x202 cm", None),
        ("타이드 세탁세제 3.4L", "Tide 오리지널 세탁세제 3.4L", None),
        ("타이드 세탁세제 3.4L", "Tidy 세탁세제 3.4L", "keyword word missing: 타이"),
        # Not a word of one syllable, as often a native word an English one spells (a reviewer's)
        ("펄 아이섀도우", "매트 아이섀도우 FOR 데일리", "keyword word missing: 펄"),
        ("수분 팩", "수분 FACE 크림 50ml", "keyword word missing: 팩"),
        ("강아지 옷", "강아지 HOT 방석 전기", "keyword word missing: 옷"),
        # nor a keyword's Latin word in a title's Hangul, where native words abound (옷 for HOT, 이고 for ECO)
        ("ECO 샴푸", "이고 샴푸", "keyword word missing: eco"),
        ("HOT 팩", "옷 압축 팩 진공 10매", "keyword word missing: hot"),
        # a second reviewer's: English words of vowel letters, an English word's other sounds
        ("여아 원피스", "여름 원피스 LOVE YOU 프린트 여성", "keyword word missing: 여아"),
        ("캠핑 고기 불판", "캠핑 COKE 불판", "keyword word missing: 고기"),
        ("실리콘 이어 패드", "실리콘 EYE 패드 속눈썹 연장", "keyword word missing: 이어"),
        # a word of one syllable is not read at all (TEA spells 더 and 티)
        ("수분 더 크림", "수분 TEA 크림", "keyword word missing: 더"),
        # a vowel letter has no consonant to read inside a name
        ("돌체구스토 지니오플러스 머신", "Dolce Gusto Genio A Plus 머신", "keyword word missing: 지니오플러스"),
        # A Latin word of three letters with two consonants is read by its vowels too, or by its letters' names: LED
        # has the consonants of 라이트 (a blind reader's BALMUDA The Lantern for The Light, at a quarter of its
        # price, undoubted), TOP is 티오피 by its letters.
        ("발뮤다 더 라이트", "발뮤다 더 랜턴 L02A LED 무드등 블랙", "keyword word missing: 라이트"),
        ("맥심 티오피 스위트 아메리카노 275ml 20캔", "동서 맥심 TOP 스위트아메리카노 275mL x 20캔", None),
        ("삼성 갤럭시 탭 S9", "삼성 갤럭시 TAB S9 WiFi", None),
        ("루이비통 스피디 백", "Louis Vuitton Speedy BAG 30 모노그램", None),
        ("모나미 펜 세트", "모나미 FUN SET 12색", "keyword word missing: 펜"),  # a reviewer's: FUN, PIN are no 펜
        # Another Hangul spelling of a keyword's loanword is read across a title's spaces too, a stretch of three
        # syllables or more (the 127th reader's Doritos, the 122nd's Le Pliage)
        ("롯데 도리토스 나쵸치즈맛 84g 8개", "롯데 Doritos 나초 치즈 84g x 8봉", None),
        ("롱샴 르플리아쥬 오리지널 M 토트백", "LONGCHAMP 롱샴 르 플리아주 오리지날 M 토트백 블랙", None),
        ("롯데 도리토스 나쵸치즈맛 84g 8개", "롯데 도리토스 나초 칩스 84g 8개", "keyword word missing: 나쵸치즈"),
        # a stretch starts where a title word starts ("이번주 얼리버드" holds 주얼리: a second reader's)
        ("판도라 쥬얼리 팔찌", "판도라 팔찌 이번주 얼리버드 특가", "keyword word missing: 쥬얼리"),
        # and ends where one ends; a word of one syllable is read only as the keyword writes it (a reviewer's)
        ("포도쥬스 750ml", "샤또 포도주 스크류캡 750ml 레드와인", "keyword word missing: 쥬스"),
        ("쿨매트 싱글", "꿀잠 꿀 매트 싱글 토퍼", "keyword word missing: 쿨"),
        # and a loanword the analyzer splits (블루 + 레이), its two l's one
        ("너의 이름은 블루레이 일반판", "너의 이름은. (Blu-ray) 1disc 일반판 정식발매", None),
    ],
)
def test_a_short_loanword_is_found_in_a_latin_title_word_by_its_sounds(keyword: str, title: str, reason: Any):
    assert verdict(keyword, title) == reason


@pytest.mark.parametrize(
    ("phrase", "read"),
    [
        ("genio s plus", "지니오에스플러스"),
        # a letter or a two-letter word at either end is a model's, not part of a name
        ("genio plus s", "지니오플러스 s"),
        ("mx genio plus", "mx 지니오플러스"),
    ],
)
def test_only_a_letter_inside_latin_words_is_read_as_part_of_a_glued_name(phrase: str, read: str):
    assert Spellings(["지니오에스플러스", "지니오플러스"]).respell(phrase) == read


def test_another_spelling_across_a_space_is_written_as_the_keyword_writes_it_the_spaces_kept():
    assert Spellings(["나쵸치즈"]).respell("doritos 나초 치즈 84g") == "doritos 나쵸 치즈 84g"
    # a word of two syllables is read only as a whole run, never across a space
    assert Spellings(["쵸코"]).respell("초 코 쿠키") == "초 코 쿠키"


def test_a_short_latin_word_with_a_leading_vowel_is_read_by_its_vowels_too():
    # "and" has the consonants of 언더 (N, T) after its leading vowel: too few to tell (a second reader's)
    assert Spellings(["언더", "아머"], ["언더아머"]).respell("black and white 티셔츠") == "black and white 티셔츠"


def test_only_a_run_of_an_initialisms_length_is_read_by_its_letters_names():
    assert "알티지" in initialism_readings("rtg")
    assert initialism_readings("abcde") == ()  # a longer run is a word, and its readings would multiply
