"""Which product a title names: every word of the keyword and its whole model name (its model number: `codes`).

Search pages mix in neighbours of the product (아이폰 14 for 아이폰 15, 펩시 for 코카콜라): a title missing a word the
back office typed is another product. The keyword's words are its segments (`infra.text.words`), so a keyword
written without spaces ("다우니엑스퍼트리필") is found in titles that space its words and put others between them.

A model is its whole name: "갤럭시 S25" is not "갤럭시 S25 FE", "S25+" or "S25 엣지", "아이폰 16" not "아이폰 16e",
"아이패드" not "아이패드 에어". A variant word (or letters glued to the model's number) right after a word of the
keyword names another product unless the keyword names that variant too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from decimal import Decimal
from functools import lru_cache
from itertools import pairwise, product

from actors.matching.loanwords import HANGUL_RUN, Spellings
from actors.matching.quantities import STATED, a_minimum_or_condition, quantities
from actors.matching.sounds import INITIALISM_LETTERS, LETTER_NAMES, initialism_readings
from infra.text.analyzer import morphemes
from infra.text.bed_sizes import BED_SIZES, bed_size_spellings
from infra.text.colours import HUE, HUE_END, hue_spellings
from infra.text.connectors import connector_spellings
from infra.text.folding import SEPARATORS
from infra.text.materials import material_spellings
from infra.text.pets import pet_spellings
from infra.text.sexes import sex_spellings
from infra.text.sizes import KOREAN_WORDS, size_spellings
from infra.text.units import COUNTERS, MEASURE_SYMBOLS, PACK_UNITS, PAIR_COUNTERS
from infra.text.wireless import wireless_spellings
from infra.text.words import Segment, segments

#: Words sellers write in either script that `loanwords` cannot derive from their sounds, or that the tier rules
#: below need in both scripts. Deliberately small: a miss only costs one offer, a wrong pair a bad match.
_SPELLINGS: dict[str, tuple[str, ...]] = {
    "엘지": ("lg",),  # letters read by their names
    "에어": ("air",),  # no consonant Hangul writes
    "플러스": ("plus", "+"),  # a sign
    "온스": ("oz",),  # a unit's symbol
    # an abbreviation with its dot ("PHOTOBOOK VER."; bare, "ver" is in "silver": a reviewer's), and a word whose r
    # and si the sounds miss
    "버전": ("ver.", "version"),
}
#: Words that are spelled so only after a number of `_A_SETS_PIECES` or more, as a count's counter: a set's pieces
#: ("1000피스" is "1000pcs"), where 피스 standing alone is a screw ("석고보드 피스"). A spelling of the keyword's word,
#: not a quantity: another count is still another set ("500P"). A few pieces are how a thing is made, where pcs
#: counts the things sold: "2피스 수영복" is no "원피스 수영복 2pcs", "3피스 정장" no "셔츠 3pcs" (a reviewer's). So are
#: balls and eggs, counted with 구 or 알 alike ("30구" is "30알"), where a multitap's outlets are fewer and never 알.
_COUNTED_SPELLINGS: dict[str, tuple[str, ...]] = {"피스": ("pcs",), "구": ("알",)}
_A_SETS_PIECES = 10
#: The same words the other way round, so a tier written in Latin letters is found as the keyword's Hangul one.
_HANGUL_SPELLING = {latin: hangul for hangul, latins in _SPELLINGS.items() for latin in latins}
_HANGUL_COUNTED_SPELLING = {latin: hangul for hangul, latins in _COUNTED_SPELLINGS.items() for latin in latins}
#: Both, for a run right after a number.
_ANY_SPELLINGS = {**_SPELLINGS, **_COUNTED_SPELLINGS}
_ANY_HANGUL_SPELLING = {**_HANGUL_SPELLING, **_HANGUL_COUNTED_SPELLING}


@dataclass(frozen=True, slots=True)
class Word:
    text: str
    pattern: re.Pattern[str]
    #: A digit at either edge: spaces must still separate it ("아이폰 15 128GB" is not "아이폰 15128gb").
    digit_edged: bool
    #: The keyword's hue, found in any of its spellings (`_colour_word`); not a hue's letters inside a name (블랙야크).
    hue: bool = False
    #: How many times the keyword writes it as a word of its own: "아미보 마리오 슈퍼 마리오 시리즈" names the figure
    #: and the series, and a title naming only the series ("루이지 (슈퍼 마리오 시리즈)") sells another figure.
    times: int = 1
    #: Found only in the title as written, dashes kept: a range ("3-6개월" is no "36개월", which a title without its
    #: dashes would write).
    dashed: bool = False


_RUNS = re.compile(r"\d+(?:\.\d+)?|[a-z]+|[^\da-z]+")


def _a_sets_count(run: str) -> bool:
    """Whether a keyword word's run is a number a set's pieces are counted in (`_COUNTED_SPELLINGS`)."""
    return run.isdigit() and int(run) >= _A_SETS_PIECES


def _spellings(run: str, *, counted: bool = False) -> tuple[str, ...]:
    """A run and how sellers write it in the other script ("울트라", "ultra"; "플러스", "plus", "+"; where it is
    `counted`, right after a number, "피스", "pcs")."""
    spellings, hangul_spelling = (_ANY_SPELLINGS, _ANY_HANGUL_SPELLING) if counted else (_SPELLINGS, _HANGUL_SPELLING)
    if hangul := hangul_spelling.get(run):
        return (run, hangul, *(other for other in spellings[hangul] if other != run))
    return (run, *spellings.get(run, ()))


def _letter_names_pattern(names: str, *, first: bool, last: bool) -> str:
    """An initialism's letter-name reading as a pattern that finds it only where the keyword word's edges are its
    own (`first`, `last`: the run starts or ends the word): inside another word it is that word's ("티비" in
    스마트티비 and 티비장, "피시" across "커피 시럽": a reviewer's), while "비비크림" is "BB크림"."""
    return ("(?<![가-힣])" if first else "") + _spelled(names) + ("(?![가-힣])" if last else "")


#: How many digits a thousands separator groups.
_GROUP = 3


def _spelled(run: str) -> str:
    """A run as a pattern; Hangul with a space allowed between its syllables ("에어팟프로" finds "에어팟 프로");
    "+" only where it is a tier, right after a model's number ("s24+"), or after a letter ("GPS+Cellular"), not in
    "1+1" (nor after a Hangul name: "정품+ 쇼핑백" is a gift, a reviewer showed)."""
    if run == "+":
        return r"(?<=[\da-z])\+(?!\d)"
    if run.isdigit() and len(run) > _GROUP:
        # A number of thousands may be written with its separators ("5,000 IU" for 5000IU, "1,500mAh"), but not as
        # a price ("5000mAh 10,000원 할인쿠폰" has no 10000: a reviewer's).
        head = len(run) % _GROUP or _GROUP
        groups = [run[:head], *(run[index : index + _GROUP] for index in range(head, len(run), _GROUP))]
        return f"(?:{run}|{','.join(groups)}(?!\\s?원))"
    if run.isalpha() and run.isascii() and len(run) in INITIALISM_LETTERS:
        return r"\.?".join(run)  # an initialism may be dotted ("C.E.T" for CET)
    if run.isascii():
        return re.escape(run)
    return r"\s?".join(re.escape(char) for char in run)


#: A number that names one of a line's numbered things: with a leading zero ("03") or with 번 ("3번").
_NUMBERED = re.compile(r"0(?P<zero>\d)|(?P<beon>\d+)번")


#: Every Latin letter's Hangul names, longest first: what a Hangul name may end with where a title writes the letter
#: instead ("마켓오" as "마켓O").
_LETTER_OF_ANY_NAME = sorted(
    ((name, letter) for letter, names in LETTER_NAMES.items() for name in names), key=lambda pair: -len(pair[0])
)
#: Those of two syllables or more: what a Hangul word may start with where a title writes the letter instead
#: ("브이가드" as "V가드", "에스라인" as "S라인").
_LETTER_OF_NAME = [(name, letter) for name, letter in _LETTER_OF_ANY_NAME if len(name) > 1]


def _lettered(run: str) -> tuple[str, ...]:
    """A Hangul run that starts with a Latin letter's name, written with the letter: "브이가드" as "v\\s?가드"."""
    for name, letter in _LETTER_OF_NAME:
        if run.startswith(name) and len(run) > len(name) and not run[len(name) :].isascii():
            return (f"(?<![a-z]){letter}\\s?{_spelled(run[len(name) :])}",)
    return ()


#: How many syllables a name must keep before a letter written in place of its end: "마켓" of 마켓오 (not "고" of 고오).
_LETTERED_STEM = 2


def _lettered_at_the_end(run: str) -> tuple[str, ...]:
    """A Hangul run that ends with a Latin letter's name, written with the letter: "마켓오" as "마켓\\s?o"."""
    for name, letter in _LETTER_OF_ANY_NAME:
        if run.endswith(name) and len(run) - len(name) >= _LETTERED_STEM:
            return (f"(?<![가-힣]){_spelled(run[: -len(name)])}\\s?{letter}(?![a-z])",)
    return ()


#: How a digit is read in an initialism, by its English name ("3M" is 쓰리엠, "H2O" 에이치투오, "K2" 케이투). Not 1
#: and 0, whose names are Korean words with a letter's name before them ("G1" would be 지원, "supported", and "C1"
#: 시원: a reviewer's).
_DIGIT_NAMES: dict[str, tuple[str, ...]] = {
    "2": ("투",), "3": ("쓰리", "스리"), "4": ("포",), "5": ("파이브",), "6": ("식스",), "7": ("세븐",),
    "8": ("에잇", "에이트"), "9": ("나인",),
}  # fmt: skip
#: An initialism of letters and single digits from 2 to 9 ("3m", "h2o", "7d", "k2"): read a character at a time.
_MIXED_INITIALISM = re.compile(r"(?=[a-z]*[2-9])(?=\d*[a-z])(?![^01]*[01])(?!.*\d\d)[a-z\d]{2,4}")


def _initialism_names(compact: str) -> str | None:
    """A pattern for an initialism of letters and digits read by their Hangul names, as a Hangul word of its own
    ("3M" as 쓰리엠, "H2O" as 에이치투오); None: the word is no such initialism."""
    if not _MIXED_INITIALISM.fullmatch(compact):
        return None
    names = product(*(_DIGIT_NAMES.get(char) or LETTER_NAMES[char] for char in compact))
    return "(?<![가-힣])(?:" + "|".join(_spelled("".join(read)) for read in names) + ")(?![가-힣])"


#: An initialism written with dots between its letters ("n.m.f", "c.e.t."): the letters, read as one run.
_DOTTED_INITIALISM = re.compile(r"(?:[a-z]\.){1,3}[a-z]\.?")


def _word(compact: str) -> Word:
    """A keyword word as a pattern: each run of letters, Hangul or digits in any of its spellings, a space allowed
    between runs and between Hangul syllables ("버즈3" finds "버즈 3", "아이폰15" finds "iPhone 15"), and only whole at
    its edges."""
    written = compact
    if _DOTTED_INITIALISM.fullmatch(compact):
        # Its letters, read as letters: "c.e.t" keeps its dots as the word's text (`loanword_spellings`).
        compact = compact.replace(".", "")
    found_runs = _RUNS.findall(compact)
    runs = [
        r"(?<!\d)\+"
        if _a_sign(index, found_runs)
        else "(?:"
        + "|".join(
            [
                *map(_spelled, _spellings(run, counted=index > 0 and _a_sets_count(found_runs[index - 1]))),
                *(
                    _letter_names_pattern(names, first=index == 0, last=index == len(found_runs) - 1)
                    for names in initialism_readings(run)
                ),
                *(_lettered(run) if index == 0 else ()),
                *(_lettered_at_the_end(run) if index == len(found_runs) - 1 else ()),
            ]
        )
        + ")"
        for index, run in enumerate(found_runs)
    ]
    if numbered := _NUMBERED.fullmatch(compact):
        # A shade's, a size's or a line's number ("03", "3번"): sellers also write "3호", "No.3" or "#3"; never a bare
        # 3 (anything's count), nor "3번" for "03" ("3번 사용" is three times).
        number = int(numbered["zero"] or numbered["beon"])
        runs = [f"(?:{compact}|{number}호|(?<![a-z])no\\.?\\s?{number}(?!\\d)|#\\s?{number}(?!\\d))"]
    digit_edged = compact[0].isdigit() or compact[-1].isdigit()
    lead = _EDGE.get(_script(compact[0]), "")
    tail = _TAIL.get(_script(compact[-1]), "")
    pattern = lead + r"\s?".join(runs) + tail
    if names := _initialism_names(compact):
        pattern = f"(?:{pattern}|{names})"
    return Word(written, re.compile(pattern), digit_edged)


def _a_sign(index: int, runs: list[str]) -> bool:
    """Whether the run at `index` is a plus sign that starts the word before a number ("+2x100", a screwdriver bit's
    size; "+3.0", a lens's power): the sign as written, not a tier's "plus" (`_spelled`), which follows a name, nor
    a bonus's, which follows a count ("4+1" writes no "+1": a reviewer's)."""
    return index == 0 and runs[0] == "+" and len(runs) > 1 and runs[1][0].isdigit()


#: Letters' Hangul names that are Korean particles too, glued after any noun.
_PARTICLES = frozenset({"이"})


def _glued_letter_word(text: str, glued_after: str | None) -> Word | None:
    """A Latin letter the keyword glues to the Hangul word before it ("비타C", "스페셜K"), found also as the letter's
    Hangul name glued there ("비타씨", "스페셜케이"), never standing alone (the 시 of every "1시간"). None: the word is
    no such letter."""
    if len(text) != 1 or not ("a" <= text <= "z") or not glued_after or not HANGUL_RUN.search(glued_after[-1]):
        return None
    # Not E's 이, the particle ("비타민이 부족할 때" is no 비타민E: a reviewer's).
    names = "|".join(_spelled(name) for name in LETTER_NAMES[text] if name not in _PARTICLES)
    if not names:
        return None
    glued = rf"(?<={re.escape(glued_after)})\s?(?:{names})(?![가-힣])"
    return Word(text, re.compile(f"{_word(text).pattern.pattern}|{glued}"), False)


#: A range: two numbers joined by a dash, and what they count glued after them ("0-6개월", "2-3인용"), as the word
#: splitter reads one (`infra.text.words`); a bare pair ("50-27" of a model's name) is no range.
_RANGE = re.compile(r"(?P<low>\d+)-(?P<high>\d+)(?P<counted>[^\d\s-][^\s]*)")


def _range_word(text: str) -> Word | None:
    """A keyword's range ("0-6개월": a pacifier's age, "2-3인용" a tent's size), found with a dash or a tilde between
    its numbers, as titles write it ("0~6개월", "0-6 개월", "0개월~6개월"), in the title as written (`Word.dashed`:
    "3-6개월" is no "36개월"), and never inside another range ("16-18개월", "0-60개월"). None: the word is no range."""
    found = _RANGE.fullmatch(text)
    if found is None:
        return None
    unit = rf"\s?(?:{_word(found['counted']).pattern.pattern})"
    # what the range counts may follow each number ("3개월~6개월")
    pattern = rf"(?<![\d.~-]){found['low']}(?:{unit})?\s?[-~]\s?{found['high']}{unit}"
    return Word(text, re.compile(pattern), digit_edged=True, dashed=True)


#: A size by its number: a ball's "7호", a harness's "1사이즈".
_SIZE_NUMBER = re.compile(r"(?P<number>\d{1,3})(?:호|사이즈)")


def _size_number_word(text: str) -> Word | None:
    """A size the keyword gives by its Korean number ("농구공 7호", "하네스 1사이즈"), found with 호 or 사이즈 after the
    number either way ("7사이즈" for 7호), never inside another number ("17호"). Not "Size 7" nor "사이즈 7", which
    name a US ring's or a garment's size as often (US 13 is about a Korean 28호: a reviewer's). None: the word is no
    numbered size."""
    found = _SIZE_NUMBER.fullmatch(text)
    if found is None:
        return None
    pattern = rf"(?<![\d.]){found['number']}\s?(?:호|사이즈)(?![가-힣])"
    return Word(text, re.compile(pattern), digit_edged=True)


#: A tyre's size: its width in millimetres, its profile as a share of the width, its construction (R, radial; ZR, a
#: radial for high speed) and its rim's diameter in inches ("235/60R18").
_TYRE_SIZE = re.compile(r"(?P<width>\d{3})/(?P<profile>\d{2})z?r(?P<rim>\d{2})")


def _tyre_size_word(text: str) -> Word | None:
    """A keyword's tyre size ("235/60R18"), found as sellers and fitting shops also write it: its three numbers run
    together ("2356018") or spaced, slashed or dashed ("235 60 18", "235/60-18"), with its construction letters or
    without (the tenth and forty-second readers' answers wrote "2254517" and "2356018").
    Another number run on is another size ("23560189" is none). None: the word is no tyre size."""
    found = _TYRE_SIZE.fullmatch(text)
    if found is None:
        return None
    between = r"\s?[/-]?\s?"
    construction = rf"(?:\s?z?r\s?|{between})"
    pattern = rf"(?<![\d.]){found['width']}{between}{found['profile']}{construction}{found['rim']}(?!\d)"
    return Word(text, re.compile(pattern), digit_edged=True)


#: A number of people a thing serves, with 용 (for) or 분 (portions) after it or not: "6인용" of a pressure cooker,
#: "2인분" of a meal kit, "4인" of a tent.
_PERSONS = re.compile(r"(?P<number>\d{1,2})인(?P<suffix>용|분)?")
#: 용 or 분 after 인, glued ("6인용밥솥") or spaced and ending the word ("6인 용"; not "6인 용기", "2인 분리포장").
_PERSONS_SUFFIX = r"(?:용|분|\s(?:용|분)(?![가-힣]))"
#: Every number of people a title writes, with 용 or 분 or bare, or a range of them ("2~3인"); a bare 인 glued to more
#: Hangul is none (인치, 인조).
_PERSONS_IN_A_TITLE = re.compile(
    rf"(?<![\d.])(?P<low>\d{{1,2}}\s?[~∼〜-]\s?)?(?P<number>\d{{1,2}})\s?인(?:(?P<suffix>{_PERSONS_SUFFIX})|(?![가-힣]))"
)
#: A number that ends no range ("2~3인용" is no 3인용).
_NOT_A_RANGES_END = r"(?<![\d.~∼〜-])(?<![~∼〜-]\s)"


def counts_people(text: str) -> bool:
    """Whether a word is a number of people ("4인", "6인용", "2인분"): "4인용" is for four, nothing sold for a "4인"."""
    return _PERSONS.fullmatch(text.replace(" ", "")) is not None


def _persons_word(text: str) -> Word | None:
    """A keyword's number of people with its suffix ("6인용", "2인분"), found with 용 or 분 either way ("2인용" for
    "2인분", "6인용밥솥"), never inside another number. Written bare ("6인"), it is `_persons_written_bare`'s. None:
    the word counts no people, or counts them bare as the title must then write them."""
    found = _PERSONS.fullmatch(text)
    if found is None or not found["suffix"]:
        return None
    return Word(text, re.compile(rf"{_NOT_A_RANGES_END}{found['number']}\s?인{_PERSONS_SUFFIX}"), digit_edged=True)


#: A keyword's count of pairs of what is worn in pairs, socks and shoes ("3켤레", "6족").
_WORN_PAIRS = re.compile(r"(?P<number>\d+)(?:켤레|족)")
#: A counter of pairs, but 족 of 족발 (not 족 before 발목 or 발가락: "3족발목양말").
_PAIR_COUNTER = rf"(?:{'|'.join(counter for counter in PAIR_COUNTERS if counter != '족')}|족(?!발(?!목|가락)))"
#: What makes a count of pairs a part of the pack: packs or sets of it, or each of several kinds ("3족 x 2팩", "3족
#: 5세트", "3족 2묶음", "3족씩"); not a size's letter nor one set ("3켤레 XL", "3켤레 1세트": a second reader's).
_PAIRS_MULTIPLIED = r"\s?(?:[x×*]\s?\d|(?:[2-9]|\d{2,})\s?(?:세트|묶음|팩|박스|set)|씩)"
#: A count of pairs a title writes, not a part of its pack nor a range's end.
_PAIRS_WRITTEN = re.compile(rf"{_NOT_A_RANGES_END}(?P<number>\d+)\s?{_PAIR_COUNTER}(?!{_PAIRS_MULTIPLIED})")


def _pairs_word(text: str) -> Word | None:
    """A keyword's count of pairs with 켤레 or 족, found with any counter of pairs (`PAIR_COUNTERS`): "3족" and "3쌍"
    are three pairs of socks as "3켤레" is. Compared as a word, the same number, never as a count (a kids' pack of
    socks counted so won: `infra.text.units`), nor inside another number or a range's end ("2~3족"), nor multiplied
    or summed ("3족 x 2팩", "3족 5세트", "3족+1족"); another count of pairs beside it is `other_pairs`'."""
    if (found := _WORN_PAIRS.fullmatch(text)) is None:
        return None
    pattern = rf"{_NOT_A_RANGES_END}{found['number']}\s?{_PAIR_COUNTER}(?!{_PAIRS_MULTIPLIED}|\s?\+)"
    return Word(text, re.compile(pattern), digit_edged=True)


def other_pairs(title: str, words: tuple[Word, ...]) -> str | None:
    """Another count of pairs than the keyword's, written beside it, but the parts of its pack ("10켤레 (5족x2)"): "1족
    (10족 이상 구매시 무료배송)", "10족 + 10족 (총 20족)" and "10족 + 발목양말 3족 증정" sell other packs (a
    reviewer's)."""
    for word in words:
        if (asked := _WORN_PAIRS.fullmatch(word.text)) is None:
            continue
        for written in _PAIRS_WRITTEN.finditer(title):
            if written["number"] != asked["number"]:
                return f"another count of pairs: {written.group().strip()}"
    return None


def _persons_written_bare(title: str, word: Word) -> bool:
    """Whether a keyword's number of people with its suffix is written bare ("6인 가스 인덕션 겸용", "2인 밀키트": the
    thirtieth and forty-second readers' answers) as the only number of people the title gives: another, or a range
    ending at it, is the thing's own or its options ("4인용 (최대 6인 착석 가능)", "4인 (최대 6인 착석)", "3인 6인
    10인 선택", "2~3인 백패킹", "3인용 (1인 1개 한정)": reviewers')."""
    if (found := _PERSONS.fullmatch(word.text)) is None or not found["suffix"]:
        return False
    written = list(_PERSONS_IN_A_TITLE.finditer(title))
    if not written or any(each["low"] or each["number"] != found["number"] for each in written):
        return False
    return any(not each["suffix"] for each in written)


#: The keyword's "and" between two of its words ("블랙베리 앤 베이", "스몰 앤 미니").
_AND = frozenset({"앤", "and"})
_AMPERSAND = re.compile(r"\s?&\s?")
#: The keyword's 앤 glued between the Hangul of one word ("스몰앤미니").
_GLUED_AND = re.compile(r"(?<=[가-힣])앤(?=[가-힣])")
#: A letter right before a keyword word: the word is then inside another ("엑스스몰" holds no 스몰 of its own).
_INSIDE_A_WORD = re.compile(r"[가-힣a-z]")
#: An "&" between Hangul, spaced or not ("스몰&미니", "블랙베리 & 베이").
_AND_SIGN = re.compile(rf"(?<=[가-힣]){_AMPERSAND.pattern}(?=[가-힣])")


def with_and_written_out(text: str) -> str:
    """The text with each "&" between Hangul written as the keyword's 앤 ("스몰&미니" is "스몰앤미니"), for a rule that
    asks whether some words are a keyword word written again (`lines.is_unvouched`)."""
    return _AND_SIGN.sub("앤", text)


def _and_written_as_an_ampersand(title: str, previous: Word | None, word: Word, following: Word | None) -> bool:
    """Whether the keyword's "and" (`_AND`) is written as "&" between the very keyword words it joins
    ("블랙베리&베이", "스몰 & 미니" for "블랙베리 앤 베이", "스몰 앤 미니"), or its 앤 glued between the Hangul of one
    word ("스몰&미니" for 스몰앤미니, the sixtieth reader's puppy food): a maker's own name for a scent or a size,
    which sellers copy with its sign. Not in a clause that gives it with another product ("우드세이지&씨솔트 코롱
    (라임바질&만다린 미니어처 증정)"), nor in one that offers a pick ("블랙&화이트 택1"), nor inside other words
    ("아기나비&비누꽃" holds no 비앤비, "엑스스몰&미니" no 스몰앤미니): reviewers'."""
    if word.text in _AND:
        if previous is None or following is None:
            return False
        joins = (
            (found.end(), joined.end())
            for found in previous.pattern.finditer(title)
            if not _INSIDE_A_WORD.match(title[max(found.start() - 1, 0) : found.start()])
            and (joined := _AMPERSAND.match(title, found.end()))
        )
        return any(following.pattern.match(title, end) and _joins_one_thing(title, start) for start, end in joins)
    parts = _GLUED_AND.split(word.text)
    if len(parts) < 2:
        return False
    written = re.compile(rf"(?<![가-힣a-z]){_AMPERSAND.pattern.join(map(re.escape, parts))}(?![가-힣])")
    return any(_joins_one_thing(title, found.start()) for found in written.finditer(title))


#: A pick said later in the clause: the & joins alternatives ("블랙&화이트 택1": a reviewer's).
_A_PICK_AFTER = re.compile(r"[^,()\[\]]*?(?:택\s?\d|선택)")


def _joins_one_thing(title: str, position: int) -> bool:
    """Whether an & at a place in the title joins the words of one thing sold: not in a clause that gives it with
    another product (`_in_a_gift`), nor one that offers a pick of them (`_A_PICK_AFTER`)."""
    return not _in_a_gift(title, position) and not _A_PICK_AFTER.match(title, position)


#: An amount of money in ten thousands, as Korean counts it ("5만" of "5만원권").
_TEN_THOUSANDS = re.compile(r"(?P<number>\d{1,4})만")
#: The same in a title, before 원 ("3만원권", "5만 원").
_TEN_THOUSANDS_WRITTEN = re.compile(r"(?<![\d.,])(\d{1,4})만\s?원")
#: What an amount is a condition of, right after it: a minimum order, a discount, free delivery ("50,000원 이상 구매시
#: 무료배송", "30,000원 할인").
_A_CONDITIONS_AMOUNT = "이상|이하|미만|부터|할인|적립|구매|주문|결제|무료"


def _ten_thousands_in_digits(title: str, word: Word) -> bool:
    """Whether the keyword's amount in ten thousands ("5만" of "문화상품권 5만원권") is written in digits before 원,
    with or without commas ("50,000원", "50000원": the sixty-fourth reader's voucher, a Google Play card before it)."""
    if (found := _TEN_THOUSANDS.fullmatch(word.text)) is None:
        return False
    amount = int(found["number"]) * 10_000
    if any(other != found["number"] for other in _TEN_THOUSANDS_WRITTEN.findall(title)):
        return False  # the title names another amount so ("3만원권 (50,000원 이상 무료배송)": a reviewer's)
    written = rf"(?<![\d,.])(?:{amount}|{re.escape(f'{amount:,}')})\s?원(?!\s?(?:{_A_CONDITIONS_AMOUNT}))"
    return re.search(written, title) is not None


#: What says a thing is given with the product, or comes in its box, later in its clause.
_GIVEN_WITH = "포함|증정|사은품|동봉"
#: A bracket, or a clause after a "+" that joins no numbers, that says it gives something with the product
#: ("(라임바질&만다린 미니어처 증정)", "+ 샤워젤 증정").
_GIFT_CLAUSE = re.compile(
    rf"[(\[][^()\[\]]*(?:{_GIVEN_WITH})[^()\[\]]*[)\]]|(?<!\d)\+(?!\s?\d)[^+,()\[\]]*(?:{_GIVEN_WITH})"
)


def _in_a_gift(title: str, position: int) -> bool:
    """Whether a place in the title lies in a clause that gives something with the product (`_GIFT_CLAUSE`)."""
    return any(clause.start() <= position < clause.end() for clause in _GIFT_CLAUSE.finditer(title))


#: A times sign, written between a size's numbers.
_TIMES = frozenset({"x", "×", "*"})
#: What may not stand right beside a word's edge: a digit beside a number ("15" is not in "150"), a letter beside
#: Latin letters ("aa" is not in "AAA", "pro" not in "prod").
_EDGE = {"digit": r"(?<!\d)", "latin": r"(?<![a-z])"}
#: The same after a word's end; but a unit may be followed by the times sign of a size ("30cmX50m", "27cmx40cm").
_TAIL = {"digit": r"(?!\d)", "latin": r"(?![a-wyz]|x(?!\d))"}


def _script(char: str) -> str:
    return "digit" if char.isdigit() else "latin" if "a" <= char <= "z" else "other"


#: Suffixes that say a noun's type or use ("밴드형" band type, "드럼용" for drum washers): the noun alone names the same
#: thing ("밴드 4단계"), so a title need not repeat them.
_TYPE_SUFFIXES = frozenset({"형", "용"})


@lru_cache(maxsize=1024)
def _type_suffix_ends(text: str) -> frozenset[int]:
    """Where a type or use suffix ends in a text (a keyword is read once per search, twice by `_wanted`). A text
    without 형 or 용 has none: it is not analysed (a keyword in Latin letters never loads the analyzer)."""
    if not any(suffix in text for suffix in _TYPE_SUFFIXES):
        return frozenset()
    return frozenset(
        morpheme.end for morpheme in morphemes(text) if morpheme.tag == "XSN" and morpheme.surface in _TYPE_SUFFIXES
    )


#: The word for a flavour: glued after the flavour's own word, it adds nothing a title must repeat.
_FLAVOUR = "맛"


def _suffix_word(
    text: str, segment: Segment, suffixes: frozenset[int], *, glued_after: str | None, followed_by: str | None = None
) -> Word | None:
    """A keyword word whose type or use suffix, or flavour's 맛, a title may leave out ("밴드형", "사천맛"): its stem,
    found only as a word of its own, with or without the suffix ("밴드 4단계", "밴드형"; not the 휴대 of "휴대폰" for
    "휴대용", nor the 밴드 of "허리밴드"), or glued after the keyword's word before it as the keyword glues it
    (`glued_after`: "처음사용자용"), never after another word ("아기고양이용" is no 고양이용, "로봇청소기용" no
    청소기용: a reviewer's). With its suffix, the keyword's next word (`followed_by`) may be glued after it, ending
    the word there: "공학용계산기" for "공학용 계산기", not "차량용청소기필터" for "차량용 청소기". None: the word is
    not one (a one-syllable stem, "캡형", and a count, "6인용", are kept whole: "최대 6인 착석" and "1인 1개 한정"
    write no 6인용 nor 1인용, a reviewer showed)."""
    if len(text) <= 2 or any(char.isdigit() for char in text):
        return None
    if segment.end not in suffixes and not text.endswith(_FLAVOUR):
        return None
    stem, suffix = text[:-1], text[-1]
    pattern = _word(stem).pattern.pattern
    start = rf"(?:(?<![가-힣])|(?<={re.escape(glued_after)}))" if glued_after else r"(?<![가-힣])"
    end = (
        rf"(?:(?![가-힣])|(?<={re.escape(suffix)})(?={_spelled(followed_by)}(?![가-힣])))"
        if followed_by
        else "(?![가-힣])"
    )
    return Word(stem, re.compile(rf"{start}{pattern}(?:{re.escape(suffix)})?{end}"), False)


#: A year as a keyword writes it: a harvest ("2024년산") or a model year ("2024년형").
_YEAR = re.compile(r"20(?P<year>\d\d)년(?P<suffix>산|형)")
#: A year a title writes with a suffix: "2023년산", "23년산", "2024년형", "24년식".
_SUFFIXED_YEAR = re.compile(r"(?<!\d)(?:20)?(?P<year>\d\d)\s?년\s?(?P<suffix>산|형|식)")
#: The new crop (햅, or 햇 before a crop: not 햇살, 햇빛, 햇볕, 햇님, 햇반).
_NEW_CROP = r"(?:햅|햇(?!살|빛|볕|님|반))"
#: A harvest's year written as that year's new crop, the year whole ("[2025년 햅쌀]", "2025년 햅 찹쌀"; not "경력
#: 25년 햇…").
_NEW_CROP_YEAR = re.compile(rf"(?<!\d)20(?P<year>\d\d)\s?년\s?{_NEW_CROP}")
#: What says a title holds or sells another crop than the new one beside it: last year's rice (묵은쌀, 구곡).
_OLD_CROP = r"묵은|구곡"


def _year_word(text: str) -> Word | None:
    """A harvest or model year, found as sellers shorten it: "24년산" and "'24년산" for 2024년산, "25년형" for
    2025년형; always with its suffix ("2025년 설 선물" is no harvest, "24년 전통" an age). A harvest is also the
    year's new crop, the year written whole before 햅 or 햇 ("2025년 햅쌀", "2025년 햅 찹쌀"; `other_year` reads what
    else such a title writes)."""
    if not (year := _YEAR.fullmatch(text)):
        return None
    yy = year["year"]
    pattern = rf"(?<!\d)(?:20)?{yy}\s?년\s?{year['suffix']}"
    if year["suffix"] == "산":
        pattern += rf"|(?<!\d)20{yy}\s?년\s?{_NEW_CROP}"
    return Word(text, re.compile(pattern), True)


#: A generation written as one ("2세대", "7세대"): titles also glue its number to the name ("애플워치 SE2" for "SE
#: 2세대", "에어팟프로2").
_GENERATION_WORD = re.compile(r"(?P<number>\d{1,2})세대")


def _generation_word(text: str) -> Word | None:
    """A generation ("2세대"), found as English titles write it too: "2nd Gen", "(2nd generation)", "Gen 2"."""
    if not (generation := _GENERATION_WORD.fullmatch(text)):
        return None
    number = generation["number"]
    pattern = (
        rf"(?<!\d){number}\s?세대|(?<![\da-z]){number}(?:st|nd|rd|th)\s?gen(?:eration)?(?![a-z])"
        rf"|(?<![a-z])gen(?:eration)?\.?\s?{number}(?![\d.])"
    )
    return Word(text, re.compile(pattern), True)


def other_colour(title: str, words: tuple[Word, ...]) -> str | None:
    """Another hue than the keyword's: a title that names a hue (`infra.text.colours.HUE`) and none of the keyword's
    sells that colour ("CT-S1 전자키보드 화이트" for "CT-S1 … 블랙"), even where a model number names the product and
    its other words may be left out. A title that names no hue may leave the colour out; a keyword whose hue's letters
    are a name's (블랙야크) asks no colour."""
    asked = [word for word in words if word.hue]
    if not asked or any(word.pattern.search(title) for word in asked):
        return None
    named = HUE.search(title)
    return f"another colour: {named.group()}" if named else None


#: A keyword's count with a counter of one syllable ("4알" of rechargeable cells, "6인", "3단").
_COUNT_WORD = re.compile(r"(?P<number>\d+)(?P<counter>[가-힣])")
#: Counters of dates and ages, which a title writes of other things than the product ("2025년 신형", "1일 2알",
#: "(3세 사용 주의)"): years are `other_year`'s.
_NOT_COUNTERS_OF_IT = frozenset("년월일세")
#: What makes a count written beside the product's another thing's: a multiplier, a range, a sum or a list before or
#: after it ("10켤레 (5족x2)", "1~2인", "+ AAA 2알 증정"), a limit ("4세이상"), or a gift said in its clause.
_A_PART_BEFORE = re.compile(r"[+x×*~∼〜/-]\s?$")
_A_PART_AFTER = re.compile(r"\s?(?:[x×*~∼〜/+-]|이상|이하|미만|[^,()\[\]+]*?(?:증정|사은품))")


def other_count(title: str, words: tuple[Word, ...]) -> str | None:
    """Another count than the keyword's with the keyword's own counter ("2알" for "4알"), where the title never writes
    the keyword's, even with more after it ("6인용" is the keyword's 6인): even where a model number names the product
    and its other words may be left out (the forty-third reader's "에네루프 AA 충전지 2알 BK-3MCCE/2" for the
    four-cell pack). Not a count in brackets, a range, a sum, a limit or a gift's ("4인용 세트 (의자2 + 2인 벤치)",
    "1~2인 가구 추천", "4입 + AAA 2알 증정": a reviewer's), nor a date's or an age's. (A count the unit rule reads is
    a quantity, no keyword word: `quantities` compares it.)"""
    for word in words:
        found = _COUNT_WORD.fullmatch(word.text)
        if found is None or found["counter"] in _NOT_COUNTERS_OF_IT:
            continue
        number, counter = found["number"], found["counter"]
        if re.search(rf"(?<![\d.]){number}\s?{counter}", title):
            continue
        for written in re.finditer(rf"(?<![\d.])(?P<number>\d+)\s?{counter}(?![가-힣])", title):
            if _beside_the_product(title, written.start(), written.end()):
                return f"another count: {written.group()}"
    return None


def _beside_the_product(title: str, start: int, end: int) -> bool:
    """Whether a count the title writes from `start` to `end` stands as the product's own: outside brackets, and no
    multiplier, range, sum, limit or gift beside it."""
    before = title[:start]
    if max(before.rfind("("), before.rfind("[")) > max(before.rfind(")"), before.rfind("]")):
        return False
    return not (_A_PART_BEFORE.search(before) or _A_PART_AFTER.match(title, end))


def other_year(title: str, words: tuple[Word, ...]) -> str | None:
    """A harvest or model year the title writes that is not the keyword's: "2023년산" beside a keyword's 2024년산 is
    last year's rice, "24년식" beside 2025년형 last year's model, whatever else the title says. A title that writes the
    keyword's harvest only as that year's new crop ("2025년 햅쌀") sells another crop if it writes any other year or an
    old crop beside it: "[2025년 햅쌀 출시 전] 2024년 쌀", "2025년 햅쌀 + 2024년 쌀", "2024년 묵은쌀 / 2025년 햅쌀
    선택" (a reviewer's)."""
    for word in words:
        if not (year := _YEAR.fullmatch(word.text)):
            continue
        harvest = year["suffix"] == "산"
        suffixed = list(_SUFFIXED_YEAR.finditer(title))
        new_crops = list(_NEW_CROP_YEAR.finditer(title)) if harvest else []
        for other in [*(found for found in suffixed if (found["suffix"] == "산") == harvest), *new_crops]:
            if other["year"] != year["year"]:
                return f"another year: {other.group().strip()}"
        # every harvest year left is the keyword's: a title writing none reaches it only as its new crop
        if new_crops and not any(found["suffix"] == "산" for found in suffixed):
            beside = re.search(rf"(?<!\d)(?:20)?(?!{year['year']}\s?년)\d\d\s?년|{_OLD_CROP}", title)
            if beside:
                return f"another crop beside the new one: {beside.group().strip()}"
    return None


def _colour_word(text: str) -> Word | None:
    """A hue the keyword names, found however a title writes it: "검정" as 블랙, 검은색 or black, "화이트" as 흰색
    (`infra.text.colours`). None: the word is no hue's whole name."""
    if not (spellings := hue_spellings(text)):
        return None
    # The keyword's own spelling is found as any keyword word is ("레드블레미쉬" for 레드 블레미쉬); another spelling
    # may have a shade's name glued before it ("미드나이트블랙"), and ends as a hue's word does (`HUE_END`): the 블루 of
    # 블루투스 is no 파란색, while "블랙컬러" and "화이트XL" are colours (two reviewers'). Not a word of the keyword's
    # glued after it: "화이트보드" would be white for "보드마카 흰색", as "블랙야크" black for "블랙야크 … 검정";
    # "화이트마스크" is refused.
    others = "|".join(
        rf"(?<![a-z]){spelling}" if spelling.isascii() else _spelled(spelling)
        for spelling in spellings
        if spelling != text
    )
    return Word(text, re.compile(f"{_word(text).pattern.pattern}|(?:{others}){HUE_END}"), False, hue=True)


def _size_word(text: str, *, whole: bool) -> Word | None:
    """A size the keyword names, found however a title writes it: "M" as 미디엄, 미디움 or Medium, "중" or "중형" as
    M too (`infra.text.sizes`); the letter stands alone, neither after a digit ("60m" is metres) nor inside a word.
    The keyword's own Korean word is found as any keyword word is ("중자"); another's only as two syllables standing
    alone (not 소형견, nor the 중 of "S/L 중 택1": `infra.text.sizes.KOREAN_WORDS`). A syllable is a size only where
    the keyword writes it as a word of its own (`whole`), not a part the analyzer split off ("중부식" is no 중).
    None: the word is no size."""
    if not (spellings := size_spellings(text)) or (len(text) == 1 and not whole and not text.isascii()):
        return None
    alternatives = []
    for spelling in spellings:
        if spelling.isascii():
            alternatives.append(rf"(?<![0-9a-z.]){re.escape(spelling)}(?![0-9a-z])")
        elif spelling == text:
            alternatives.append(_word(text).pattern.pattern)
        elif spelling not in KOREAN_WORDS:
            alternatives.append(_spelled(spelling))
        elif len(spelling) > 1:
            alternatives.append(rf"(?<![가-힣]){spelling}(?![가-힣])")
    return Word(text, re.compile(f"(?:{'|'.join(alternatives)})"), False)


def _bed_size_word(text: str, *, whole: bool) -> Word | None:
    """A bed size the keyword names in Korean ("퀸", "슈퍼싱글"), found as its English word too ("Queen", `infra.text.
    bed_sizes`); as its letters it is `_bed_size_in_letters`'. Not a word the analyzer split off a longer one
    ("싱글머그" is a mug's single wall). None: the word is no bed size."""
    if not whole or not (spellings := bed_size_spellings(text)):
        return None
    # not inside a longer size that ends with it, its first part in either script, glued or spaced, since a title's
    # Latin word may be respelled alone ("슈퍼싱글" and "super 싱글" are no 싱글, "Large King" no King: a reviewer's)
    longer = [size for size in BED_SIZES if size[0] != text and size[0].endswith(text)]
    prefixes = sorted({size[0][: -len(text)] for size in longer} | {size[2].split()[0] for size in longer})
    not_longer = "".join(f"(?<!{prefix})(?<!{prefix} )" for prefix in prefixes)
    english_word = spellings[2].replace(" ", r"\s?")
    own, english = _word(text).pattern.pattern, rf"(?<![a-z]){english_word}(?![a-z])"
    return Word(text, re.compile(rf"{not_longer}(?:{own}|{english})"), False)


#: A letter or letters standing alone: no Latin letter or digit touching them, nor a "&" or a dash after ("매트리스 Q
#: 25cm", "슈퍼싱글(SS)", "Q사이즈", "매트리스-Q"; not "K-가구", "Q&A", "Q2").
_ALONE_BEFORE = r"(?<![0-9a-z&])"
_ALONE_AFTER = r"(?![0-9a-z&-])"
#: A bed size's letters that say other things as often: a shape's or a day's letter ("D형", "D-day"). (S, a garment's
#: small as often, is never read either: `_ANY_LETTER_SIZE` finds it as a garment's size.)
_NOT_BED_LETTERS = frozenset({"d"})
#: A garment's letter size standing alone, or one of a list or a range of them ("S M L", "S~XL", "S/M"): a title
#: naming one names no bed size by its letters.
_ANY_LETTER_SIZE = re.compile(rf"{_ALONE_BEFORE}(?:xs|s|m|l|xl|xxl|xxxl)(?:{_ALONE_AFTER}|\s?[~/,·])")


def _bed_size_in_letters(title: str, size: str) -> bool:
    """Whether the keyword's bed size is written as its letters standing alone ("ZINUS … 매트리스 Q 25cm": the seventh
    and forty-third readers' answers for 퀸), in a title that names no other size: no other bed size in any spelling
    nor any letter size (a list or a range of sizes is priced at its first, "SS Q K 사이즈 선택", "S~XL"; a
    reviewer's). Not S or D, a garment's small and a shape's or a day's letter as often ("D형", "모니터암 S")."""
    if not (spellings := bed_size_spellings(size)) or spellings[1] in _NOT_BED_LETTERS:
        return False
    letters = spellings[1]
    if not re.search(rf"{_ALONE_BEFORE}{letters}{_ALONE_AFTER}", title):
        return False
    others = [other for other in BED_SIZES if other[0] != size]
    if any(
        re.search(
            rf"(?<![가-힣]){other[0]}(?:사이즈)?(?![가-힣])|{_ALONE_BEFORE}{other[1]}{_ALONE_AFTER}"
            rf"|(?<![a-z]){other[2]}(?![a-z])",
            title,
        )
        for other in others
    ):
        return False
    return not _ANY_LETTER_SIZE.search(title)


def bed_sizes_as_written(title: str, words: tuple[Word, ...]) -> str:
    """The (lower-case) title with the keyword's bed size written as the keyword writes it where the title writes its
    letters (`_bed_size_in_letters`: "매트리스 Q 25cm" is "매트리스 퀸 25cm"), so that every rule reads it as the
    keyword's word: the name's pairs too ("매트리스 토퍼 퀸" is another line beside "매트리스 Q": a reviewer's). A size
    the analyzer parts into two words ("슈퍼" + "싱글") is read whole ("매트리스 SS 25cm" for 슈퍼싱글: the sixty-second
    reader's answer)."""
    sizes = [word.text for word in words] + [first.text + second.text for first, second in pairwise(words)]
    for size in sizes:
        if _bed_size_in_letters(title, size):
            letters = bed_size_spellings(size)[1]
            title = re.sub(rf"{_ALONE_BEFORE}{letters}{_ALONE_AFTER}", size, title)
    return title


def _sex_word(text: str) -> Word | None:
    """Whom the keyword's product is for, by sex: "남성" found as 남성용, 맨즈 or Men's (`infra.text.sexes`); another
    Hangul spelling stands alone or with 용, never glued to more ("남자친구")."""
    return _concept_word(text, sex_spellings, suffix=_USE_SUFFIX, glued_after=False)


def _pet_word(text: str) -> Word | None:
    """Which pet the keyword's product is for: "강아지" found as 반려견, 애견, 독 or Dog (`infra.text.pets`); another
    spelling starts a word ("반려견용", "고양이모래"), one of a syllable stands alone ("캣잇" and "캣닢" hold no cat,
    "독도" no dog)."""
    return _concept_word(text, pet_spellings, glued_after=True)


def _material_word(text: str, followed_by: str | None) -> Word | None:
    """What the product is made of: "스텐" found as 스테인리스, 스테인레스 or Stainless (`infra.text.materials`: the
    fortieth and forty-first readers' answers); a spelling of three syllables or more may start a word
    ("스테인레스편수냄비"). A clipped one ends its word or is glued to the keyword's next word of Hangul (`followed_by`,
    spaced or glued in the keyword: "스텐냄비" for "스텐 냄비"): "스텐실" is a stencil, "스텐드" a stand, "스텐다드"
    standard (a reviewer's)."""
    if not (spellings := material_spellings(text)):
        return None
    glued_next = rf"|(?={_spelled(followed_by)})" if followed_by and HANGUL_RUN.fullmatch(followed_by) else ""
    # The keyword's own Hangul spelling is found as any keyword word is ("스텐재질"); the others as a concept's are,
    # but a clip, which ends its word or is glued to the keyword's next one.
    own = [] if text.isascii() else [_word(text).pattern.pattern]
    clipped = [
        spelling
        for spelling in spellings
        if spelling != text and not spelling.isascii() and len(spelling) < _GLUED_MATERIAL_SYLLABLES
    ]
    as_any = [spelling for spelling in spellings if spelling not in clipped and (spelling != text or text.isascii())]
    alternatives = [
        *own,
        _spelled_as_any(as_any, suffix="", glued_after=True),
        *(rf"(?<![가-힣]){_spelled(spelling)}(?:(?![가-힣]){glued_next})" for spelling in clipped),
    ]
    return Word(text, re.compile("|".join(alternatives)), False)


#: A material's spelling this long may start a word; a shorter one, a clip ("스텐"), is the start of others as often.
_GLUED_MATERIAL_SYLLABLES = 3


def _connector_word(text: str) -> Word | None:
    """A connector: "USB-C" found as Type-C, C타입 or 타입C (`infra.text.connectors`: a blind reader's AirPods "C타입"
    for USB-C), glued to the next word or not ("C타입케이블"). Another spelling counts only as a word of its own ("DC
    타입", "AC 타입", "PVC 타입" are no USB-C), and not where the title names it for a thing given with the product or
    plugged into it ("5핀 케이블 (C타입 젠더 포함)", "C타입 돼지코 어댑터", Europe's type C plug: a reviewer's)."""
    if not (spellings := connector_spellings(text)):
        return None
    given = rf"(?!\s?(?:{_PLUGGED_IN})|[^,()\[\]]*?(?:{_GIVEN_WITH}))"
    others = [
        rf"(?<![a-z0-9가-힣]){_spelled(spelling)}{'(?![a-z])' if spelling.isascii() else ''}{given}"
        for spelling in spellings
        if spelling != text
    ]
    return Word(text, re.compile("|".join([_word(text).pattern.pattern, *others])), False)


#: What a connector's name before it says is plugged into something else: an adapter, a gender, a travel plug.
_PLUGGED_IN = "젠더|어댑터|아답터|돼지코|플러그"


def _wireless_word(text: str) -> Word | None:
    """A product without a cord: "무선" found as Wireless, 코드리스 or Cordless (`infra.text.wireless`); another
    Hangul spelling starts a word ("코드리스청소기")."""
    return _concept_word(text, wireless_spellings, glued_after=True)


def _concept_word(
    text: str,
    spellings_of: Callable[[str], tuple[str, ...]],
    *,
    suffix: str = "",
    glued_after: bool,
) -> Word | None:
    """A keyword word that names a closed concept (`infra.text`: a sex, a pet), found in any of its spellings
    (`spellings_of`): the keyword's own as any keyword word is ("남성러닝화", "강아지사료"), another as
    `_spelled_as_any` finds it. The word is read without its `suffix` ("남성용" is 남성). None: the word names no
    such concept."""
    stem = text.removesuffix(suffix) if suffix else text
    if not (spellings := spellings_of(stem)):
        return None
    own = _word(stem).pattern
    others = _spelled_as_any(
        [spelling for spelling in spellings if spelling != stem], suffix=suffix, glued_after=glued_after
    )
    return Word(stem, re.compile(f"{own.pattern}|{others}"), False)


def _spelled_as_any(spellings: Iterable[str], *, suffix: str, glued_after: bool) -> str:
    """A pattern for a concept's other spellings (`_concept_word`): a Latin one stands alone; a Hangul one starts a
    word, with its `suffix` or not, and ends there unless it may be `glued_after` more Hangul and has two syllables
    or more (a syllable glued into a word is another word)."""
    alternatives = []
    for spelling in spellings:
        if spelling.isascii():
            alternatives.append(rf"(?<![a-z]){re.escape(spelling)}(?![a-z])")
            continue
        optional = f"(?:{suffix})?" if suffix else ""
        end = "" if glued_after and len(spelling) > 1 else "(?![가-힣])"
        alternatives.append(rf"(?<![가-힣]){_spelled(spelling)}{optional}{end}")
    return f"(?:{'|'.join(alternatives)})"


#: The suffix of use ("남성용": for men).
_USE_SUFFIX = "용"


def _written_whole(text: str, segment: Segment) -> bool:
    """Whether the keyword writes the segment as a word of its own, spaces or its ends on both sides."""
    return not text[segment.start - 1 : segment.start].strip() and not text[segment.end : segment.end + 1].strip()


def _hues_glued(parts: tuple[Segment, ...]) -> tuple[Segment, ...]:
    """The keyword's segments with a hue the splitter cut in two glued back ("검정" + "색", "차" + "콜")."""
    glued: list[Segment] = []
    for segment in parts:
        previous = glued[-1] if glued else None
        if previous and previous.end == segment.start and hue_spellings(previous.text + segment.text):
            glued[-1] = Segment(previous.text + segment.text, previous.start, segment.end, segment.head)
        else:
            glued.append(segment)
    return tuple(glued)


#: Domestic origin, as sellers write it: 국산, 국내산 and 한국산 say the same ("순국산", "원산지:국산" too) …
_DOMESTIC = ("국산", "국내산", "한국산")
#: … but 국산 glued after the syllable that ends another word in 국 is that word's: another country's origin
#: (중국산, 미국산, 영국산, 태국산, 외국산, 타국산) or the whole country's growing areas (전국산지); and 한국산 glued
#: before more Hangul is another word (한국산업, 한국산림: a reviewer's).
_ANOTHER_COUNTRYS = "(?<![중미영태외타전한])"


def _origin_word(text: str) -> Word | None:
    """The origin the keyword asks for. Domestic ("국산 깐마늘"), found as any word sellers use for it and never
    inside another country's origin: "의성 깐마늘 국내산" and "순국산 참기름" are domestic, "중국산 깐마늘" is not.
    Another place with the suffix 산 ("미국산"), found with it or as the place written alone, a word of its own ("미국
    LA갈비", "[미국] 초이스", "원산지: 미국": a reviewer's), never inside another word. None: the word is no origin."""
    if text in _DOMESTIC:
        return Word(text, re.compile(f"{_ANOTHER_COUNTRYS}(?:국산|국내산)|한국산(?![가-힣])"), False)
    if not _an_origin(text):
        return None
    place = text.removesuffix("산")
    return Word(text, re.compile(f"{_word(text).pattern.pattern}|(?<![가-힣]){place}(?![가-힣])"), False)


def keyword_words(folded: str, *, quantities: bool = False) -> tuple[Word, ...]:
    """Every word of a folded keyword a title must contain. Quantities and pack counts are the unit rule's
    ("355ml", the "x 24" of "355ml x 24", "1+1") unless `quantities` asks for them too (a code such as "9465cc" reads
    as one); a number must stand alone ("15" is not in "150"); a type or use suffix may be left out ("밴드형"), and
    so may 맛 glued after a flavour ("매운맛")."""
    stated = [] if quantities else [match.span() for match in STATED.finditer(folded)]
    lowered = folded.lower()
    suffixes = _type_suffix_ends(lowered)
    words: dict[str, Word] = {}
    previous_end = None
    parts = _hues_glued(segments(lowered))
    for index, segment in enumerate(parts):
        compact = SEPARATORS.sub("", segment.text)
        inside_quantity = any(start <= segment.start and segment.end <= end for start, end in stated)
        if compact in _TIMES and _between_numbers(parts, index):
            continue  # the times sign of a size ("30cm x 50m"), which titles glue ("30cmX50m")
        # "매운맛", "바나나맛우유": the flavour is the word before 맛, which a title may write alone ("매운 120g").
        flavour_of_the_word_before = compact == _FLAVOUR and segment.start == previous_end
        glued_after = parts[index - 1].text if index and segment.start == previous_end else None
        # The keyword's next word, when it is one of Hangul written after a space ("공학용 계산기").
        following = parts[index + 1] if index + 1 < len(parts) else None
        followed_by = (
            following.text
            if following and following.start == segment.end + 1 and HANGUL_RUN.fullmatch(following.text)
            else None
        )
        previous_end = segment.end
        if compact and not inside_quantity and not flavour_of_the_word_before:
            # A hue glued to the next word is part of a name ("블랙야크" splits into 블랙 and 야크).
            glued_to_the_next = index + 1 < len(parts) and parts[index + 1].start == segment.end
            special = (
                _range_word(segment.text)
                or _tyre_size_word(compact)
                or _persons_word(compact)
                or _pairs_word(compact)
                or _size_number_word(compact)
                or _year_word(compact)
                or _generation_word(compact)
                or (None if glued_to_the_next else _colour_word(compact))
                or _origin_word(compact)
                or _size_word(compact, whole=_written_whole(lowered, segment))
                or _bed_size_word(compact, whole=_written_whole(lowered, segment))
                or _sex_word(compact)
                or _pet_word(compact)
                or _wireless_word(compact)
                or _connector_word(compact)
                or _material_word(compact, following.text if following else None)
                or _glued_letter_word(compact, glued_after)
                or _suffix_word(compact, segment, suffixes, glued_after=glued_after, followed_by=followed_by)
            )
            word = special or _word(compact)
            words.setdefault(word.text, word)
    # A word written twice names two things, but a keyword that joins two products ("왕교자 1.05kg + 김치왕교자
    # 1.05kg", "… 40ml + … 40ml") repeats words by nature; so does one naming its maker again (`missing_word`).
    tokens = [] if "+" in lowered else lowered.split()
    return tuple(
        replace(word, times=times) if (times := tokens.count(word.text)) > 1 else word for word in words.values()
    )


def _between_numbers(parts: tuple[Segment, ...], index: int) -> bool:
    """Whether the segment at `index` stands between two that start with a digit, as a size's times sign does
    ("30cm x 50m"; not the X of "Series X 1TB": a reviewer's)."""
    return 0 < index < len(parts) - 1 and parts[index - 1].text[:1].isdigit() and parts[index + 1].text[:1].isdigit()


def loanword_spellings(keyword: str, words: tuple[Word, ...]) -> Spellings:
    """The keyword's words as loanwords, to read a title that writes them in the other script; also each Hangul run
    of the keyword whole, which the analyzer may have split where the loanword is one word (디봇: 디 + 봇, "Deebot")."""
    # A dotted initialism is letters, read by their names, no loanword ("c.e.t" is no 세트).
    runs = [run for word in words if not _DOTTED_INITIALISM.fullmatch(word.text) for run in _RUNS.findall(word.text)]
    return Spellings(runs, HANGUL_RUN.findall(keyword))


def missing_word(
    title: str,
    words: tuple[Word, ...],
    every_word: tuple[Word, ...],
    maker: Word | None = None,
    as_written: str | None = None,
) -> str | None:
    """The first keyword word the title does not write (`words`: those the title must write, of the keyword's words
    `every_word`), but a generation or a volume written on the name, the keyword word before it, a word written right
    before a dash that parts a name's number from what follows (`_ends_at_a_dash`), and the keyword's `maker`
    (`maker_of`) written in the other script (never left out). `title` is respelled as the keyword spells its
    loanwords; a word the title writes as the keyword does before that (`as_written`) is written too: "(2nd Gen)"
    stays the 2세대 asked, though "gen" reads as the 건 of 테라건."""
    after = dict(pairwise(every_word))
    before = {following: word for word, following in after.items()}
    undashed = title.replace("-", "")
    compact = undashed.replace(" ", "")
    written = as_written.replace("-", "") if as_written is not None else undashed
    for word in words:
        if (
            word.times > 1
            and word != maker  # the maker written again ("오뚜기 진라면 매운맛 오뚜기") names nothing more
            and max(len(word.pattern.findall(text)) for text in _searched(word, title, undashed, written)) < word.times
        ):
            return f"keyword word missing: {word.text} ({word.times} times)"
        if any(word.pattern.search(text) for text in _searched(word, title, undashed, written)) or (
            not word.digit_edged and word.pattern.search(compact)
        ):
            continue
        if not word.dashed and _ends_at_a_dash(word, title):
            continue
        if (name := before.get(word)) is not None and _ordinal_on_the_name(undashed, name, word):
            continue
        if _sticks_counted_as_pieces(undashed, word) or _persons_written_bare(title, word):
            continue
        if _length_written_bare(undashed, word, words) or _length_in_another_unit(undashed, word):
            continue
        if _count_in_packs(undashed, word):
            continue
        if _and_written_as_an_ampersand(undashed, before.get(word), word, after.get(word)):
            continue
        if _ten_thousands_in_digits(undashed, word):
            continue
        if word == maker and (following := after.get(word)) and _maker_written_otherwise(undashed, maker, following):
            continue
        return f"keyword word missing: {word.text}"
    return None


#: A keyword's number standing alone, of up to three digits: a size ("4", "260"), a shade's or a colour's code ("001",
#: "901"), a generation ("에어팟 프로 2"); not a year, which `other_year` compares.
_OPTION_NUMBER = re.compile(r"\d{1,3}")


def option_numbers(keyword: str, words: tuple[Word, ...]) -> tuple[Word, ...]:
    """The keyword's numbers of up to three digits typed as words of their own (`_OPTION_NUMBER`): the option the
    product is asked in ("라코스테 L1212 … 네이비 4", "립 글로우 001 핑크", "RB2140 901 50"). Not a number the keyword
    glues to a word, which the analyzer splits off ("2구 토스터": a toaster's slots)."""
    typed = set(keyword.split())
    return tuple(word for word in words if _OPTION_NUMBER.fullmatch(word.text) and word.text in typed)


#: A number right after a word, of up to three digits standing alone: not glued to more letters or digits, nor one
#: end of a range or a list, spaced or not ("230~290", "230 ~ 290", "50-22", "1/2"), nor a sign's ("1+1", "1 + 1"),
#: nor a measure's, spaced ("26 cm", "8 GB").
_NUMBER_AFTER_A_WORD = re.compile(r"\s?(?P<number>\d{1,3})(?![\w.,~∼〜/+%\-])(?!\s[~∼〜/+\-])(?!\s[a-z])")


def other_option(
    title: str, asked: tuple[Word, ...], words: tuple[Word, ...], model: re.Pattern[str] | None
) -> str | None:
    """Another option than the keyword asks the model in (`asked`: `option_numbers`), where a model number names the
    product (`model`) and its title need not write the keyword's other words (`words`): where the title does not
    write the keyword's option, another number in its place, right after the keyword word before it ("L1212 …
    네이비 5 (XL)" for "네이비 4": the thirty-eighth reader's polo; "RB2140F 901 52" for "901 50"; "CW2288-111 255"
    for "CW2288-111 260"). A title silent about it may sell the option asked, as it may leave the colour out: a
    listing of every size ("CW2288-111 230~290"), a size written otherwise ("M(95)", "26 cm", "US 8"). Only that place
    counts: a number elsewhere is as often a window's version, a memory's size or a rank ("윈도우 11", "8 GB", "판매 1
    위": a reviewer's). Requiring the option instead lost every listing above, and reading a Latin mark after the
    model number as a variant ("AD810 BKS" for the OP finish) read "AD810 NEW 오픈포어" so too: both taken back."""
    if model is None or not asked:
        return None
    undashed = title.replace("-", "")
    before = {following: word for word, following in pairwise(words)}
    for option in asked:
        if option.pattern.search(title) or option.pattern.search(undashed) or (name := before.get(option)) is None:
            continue
        for found in name.pattern.finditer(undashed):
            written = _NUMBER_AFTER_A_WORD.match(undashed, found.end())
            if written and written["number"] != option.text and not _counts(undashed, written.end(), set()):
                return f"another option: {written['number']}, not {option.text}"
    return None


#: A keyword's size written in a standard's notation, numbers joined by a slash or with the standard's letters between
#: them ("205/55r16", "245/40zr18", "700x25c"): one size of the model. Not numbers and times signs alone ("140x230",
#: "1920x1080", "75x75"), which name a window's, a screen's or a mount's size as often as the product's, nor numbers
#: and a slash alone, a date's or a fraction's as often ("1/2", "2025/10"): reviewers'.
_A_SIZE = re.compile(r"(?=[^/]*/.*[a-z]|\d+x\d+[a-z])\d+(?:[/x×*][a-z]*\d+[a-z]*\d*)+")


def other_size(title: str, words: tuple[Word, ...], model: re.Pattern[str] | None) -> str | None:
    """Another size of the keyword's size's shape (`_A_SIZE`: the same separators and letters, other numbers), where
    a model number names the product (`model`) and its title need not write the keyword's other words (`words`), and
    the title does not write the keyword's size: "H308 195/55R16" for "키너지 EX H308 205/55R16" (the fifty-sixth
    reader's tyre, which the model number had let pass), "700x28c" for 700x25c. A tread's or a line's model number
    is made in every size, so the size names the product as much as the model does. A title silent about the size,
    or listing the keyword's among others, may sell it."""
    sizes = [word for word in words if _A_SIZE.fullmatch(word.text)]
    if model is None or len(sizes) != 1:  # two sizes asked: a title may write either (a reviewer's)
        return None
    (size,) = sizes
    if size.pattern.search(title):
        return None
    # its text with each run of digits any run of digits: "205/55r16" is \d+/\d+r\d+
    shape = "".join(r"\d+" if part.isdigit() else re.escape(part) for part in re.split(r"(\d+)", size.text) if part)
    if found := re.search(rf"(?<![\w/.]){shape}(?![\w/.])", title):
        return f"another size: {found.group()}, not {size.text}"
    return None


#: A keyword's count of sticks or tea bags, written with T ("커피믹스 100T", "율무차 50T").
_STICKS = re.compile(r"(?P<number>\d+)t")


#: A count written with T in a title, and a total stated ("총 180개").
_T_COUNT = re.compile(r"(?<![\d.])(?P<number>\d+)\s?t(?![a-z])")
_TOTAL = re.compile(r"총\s?(?P<number>\d+)")
#: What a box of sticks or tea bags counts its contents with, among the counts the unit rule reads ("100개입", "30입";
#: those it does not read, 스틱, 티백 and 포, are `_CONTENTS_UNREAD`'s): not a bare 개, EA or 팩, which count boxes,
#: cups given away and limits as often ("+ 종이컵 100개", "(최대 100개)", "1T, 1개").
_CONTENTS = re.compile(r"개입|\d\s?입")
#: A count of contents written with a counter the unit rule does not read ("15g x 50포", "20스틱"), so never one of a
#: title's quantities: its number.
_CONTENTS_UNREAD = re.compile(r"(?<![\d.])(?P<number>\d+)\s?(?P<counter>스틱|티백|포)(?![가-힣a-z])")
#: A weight in kilograms or a volume in litres: what comes in 포 then is a sack, not a sachet.
_IN_BULK = re.compile(r"\d\s?(?:kg|킬로|키로|l|리터)(?![a-z])")


def _sticks_counted_as_pieces(title: str, word: Word) -> bool:
    """Whether a keyword's count of sticks or tea bags ("100T") is the title's count of contents ("11.7g x 100개입",
    "15g x 50포") or the total it states of T's it adds up ("170T + 10T 증정 (총 180개)" for 180T): the T counts what
    개입 counts (two blind readers' coffee mixes). Every count of contents the title writes must be the keyword's
    (`_counts_of_contents`); not a bare count ("500GB, 1개" for a 1T SSD, "+ 종이컵 100개"), nor in a title writing
    other T's that do not add up to the keyword's (T is a board's or a mat's thickness too: "아크릴판 3T 2개" is no
    2T; a reviewer's)."""
    if (sticks := _STICKS.fullmatch(word.text)) is None:
        return False
    number = int(sticks["number"])
    parts = [int(written["number"]) for written in _T_COUNT.finditer(title)]
    totalled = number in {int(total["number"]) for total in _TOTAL.finditer(title)}
    if any(part != number for part in parts) and not (totalled and sum(parts) == number):
        return False
    if totalled and any(stated.dimension == "pack" and stated.amount == number for stated in quantities(title)):
        return True
    counts = _counts_of_contents(title)
    return bool(counts) and all(count == number for count in counts)


def _counts_of_contents(title: str) -> list[int]:
    """Every count of contents a title writes: those the unit rule reads ("100개입", "30입") and those it does not
    ("50포", "20스틱", "10티백"), but a minimum or a condition ("100스틱 이상 구매시 할인"), and no 포 where the title
    weighs in kilograms or measures in litres, where it is a sack ("마사토 20kg 2포" for 2T: a reviewer's)."""
    read = [
        int(stated.amount)
        for stated in quantities(title)
        if stated.dimension == "pack" and _CONTENTS.search(stated.text)
    ]
    sacks = bool(_IN_BULK.search(title))
    unread = [
        int(counted["number"])
        for counted in _CONTENTS_UNREAD.finditer(title)
        if not a_minimum_or_condition(title, counted.start(), counted.end())
        and not (sacks and counted["counter"] == "포")
    ]
    return read + unread


#: A keyword's metric length: a pen's tip ("0.7mm"), a shoe's size ("260mm"), a cable's ("2m"): its number and unit.
_KEYWORD_LENGTH = re.compile(r"(?P<number>\d+(?:\.\d+)?)(?P<unit>mm|cm|m)")
#: The units a length may be written bare in: sellers leave out a tip's or a shoe's millimetres, not a cable's metres.
_BARE_UNITS = ("mm", "cm")


#: A number standing alone: not glued to a letter, a unit or another digit ("0.75", "180g", "42P"), nor a multiplier's
#: ("x 1").
_BARE_NUMBER = re.compile(r"(?<![\d.])(?<![x×*])(?<![x×*]\s)\d+(?:\.\d+)?(?![\d.a-z가-힣%])")
#: Words a number counts colours or pieces with, besides the counters ("6 컬러", "4 pcs", "1 box").
_COLOURS_OR_PIECES = r"컬러|색|colou?rs?|pcs|box|ea"
#: What makes a number standing alone a count all the same: a counter or a colour's count after a space ("6 컬러",
#: "2 개", "1 box"; not 세트, which follows a pair's lengths: "650+400 세트"), or a bonus ("1+1").
_COUNTED_AFTER = re.compile(
    rf"\s?(?:{'|'.join(sorted(COUNTERS - {'세트'}, key=len, reverse=True))}|{_COLOURS_OR_PIECES}"
    r"|\+\s?(?P<added>\d+))(?![가-힣a-z])"
)
#: A length in any unit: a title measuring one says which number is its length ("26.5cm" for a shoe of size 265).
_ANY_LENGTH = re.compile(r"\d\s?(?:mm|cm|m|인치|inch|미리|센치)(?![a-z가-힣])")
#: How far apart two bare numbers of one form must be for the title's to be told from another length: a shoe's 250
#: and 260, a wiper's 600 and 650, a tip's 0.5 and 0.7 are alike; a plier's model "87 01" and its 250 are not.
_ALIKE = 2


def _length_written_bare(title: str, word: Word, words: tuple[Word, ...]) -> bool:
    """Whether a keyword's length ("0.7mm") is written as its number alone, as written ("1" is no "1.0mm"):
    "모나미 153 볼펜 0.7 블랙", "PV574 키즈 운동화 180", "와이퍼 650+400". Sellers leave the unit out where the kind of
    thing says it. Not in a title that measures any length (its own says which number is its: "… 270 … 250mm",
    "26.5cm"); not where the number is another keyword word too (the 270 of "에어맥스 270 … 270mm" is the model's);
    not a number counting something ("6 컬러", "1+1", "x 1"); nor beside another bare number like it, which may as
    well be its length ("볼펜 0.5 (0.7 리필 별매)"), but the keyword's other lengths (`words`: "650mm 400mm")."""
    length = _KEYWORD_LENGTH.fullmatch(word.text)
    if length is None or length["unit"] not in _BARE_UNITS or _ANY_LENGTH.search(title):
        return False
    number = length["number"]
    if any(other.text == number for other in words):
        return False
    lengths = (_KEYWORD_LENGTH.fullmatch(each.text) for each in words)
    asked = {found["number"] for found in lengths if found and found["unit"] in _BARE_UNITS}
    bare = [found.group() for found in _BARE_NUMBER.finditer(title) if not _counts(title, found.end(), asked)]
    alike = [
        other
        for other in bare
        if other not in asked and ("." in other) == ("." in number) and _within(Decimal(other), Decimal(number), _ALIKE)
    ]
    return number in bare and not alike


#: A metric length as a title writes one, glued to a word before it too ("총길이60mm", "W60mm") and with a thousands
#: separator ("1,200mm"): its number and unit.
_TITLE_LENGTH = re.compile(
    r"(?<![\d.,])(?P<number>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s?(?P<unit>mm|cm|m)(?![a-z가-힣\d])"
)
_MM_PER_UNIT = {"mm": Decimal(1), "cm": Decimal(10), "m": Decimal(1000)}
#: Lengths a title spans or picks among: dimensions ("1200 x 600 mm", "100cm x 200cm"), a range ("22cm~26cm",
#: "45~50mm"), options ("25cm/100cm/200cm"), or a thing's dimensions labelled ("가로 800", "폭120cm"; not 폭신한).
_SPANNED = re.compile(r"\d\s?(?:mm|cm|m)?\s?[x×*~∼/]\s?\d|(?:가로|세로|폭|높이|깊이)\s?\d")


def _millimetres(found: re.Match[str]) -> Decimal:
    return Decimal(found["number"].replace(",", "")) * _MM_PER_UNIT[found["unit"]]


def _length_in_another_unit(title: str, word: Word) -> bool:
    """Whether a keyword's metric length ("2m", "5cm") is the title's only length, written in another unit ("200cm",
    "50mm" for 5cm): one length, whatever unit writes it. Not where the title writes another length beside it (a
    pan's 24cm beside its handle's 280mm, "50mm (총길이60mm)"), nor spans or picks among lengths (a desk's "1200 x
    600 mm" for 60cm, a cable's "25cm/100cm/200cm" for 2m): a reviewer's counter-examples. A title's metres count
    against it, never for it ("3M" is a maker as often)."""
    asked = _KEYWORD_LENGTH.fullmatch(word.text)
    if asked is None or _SPANNED.search(title):
        return False
    written = [(found["unit"], _millimetres(found)) for found in _TITLE_LENGTH.finditer(title)]
    wanted = _millimetres(asked)
    return any(unit != "m" for unit, _ in written) and all(length == wanted for _, length in written)


#: Counters of things sold one by one, which packs add up to: pairs, and 알 (cells, balls, pills). Not a set's pieces
#: (two 500-piece puzzles are no 1000-piece one), a multitap's outlets (구: "3구 x 2개" is no 6구) nor colours ("12색
#: x 2세트" is no 24색): reviewers'.
_ADDED_UP_COUNTERS = (*PAIR_COUNTERS, "알")
#: A keyword's count of such things ("60알", "200쌍", "10켤레").
_COUNTED_WORD = re.compile(rf"(?P<number>\d+)(?P<counter>{'|'.join(_ADDED_UP_COUNTERS)})")
#: What a count of packs may be written with: a pack's unit or a set's word, or nothing ("x 2박스", "x 2개입", "X 3");
#: not a colour's, a size's, a weight's or a price's ("1쌍 x 2색 택1", "1쌍 x 6mm", "1켤레 x 10g", "x 2,000원").
_PACKS_OF = "|".join(sorted({*PACK_UNITS, "세트", "set", "묶음"}, key=len, reverse=True))


@lru_cache(maxsize=len(_ADDED_UP_COUNTERS))
def _packs_of(counter: str) -> re.Pattern[str]:
    """Packs of things counted with `counter`, multiplied: "100쌍 x 2박스", "6알 x 10팩"."""
    return re.compile(
        rf"(?<![\d.,])(?P<each>\d+)\s?{re.escape(counter)}\s?[x×*]\s?(?P<packs>\d+)(?:\s?(?:{_PACKS_OF}))?(?![\w.,])"
    )


def _count_in_packs(title: str, word: Word) -> bool:
    """Whether a keyword's count word is written as packs of that counter, multiplied ("100쌍 x 2박스", "5켤레 x 2팩"
    for 200쌍 and 10켤레; "6알 x 10팩", "(6알x10팩)" for 60알: the sixty-third reader's hearing-aid batteries)."""
    asked = _COUNTED_WORD.fullmatch(word.text)
    if asked is None:
        return False
    written = _packs_of(asked["counter"]).finditer(title)
    return any(int(found["each"]) * int(found["packs"]) == int(asked["number"]) for found in written)


def _counts(title: str, end: int, lengths: set[str]) -> bool:
    """Whether the number ending at `end` counts something: a counter follows it, or a "+" and a number that is no
    length of the keyword ("1+1"; "650+400" are a wiper pair's lengths)."""
    counted = _COUNTED_AFTER.match(title, end)
    return counted is not None and counted["added"] not in lengths


def _within(first: Decimal, second: Decimal, factor: int) -> bool:
    """Whether two positive numbers lie within `factor` of each other."""
    return first > 0 and second > 0 and max(first, second) <= min(first, second) * factor


def _searched(word: Word, title: str, undashed: str, written: str) -> tuple[str, ...]:
    """The texts a keyword word is looked for in: the title without its dashes and as the keyword writes its loanwords
    (`undashed`, `written`), or, for a range, the title with its dashes (`Word.dashed`)."""
    return (title,) if word.dashed else (undashed, written)


#: A dash and a whole number after it ("-6세대", "-5600", "-05"); not a decimal ("F4-7.1", an aperture's range).
_DASH_AND_A_NUMBER = re.compile(r"-(?P<after>\d+)(?![.\d])")
#: A number standing alone at the end of a text.
_NUMBER_ALONE_AT_THE_END = re.compile(r"(?<![\w.])(?P<before>\d+)$")


def _ends_at_a_dash(word: Word, title: str) -> bool:
    """Whether the title writes the keyword word right before a dash and a number, which part the name's number from
    what follows it: "라이젠5-6세대" is Ryzen 5, sixth generation, "DDR5-5600" is DDR5, "925 25-05" a model's 25 and
    a lead's 0.5 (without its dashes the title runs the numbers together, "라이젠56세대"). Only where the keyword word
    ends there: "EF70-200mm" names no 200mm lens, "BV2654-100" no size 100, "생후3-6개월" no 6개월. Not a rising range
    of numbers standing alone ("2025-2026", an 18-month diary, is no 2025 one), nor, for a keyword word that is a
    number, a rising range glued to a word ("내복90-100" is no size 90, "RF24-105mm" no 24mm: a second reader's)."""
    for found in word.pattern.finditer(title):
        dash = _DASH_AND_A_NUMBER.match(title, found.end())
        if dash is None:
            continue
        before = word.text if word.text.isdigit() else None
        if before is None and (alone := _NUMBER_ALONE_AT_THE_END.search(title, 0, found.end())):
            before = alone["before"]
        if before is None or int(dash["after"]) <= int(before):
            return True
    return False


def maker_of(keyword: str, words: tuple[Word, ...]) -> Word | None:
    """The keyword's maker: its first word, written inside the keyword's first word as typed ("닥터지 레드 블레미쉬",
    "제주삼다수 2L": 제주), when a word of the product's own name follows it. None: the keyword starts with a number,
    an origin or a material ("스테인리스 빨대": "PET 빨대" is no maker's name for it, a reviewer's), or names nothing
    after it."""
    if len(words) < 2:
        return None
    first = words[0].text
    if any(char.isdigit() for char in first) or _an_origin(first) or material_spellings(first):
        return None
    first_typed = keyword.split(" ", 1)[0]
    return words[0] if words[0].pattern.search(first_typed) else None


def _an_origin(text: str) -> bool:
    """Whether a word says where the product comes from, no maker: the domestic words (국산, 국내산) or a place with the
    suffix 산 ("미국산", "호주산", "제주산"): "호주산 LA갈비" is no "미국산 LA갈비" written by another maker's name
    (the forty-fourth reader's)."""
    if text in _DOMESTIC:
        return True
    analysed = morphemes(text)
    return len(analysed) > 1 and analysed[-1].surface == "산" and analysed[-1].tag == "XSN"


#: A letter of either script: what a title writes in the maker's place is a name in that script.
_HANGUL_LETTER = re.compile(r"[가-힣]")
_LATIN_LETTER = re.compile(r"[a-z]")
_LETTER = re.compile(r"[a-z가-힣]")
#: A name in Latin letters: a word that starts with a letter ("dr.g", "dr.jart+", "ikea", "k2"), not a number with a
#: letter after it ("14k" is a grade of gold, "2026" a year).
_LATIN_NAME = re.compile(r"(?<![\w.&'+-])[a-z][a-z0-9.&'+-]*")


def _maker_written_otherwise(title: str, maker: Word, following: Word) -> bool:
    """Whether the title writes, before the product's own name (the `maker`'s `following` word), a name in the other
    script and nothing in the keyword's: the maker as sellers write it in Latin letters, which no sound rule derives
    ("Dr.G 레드블레미쉬" for 닥터지, "IKEA 말름" for 이케아, "Xiaomi Redmi" for 샤오미). Where the keyword writes the
    maker in the other script than its name already, a name in the maker's own script is another name ("PP 아이스컵"
    for "PET 아이스컵", "더블에이 A4" for "네비게이터 A4": the fifty-second reader's), unless it starts as a Hangul
    maker does (a reviewer's). Another maker in the keyword's
    script is another product ("풀무원 얇은피 왕교자" for 비비고 왕교자, "수입산 냉장 삼겹살" for 한돈), and a title
    that leaves the maker out is not vouched for: a bait or a look-alike writes the name alone as readily as a seller
    of a name only one maker makes ("에어팟 프로 2세대 USB-C 정품" at a third of the price, "삼다수 2리터"), and so
    does another maker's product of a common name ("[사조] 살코기 참치", "왕교자 1.05kg"), priced as the asked one."""
    found = following.pattern.search(title)
    if found is None or not _LETTER.search(following.text):
        # A name that is a number has no script: any maker's name before it would do ("랭글러 501" for 리바이스 501,
        # "Xiaomi 14 Pro" for 아이폰 14 프로: a reviewer's).
        return False
    before = title[: found.start()]
    if maker.text.isascii() != following.text.isascii():
        # Written in its own script, a Hangul maker is cut short or misspelt, as sellers do, starting as it does
        # ("뉴발 MR530SG" for 뉴발란스, "다이손 V15" for 다이슨); a Latin one's longer word is another name as often
        # ("PETG" and "PE" for PET: a second reader's), so "LGE 그램" is not read as LG.
        if maker.text.isascii():
            return False
        return any(word.startswith(maker.text[:_MAKERS_START]) for word in _TITLE_WORD.findall(before))
    own, name = (_LATIN_LETTER, _HANGUL_LETTER) if following.text.isascii() else (_HANGUL_LETTER, _LATIN_NAME)
    return bool(name.search(before)) and not own.search(before)


#: How much of a maker's name a shortened or misspelt one keeps: its first two syllables.
_MAKERS_START = 2
#: A title's word: a run of letters and digits.
_TITLE_WORD = re.compile(r"[a-z0-9가-힣]+")


#: A book's volume in a series written as one ("30권"): sellers of books write its number alone after the series'
#: name ("주술회전 30 완결", "원피스 111 (오다 에이치로)").
_VOLUME_WORD = re.compile(r"(?P<number>\d{1,3})권")
#: What may not follow a generation's number on the name: more of a word or a number ("2개", "2.0", "25년형").
_GENERATION_ENDS = r"(?![\d.a-z가-힣])"
#: What may not follow a volume's number on the name besides: a sign joining another ("1+1", "29+30", "1/2", "1 &
#: 2", "1,2,3"), a range ("30~31", "1 ~ 105", "1 - 23" without its dash) or a second number standing alone ("29 30
#: 세트"): a set or a sale, not one volume; nor a size or a share ("원피스 77 사이즈", "100% 린넨": reviewers').
#: Not said of a generation, which titles follow with a year or a size ("에어팟 프로2 2023 USB-C", "SE2 40 mm").
_VOLUME_ENDS = (
    r"(?![\d.~∼〜a-z가-힣+/&%])(?!\s?[+x×*~∼〜/&,]\s?\d)(?!\s+\d+(?:\s|$|[+,~∼〜/&)]))(?!\s?(?:빅\s?)?(?:사이즈|size))"
)


def _ordinal_on_the_name(title: str, name: Word, word: Word) -> bool:
    """Whether a keyword's place in a series, a generation ("2세대") or a volume ("30권"), is written as its number
    on the keyword word before it, the name ("SE2", "SE 2", "프로2", "주술회전 30"), the number ending there (not
    "2개", "2.0", "25년형"), in a title that names no place of its own ("SE 40mm 1세대": a second reviewer's; "1~30권
    세트"). A volume's number is spaced from the name (glued, it may be another word's: "전30" is all thirty, where the
    analyzer splits 주술회전 as 주술회 + 전), starts no set, range or sale (`_VOLUME_ENDS`), and a number counting
    something is none ("스프링노트 5 컬러" for "스프링노트 5권", copies: reviewers')."""
    if (generation := _GENERATION_WORD.fullmatch(word.text)) is not None:
        if _GENERATION_WORD.search(title):
            return False
        number = re.compile(rf"\s?{generation['number']}{_GENERATION_ENDS}")
        return any(number.match(title, found.end()) for found in name.pattern.finditer(title))
    if (volume := _VOLUME_WORD.fullmatch(word.text)) is None or _VOLUME_WORD.search(title):
        return False
    number = re.compile(rf"\s{volume['number']}{_VOLUME_ENDS}")
    return any(
        (found := number.match(title, name_found.end())) is not None and not _counts(title, found.end(), set())
        for name_found in name.pattern.finditer(title)
    )


# --- the whole model name -------------------------------------------------------------------------------------

#: Lines of a product written as a tier is: zero (sugar), decaf; not what zero is said of as a claim (`_no_line`).
_LINES = ("zero", "decaf", "제로", "디카페인", "디카페나토")
#: Words that make a model another model when they follow its name: a product line's tiers. Only whole words count
#: ("프로모션", "에어컨", "라이트닝" are not tiers), and a tier may follow another ("프로맥스").
_TIERS = (
    "pro", "max", "plus", "ultra", "mini", "lite", "se", "fe", "edge", "air", "anc",
    "프로", "맥스", "플러스", "울트라", "미니", "라이트", "엣지", "에어", *_LINES,
)  # fmt: skip
_TIER = "|".join(sorted(_TIERS, key=len, reverse=True))
#: A tier word where it stands: glued or spaced after the model's word, ended by anything but more letters of a word
#: (another tier may follow). Where a tier word could be read otherwise ("라이트 그레이": Lite, grey, or light grey?)
#: it is read as the tier: an offer refused in doubt costs less than another model's price delivered as right.
_ONE_TIER = rf"[\s/(\[]*(?P<tier>{_TIER})(?=$|[^a-z가-힣]|(?:{_TIER}))"
_TIER_AFTER = re.compile(_ONE_TIER)
#: A run of tier words ("프로 맥스"), to see what follows them.
_TIERS_AFTER = re.compile(f"(?:{_ONE_TIER.replace('?P<tier>', '')})+")
#: Letters glued to a model's number: its variant ("16e", "s25fe", "s25+", "S5M2": Mark II), unless they are a
#: unit ("256gb") or two digits or more follow them: then the number starts a maker's code ("16Z90TP" for a 16).
_GLUED = re.compile(r"\+|[a-z]++(?!\d{2})")
#: One letter, or a +, glued to a Hangul name and ending the word ("팔콘s", "프로+"; not "갤럭시s24", "밥솥ih",
#: "이어폰c타입", "홍삼정+쇼핑백": a second letter, a digit or Hangul after it make it something else; nor a
#: company's "동원F&B").
_GLUED_TO_NAME = re.compile(r"(?:[a-z]|\+)(?![0-9a-z가-힣+]|&[a-z])")
_HANGUL_END = re.compile(r"[가-힣]$")
#: A Latin word joined by a + to a keyword's Latin word ("GPS+Cellular", "Wi-Fi+Cellular"): an edition of the product
#: that carries more. Not spaced ("… + 케이스 증정" gives a gift), not glued to a Hangul word ("화이트+SD카드"), not a
#: gift ("Go+HDMI 케이블 증정": a second reviewer's counter-examples).
_JOINED_BY_PLUS = re.compile(r"\+(?P<other>[a-z]{2,})(?![a-z가-힣])")
_GIVEN_IN_THE_CLAUSE = re.compile(r"[^,()\[\]]*?(?:증정|사은품|포함|선물|gift)")
#: A number with a + right after the name: a formula for an age or over ("어덜트 8+", "어덜트 7+", "실버 50+": for dogs
#: of eight and over), not a count ("1+1", "1+ 1") nor a gift ("2+케이스", "2+ 케이스 증정").
_AGE_AFTER = re.compile(r"\s?(?P<age>\d{1,2})\+(?![\d가-힣a-z+])(?!\s?\d)")
#: A keyword naming a later stage of life asks for an age formula itself ("미니 에이징 12+", "시니어 7+").
_LATER_STAGE = re.compile(r"시니어|에이징|실버|노령|senior|aging|silver|mature")
#: A model's generation number ends a keyword word: one or two digits ("s25", "16", "워치7"). Longer numbers are
#: codes, whose glued letters are colours and regions ("DW-5600BB", "SM-S928NZKE").
_GENERATION = re.compile(r"(?<!\d)\d{1,2}$")


#: A maker's model code right after a tier, two letters or more first and two digits or more, five characters or more
#: ("라이트 JLLDS01XY", "프로 BPLDS05DM"): the tier names the model it codes, not an accessory's line. Looser in its
#: digits than a keyword's code word (`CODE_WORD`: three), since appliance codes write two ("01", "05"); stricter in
#: its letters, so a size or a count after a tier ("미니 2개", "라이트 25cm") is none.
_A_CODE_AFTER = re.compile(r"\s(?=(?:[a-z]*\d){2})(?=\d*[a-z]{2})[0-9a-z]{5,}(?![0-9a-z])")
#: A keyword word that is a maker's model code, letters and at least three digits ("16z90sga5pk", "sms931n"): unlike a
#: model's name ("s25", "워치7") it has no tiers.
CODE_WORD = re.compile(r"(?=(?:[a-z]*\d){3})(?=\d*[a-z])[0-9a-z]+")


@dataclass(frozen=True, slots=True)
class ModelName:
    """The keyword's words, and the tiers and glued letters it names itself."""

    words: tuple[Word, ...]
    named: str  # the keyword, lower case without spaces or dashes: a tier inside it is the keyword's own
    #: The keyword names an accessory of a model ("아이폰 15 케이스"): a tier is the model's only when it stands
    #: between the model and the accessory ("아이폰 15 프로 케이스"). Followed by other words it is the accessory's
    #: own line name ("슈피겐 아이폰 15 울트라 하이브리드 케이스"), or a colour ("실리콘 라이트 핑크"); not followed
    #: by a maker's model code, which names the model whole ("스탠드 선풍기 2 라이트 JLLDS01XY": the Lite of a
    #: standing fan, whose keyword names a stand, the fifty-eighth reader's undoubted wrong lowest offer).
    names_accessory: bool
    ends_name: re.Pattern[str]
    #: The keyword's maker (`maker_of`): a + glued to it is its own name ("닥터자르트+", "Dr.Jart+"), no tier.
    maker: Word | None


def model_name(folded: str, words: tuple[Word, ...], *, names_accessory: bool, maker: Word | None) -> ModelName:
    keyword_word = "|".join(word.pattern.pattern for word in words)
    ends_name = re.compile(rf"\s*(?:$|[^a-z가-힣\s]|\d|(?:{keyword_word}))" if words else r"\s*(?:$|[^a-z가-힣\s])")
    return ModelName(words, SEPARATORS.sub("", folded.lower()), names_accessory, ends_name, maker)


def _named_by_keyword(model: ModelName, word: Word, variant: str) -> bool:
    if variant == "+":
        return any(word.text + spelling in model.named for spelling in _spellings("플러스"))
    if (hangul := _HANGUL_SPELLING.get(variant)) and hangul in model.named:  # "Ultra" for a keyword's 울트라
        return True
    if variant.isascii():  # Latin letters: the keyword writes them as a word, or glued to the same number
        return any(variant == other.text for other in model.words) or word.text + variant in model.named
    spellings = (variant, *_SPELLINGS.get(variant, ()))
    # Hangul: also inside a keyword compound ("에어" of "에어프라이어"); or the keyword's Latin spelling of it.
    return variant in model.named or any(spelling == other.text for spelling in spellings for other in model.words)


def _an_age_formula(age: str, word: Word, model: ModelName) -> bool:
    """Whether "N+" after a keyword `word` is a formula for an age and over the keyword does not ask for. Not the
    keyword's own number with a plus ("아이폰 15+" for "아이폰 15 플러스"), an age rating after a set's number ("10497
    18+"), a car seat's group ("0+"), nor where the keyword names a later stage of life itself (a reviewer's)."""
    return (
        age != "0"
        and not word.text.isdigit()
        and age not in (other.text for other in model.words)
        and not any(other.text in (f"{age}+", f"{age}플러스") for other in model.words)
        and not _LATER_STAGE.search(model.named)
    )


#: What zero is said of as a claim, not a line ("제로 칼로리", "제로 웨이스트", "제로 그래비티", "제로 딜레이"), or
#: denied ("(제로 아님)", "제로 X)"): a reviewer's. Not 슈거 (sugar): "Zero Sugar" is the colas' line itself.
_A_CLAIM = re.compile(
    r"\s?(?:칼로리|kcal|웨이스트|waste|그래비티|gravity|딜레이|delay|아님|아닌|아니|없음|x(?=\s*[)\]]|\s*$))"
)


def _no_line(title: str, tier: re.Match[str]) -> bool:
    """Whether a line word (`_LINES`) after a keyword word names no line: a claim or a denial follows it ("제로 칼로리",
    "(제로 아님)")."""
    return tier["tier"] in _LINES and _A_CLAIM.match(title, tier.end()) is not None


#: What a number after a space counts or measures, not a model's: a counter, a unit, colours or pieces ("2 세트", "4
#: color", "4 pcs", "3 mm"); units glued to a number are letters, which end no model's number
#: (`_A_MODELS_NUMBER_ENDS`).
_QUANTITY_AFTER = "|".join(
    [*sorted(COUNTERS), *sorted(unit for unit in MEASURE_SYMBOLS if len(unit) > 1), _COLOURS_OR_PIECES]
)
#: How a model's number ends as a title writes it (one or two digits): the title's end, a space, a bracket or a sign,
#: or a generation's word glued to it ("GO 2", "에어팟3 (흰색)", "3세대", "2nd gen"); not glued to any other letters,
#: a unit's, a year's, an age's, a share's or a resolution's ("20인치", "25년형", "12개월", "30%", "4K", "2in1"), nor
#: followed by a times sign or, after a space, by what a number counts or measures (`_QUANTITY_AFTER`: "5 x 8봉", "2
#: 세트", "4 color"), nor the first of a list of numbers, which a set of volumes writes ("1 + 2 세트", "1·2권").
_A_MODELS_NUMBER_ENDS = (
    r"(?=$|[\s()\[\]{}<>,/|:;!·]|세대|(?:st|nd|rd|th)?\s?gen(?![a-z]))"
    rf"(?!\s?x\s?\d|\s(?:{_QUANTITY_AFTER})(?![0-9a-z가-힣]))(?!(?:세대)?\s?[+·,~&/]\s?\d)"
)
_NUMBER_AFTER_A_NAME = re.compile(rf"\s?(?P<number>\d{{1,2}}){_A_MODELS_NUMBER_ENDS}")
#: A screen's size in inches after a number ("11인치", "13형"): the keyword's number written so is the model's too.
_INCHES = r"\s?(?:인치|inch|형)(?![가-힣a-z])"


def other_models_number(title: str, model: ModelName) -> str | None:
    """Another number than the keyword's right after the word of the model's name it follows ("보쉬 GO 2 … 3.6V" for
    "보쉬 GO 3"), written as a model's number (`_A_MODELS_NUMBER_ENDS`: not a quantity's, a year's or a decimal), where
    the title writes the keyword's number nowhere as a model's number or a screen's size ("애플워치 시리즈 10 (애플워치
    9 대비)", "에어 7세대 11인치" for "에어 11": a reviewer's)."""
    undashed = title.replace("-", "")
    for name, number in pairwise(model.words):
        if not (number.text.isdigit() and len(number.text) <= 2) or re.search(r"\d", name.text):
            continue
        if name.text + number.text not in model.named:
            continue  # not side by side in the keyword
        after = [_NUMBER_AFTER_A_NAME.match(undashed, found.end()) for found in name.pattern.finditer(undashed)]
        written = {int(found["number"]) for found in after if found}
        if not written or int(number.text) in written:
            continue
        if _written_as_a_models_number(undashed, int(number.text)):
            continue
        return f"another model: {name.text} {min(written)}"
    return None


@lru_cache(maxsize=256)
def _a_models_number(number: int) -> re.Pattern[str]:
    """A number written as a model's number (`_A_MODELS_NUMBER_ENDS`) or a screen's size, zeros before it or not."""
    return re.compile(rf"(?<![\d.,])0*{number}(?:{_INCHES}|{_A_MODELS_NUMBER_ENDS})")


def _written_as_a_models_number(title: str, number: int) -> bool:
    """Whether a title writes a number anywhere as a model's number (`_A_MODELS_NUMBER_ENDS`) or a screen's size
    ("11인치", "13형"), whatever comes before it ("PS5", "시리즈 10")."""
    return _a_models_number(number).search(title) is not None


def other_variant(title: str, model: ModelName) -> str | None:
    """The variant a title names right after a word of the keyword, when the keyword does not name it."""
    undashed = title.replace("-", "")
    for word in model.words:
        if CODE_WORD.fullmatch(word.text):
            continue  # a maker's code names one model whole: a tier word after it describes it ("16Z90S 울트라5")
        for match in word.pattern.finditer(undashed):
            after = match.end()
            if _GENERATION.search(word.text):
                glued = _GLUED.match(undashed, after)
            else:  # a name glued to a letter or a + ("팔콘S", "프로+"): another model of that name
                glued = _GLUED_TO_NAME.match(undashed, after) if _HANGUL_END.search(word.text) else None
                if glued and glued.group() == "+" and word is model.maker:
                    # the maker's own name ("Dr.Jart+"); a letter still names a model ("팔콘S": a reviewer's)
                    glued = None
            if glued and glued.group() not in MEASURE_SYMBOLS and not _named_by_keyword(model, word, glued.group()):
                return f"another model: {word.text}{glued.group()}"
            joined = _JOINED_BY_PLUS.match(undashed, after) if word.text[-1].isascii() else None
            if (
                joined
                and not _named_by_keyword(model, word, joined["other"])  # "GPS Cellular" asked
                and joined.group() not in model.named  # "GPS+Cellular" asked
                and not _GIVEN_IN_THE_CLAUSE.match(undashed, joined.end())
            ):
                return f"another model: {word.text}{joined.group()}"
            aged = _AGE_AFTER.match(undashed, after)
            if aged and _an_age_formula(aged["age"], word, model) and not _GIVEN_IN_THE_CLAUSE.match(undashed, after):
                return f"another model: {word.text} {aged.group().strip()}"
            tier = _TIER_AFTER.match(undashed, after)
            if tier is None or _named_by_keyword(model, word, tier["tier"]) or _no_line(undashed, tier):
                continue
            tiers = _TIERS_AFTER.match(undashed, after)
            tiers_end = tiers.end() if tiers else tier.end()
            if (
                model.names_accessory
                and not model.ends_name.match(undashed, tiers_end)
                and not _A_CODE_AFTER.match(undashed, tiers_end)
            ):
                continue
            return f"another model: {word.text} {tier['tier']}"
    return None
