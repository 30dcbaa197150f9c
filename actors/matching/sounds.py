"""A Hangul word read back into the Latin letters that may spell its sounds, vowels and all: "IKEA" for 이케아, "Tide"
for 타이드, "NANO" for 나노, "Blu-ray" for 블루레이.

The loanword skeletons (`loanwords`) compare consonants only, so a word of one or two consonants tells nothing by them
(이케아 is just a k). Its vowels tell it: each Hangul letter is written in English with only a few letters or letter
groups (ㅋ as k, c, ck, q; ㅔ as e, a, ai, ay …), a pair of syllables that Hangul uses for one English vowel (아이 for
the i of "tide", 에이 for the a of "cake") as that vowel, and ㄹㄹ across two syllables as one l or two ("blu" is 블루,
"illy" 일리). A Latin word is the Hangul word's where it is written so whole, from its first letter to its last:
"ikea" is 이케아 (이 ㅋ ㅔ 아).

The tables are narrow on purpose: English words that spell a Korean word's sounds are everywhere in titles (YOU,
BABY, FOR, HOT), and each spelling a reviewer showed letting one through is left out (each limit is noted where it
is). A word of vowels only has no spelling; `loanwords.Spellings` reads only words of two syllables or more.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from itertools import product

#: How a Latin letter is read by its name in Hangul (several where sellers write it several ways: 씨 and 시 for C):
#: an initialism's reading (`initialism_readings`) and a letter's inside a glued name (`loanwords`).
LETTER_NAMES: dict[str, tuple[str, ...]] = {
    "a": ("에이",), "b": ("비",), "c": ("씨", "시"), "d": ("디",), "e": ("이",), "f": ("에프",), "g": ("지", "쥐"),
    "h": ("에이치", "에치"), "i": ("아이",), "j": ("제이",), "k": ("케이",), "l": ("엘",), "m": ("엠",), "n": ("엔",),
    "o": ("오",), "p": ("피",), "q": ("큐",), "r": ("알",), "s": ("에스",), "t": ("티",), "u": ("유",),
    "v": ("브이", "비"), "w": ("더블유",), "x": ("엑스",), "y": ("와이",), "z": ("지", "제트"),
}  # fmt: skip


#: An initialism: a Latin run this short is read letter by letter ("MLE" is 엠엘이, "LG" 엘지, "TV" 티비); a longer one
#: is a word (`loanwords`), and its readings would multiply (five letters have two names each).
INITIALISM_LETTERS = range(2, 5)


def initialism_readings(word: str) -> tuple[str, ...]:
    """A word of Latin letters read as an initialism, each letter by its Hangul name, every way sellers write them
    ("top": 티오피, "mle": 엠엘이); none where it holds another character or is no initialism's length."""
    if not (word.isascii() and word.isalpha()) or len(word) not in INITIALISM_LETTERS:
        return ()
    return tuple("".join(names) for names in product(*(LETTER_NAMES[letter] for letter in word.lower())))


#: How each initial consonant may be written (ㅇ writes none). Not a k or a c as ㄱ, which loanwords write ㅋ (COKE
#: is 코크, CORGI 코기: neither is 고기), nor a ch as ㅋ (CHOCO is no 코코, ECHO no 에코: a reviewer's).
_INITIALS = {
    "ᄀ": "g|gh", "ᄁ": "k|c|g|ck", "ᄂ": "n|kn|gn", "ᄃ": "d|t|th", "ᄄ": "t|d", "ᄅ": "r|l|rh", "ᄆ": "m",
    "ᄇ": "b|v|p", "ᄈ": "p|b", "ᄉ": "s|c|sh|th|z|sc", "ᄊ": "s|c|z", "ᄋ": "",
    "ᄌ": "j|g|z|ch|ds|dz", "ᄍ": "j|z|tz|ts", "ᄎ": "ch|tch|c|ts|tz|j|t",
    "ᄏ": "k|c|ck|q|kh|qu", "ᄐ": "t|th", "ᄑ": "p|f|ph", "ᄒ": "h|wh",
}  # fmt: skip
#: How each vowel may be written; ㅡ is the vowel Hangul puts between consonants English runs together, so none. Never
#: a lone o for ㅏ, ㅓ or ㅜ (NANO is no 나누, BIO no 비어, OTTO no 아토), but for ㅏ before a final consonant, the
#: short o of American English (팟 is "pot", 탑 "top", 핫 "hot"); never a u for ㅏ (BUGGY is no 바지), nor an e for
#: ㅣ (ELLE is no 일리, ARE no 아리): reviewers'.
_VOWELS = {
    "ᅡ": "a|ar|ah", "ᅢ": "a|e|ae|ai", "ᅣ": "ya|ia", "ᅤ": "ya|ia",
    "ᅥ": "u|e|er|ir|ur|or|a|ea", "ᅦ": "e|a|ai|ay|ae|ei|ea", "ᅧ": "ye|yo|io|ea|ia|yu|eo", "ᅨ": "ye|ie",
    "ᅩ": "o|oa|ow|au|aw|oe|or|oh", "ᅪ": "wa|oa|ua", "ᅫ": "wa", "ᅬ": "we|oi", "ᅭ": "yo|io|eo",
    "ᅮ": "u|oo|ou|ew|ue", "ᅯ": "wo|wa|uo|ua|wor|war", "ᅰ": "we|ue|wa", "ᅱ": "wi|ui|wee",
    "ᅲ": "u|yu|ew|eu|iu|ue", "ᅳ": "e|i|u|o|", "ᅴ": "ui|i", "ᅵ": "i|ee|ea|y|ie",
}  # fmt: skip
#: How each final consonant may be written.
_FINALS = {
    "ᆨ": "k|c|ck|q|g", "ᆫ": "n", "ᆯ": "l", "ᆷ": "m", "ᆸ": "p|b", "ᆺ": "t|s|d|th", "ᆼ": "ng|n",
    "ᆮ": "t|d", "ᆻ": "t|s",
}  # fmt: skip
#: ㅡ, which Hangul writes between consonants English runs together: an s before another consonant or ending the word
#: is written 스, an sh 시 or 쉬.
_NO_VOWEL = "ᅳ"
_S_BEFORE_A_CONSONANT = "s|c|z|sc"
_FINAL_L = "ᆯ"
_A = "ᅡ"
_INITIAL_L = "ᄅ"
#: A vowel and a vowel-only syllable after it that Hangul uses for one English vowel: 아이 for the i of "tide",
#: 에이 for the a of "cake", 오우 for the o of "snow".
_ONE_ENGLISH_VOWEL = {
    ("ᅡ", "ᅵ"): "i|y|ai|ie|igh|uy|ei", ("ᅦ", "ᅵ"): "a|ai|ay|ei|ey|eigh",
    ("ᅩ", "ᅮ"): "o|ow|ou|oa", ("ᅡ", "ᅮ"): "ou|ow|au", ("ᅩ", "ᅵ"): "oy|oi",
}  # fmt: skip


def _letters(spellings: str) -> str:
    """An alternation of spellings, each single consonant letter also doubled ("kk" for ㅋ, "tt" for ㅌ); not l or r,
    whose double Hangul writes as ㄹㄹ across two syllables (`_FINAL_L`): 이리 is no "illy", 오리 no "holly"."""
    written = set(spellings.split("|"))
    written |= {letter * 2 for letter in written if len(letter) == 1 and letter not in "aeiouylr"}
    return "(?:" + "|".join(sorted(written, key=lambda spelling: (-len(spelling), spelling))) + ")"


@lru_cache(maxsize=1 << 12)
def latin_spelling(word: str) -> re.Pattern[str] | None:
    """The Latin spellings of a Hangul word's sounds (lower case, whole), or None where `word` is not Hangul
    syllables only, or writes no consonant."""
    if not re.fullmatch(r"[가-힣]+", word):
        return None
    syllables = [unicodedata.normalize("NFD", syllable) for syllable in word]
    if all(syllable[0] == "ᄋ" and len(syllable) == 2 for syllable in syllables):
        return None  # vowels only (여아, 여우, 이어): every English word of vowel letters spells one (YOU, YEAR, EYE)
    parts: list[str] = []
    index = 0
    initial_written = False
    while index < len(syllables):
        initial, vowel, final = syllables[index][0], syllables[index][1], syllables[index][2:]
        if not initial_written:
            spellings = _INITIALS[initial]
            if initial == "ᄉ" and vowel == _NO_VOWEL:
                spellings = _S_BEFORE_A_CONSONANT  # ASH is no 에이스: sh is written 시 or 쉬
            parts.append(_letters(spellings))
        initial_written = False
        following = syllables[index + 1] if index + 1 < len(syllables) else None
        if not final and following and following[0] == "ᄋ" and (vowel, following[1]) in _ONE_ENGLISH_VOWEL:
            parts.append(_letters(_ONE_ENGLISH_VOWEL[vowel, following[1]]))
            final = following[2:]
            index += 1
            following = syllables[index + 1] if index + 1 < len(syllables) else None
        elif vowel == _A and final:
            parts.append(_letters(_VOWELS[vowel] + "|o"))  # the short o (`_VOWELS`)
        else:
            parts.append(_letters(_VOWELS[vowel]))
        if final == _FINAL_L and following and following[0] == _INITIAL_L:
            # ㄹㄹ is how Hangul writes one English l between vowels ("blu" is 블루, "galaxy" 갤럭시), or a double
            # one ("illy" is 일리).
            parts.append("(?:ll|l)")
            initial_written = True
        elif final:
            if final not in _FINALS:
                return None
            parts.append(_letters(_FINALS[final]))
        index += 1
    # An English word's silent e at its end ("tide" is 타이드, "stone" 스톤).
    return re.compile("".join(parts) + "e?")
