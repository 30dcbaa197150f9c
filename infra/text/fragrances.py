"""A fragrance's concentration, as titles write it: "오드뚜왈렛" as "오 드 뚜왈렛", "오드투왈렛", EDT or "Eau de
Toilette".

A closed set, one concept per concentration, like the materials of `infra.text.materials`: a keyword's "오 드 뚜왈렛"
names the eau de toilette wherever a title says so, by its initials, in French or in any Hangul spelling, and another
concentration is still another product (오드퍼퓸 for 오드뚜왈렛). Its spellings run over several words, so each is
folded into one Hangul word before words are read (`infra.text.folding`), for keywords and titles alike; a Hangul
word, so that a keyword's bare 퍼퓸 or 코롱, the line's name or the Korean word for perfume or cologne ("탬버린즈 퍼퓸
카모", "4711 오리지널 코롱"), is still found in it, as it was in "오 드 퍼퓸" (a reviewer's).
"""

from __future__ import annotations

import re

#: Each concentration's one name and the patterns of its other spellings: its initials (not EDC, also "everyday
#: carry"), the French name, and the Hangul one in the spellings Korean listings use, spaced, dashed or glued (뚜왈렛,
#: 투왈렛, 트왈렛, 뚜알렛, 토일렛; 퍼퓸, 퍼품, 빠르펭, 파르펭; 코롱, 꼴로뉴, and 오데코롱).
CONCENTRATIONS: dict[str, str] = {
    "오드뚜왈렛": r"(?<![a-z0-9])edt|eau[\s-]?de[\s-]?toilette|{eau}드[\s-]?(?:(?:뚜|투|트|뜨)(?:왈|알)렛|토일렛)",
    "오드퍼퓸": r"(?<![a-z0-9])edp|eau[\s-]?de[\s-]?parfum"
    r"|{eau}드[\s-]?(?:퍼퓸|퍼품|빠르펭|빠르팽|파르펭|파르팽|빠퓸|파퓸)",
    "오드코롱": r"eau[\s-]?de[\s-]?cologne|{eau}[드데][\s-]?(?:코롱|꼴로뉴|콜로뉴)",
}
#: The Hangul name's "eau": a word of its own ("오 드 퍼퓸"), or glued after a name when written whole ("뿌르옴므오드
#: 뚜왈렛"); never the 오 that ends another word before a spaced 드.
_EAU = r"(?:(?<![a-z가-힣])오[\s-]?|(?<=[가-힣])오)"
#: Any of them, each in a group named by its one name.
_WRITTEN = re.compile(
    "|".join(f"(?P<{name}>{spellings.format(eau=_EAU)})" for name, spellings in CONCENTRATIONS.items()).join(
        ("(?:", r")(?![a-z])")
    ),
    re.IGNORECASE,
)


def named_alike(text: str) -> str:
    """The text with every concentration written as its one name ("오 드 뚜왈렛 100ml", "EDT 100ml" are "오드뚜왈렛
    100ml")."""
    return _WRITTEN.sub(lambda found: str(found.lastgroup), text)
