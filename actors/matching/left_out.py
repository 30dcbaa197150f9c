"""A keyword word a title names only to say it is not there: not in the box ("본체만 (배터리/충전기 미포함)" for a
set with its battery) or not so ("선물용 불가" for the gift grade, "무선충전 미지원" for a charging mount). Also where a
pick's alternatives name a word (`named_only_within`, read by `buyable.one_of_several`)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from actors.matching.identity import Word

#: Things a title says are not in the box, or are not so: the word right before 미포함, 불포함, 별매, 별도 (구매 /
#: 판매), 없음 or 없이, or denied by 불가 or 아님 ("배터리 별도 구매", "배터리 없이", "선물용 불가"); inside
#: brackets, every word before it there, joined by /, +, &, 및 or spaces ("본체만 (배터리/충전기 미포함)", "(배터리 및
#: 충전기 미포함)"). Outside brackets a list is not read as one: in "EOS R50, 블랙, 바디, 렌즈 미포함" only the lens is
#: left out. Not 제외, which shipping notes use ("제주/도서산간 제외").
_NOT_IN_THE_BOX = r"\s?(?:미포함|불포함|별매|별도(?:\s?(?:구매|판매))?|없음|없이)(?![가-힣])"
#: A denial reads the one word before it, and never a shop's policy ("반품 불가", "제주 지역 배송 불가"), nor a denial
#: denied ("정품 아님 X"), nor 아닌, which sellers write to praise ("그냥 생수가 아닌 삼다수"). A feature said to be
#: unsupported is denied too ("(무선충전 미지원)", "무선충전 비지원": the seventy-sixth reader's magnetic mount); 비지원
#: only as a word of its own, since a cost's 비 is supported as often ("택배비 지원", "렌탈비지원": a reviewer's).
_NOT_A_POLICY = r"(?<!반품)(?<!교환)(?<!환불)(?<!취소)(?<!배송)(?<!발송)(?<!설치)"
_DENIED = rf"{_NOT_A_POLICY}(?:\s?(?:불가|아님|미\s?지원)|\s비지원)(?![가-힣])(?!\s?x\b)"
_LEFT_OUT = re.compile(
    rf"[(\[](?P<inside>[^()\[\]]*?){_NOT_IN_THE_BOX}|(?P<word>[^\s()\[\]/,+&]+)(?:{_NOT_IN_THE_BOX}|{_DENIED})"
)


def named_only_within(word: Word, title: str, spans: Sequence[tuple[int, int]]) -> re.Match[str] | None:
    """The first place the title names the word, when it names it and every time inside one of the spans (a "not
    included" clause, a pick's alternatives); None otherwise."""
    hits = list(word.pattern.finditer(title))
    if hits and all(any(start <= hit.start() and hit.end() <= end for start, end in spans) for hit in hits):
        return hits[0]
    return None


def left_out(title: str, keyword: str, words: tuple[Word, ...]) -> str | None:
    """A keyword word the title names only to say it is not in the box: "… 2.0Ah 배터리 2개 세트" asked, "베어툴
    본체만 (배터리/충전기 미포함)" sold. The keyword's own "… 배터리 미포함" asks for that."""
    clauses = list(_LEFT_OUT.finditer(title))
    if not clauses:
        return None
    spans = [clause.span("inside" if clause["inside"] is not None else "word") for clause in clauses]
    asked_out = " ".join(match.group() for match in _LEFT_OUT.finditer(keyword))
    for word in words:
        if word.pattern.search(asked_out) or (first := named_only_within(word, title, spans)) is None:
            continue
        clause = next(clause for clause in clauses if clause.start() <= first.start() < clause.end())
        return f"left out: {clause.group().strip('([')}"
    return None
