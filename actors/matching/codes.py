"""Model codes: the model number a back office gives, and the codes titles write that the offers agree on.

A model number names one product whole ("SM-S928N"), whatever the separators and case, and a title may leave out or
carry on its suffix (region, colour) but never replace it. Offers that name codes mostly share one: an offer naming
only another is another model.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from string import ascii_lowercase

from infra.text.folding import normalize
from infra.text.units import LATIN_UNITS

# --- the model number -----------------------------------------------------------------------------------------


#: What a model number's characters may be written with or without between them: spaces and dashes, and the dots and
#: slashes of a maker's reference ("T006.407.11.033.00" is written "T0064071103300", "L.12.12" "L1212", "f/1.8"
#: "F1.8").
_CODE_SEPARATOR = r"[\s./-]"
_CODE_SEPARATORS = re.compile(f"{_CODE_SEPARATOR}+")


def compact_code(model_no: str) -> str:
    """A model number as the matcher compares it: normalized, without separators ("SM-S928N" is "sms928n")."""
    return _CODE_SEPARATORS.sub("", normalize(model_no))


def model_number(model_no: str, *, written_whole: bool = False) -> re.Pattern[str] | None:
    """A pattern for "SM-S928N" that also finds "sms928n", "SM S928N" and the same with an en dash.

    A code is its digits and what comes before them; the letters after its last digit are suffixes (region,
    colour) that titles may leave out ("LS32CG510E" for "LS32CG510EKXKR", "SM-S928" for "SM-S928N") or carry on
    ("SM-S928NZKEKOO"), but never replace ("SM-S928B" is another region's model). Where the keyword writes a short
    model number whole itself (`written_whole`: "마틴 LX1E 리틀마틴"; two digits or fewer, `_A_NAMES_DIGITS`), its
    letters are the model's, not a suffix to leave out: the LX1 is another guitar, the TU-3 another tuner.
    """
    compact = compact_code(model_no)
    if not compact:
        return None
    last_digit = max((index for index, char in enumerate(compact) if char.isdigit()), default=len(compact) - 1)
    base, suffix = compact[: last_digit + 1], compact[last_digit + 1 :]

    def spaced(text: str) -> str:
        return f"{_CODE_SEPARATOR}*".join(re.escape(char) for char in text)

    # Not the tail of a longer code ("XSM-S928N"), and a trailing digit must end the number: "DW-5600" is not
    # "DW-56001". The whole suffix may run on; a part of it must end the code, and digits after a dash or a tilde in
    # its place replace it: "TP-671R" is not "TP-671-1" (its tent's ground sheet), "RF24-105mm F4 L IS USM" not "RF
    # 24-105mm F4-7.1" nor "F4~7.1" (another lens: the thirty-fourth reader's and a reviewer's). A number without a
    # suffix may run on a dash and digits, its colour's code ("10001-100", "DD1391-100").
    # A suffix the model number writes apart from its number ("GLM 50-27 C") may stand apart in a title too, so that
    # what a title glues after it is seen (`model_number_writings`: "GLM 50-27 CG"); one written glued ("SEL50F18F")
    # is not looked for in the next word ("SEL50F18 FE": a reviewer's).
    tail = r"(?!\d)" if base[-1].isdigit() else ""
    apart = r"[\s-]*" if _SUFFIX_APART.search(model_no.strip().lower()) else ""
    # The whole suffix left out, and no digits in its place; where the model number writes its suffix apart, no
    # other group of letters as short in its place either, whatever stands between ("EQM552-SH", "EQM552 SH" and
    # "EQM552(SH)" are the single mat of the "EQM552-QH" queen one: the forty-fourth reader's and a reviewer's). A
    # longer word is no suffix ("EQM552-QUEEN", "-BLACK", "-SET"), nor a group listing the suffix ("WA/BA").
    replaced = r"(?!\s?[-~]\s?\d)" + (rf"(?![\s_/()\[\]-]*[a-z]{{1,{len(suffix)}}}(?![a-z/]))" if apart else "")
    cut_short = [
        (apart + spaced(suffix[:length]) if length else replaced) + r"(?![0-9a-z])" for length in range(len(suffix))
    ]
    if written_whole and sum(char.isdigit() for char in base) <= _A_NAMES_DIGITS:
        # "마틴 LX1E …", "보스 TU-3W …": a name and its number the keyword writes whole, whose letters are the model's
        # however a title spaces them ("LP-E6 NH", "Z6 II")
        apart, cut_short = f"{_CODE_SEPARATOR}*", []
    ends = "|".join([apart + spaced(suffix) + tail if suffix else tail, *cut_short])
    series = _SERIES.match(model_no.strip().lower())
    if series and len(compact) - len(series["series"]) < _OWN_CODE_LENGTH:
        series = None  # "X520" alone is anyone's code (SM-X520)
    # The series' letters may be left out where a code of its own is left ("DP609" for "SHP-DP609").
    # … but not after another series' letters and a dash ("GM-B2100" is no GA-B2100: a reviewer's).
    lead = f"(?:{spaced(series['series'])}[\\s-]*|(?<![a-z]-))" if series else ""
    body = spaced(base[len(series["series"]) :]) if series else spaced(base)
    return re.compile(rf"(?<![0-9a-z]){lead}{body}(?:{ends})")


#: How many digits a model number holds at most before its letters where it is a model's name and number ("LX1E",
#: "TU-3W", "LP-E6NH"), whose letters are the model's where the keyword writes them too: a code of three digits or
#: more is written with a region's or a colour's letters that titles leave out as often ("DTD173Z" written "DTD173",
#: "ECAM22110B" "ECAM22110"; a reviewer's and four held-out answers).
_A_NAMES_DIGITS = 2
#: A model number whose letter suffix stands apart from its number: "GLM 50-27 C".
_SUFFIX_APART = re.compile(r"\d[\s-]+[a-z]+$")
#: Letters a title glues after a model number's match: a suffix run on ("GLM 50-27 CG" for "GLM 50-27 C").
_RUN_ON = re.compile(r"[a-z]*")


def model_number_writings(title: str, model: re.Pattern[str] | None) -> frozenset[str]:
    """How a normalized title writes a model number (`model_number`; none without one), compact, with the letters it
    glues after it: "glm5027cg" where "GLM 50-27 CG" carries on the suffix of "GLM 50-27 C", which the pattern allows
    (a region or a colour runs on as often as another model), so that the offers can be compared on it."""
    if model is None:
        return frozenset()
    return frozenset(compact_code(found.group() + _run_on(title, found.end())) for found in model.finditer(title))


def _run_on(title: str, end: int) -> str:
    """The letters a title glues right after `end` ("" for none)."""
    letters = _RUN_ON.match(title, end)
    return letters.group() if letters else ""


#: How long what follows the series must be to name the model alone ("DP609", "S928N").
_OWN_CODE_LENGTH = 5
#: A code written with its maker's series before a dash ("SHP-DP609", "SM-S928N"), what follows a code of its own:
#: letters, then three digits or more. Not a number alone after it ("CFI-7020", "DW-5600": the series names them).
_SERIES = re.compile(r"(?P<series>[a-z]{2,4})[\s-]+(?=[a-z]{1,3}\d{3})")


# --- model codes the offers agree on ----------------------------------------------------------------------------

#: A maker's model code as titles write it: letters, then at least three digits, then a suffix or a dashed part
#: ("CW2288-111", "CFI-7020", "SM-X520", "EC9155"). Units ("500ml", "2500mah") are not codes.
_CODE = re.compile(r"(?<![0-9a-z])[a-z]{1,4}-?\d{3,6}(?:-\d{2,4}|[a-z]{1,4})?(?![0-9a-z])")


def model_codes(title: str) -> frozenset[str]:
    """The model codes a normalized title names, as written: not a unit, which its final letters are whole
    ("2500mah"), but a model's suffix that only ends in a unit's letter ("c3000hg")."""
    codes = (match.group() for match in _CODE.finditer(title))
    return frozenset(code for code in codes if _final_letters(code) not in LATIN_UNITS)


def _final_letters(code: str) -> str:
    """The letters a code ends with: "hg" of "c3000hg", "mah" of "2500mah", "" of "cw2288-111"."""
    return code[len(code.rstrip(ascii_lowercase)) :]


#: A model's number of one or two digits as a title writes it, with the letters glued to it ("97", "97l", "15pro"):
#: not part of a longer number, a decimal or a code (three digits are as often a size: a shoe's "260mm").
_NUMBER_TOKEN = re.compile(r"(?<![\da-z.,])\d{1,2}[a-z]*(?![\da-z.,])")


def number_tokens(title: str) -> frozenset[str]:
    """The one- or two-digit numbers a normalized title writes, each with the letters glued to it."""
    return frozenset(_NUMBER_TOKEN.findall(title))


#: A number a title writes as a word of its own, not inside a code ("MWW43KH/A", "SM-R510"), with what it glues after
#: it: a quantity's unit or counter, a size's, an edition's ("300g" and "1kg" differ, though "1++" writes a 1). What
#: follows is kept whole ("1kg구이용", "2024년형"): a difference there errs toward keeping an offer.
_NUMBER_AS_WRITTEN = re.compile(r"(?<![a-z\d.])\d+(?:[.,]\d+)*[a-z가-힣]*")


def numbers_as_written(title: str) -> frozenset[str]:
    """The numbers a normalized title writes as words of their own, each with what it glues after it."""
    return frozenset(_NUMBER_AS_WRITTEN.findall(title))


def model_numbers(words: Iterable[str]) -> frozenset[str]:
    """The keyword's words that are such a number alone ("97" of "프로스태프 97 v14")."""
    return frozenset(word for word in words if word.isdigit() and _NUMBER_TOKEN.fullmatch(word))


def _undashed(codes: Iterable[str]) -> set[str]:
    """Codes as compared, dashes aside ("cw2288-111" is "cw2288111")."""
    return {code.replace("-", "") for code in codes}


def _same_code(one: str, other: str) -> bool:
    """Whether two codes name one model, dashes aside: one may leave out the other's suffix (a region, a colour:
    "SM-S931N" and "SM-S931NZKA")."""
    one, other = one.replace("-", ""), other.replace("-", "")
    return one.startswith(other) or other.startswith(one)


def agreed_code(codes: list[frozenset[str]]) -> str | None:
    """The code most offers that name a code share: one that at least two of them carry and more than half do."""
    naming = [found for found in codes if found]
    counts = {
        code: sum(any(_same_code(code, other) for other in found) for found in naming)
        for found in naming
        for code in found
    }
    best = max(counts.items(), key=lambda item: item[1], default=None)
    return best[0] if best and best[1] >= 2 and best[1] * 2 > len(naming) else None


def other_code(codes: frozenset[str], agreed: str) -> str | None:
    """Why an offer whose codes are all another model's is not the product the other offers agree on."""
    if not codes or any(_same_code(code, agreed) for code in codes):
        return None
    return f"another model code: {', '.join(sorted(codes))} (the others: {agreed})"


def suffix_only_the_lowest_writes(
    asked: frozenset[str], lowest: frozenset[str], others: list[frozenset[str]], *, bare_needed: int
) -> str | None:
    """The letters the lowest offer glues to a code the keyword asks for (`asked`) that no other accepted offer
    writes, where at least `bare_needed` of them write the code bare ("RB2140F 52" beside "RB2140 901 50"): a suffix
    may be a region or a colour as often as another model (an Asian fit, a variant), so the lowest is in doubt."""
    bare_codes = [_undashed(found) for found in others]
    for written in sorted(lowest):
        code = written.replace("-", "")
        for asked_code in sorted(_undashed(asked)):
            suffix = code[len(asked_code) :]
            if not (code.startswith(asked_code) and suffix.isalpha()):
                continue
            bare = sum(asked_code in found for found in bare_codes)
            suffixed = any(other.startswith(code) for found in bare_codes for other in found)
            if bare >= bare_needed and not suffixed:
                return f"another model?: the lowest writes {written}, the others {asked_code}"
    return None


def suffix_cut_short_only_by_the_lowest(
    asked: frozenset[str], lowest: frozenset[str], others: list[frozenset[str]], *, whole_needed: int
) -> str | None:
    """The lowest offer writes a code the keyword asks for with part of its suffix left off ("A3000U" for "A3000UA"),
    while at least `whole_needed` other accepted offers write it whole: a suffix cut short is a region or a colour
    left out as often as another model (the A3000U is another adapter), so the lowest is in doubt. The mirror of
    `suffix_only_the_lowest_writes`."""
    other_codes = [_undashed(found) for found in others]
    lowest_codes = _undashed(lowest)
    for asked_code in sorted(_undashed(asked)):
        if any(code.startswith(asked_code) for code in lowest_codes):
            continue  # the lowest writes it whole too
        whole = sum(any(code.startswith(asked_code) for code in found) for found in other_codes)
        for code in sorted(lowest_codes):
            left_off = asked_code[len(code) :]
            if asked_code.startswith(code) and left_off.isalpha() and whole >= whole_needed:
                return f"another model?: the lowest writes {code}, the others {asked_code}"
    return None
