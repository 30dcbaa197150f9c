"""Loanwords: a word in Latin letters and its Hangul spelling are one word to a Korean reader ("와이파이" is "Wi-Fi",
"마스터" is "Master", "갤럭시" is "Galaxy").

Back offices and sellers write brand and model words in either script, and no list keeps up with them. So both
spellings are reduced to what Korean loanword spelling keeps of a word: its consonants, each as the class a Hangul
letter writes it with (f, p, ph, b and v as ㅍ/ㅂ; s, sh and th as ㅅ, th also as ㅌㅎ, as in 라이트하우스, and a t
before "i" and a vowel inside a word as ㅅ too, as in 에센셜 (not at its start: 티아라); z, j and ch as ㅈ/ㅊ; an r
that no vowel follows is not written, as in 마스터; an n before a k sound is ㅇ, as in 탱크, which holds a k before a
t, as in 인스팅트, and an ng may have its g heard again, as in 싱글; a gh inside a word is silent, as in 나이트; an s
after t or d is ㅊ/ㅈ, as in 버즈, and so is an s voiced between vowels or before a voiced consonant where three
letters are left, as in 베이직; sch is ㅅ, as in 보쉬, or ㅅㅋ, as in 스쿨; the r of a final "re" may go unwritten, as
in 애니웨어; a fu may be 후, as in 후지필름, in a long word; a name that starts with "one" has the w it is said with,
as in 원터치), with the vowels dropped, since Hangul puts ㅡ between consonants that English runs together and English
vowels have no one spelling.
What a word starts with is kept: a vowel (Hangul's ㅇ: "oled" is 올레드, not 라이트), or a w or y before a vowel,
which Hangul writes in the vowel after ㅇ (와, 예).

Two words with the same skeleton of at least two consonants are taken as one. A false pair can only make one
keyword word look present; every other rule still judges the title, and a word too short to tell (에어, "LG") is
left to the small list of spellings in `identity`.

Two Hangul spellings of one loanword are one word too (모이스춰/모이스처, 블랜더/블렌더, 후라이팬/프라이팬,
릿첼/리첼): read a syllable at a time with only what loanword spellings vary left out
(`hangul_sounds`), narrowed so that native and Sino-Korean words stay apart (좌석 is no 자석, 꿀잠 no 쿨잠).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from itertools import accumulate, pairwise, product
from math import prod
from typing import NamedTuple

from actors.matching.sounds import LETTER_NAMES, initialism_readings, latin_spelling

#: How few consonants a skeleton needs before two words are taken as one.
_MIN_SKELETON = 2
#: A skeleton of this many consonants or fewer (a leading vowel's mark aside: "and" is VNT), in a Latin word of this
#: many letters or fewer, tells too little alone ("led" and 라이트 are both LT): the vowels must agree too
#: (`_told_by_its_consonants`).
_SHORT_SKELETON = 2
_SHORT_WORD = 3
#: How long a skeleton must stay where a reading drops a letter that may be silent: a final "re"'s r counts the
#: leading vowel's mark too ("anywhere", ㅇㄴㅇ), a final s after a vowel only consonants ("traderjoes"; "plus" is
#: no 블루).
_LONG_ENOUGH = 3
#: How long a skeleton must be where "fu" is read as 후: four consonants ("fujifilm", ㅎㅈㅍㄹㅁ).
_FU_LONG_ENOUGH = 4
#: "one" at the start of a name, said with a w its spelling does not write ("onetouch", "oneplus"): not "one" alone,
#: which would read as the 원 of every price ("5000원"), nor before a vowel (a name such as "oneida").
_SPOKEN_WITH_A_W = re.compile(r"one(?=[^aeiou])")
#: How many readings of a Latin word are tried at most (each unsure letter doubles them).
_MAX_READINGS = 64

# --- Latin letters -------------------------------------------------------------------------------------------

_VOWELS = frozenset("aeiouy")
#: Consonants an s before them is voiced by ("osmo" is 오즈모).
_VOICED = frozenset("bdglmnv")
#: English letter groups first (longest), then single letters.
_LATIN_TOKEN = re.compile(r"tion|tch|dge|sch|ph|th|sh|ch|ck|qu|wh|gh|ng|[dt]s(?![aeiouy])|[a-z]")
#: What each group may sound like, as the Hangul consonant class that writes it (several where English is not sure:
#: the g of "galaxy" and of "logitech", the ch of "chip" and of "chrome").
_LATIN_SOUNDS: dict[str, tuple[str, ...]] = {
    "tion": ("SN",),  # 션
    "sch": ("S", "SK"),  # "bosch" is 보쉬, "school" 스쿨
    "tch": ("J",),
    "dge": ("TJ",),  # 엣지, 브릿지
    "ph": ("P",),
    "th": ("S", "T", "TH"),  # "lighthouse" is 라이트하우스: a t and an h of two parts
    "sh": ("S",),
    "ch": ("J", "K"),
    "ck": ("K",),
    "qu": ("K",),  # the w is in the vowel after a consonant (쿼), which the Hangul side does not keep either
    "wh": ("W", "H"),  # "white" is 화이트, "whale" 웨일
    "ng": ("ŋ", "ŋK"),  # "single" is 싱글, "angle" 앵글: the g may be heard again
    "ts": ("TS", "J"),  # "sports" is 스포츠, "buds" 버즈: an s after t or d is written with ㅊ/ㅈ
    "ds": ("TS", "J"),
    "b": ("P",), "p": ("P",), "f": ("P",), "v": ("P",),
    "d": ("T",), "t": ("T",),
    "k": ("K",), "q": ("K",),
    "s": ("S",), "z": ("J", "S"), "j": ("J",), "x": ("KS",),
    "l": ("L",), "r": ("L",),
    "m": ("M",), "n": ("N",), "h": ("H",),
}  # fmt: skip


def _latin_sounds(token: str, following: str, *, first: bool) -> tuple[str, ...]:
    """The classes one English letter group may be written with, given the letters after it and whether it starts
    the word (`first`)."""
    before_vowel = following[:1] in _VOWELS
    if token in _VOWELS:
        # A w or y that starts a syllable is a glide Hangul writes (위, 예); elsewhere it is a vowel.
        return ("Y",) if token == "y" and before_vowel else ("",)
    if token == "w":
        return ("W",) if before_vowel else ("",)
    if token == "r" and not before_vowel:
        return ("",)  # "master" is 마스터: an r no vowel follows is not written (but `_european_r`)
    if token == "c":
        return ("S",) if following[:1] in ("e", "i", "y") else ("K",)
    if token == "g":
        return ("K", "J") if following[:1] in ("e", "i", "y") else ("K",)
    if token == "t" and following[:1] == "u":
        return ("T", "J")  # "vertuo" is 버츄오, "virtual" 버추얼
    if token == "t" and following[:1] == "i" and following[1:2] in _VOWELS and not first:
        # "essential" is 에센셜, "patio" 파티오: inside a word, a t before "i" and a vowel may be an sh (not at its
        # start: "tiara" is 티아라, a reviewer's)
        return ("T", "S")
    if token == "ng" and before_vowel:
        return ("ŋK", "NK", "NJ")  # "finger", "ranger"
    if token == "n" and following[:1] in ("k", "q", "c", "x"):
        return ("ŋ", "N")  # "tank" is 탱크, "pink" 핑크: an n before a k sound is written with ㅇ
    if token == "gh":
        return ("", "P")  # "light" is 라이트, "tough" 터프 (a word's first gh is a g: `latin_skeletons`)
    return _LATIN_SOUNDS.get(token, ("",))


#: How many consonants a word read with its r's written must keep: "board" would be 보르드, a skeleton 폴더 shares.
_EUROPEAN_R_LONG_ENOUGH = 4


def _european_r(tokens: list[str], choices: list[tuple[str, ...]]) -> list[tuple[str, ...]] | None:
    """The word's sounds with every r no vowel follows written, as a European name's is, with a vowel of its own
    ("MARKUS" is 마르쿠스, "TRETUR" 트레투르: the sixty-second reader's IKEA names), where each such r follows a vowel
    written with one letter (not "board", "hour"); None where it has no such r."""
    unwritten = [
        index
        for index, token in enumerate(tokens)
        if token == "r" and choices[index] == ("",) and index > 0 and tokens[index - 1] in _VOWELS
    ]
    if not unwritten or any(index > 1 and tokens[index - 2] in _VOWELS for index in unwritten):
        return None
    return [("L",) if index in unwritten else sounds for index, sounds in enumerate(choices)]


def _k_between_n_and_t(tokens: list[str], index: int) -> bool:
    """Whether the letter group at `index` is a k sound after an n and before a t ("instinct", "function"). Not
    before another consonant, where Hangul writes it ("links" is 링크스, "Pinkfong" 핑크퐁, no 핑퐁)."""
    return (
        tokens[index] in ("c", "k", "ck", "q")
        and 0 < index < len(tokens) - 1
        and tokens[index - 1] == "n"
        and tokens[index + 1].startswith("t")
    )


def _voiced_s(tokens: list[str], index: int) -> bool:
    """Whether the letter group at `index` is an s said as a z: after a vowel, before a vowel or a voiced consonant;
    or ending the word after an e, as English says "-es" ("Series" is 시리즈: the sixty-fourth reader's Xbox)."""
    following = tokens[index + 1][:1] if index + 1 < len(tokens) else ""
    return (
        tokens[index] == "s"
        and index > 0
        and tokens[index - 1] in _VOWELS
        and (following in _VOWELS or following in _VOICED or (not following and tokens[index - 1] == "e" and index > 1))
    )


def _collapsed(classes: Iterable[str]) -> str:
    """Classes joined, a repeated class once ("apple", 갤럭시's ㄹㄹ)."""
    joined = "".join(classes)
    return re.sub(r"(.)\1+", r"\1", joined)


def _long_enough(classes: Iterable[str]) -> bool:
    """Whether a word writes enough consonants to tell it: counted after a repeated class is merged, so 쿠쿠 (ㅋ twice)
    counts one and tells nothing (it would be "cook", "cake" and "quick" alike)."""
    return len(_collapsed(classes).replace("V", "")) >= _MIN_SKELETON


@lru_cache(maxsize=1 << 12)
def latin_skeletons(word: str) -> frozenset[str]:
    """Every skeleton a word in Latin letters may have ("airpods" also without its plural s, "traderjoes" without a
    possessive's: 트레이더조, while "hills" keeps it: 힐스)."""
    letters = re.sub(r"[^a-z]", "", word.lower())
    if not _VOWELS.intersection(letters):
        # No vowel: letters read by their names, not a word ("SWC", "BMW"), which `sounds.initialism_readings` reads;
        # as a word "swc" would be 색 (ㅅㄱ), and "32색" would write it.
        return frozenset()
    tokens = _LATIN_TOKEN.findall(letters)
    choices: list[tuple[str, ...]] = []
    for index, token in enumerate(tokens):
        following = "".join(tokens[index + 1 : index + 3])  # the next two groups: "ti" before a vowel
        choices.append(("K",) if index == 0 and token == "gh" else _latin_sounds(token, following, first=index == 0))
    # A word that starts with a vowel starts with ㅇ in Hangul: "oled" (올레드) is not 라이트. So does an English word
    # that starts with x, read "ex" (엑스박스 for "Xbox", 익스트림 for "Xtreme").
    lead = "V" if tokens and (tokens[0] == "x" or (tokens[0] in _VOWELS and choices[0] == ("",))) else ""
    skeletons = _skeletons(lead, choices)
    held = {index for index in range(len(tokens)) if _k_between_n_and_t(tokens, index) and choices[index] == ("K",)}
    if held:
        # "instinct" is 인스팅트, "function" 펑션: the ㅇ of an n before a k sound holds the k where a t follows it,
        # and Hangul leaves it unwritten; only so, since an n read as ㄴ with the k gone reads "instinct" as 인스턴트
        # and "junction" as 전선 (a reviewer's)
        unwritten_k = [
            ("ŋ",) if index + 1 in held else ("",) if index in held else sounds for index, sounds in enumerate(choices)
        ]
        skeletons |= _skeletons(lead, unwritten_k)
    voiced = [("J",) if _voiced_s(tokens, index) else sounds for index, sounds in enumerate(choices)]
    if voiced != choices:
        # A voiced s is written ㅈ ("basic" is 베이직, "vision" 비전, "osmo" 오즈모), where three letters of skeleton
        # are left: with two, "casio" read as 키즈 and "bose" as 버즈 (a reviewer's).
        skeletons |= {found for found in _skeletons(lead, voiced) if len(found) >= _LONG_ENOUGH}
    if "f" in tokens and any(token == "f" and following == "u" for token, following in pairwise(tokens)):
        # A "fu" is written 후 in names taken from Japanese ("Fujifilm" is 후지필름), where four consonants are left:
        # fewer read "fuzzy", "fusion" or "future" as Hangul words they are not (a reviewer's 휴센 for FUSION).
        japanese_fu = [
            ("H",) if token == "f" and following == "u" else sounds
            for token, following, sounds in zip(tokens, [*tokens[1:], ""], choices, strict=True)
        ]
        skeletons |= {found for found in _skeletons(lead, japanese_fu) if len(found) >= _FU_LONG_ENOUGH}
    if european := _european_r(tokens, choices):
        skeletons |= {found for found in _skeletons(lead, european) if len(found) >= _EUROPEAN_R_LONG_ENOUGH}
    if _SPOKEN_WITH_A_W.match(letters):
        # "one" is said "wun", which Hangul writes 원 ("One Touch" is 원터치, "OnePlus" 원플러스).
        skeletons |= latin_skeletons("wun" + letters[len("one") :])
    if tokens[-2:] == ["r", "e"]:
        # A final "re" is often 어, its r unwritten ("anywhere" is 애니웨어), where enough is left to tell ("store" is
        # no 세트): the r-less readings need three letters of skeleton.
        unwritten_r = [*choices[:-2], ("",), choices[-1]]
        skeletons |= {found for found in _skeletons(lead, unwritten_r) if len(found) >= _LONG_ENOUGH}
    if len(letters) > 3 and letters.endswith("s") and letters[-2] not in _VOWELS | {"s"}:
        skeletons |= latin_skeletons(letters[:-1])  # Hangul drops the plural: 에어팟 for "AirPods"
    elif len(letters) > 3 and letters.endswith("s") and letters[-2] in _VOWELS:
        # A possessive's or a plural's s after a vowel: dropped only where enough is left to tell ("traderjoes" is
        # 트레이더조; "plus" is no 블루).
        skeletons |= {found for found in latin_skeletons(letters[:-1]) if len(found.replace("V", "")) >= _LONG_ENOUGH}
    return frozenset(skeletons)


def _skeletons(lead: str, choices: list[tuple[str, ...]]) -> set[str]:
    """The skeletons of every reading of a word's letter groups (none when they are too many to try)."""
    readings = prod(len(options) for options in choices)
    chosen_readings = list(product(*choices)) if readings <= _MAX_READINGS else []
    return {lead + _collapsed(chosen) for chosen in chosen_readings if _long_enough(chosen)}


# --- Hangul --------------------------------------------------------------------------------------------------

#: Initial consonant jamo (U+1100 …) by class; ㅇ writes no consonant.
_INITIAL = dict(zip("ᄀᄁᄂᄃᄄᄅᄆᄇᄈᄉᄊᄋᄌᄍᄎᄏᄐᄑᄒ", "KKNTTLMPPSS JJJKTPH", strict=True))
#: Final consonant jamo (U+11A8 …): a final ㅅ is the t of a loanword (엣지, 로봇).
_FINAL = dict(zip("ᆨᆩᆪᆫᆬᆭᆮᆯᆰᆱᆲᆳᆴᆵᆶᆷᆸᆹᆺᆻᆼᆽᆾᆿᇀᇁᇂ", "KKKNNNTLLLLLLLLMPPTTŋTTKTP ", strict=True))
#: Vowels that carry a glide, written after ㅇ: 와 is "wa", 예 is "ye".
_W_VOWELS = frozenset("ᅪᅫᅬᅯᅰᅱ")
_Y_VOWELS = frozenset("ᅣᅤᅧᅨᅭᅲ")


@lru_cache(maxsize=1 << 12)
def hangul_skeleton(word: str) -> str | None:
    """The skeleton of a word in Hangul syllables (None when it has too few consonants to tell)."""
    classes = _hangul_classes(word, inside=False)
    return _collapsed(classes) if _long_enough(classes) else None


def _hangul_classes(word: str, *, inside: bool) -> list[str]:
    """The consonant classes of a word in Hangul syllables; `inside`: it stands inside a longer word, so a leading ㅇ
    writes no vowel mark."""
    classes = []
    for position, syllable in enumerate(word):
        jamo = unicodedata.normalize("NFD", syllable)
        if len(jamo) < 2:
            continue
        initial, vowel, final = jamo[0], jamo[1], jamo[2:3]
        if initial == "ᄋ":
            glide = "W" if vowel in _W_VOWELS else "Y" if vowel in _Y_VOWELS else ""
            classes.append(glide or ("V" if position == 0 and not inside else ""))
        else:
            classes.append(_INITIAL.get(initial, " ").strip())
        if final:
            classes.append(_FINAL.get(final, " ").strip())
    return classes


@lru_cache(maxsize=1 << 12)
def _inner_skeletons(word: str) -> frozenset[str]:
    """The skeletons a Latin word has inside a longer Hangul word: its own, with no leading vowel mark, or, for a single
    letter, its Hangul name's ("s" is the ㅅ of 에스: "Genio S Plus" is 지니오에스플러스); none for a letter whose name
    has no consonant (a, e, i, o), which would read as nothing between the words around it."""
    if len(word) == 1:
        names = (_collapsed(_hangul_classes(name, inside=True)) for name in LETTER_NAMES.get(word, ()))
        return frozenset(name for name in names if name)
    return frozenset(skeleton.removeprefix("V") for skeleton in latin_skeletons(word))


# --- two Hangul spellings of one loanword ------------------------------------------------------------------

#: Vowels with a w glide that loanword spellings keep or drop after a consonant, as the vowel after it (모이스춰/
#: 모이스처, 훼이셜/페이셜). Not ㅘ, ㅚ and ㅙ, nor ㅟ but after ㅅ (쉬림프/시림프): native and Sino-Korean words tell
#: words apart by them (좌석 is no 자석, 퀴즈 no 키즈, "건조되는" no 건조대: a reviewer's).
_UNGLIDED = {"ᅯ": "ᅥ", "ᅰ": "ᅦ"}
_UNGLIDED_AFTER_S = {"ᅱ": "ᅵ"}
#: Vowels with a y glide, as the vowel after it: after ㅈ and ㅊ the glide is not heard (쥬스/주스, 쵸코/초코).
_UNPALATAL = dict(zip("ᅣᅤᅧᅨᅭᅲ", "ᅡᅦᅥᅦᅩᅮ", strict=True))
_PALATAL_INITIALS = frozenset("ᄌᄍᄎ")
#: Tense consonants, as the aspirated ones: French and Italian names are written with either (에끌라/에클라,
#: 까르띠에/카르티에).
_UNTENSED = dict(zip("ᄁᄄᄈᄊᄍ", "ᄏᄐᄑᄉᄎ", strict=True))
#: ㅐ and ㅔ are one sound to today's readers (블렌더/블랜더, 매트리스/메트리스).
_ONE_SOUND = {"ᅢ": "ᅦ"}
#: How long a word must be for a tense consonant or an f written ㅎ to be read as a loanword's: in a shorter one they
#: tell native words apart (꿀잠 is no 쿨잠, 화채 no 파채, 화초 no 파초: a reviewer's).
_FOREIGN_CONSONANTS_LONG_ENOUGH = 3
#: In a word this long, ㅏ, ㅓ and ㅔ spell one English vowel several ways in its last two syllables
#: (오리지널/오리지날, 골드베렌/골드바렌); in a shorter one, or earlier in the word, they tell words apart (블랙 is no
#: 블럭, 마스크 no 머스크, 머리 no 마리, 블랙박스 no 블럭박스). Only in one of the analyzer's words, never across a
#: keyword's glued compound (강아지간식 is no 강아지건식, 텀블러컵 no 텀블러캡: a reviewer's). Reading ㅗ among them
#: and in three-syllable words too (파워락/파워록, 티모시/티머시) was tried and taken back: a reviewer showed 플러스
#: inside 시카플라스트, 글로스 inside 글래스팅, 스커트 inside 마스코트, and 일본판 as 일반판.
_OPEN_VOWELS_LONG_ENOUGH = 4
_OPEN_VOWEL_SYLLABLES = 2
_OPEN_VOWELS = dict.fromkeys("ᅡᅥᅦ", "ᅡ")
#: A coda ㅅ only doubles the consonant after it in a loanword, which sellers write or leave out (릿첼/리첼,
#: 컷터/커터). Not a coda ㄹ before ㄹ, which tells an English l from an r (블러쉬 is no 브러쉬: a reviewer's).
_FINAL_S = "ᆺ"
#: So does a coda ㄴ before a syllable loanwords spell an English n with (닝, 니, 넬, 너, 닉, 넷: 런닝화/러닝화, the
#: sixty-eighth reader's running shoes; 인니스프리, 썬니): not before the syllables of native and Sino-Korean words
#: (안내/아내, 손녀/소녀, 한남/하남, 만년/마년: a reviewer's).
_FINAL_N = "ᆫ"
_LOANWORD_N_SYLLABLES = frozenset(unicodedata.normalize("NFD", syllable) for syllable in "닝니넬너닉넷")


def _doubles(final: str, following: str) -> bool:
    """Whether a coda only doubles the initial consonant of the syllable after it (`following`, its jamo), as loanword
    spellings may or may not write it: ㅅ before any consonant (`_FINAL_S`), ㄴ before a loanword's n syllable
    (`_FINAL_N`)."""
    if final == _FINAL_N:
        return following in _LOANWORD_N_SYLLABLES
    return final == _FINAL_S and following[0] != "ᄋ"


@lru_cache(maxsize=1 << 14)
def hangul_sounds(word: str, *, open_vowels: bool) -> tuple[str, ...] | None:
    """How a Hangul word sounds as a loanword, a syllable at a time, with the differences its spellings make left out:
    a w glide in ㅝ and ㅞ after a consonant (and ㅟ after ㅅ), a y glide after ㅈ or ㅊ, ㅐ against ㅔ, a coda ㅅ
    doubling the consonant after it (릿첼/리첼), a coda ㄴ doubling a loanword's n after it (런닝/러닝); in a word of
    three syllables or more a tense consonant against an aspirated one (에끌라/에클라, ㅆ as ㅅ), an f written ㅎ
    before ㅜ, ㅝ, ㅞ or ㅟ (후라이팬/프라이팬, 훼이셜/페이셜, 휘슬러/피슬러), and 푸 for 프 (콘푸로스트/콘프로스트);
    and, where `open_vowels` (one word, not a compound), in the last two syllables of a word of four or more, ㅏ
    against ㅓ and ㅔ. None: not Hangul syllables only."""
    if not HANGUL_RUN.fullmatch(word):
        return None
    foreign_consonants = len(word) >= _FOREIGN_CONSONANTS_LONG_ENOUGH
    open_from = len(word) - _OPEN_VOWEL_SYLLABLES if open_vowels and len(word) >= _OPEN_VOWELS_LONG_ENOUGH else None
    spelled = [unicodedata.normalize("NFD", syllable) for syllable in word]
    sounds = []
    for position, (jamo, following) in enumerate(zip(spelled, [*spelled[1:], None], strict=True)):
        initial, vowel, final = jamo[0], jamo[1], jamo[2:]
        if following and _doubles(final, following):
            final = ""  # 릿첼 is 리첼
        if foreign_consonants:
            initial = _UNTENSED.get(initial, initial)
            if initial == "ᄒ" and vowel in ("ᅮ", *_UNGLIDED, *_UNGLIDED_AFTER_S):
                # An f written ㅎ: 후 for 프, 훼 for 페, 휘 for 피.
                initial, vowel = "ᄑ", "ᅳ" if vowel == "ᅮ" else _UNGLIDED.get(vowel) or _UNGLIDED_AFTER_S[vowel]
            elif initial == "ᄑ" and vowel == "ᅮ" and not final:
                # An f written 푸 as often as 프 where no vowel follows it in English: 콘푸로스트, 콘프로스트 ("Frost").
                vowel = "ᅳ"
        if initial != "ᄋ":  # after ㅇ a glide is the word's w or y sound (웨이, 요가): kept
            vowel = _UNGLIDED.get(vowel, vowel)
            if initial == "ᄉ":
                vowel = _UNGLIDED_AFTER_S.get(vowel, vowel)
            if initial in _PALATAL_INITIALS:
                vowel = _UNPALATAL.get(vowel, vowel)
        vowel = _ONE_SOUND.get(vowel, vowel)
        if open_from is not None and position >= open_from:
            vowel = _OPEN_VOWELS.get(vowel, vowel)
        sounds.append(initial + vowel + final)
    return tuple(sounds)


def _same_sound_in(run: str, word: str, sounds: tuple[str, ...], *, open_vowels: bool) -> str:
    """`run` (a title's Hangul run) with each stretch that sounds as the keyword's `word` (`sounds`) written as `word`;
    a two-syllable word only as a whole run, since a stretch of a longer run is often another word (바지 in 아버지)."""
    size = len(word)
    if len(run) < size or word in run:
        return run
    if size < 3:
        return word if hangul_sounds(run, open_vowels=open_vowels) == sounds else run
    start = 0
    while start + size <= len(run):
        if hangul_sounds(run[start : start + size], open_vowels=open_vowels) == sounds:
            run = run[:start] + word + run[start + size :]
            start += size
        else:
            start += 1
    return run


# --- a title in the keyword's spelling -----------------------------------------------------------------------


def _one_word_each(runs_by_skeleton: dict[str, set[str]]) -> dict[str, str]:
    """The keyword word each skeleton stands for. A skeleton two of the keyword's words share (애플 and 프로 are both
    ㅍㄹ) cannot tell them apart: neither is respelled by it. So are the analyzer's pieces of a word (클 of 클리오,
    ㅋㄹ as 클리오 is): reading the whole word past them was tried and taken back, since two consonants tell too
    little (COOL, CURL, CLEAR and COLOR all read as 클리오)."""
    return {skeleton: next(iter(runs)) for skeleton, runs in runs_by_skeleton.items() if len(runs) == 1}


HANGUL_RUN = re.compile(r"[가-힣]+")
#: Hangul runs written apart by single spaces ("나초 치즈").
_SPACED_HANGUL = re.compile(r"[가-힣]+(?: [가-힣]+)+")
#: How many syllables a keyword's word needs to be read by its sounds across a title's spaces: a stretch of two is as
#: often two words' ends (`_same_sound_in` reads a word of two only as a whole run).
_SOUNDED_ACROSS_A_SPACE = 3
_LATIN_RUN = re.compile(r"[a-z]+(?:-[a-z]+)*")
#: Latin words in a row, whole.
_LATIN_PHRASE = re.compile(r"(?<![a-z])[a-z]+(?:-[a-z]+)*(?: [a-z]+(?:-[a-z]+)*)*(?![a-z])")
#: "Dr." before a name, read "doctor" as Korean spells it (닥터마틴 for "Dr.Martens"): an abbreviation no sound rule
#: derives, and the letters without a vowel have no sound of their own (`latin_skeletons`).
_DOCTOR = re.compile(r"(?<![a-z])dr(?:\.\s?|\s)(?P<name>[a-z][a-z']+)")
#: How many Latin words one Hangul word may stand for: more let another model's name read as the keyword's by its
#: consonants ("Nike Air Max Pulse" as 나이키에어맥스플러스, "Converse Chuck Taylor All Star Light" as …리프트: a
#: reviewer's), since vowels are not read.
_MAX_PHRASE = 3
#: How many syllables a Hangul word needs to be read by its sounds (`sounds`): a word of one is as often a native
#: word an English one spells ("for" is 펄 and 폴, "face" 팩, "hot" 옷, "tea" 더: a reviewer's).
_SOUNDED_SYLLABLES = 2


class _Sounding(NamedTuple):
    """How a keyword's Hangul word sounds (`hangul_sounds`), and whether it is one of the analyzer's words (open vowels
    are read only in one)."""

    sounds: tuple[str, ...]
    one_word: bool


#: How many titles one keyword's reading remembers respelled: several searches' offers, never a history's.
_TITLES_REMEMBERED = 2048


class Spellings:
    """The keyword's loanwords, to write a title's other spelling of them (the other script, or another Hangul
    spelling) as the keyword does."""

    def __init__(self, word_runs: Iterable[str], whole_runs: Iterable[str] = ()) -> None:
        """`word_runs`: the runs of the keyword's words as the analyzer splits them; `whole_runs`: the keyword's Hangul
        runs as typed, which may glue several words (a loanword the analyzer split, or a compound)."""
        word_runs = tuple(word_runs)
        keyword_runs = (*word_runs, *whole_runs)
        hangul: dict[str, set[str]] = {}
        latin: dict[str, set[str]] = {}
        for run in keyword_runs:
            if HANGUL_RUN.fullmatch(run):
                if skeleton := hangul_skeleton(run):
                    hangul.setdefault(skeleton, set()).add(run)
            elif _LATIN_RUN.fullmatch(run) and len(run) >= 3:
                for skeleton in latin_skeletons(run):
                    latin.setdefault(skeleton, set()).add(run)
        self.hangul_by_skeleton = _one_word_each(hangul)
        #: The keyword's Hangul words of two syllables or more, with how they sound, to read another Hangul spelling
        #: of them as the keyword's.
        self.soundings = {
            run: _Sounding(sounds, run in word_runs)
            for run in keyword_runs
            if len(run) > 1 and (sounds := hangul_sounds(run, open_vowels=run in word_runs)) is not None
        }
        self.latin_by_skeleton = _one_word_each(latin)
        #: The keyword's Hangul runs, where an initialism may be written by its letters' names ("초임계알티지" holds
        #: "rTG" as 알티지).
        self.hangul_runs = tuple(dict.fromkeys(run for run in keyword_runs if HANGUL_RUN.fullmatch(run)))
        #: The keyword's Hangul words of two syllables or more spelled in Latin letters vowels and all (`sounds`): what
        #: reads a title's Latin word (or words) the consonant skeletons did not, those too short to tell by their
        #: consonants first ("ikea" is 이케아).
        self.sounded = {
            run: spelling
            for run in keyword_runs
            if len(run) >= _SOUNDED_SYLLABLES and (spelling := latin_spelling(run)) is not None
        }
        #: The keyword's Latin runs, short ones too, longest first: the tail of a word it writes in both scripts
        #: ("마이크로SD"); the order makes the reading the same in every process.
        latin_runs = {run for run in keyword_runs if _LATIN_RUN.fullmatch(run)}
        self.latin_runs = tuple(sorted(latin_runs, key=lambda run: (-len(run), run)))
        #: Each title respelled once: every rule that reads the keyword's spelling asks for it (one search's titles,
        #: or a few searches' where the matcher keeps the keyword's reading: bounded by `_TITLES_REMEMBERED`).
        self._respelled: dict[str, str] = {}

    def respell(self, title: str) -> str:
        """`title` (lower case) with each word the keyword writes in the other script written as the keyword does:
        for "로지텍MX마스터3S", "mx master 3s" reads "mx 마스터 3s"; for "다이슨에어스트레이트", "dyson airstrait" reads
        "다이슨에어스트레이트"; for "wifi", "와이파이" reads "wifi"; for "모이스처라이징", "모이스춰라이징" reads
        "모이스처라이징"."""
        if (respelled := self._respelled.get(title)) is None:
            if len(self._respelled) >= _TITLES_REMEMBERED:
                self._respelled.clear()
            respelled = self._respelled[title] = self._respell(title)
        return respelled

    def _respell(self, title: str) -> str:
        if self.hangul_by_skeleton or self.sounded:
            title = _DOCTOR.sub(self._doctor_as_hangul, title)
            title = _LATIN_PHRASE.sub(self._as_hangul, title)
        if self.latin_by_skeleton:
            title = HANGUL_RUN.sub(self._as_latin, title)
        if self.soundings:
            title = HANGUL_RUN.sub(self._as_keyword_hangul, title)
            title = _SPACED_HANGUL.sub(self._spaced_as_keyword_hangul, title)
        return title

    def _spaced_as_keyword_hangul(self, match: re.Match[str]) -> str:
        """Hangul runs written apart, with each stretch of whole title words, three syllables or more, that sounds as
        one of the keyword's Hangul words (or its whole runs) written as it, the spaces kept where they were ("나초
        치즈맛" for 나쵸치즈맛 reads "나쵸 치즈맛", which the keyword's 나쵸치즈 finds, spaces allowed between its
        syllables). Whole words only: a stretch from inside one read "이번주 얼리버드" as 쥬얼리 (a second reader's) and
        "포도주 스크류캡" as 포도쥬스 (a reviewer's). A word of one syllable among them is read only as the keyword
        writes it: alone it tells no spelling from another word ("꿀 스틱" is no 쿨스틱: a reviewer's)."""
        phrase = match.group()
        parts = phrase.split(" ")
        joined = "".join(parts)
        bounds = list(accumulate((len(part) for part in parts), initial=0))
        respelled = joined
        for word, sounding in self.soundings.items():
            size = len(word)
            if size < _SOUNDED_ACROSS_A_SPACE or word in respelled:
                continue
            for start, end in ((start, start + size) for start in bounds[:-1] if start + size in bounds):
                stretch = respelled[start:end]
                if _one_syllable_words_differ(stretch, word, [b - start for b in bounds if start <= b <= end]):
                    continue
                if hangul_sounds(stretch, open_vowels=sounding.one_word) == sounding.sounds:
                    respelled = respelled[:start] + word + respelled[end:]
        if respelled == joined:
            return phrase
        written = list(respelled)  # a stretch is replaced by a word of as many syllables: the spaces go back in place
        for index in (index for index, char in enumerate(phrase) if char == " "):
            written.insert(index, " ")
        return "".join(written)

    def _doctor_as_hangul(self, match: re.Match[str]) -> str:
        """A name after "Dr." written as the keyword's Hangul word that reads it with "doctor" (닥터마틴 for
        "Dr.Martens", 닥터브라운 for "Dr. Brown's"); as written when the keyword has none."""
        return self._hangul_for(["doctor" + match["name"]]) or match.group()

    def _as_hangul(self, match: re.Match[str]) -> str:
        """A phrase of Latin words, each run of up to three of them that sounds like one of the keyword's Hangul
        words written as it (a keyword glues words a title spaces: 다이슨에어스트레이트, "Dyson Airstrait";
        지니오에스플러스, "Genio S Plus")."""
        words = match.group().split(" ")
        written: list[str] = []
        start = 0
        while start < len(words):
            for length in range(min(_MAX_PHRASE, len(words) - start), 0, -1):
                window = words[start : start + length]
                if length > 1 and not _a_name_of_words(window):
                    continue  # the "s" of "galaxy s24" is the model's, not part of a name
                if hangul := self._hangul_for(window):
                    # The fewest words that read as it: "canon" alone is 캐논, so "canon eos" leaves "eos" a word.
                    length = next(n for n in range(1, length + 1) if self._hangul_for(window[:n]) == hangul)
                    written.append(hangul)
                    start += length
                    break
            else:
                written.append(self._by_parts(words[start]))
                start += 1
        return " ".join(written)

    def _by_parts(self, word: str) -> str:
        """A Latin word that does not read whole, read a hyphenated part at a time ("gel-kayano" for 젤 카야노 reads
        "젤-카야노"; "wi-fi" reads whole, as 와이파이)."""
        if "-" not in word:
            return self._mixed(word)
        return "-".join(self._hangul_for([part]) or self._mixed(part) for part in word.split("-"))

    def _mixed(self, word: str) -> str:
        """A Latin word that the keyword writes half in Hangul: its head sounding like a Hangul word of the keyword and
        its tail one of the keyword's Latin runs ("microsd" for 마이크로SD reads "마이크로sd")."""
        for tail in self.latin_runs:
            if word.endswith(tail) and (hangul := self._hangul_for([word[: -len(tail)]])):
                return hangul + tail
        return word

    def _hangul_for(self, words: list[str]) -> str | None:
        """The keyword's Hangul word a Latin word, or a few written apart, sound like; None when they sound like none or
        like two of them ("thin" read as 신 and as 틴): a word read two ways is read as written, not by a set's order.
        Words written apart are read together and each on its own, one after the other: "brilliant shine" is
        브릴리언트샤인, though "tsh" read as one string is no 트샤."""
        joined = "".join(words).replace("-", "")
        if len(joined) < 3:
            return None
        skeletons = latin_skeletons("".join(words))
        if len(words) > 1:
            first, *rest = words
            skeletons |= {_collapsed(parts) for parts in product(latin_skeletons(first), *map(_inner_skeletons, rest))}
        found = {
            run
            for skeleton in skeletons
            if (run := self.hangul_by_skeleton.get(skeleton)) is not None
            and _told_by_its_consonants(run, joined, skeleton)
        }
        # A letter inside the words is read by its name, which the Hangul word must write: its consonant alone would
        # read "Tab A" as 탭에스 and let "Keys S" merge into 키스 (a reviewer's).
        letters = [word for word in words[1:-1] if len(word) == 1]
        found = {run for run in found if all(any(name in run for name in LETTER_NAMES[letter]) for letter in letters)}
        if not found:
            found = {run for run, spelling in self.sounded.items() if spelling.fullmatch(joined)}
        if not found and len(words) == 1:
            found = self._initialism_inside(joined)
        return found.pop() if len(found) == 1 else None

    def _initialism_inside(self, latin: str) -> set[str]:
        """A Latin word read by its letters' names where a keyword's Hangul run writes it so inside ("rtg" for
        초임계알티지, "iso" for 아이에스오100): a keyword glues an initialism to its words in Hangul, a title writes
        it in its letters. What is found is the reading, which the keyword's word then finds in the title."""
        return {reading for reading in initialism_readings(latin) if any(reading in run for run in self.hangul_runs)}

    def _as_keyword_hangul(self, match: re.Match[str]) -> str:
        """A title's Hangul run with each stretch that sounds as one of the keyword's Hangul words written as it."""
        run = match.group()
        for word, sounding in self.soundings.items():
            run = _same_sound_in(run, word, sounding.sounds, open_vowels=sounding.one_word)
        return run

    def _as_latin(self, match: re.Match[str]) -> str:
        skeleton = hangul_skeleton(match.group())
        latin = self.latin_by_skeleton.get(skeleton) if skeleton else None
        return latin or match.group()


def _one_syllable_words_differ(stretch: str, word: str, bounds: list[int]) -> bool:
    """Whether a title word of one syllable inside `stretch` (its words' bounds, from 0 to its end) is written otherwise
    than the keyword's `word` writes that syllable."""
    return any(end - start == 1 and stretch[start] != word[start] for start, end in pairwise(bounds))


def _told_by_its_consonants(run: str, latin: str, skeleton: str) -> bool:
    """Whether a Latin word with the Hangul word's consonant skeleton is that word. Two consonants in a word of three
    letters tell little ("led" and 라이트 are both LT; "pot", "pad" and 핏 all PT): there its vowels must be the
    Hangul word's too (`sounds.latin_spelling`: "lite" is 라이트, "pot" 팟), or its letters' names must spell it, an
    initialism's ("top" is 티오피). A longer skeleton, or a longer word, is told by its consonants."""
    if len(skeleton.replace("V", "")) > _SHORT_SKELETON or len(latin) > _SHORT_WORD:
        return True
    spelling = latin_spelling(run)
    return (spelling is not None and spelling.fullmatch(latin) is not None) or run in initialism_readings(latin)


def _a_name_of_words(window: list[str]) -> bool:
    """Whether Latin words written apart may be one glued Hangul word's: words of three letters or more, and single
    letters inside them, read by their names ("Genio S Plus"); not a letter or a short word at either end ("galaxy s",
    "mx master"), where it is a model's."""
    first, *inner, last = window
    return len(first) >= 3 and len(last) >= 3 and all(len(word) == 1 or len(word) >= 3 for word in inner)
