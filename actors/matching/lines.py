"""Another line of the product named inside its name: 센트룸 실버 우먼 for 센트룸 우먼, 포엥 어린이 암체어 for 포엥
암체어, 김치왕교자 for 왕교자.

A word alone cannot tell a line from what sellers put inside a name (a maker's line, a category noun, a marketing
word): refusing every word between the keyword's words was measured to refuse about fifty right answers for eight
wrong ones. So the offers decide together (`actors.matching`): a noun between two words the keyword writes side by
side names another line when other accepted offers write those words side by side and none writes that
noun. Right after the maker, and after the name before its size, where sellers put a category word or a flavour as
often as a descriptor, such a noun in the lowest offer only leaves it in doubt
(`actors.matching.doubts_about_the_lowest`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from actors.matching.identity import Word, with_and_written_out
from infra.text.analyzer import Morpheme, morphemes
from infra.text.colours import COLOUR, is_a_colour
from infra.text.units import LATIN_UNITS


@dataclass(frozen=True, slots=True)
class NamePair:
    """Two words the keyword writes side by side inside the product's name ("포엥 암체어", "비비고 왕교자")."""

    first: Word
    second: Word
    #: The first is (in) the keyword's first word, its maker: sellers put the maker's line or a category word after it
    #: ("LG전자 코드제로", "빙그레 단지우유 바나나맛우유"), so only a word glued to the second refuses there; any other
    #: only leaves the lowest in doubt.
    after_the_maker: bool


def name_pairs(keyword: str, words: tuple[Word, ...]) -> tuple[NamePair, ...]:
    """The keyword's words that stand side by side in it, where a word put between them would change the name: only
    before the keyword's first word with a digit, a model's number, which names the model whole; what follows it
    describes it ("갤럭시 S25 울트라 티타늄블랙 자급제", "MX Master 3S 퍼포먼스 무선")."""
    pairs = []
    for first, second in pairwise(words):
        if any(char.isdigit() for char in first.text + second.text):
            break
        if pair := _side_by_side(keyword, first, second):
            pairs.append(pair)
    return tuple(pairs)


def after_the_number(keyword: str, words: tuple[Word, ...]) -> tuple[NamePair, ...]:
    """The keyword's words that stand side by side in it after its first word with a digit ("카야노 31 남성 러닝화": 31
    and 남성, 남성 and 러닝화; "프로V1 골프공"), where sellers write a descriptor between them as often as a fit or a
    line ("MX Master 3S 퍼포먼스 무선" beside "카야노 31 와이드 2E 남성"): such a word only leaves the lowest in
    doubt. Not before the number ("에어팟 프로 정품 2세대")."""
    pairs = []
    numbered = False
    for first, second in pairwise(words):
        numbered = numbered or any(char.isdigit() for char in first.text)
        if numbered and (pair := _side_by_side(keyword, first, second)):
            pairs.append(pair)
    return tuple(pairs)


def before_the_size(keyword: str, words: tuple[Word, ...], anchors: tuple[Word, ...]) -> NamePair | None:
    """The name's last word and the keyword's size written right after it ("제로" and "355ml" in "코카콜라 제로 355ml
    24캔"), where a flavour ("제로 체리 355ml") sits as often as a descriptor; None when the keyword has no size there
    (`anchors`: its words with its quantities, `words` without them; a model's number is no size)."""
    for first, second in pairwise(anchors):
        if any(char.isdigit() for char in second.text):
            is_a_size = second not in words and not any(char.isdigit() for char in first.text)
            return _side_by_side(keyword, first, second) if is_a_size else None
    return None


def the_names_end(words: tuple[Word, ...], options: tuple[Word, ...]) -> Word | None:
    """The name's last word ("토마토" of "대저 짭짤이 토마토 2kg", "서랍장" of "… 서랍장 화이트": a colour is an
    option, and so is a number standing alone after the name, `options`: a shade or a size, "글로우" of "립 글로우
    001 핑크", or a generation, "프로" of "에어팟 프로 2"): what a title writes right after it up to its size names
    what it sells ("토마토 모종 5포트", seedlings; "립 글로우 오일 001", another product) as often as a descriptor
    ("토마토 로얄과"); None when that word has a digit, a model's number, which names the model whole."""
    named = [word for word in words if not is_a_colour(word.text)]
    while named and named[-1] in options:
        named.pop()
    last = named[-1] if named else None
    return None if last is None or any(char.isdigit() for char in last.text) else last


#: Where a title's name ends after its last word: a number (its size or count), a bracket, a comma, a slash or a plus.
_NAME_STOPS = re.compile(r"[\d(\[{<,/+]")


def after_the_name(title: str, last: Word) -> str | None:
    """The nouns a title writes right after the name's last word (`the_names_end`), up to its first number, bracket,
    comma or colour ("모종" in "짭짤이 토마토 모종 5포트"; "" for none); None when the title does not write that
    word."""
    undashed = title.replace("-", "")
    written = last.pattern.search(undashed)
    if written is None:
        return None
    stops = (_NAME_STOPS.search(undashed, written.end()), COLOUR.search(undashed, written.end()))
    end = min((stop.start() for stop in stops if stop), default=len(undashed))
    # Nothing to read ("k 3"): the analyzer is not asked, so a keyword in Latin letters still never loads it.
    if not _LETTER.search(undashed, written.end(), end):
        return ""
    return _nouns_between(undashed, written.end(), end, numerals=False)


def _side_by_side(keyword: str, first: Word, second: Word) -> NamePair | None:
    """The pair, when the keyword writes the two words with nothing between them (a space, a "/")."""
    # The maker is the keyword's first word as written, though the analyzer may split it (일룸: 일 + 룸).
    maker_end = keyword.find(" ") if " " in keyword else len(keyword)
    written = first.pattern.search(keyword)
    following = second.pattern.search(keyword, written.end()) if written else None
    if written is None or following is None or keyword[written.end() : following.start()].strip(" /"):
        return None
    return NamePair(first, second, after_the_maker=written.start() < maker_end)


#: What a word inside a name is made of: nouns and Latin words, not a verb or an adjective ("오뚜기 고소한 참기름").
_NAME_TAGS = frozenset({"NNG", "NNP", "SL"})
_LETTER = re.compile(r"[a-z가-힣]")
#: A digit beside a Latin noun: part of a code (the "sms" of "sms938n", a "vs" of "vs28c972dws"); a noun right after
#: a digit counts it ("2세대", "4개입").
_DIGIT_NEAR = re.compile(r"(?<=[a-z])\d|\d(?=[a-z가-힣])")
#: Hangul glued right before the keyword's word ("김치왕교자" for 왕교자, "핵불닭볶음면" for 불닭볶음면: one syllable is
#: enough): Kiwi reads such a name as one noun.
_GLUED_BEFORE = re.compile(r"(?<![가-힣])[가-힣]+$")


#: A suffix that makes a verb or an adjective of the noun before it: "고소" + 한 is "savoury", no name.
_VERB_SUFFIXES = frozenset({"XSV", "XSA"})


def _a_numeral_word(morpheme: Morpheme) -> bool:
    """A numeral written as a word of two syllables or more, which names a line as often as it counts: Kiwi reads the
    제로 of "웰치스 제로 포도" as zero. Not one syllable (일, 이, 삼 …), which sits inside names ("삼다수")."""
    return morpheme.tag == "NR" and len(morpheme.surface) > 1


@lru_cache(maxsize=1 << 12)
def _name_morphemes(text: str) -> tuple[Morpheme, ...]:
    """A text's nouns, numeral words (`_a_numeral_word`) and Latin words, but a noun a verb or an adjective is made of
    ("고소한", "촉촉한")."""
    analysed = morphemes(text)
    return tuple(
        morpheme
        for morpheme, following in zip(analysed, (*analysed[1:], None), strict=True)
        if (morpheme.tag in _NAME_TAGS or _a_numeral_word(morpheme))
        and not (following and following.start == morpheme.end and following.tag.split("-")[0] in _VERB_SUFFIXES)
    )


def _nouns_between(text: str, start: int, end: int, *, numerals: bool) -> str:
    """What a text writes from `start` to `end` from its first noun to its last ("" for none): not a unit, nor a
    one-letter Latin word (the "M" of a size), nor a "noun" with a digit or without letters (a code's "sms" of
    SM-S938N, a "1+1" Kiwi tags as a proper noun). Numeral words count where `numerals` (`_a_numeral_word`)."""
    spans = [
        (morpheme.start, morpheme.end)
        for morpheme in _name_morphemes(text)
        if start <= morpheme.start and morpheme.end <= end
        and (numerals or not _a_numeral_word(morpheme))
        and morpheme.surface not in LATIN_UNITS
        and not (morpheme.surface.isascii() and len(morpheme.surface) < 2)
        and _LETTER.search(morpheme.surface)
        and not _DIGIT_NEAR.search(text, max(morpheme.start - 1, 0), morpheme.end + 1)
    ]  # fmt: skip
    return text[min(spans)[0] : max(spans)[1]] if spans else ""


def inside_the_name(
    title: str, pairs: tuple[NamePair, ...], *, after_the_maker: bool = False, numerals: bool = False
) -> dict[NamePair, str]:
    """For each pair the title names in order, the words it writes between them ("" for none), where the two stand
    nearest each other ("BRITA 브리타 마렐라" writes nothing between 브리타 and 마렐라). Right after the maker only a
    word glued to the next one counts, unless `after_the_maker`; even then not what is glued to the maker, its
    company's name ("LG전자 코드제로"). Numeral words count only where `numerals`: Kiwi reads 제로 as a numeral in
    some names only, and "나랑드 제로 사이다" is the one 나랑드 there is (a reviewer's), so they leave a doubt and never
    refuse."""
    undashed = title.replace("-", "")
    found: dict[NamePair, str] = {}
    for pair in pairs:
        nearest: tuple[int, int] | None = None
        for first in pair.first.pattern.finditer(undashed):
            if nearest is not None and first.start() >= nearest[1]:
                break
            second = pair.second.pattern.search(undashed, first.end())
            if second is None:
                break
            nearest = (first.end(), second.start())
        if nearest is None:
            continue
        start, end = nearest
        if pair.after_the_maker and after_the_maker:  # past what is glued to the maker, its company's name ("LG전자")
            space = undashed.find(" ", start, end)
            start = end if space < 0 else space
        between = (
            ""
            if pair.after_the_maker and not after_the_maker
            else _nouns_between(undashed, start, end, numerals=numerals)
        )
        if not between and (glued := _GLUED_BEFORE.search(undashed, start, end)):
            between = glued.group()
        found[pair] = between
    return found


#: The plain line's own names ("닥터페퍼 오리지널 355ml", "몽쉘 오리지널"): where another offer writes one where the
#: lowest writes a word of its own, that word may name another line, a flavour (a doubt: a descriptor as often).
PLAIN_LINE = re.compile(r"오리지[널날]|original|클래식|classic|레귤러|regular|플레인|plain")


#: How many other accepted offers must write the keyword's words side by side before a word between them is another
#: line: one could be the odd listing itself.
PLAIN_NAMES_NEEDED = 2
#: How many words a line's name takes at most ("실버", "롱 헤어"): more describe the product ("First Care Activating
#: Serum", "st 경량 캠핑의자").
LINE_WORDS = 2


def unvouched(
    own: dict[NamePair, str],
    others: list[dict[NamePair, str]],
    others_compact: list[str],
    words: tuple[Word, ...],
    *,
    doubting: bool = False,
) -> tuple[NamePair, str] | None:
    """The first pair an offer writes a word between (`own`, from `inside_the_name`) that at least
    `PLAIN_NAMES_NEEDED` other offers write side by side and none writes anywhere (`others_compact`: their titles
    without spaces and dashes), with that word; None when every word it writes there is vouched for. A word holding a
    keyword word is the name written again ("DJI Osmo Pocket 3 … 오즈모 포켓 3"), no line; so is one of more than
    `LINE_WORDS` words, a description. `doubting`: judged for a doubt (`is_unvouched`)."""
    for pair, between in own.items():
        if is_unvouched(between, [written.get(pair) for written in others], others_compact, words, doubting=doubting):
            return pair, between
    return None


def is_unvouched(
    between: str,
    others: list[str | None],
    others_compact: list[str],
    words: tuple[Word, ...],
    *,
    doubting: bool = False,
) -> bool:
    """Whether a word an offer writes at a place in the name (`between`) is vouched for by none of the other offers
    (`others`: what each writes at that place, "" for nothing, None where it does not write the place): at least
    `PLAIN_NAMES_NEEDED` of them write nothing there and none writes the word anywhere (`others_compact`), and it is
    neither a keyword word written again nor a description of more than `LINE_WORDS` words. Where it is judged for a
    doubt (`doubting`), an offer writing the word at that place with another word after it is a line of its own and
    vouches for nothing ("제로 레몬" beside the lowest's "제로"), nor does what an offer gives with the product for an
    offer selling that thing alone (`_GIVEN`: "+ 전용 손잡이 증정"); not where it is judged for a refusal, since one
    seller's descriptor would cost another's right listing ("초음파 가습" beside "초음파": a reviewer's)."""
    if not between or sum(written == "" for written in others) < PLAIN_NAMES_NEEDED:
        return False
    if len(between.split()) > LINE_WORDS:
        return False
    noun = between.replace(" ", "")
    vouchers = [
        _GIVEN.sub("", compact) if doubting else compact
        for compact, written in zip(others_compact, others, strict=True)
        if not (doubting and written and _goes_on_after(written, between))
    ]
    written_out = with_and_written_out(between)  # "스몰&미니" is the keyword's 스몰앤미니 written again
    return not any(noun in compact for compact in vouchers) and not any(
        word.pattern.search(between) or word.pattern.search(written_out) for word in words
    )


#: What a title says it gives with the product, or leaves out of it: a clause after a "+" that joins no numbers
#: ("240ml+손잡이 증정"; not "1+1") up to a gift's word, or a bracket holding one ("(젖꼭지 포함)", "(손잡이
#: 미포함)"); not a cost included ("배송비 포함": reviewers'). Read in titles without spaces (`others_compact`).
_GIFT_WORD = r"(?:증정|사은품|(?<!배송비)(?<!택배비)포함)"
_GIVEN = re.compile(rf"(?<!\d)\+(?!\d)[^+()\[\]]*?{_GIFT_WORD}|[(\[][^)\]]*{_GIFT_WORD}[^)\]]*[)\]]")


def _goes_on_after(written: str, between: str) -> bool:
    """Whether what another offer writes at a place starts with the words an offer writes there and goes on with
    another word ("제로 레몬" after "제로"; not "냉동만두" after "만두", one word)."""
    theirs, own = written.split(), between.split()
    return len(theirs) > len(own) and theirs[: len(own)] == own
