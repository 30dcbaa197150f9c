"""A fragrance's concentration, as titles write it: "EDT" as "오 드 뚜왈렛", "오드투왈렛" or "Eau de Toilette".

A closed set, one concept per concentration, like the materials of `infra.text.materials`: a keyword's "오 드 뚜왈렛"
names the eau de toilette wherever a title says so, by its initials, in French or in any Hangul spelling, and another
concentration is still another product (EDP for EDT). Its spellings run over several words, so they are folded into
the initials before words are read (`infra.text.folding`), for keywords and titles alike.
"""

from __future__ import annotations

import re

#: Each concentration's initials and the patterns of its other spellings: the French name, and the Hangul one with
#: or without its spaces, in the spellings Korean listings use (뚜왈렛, 투왈렛, 트왈렛, 뚜알렛; 퍼퓸, 빠르펭, 파르펭).
CONCENTRATIONS: dict[str, str] = {
    "EDT": r"eau\s?de\s?toilette|오\s?드\s?(?:뚜|투|트|뜨)(?:왈|알)렛",
    "EDP": r"eau\s?de\s?parfum|오\s?드\s?(?:퍼퓸|빠르펭|파르펭|빠퓸|파퓸)",
    "EDC": r"eau\s?de\s?cologne|오\s?드\s?(?:코롱|꼴로뉴|콜로뉴)",
}
#: Any of them, standing as words of their own (not the 오 ending a word: "로 오드퍼퓸" still starts at 오).
_WRITTEN = re.compile(
    "|".join(f"(?P<{initials}>{spellings})" for initials, spellings in CONCENTRATIONS.items()).join(
        (r"(?<![a-z가-힣])(?:", r")(?![a-z])")
    ),
    re.IGNORECASE,
)


def with_initials(text: str) -> str:
    """The text with every concentration written as its initials ("오 드 뚜왈렛 100ml" is "EDT 100ml")."""
    return _WRITTEN.sub(lambda found: str(found.lastgroup), text)
