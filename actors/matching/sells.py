"""What a title sells: the product, or a part, an accessory, a used or rented one, a digital copy of it, a repack or a
sample.

Exclusions are concepts, each one idea in all its spellings (`_CONCEPTS`). A concept counts only as a whole
segment of the title (`infra.text.words.aligned`): the 커버 of the brand 커버걸 and the 중고 of 중고등 are not
covers or used goods. The keyword allows a concept it names itself ("아이폰 15 케이스", "갤럭시버즈3케이스", "… 중고").

Parts and accessories are judged by what the title sells, not by which words it contains:
- an accessory noun counts as the *head* of its word only ("보호필름" is a film; "필름카메라" a camera, "케이스포함" an
  inclusion note), and not when the title says it comes with the product (bundled: "케이스 포함", "충전기
  미포함", "필름 증정", "with 충전 케이스", "+ 케이스");
- the first accessory a title sells decides: when the keyword names it ("… 케이스"), later accessory nouns are the
  case's features ("케이스 … 카드수납 거치대");
- whatever its noun, a title that sells something *for* the product ("M35용", "S24 울트라 전용", "교체용") sells a
  part; nouns nobody listed are also caught by the price they ask (`actors.matching.prices`).
The accessory nouns below are hints for the common cases, not the rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum, auto

from actors.matching.identity import CODE_WORD, Word, counts_people
from actors.matching.quantities import quantities
from infra.text.folding import ENDS_THE_TITLE, english
from infra.text.materials import material_spellings
from infra.text.words import Aligned, Segment, aligned, segments


class _ConceptKind(Enum):
    #: Something a title sells instead of the product: only as the head of a word, and not when it is bundled with
    #: the product; the first one a title sells decides.
    ACCESSORY = auto()
    #: A kind of the product sold on its own (a refill): only as the head of a word or glued before it ("리필액"), and
    #: not when it is bundled.
    SOLD_ALONE = auto()
    #: A part sold to replace the product's own (교체용): as any whole segment, and not when it is bundled.
    REPLACEMENT = auto()
    #: Something sold in the product's place: not in its maker's package (a seller's repack, a sample, a tester), or
    #: not the thing at all (a digital copy): as any whole segment, and not when it is given with the product
    #: ("샘플 증정", "+ 전자책 증정").
    STAND_IN = auto()
    #: A condition of the item (used, rented …) or its relation to the product (compatible): as any whole segment.
    CONDITION = auto()

    @property
    def head_only(self) -> bool:
        return self in (_ConceptKind.ACCESSORY, _ConceptKind.SOLD_ALONE)

    @property
    def may_be_bundled(self) -> bool:
        return self is not _ConceptKind.CONDITION


@dataclass(frozen=True, slots=True)
class _Concept:
    category: str  # the verdict's first word
    pattern: re.Pattern[str]
    kind: _ConceptKind


def _accessory(pattern: str) -> _Concept:
    return _Concept("accessory", re.compile(pattern), _ConceptKind.ACCESSORY)


#: Words that, said right after a word, deny it: "아님", "아닌", "아니에요", "없음", "불가", "x".
DENIALS = r"아님|아닌|아니|없음|불가|x\b"
_NOT_SO = rf"(?!\s?(?:{DENIALS}))"


def _condition(category: str, pattern: str) -> _Concept:
    # "반품상품", "중고품", "전시상품": the condition's word with the word for an item is one segment, the same idea;
    # so is it with the word for a market of such items ("쿠팡 반품마켓": the forty-third reader's returned pencil).
    # Not when the title denies it ("전시품 아닌 새상품", "병행수입 아님").
    # Possessive (?+): "중고상품 아님" is denied as a whole, not read as 중고 followed by "상품 아님".
    return _Concept(category, re.compile(f"(?:{pattern})(?:상품|품|\\s?제품|마켓)?+{_NOT_SO}"), _ConceptKind.CONDITION)


#: Who or what a payment is for: extra, a difference, a surcharge, one customer.
_PAID = r"(?:추가|차액|추가금|개인)"
#: A fee or a difference paid ("추가 배송비 결제", "차액결제", "[개인결제]").
_PAYMENT = rf"(?:(?:추가\s?)?배송비|{_PAID})\s?결제"

_CONCEPTS: tuple[_Concept, ...] = (
    # A charging case is where earbuds live: a title naming one sells earbuds, unless it says the case comes alone.
    _accessory(r"충전\s?케이스(?:만|(?=[\s()\[\]]*(?:단품|분실)))"),
    _accessory("(?<!충전)(?<!충전 )케이스|" + english("cases?")),
    _accessory("커버(?!력)|" + english("covers?")),  # 커버력: a cosmetic's coverage
    _accessory("(?:액정)?(?:보호)?필름|" + english("films?", r"screen\sprotectors?")),
    _accessory("강화유리|" + english(r"tempered\sglass")),
    _accessory("거치대|" + english("holders?", "mounts?")),
    _accessory(r"스킨|" + english("skins?")),  # 스킨케어 is one word of its own
    _accessory("파우치|" + english("pouch(?:es)?")),
    _accessory("범퍼|" + english("bumpers?")),
    _accessory("그립톡|그립|" + english("grips?")),
    _accessory("(?:고속)?충전기|충전독|" + english("chargers?")),
    _accessory("케이블|" + english("cables?")),
    _accessory("스트랩|" + english("straps?")),
    _accessory("스탠드|" + english("stands?")),
    _accessory("펜슬|펜|스타일러스|" + english("pens?", "pencils?", "styluse?s?")),
    _accessory("이어팁|이어캡|" + english("ear\\s?tips?")),
    _accessory("키링|" + english("keyrings?")),
    _accessory("어댑터|젠더|" + english("adapters?")),
    # A book about a work, not the work: a workbook, a transcription notebook, a guide ("작별하지 않는다 독서 워크북",
    # "소년이 온다 필사 노트", "… 공식 가이드북").
    _Concept(
        "a book about it", re.compile(r"워크북|필사\s?(?:노트|책)|해설서|가이드북|공략집"), _ConceptKind.ACCESSORY
    ),
    # The word for a part ending the title: "스텐 뚜껑 부품" sells a lid, whatever a lid is called. Not where it
    # describes the product ("시마노 부품 21단", "정품 부품 사용", "(부품 누락 없음)"); nor 액세서리, which sellers of
    # jewellery and car goods write as their category ("여성 액세서리 선물").
    _Concept("part", re.compile(rf"(?:부품|소모품){ENDS_THE_TITLE}"), _ConceptKind.ACCESSORY),
    _condition("compatible", "호환(?:용)?|대체(?:용|품)|" + english("compatible")),
    # 교체 가능 / 교체형: a replaceable part of the product, not a replacement sold alone.
    _Concept(
        "replacement",
        re.compile(r"교체용|교환용|교체(?!\s?(?:가능|형))|" + english("replacements?")),
        _ConceptKind.REPLACEMENT,
    ),
    # 리필만: the refill only (만, "only", glued to it).
    _Concept("refill", re.compile("리필(?:용|만)?|" + english("refills?")), _ConceptKind.SOLD_ALONE),
    # 소분: a seller's repack of the product into small bags or tubs.
    # 샘플, 체험분, 견본, 테스터: a sample or a tester.
    _Concept(
        "not in its maker's package",
        re.compile(
            r"소분(?:판매)?|리패키징|샘플(?!링|러)|체험(?:분|용)|견본(?:품)?|테스터|" + english("samples?", "testers?")
        ),
        _ConceptKind.STAND_IN,
    ),
    # One earbud or one side of what is sold as a pair ("왼쪽 유닛 단품", "한쪽 단품").
    _condition("one side of a pair", r"(?:왼쪽|오른쪽|좌측|우측|한쪽)\s?(?:유닛|이어버드|버드|이어폰)|한쪽\s?단품"),
    # A B or C grade is a second: a scratched, dented or blemished item ("스크래치 B급", "B품"), or blemished
    # produce ("못난이 흠과", "파치", "파지", "비상품"). Not A or S, the top grades of fresh produce and materials
    # ("특A급 샤인머스캣", "A급 원단").
    # Not a blemish denied or guaranteed against ("흠과 제외 선별", "흠과 없는 정품", "흠과 100% 교환"); not 못난이,
    # also a product's own name ("못난이 삼형제 인형", "못난이 꽈배기": a reviewer's).
    _condition(
        "seconds",
        r"(?<![0-9a-z])[bc](?:급|품)|(?<![가-힣])(?:파[치지]|비상품)(?![가-힣])"
        r"|흠과(?!\s?(?:없는|없이|제외|선별|(?:\d+%\s?)?(?:교환|보상)))",
    ),
    # Stock near its use-by date, cleared cheap ("유통기한 임박", "소비기한 임박 특가"): not the product as its maker
    # sells it, as a second is not. Not 임박 alone: "품절 임박 특가" is on sale, and soon sold out.
    # (A title giving the date it must be used by, "유통기한 26.01.20까지", was read so and taken back: fresh stock
    # states its long shelf life the same way, "유통기한 2027.12.31까지", and telling them apart needs the day of the
    # search, which would make a verdict change with the calendar.)
    _condition("short-dated", r"(?:유통|소비)\s?기한\s?임박|떨이"),
    # "OO st": the style of the product, a look-alike, as sellers write it ("에어팟 프로2 st", "헬리녹스 st 체어").
    _condition("look-alike", r"(?<![0-9a-z])st(?![0-9a-z])"),
    # A phone sold without a line and graded is a used one ("S급 공기계", "공기계 A급"); so is an item graded like new
    # or said to be worn or used a few times ("새상품급", "실착 1회", "3회 사용", "매장 시착품"). Not a dose or a
    # disposable ("1회 사용량", "1회용"), nor what it may be used for ("3회 사용 가능").
    _condition(
        "used",
        r"중고|(?<![0-9a-z])[sa]급\s?공기계|공기계\s?[sa]급|새\s?상품\s?급|(?:실착|시착)(?:품|\s?\d+\s?회)?"
        r"|(?<!\d)\d\s?회\s?(?:사용|착용)(?!\s?(?:량|가능|분))"
        # a golf club hit to try it, as a shoe is worn to try it on ("시타채", "시타용 드라이버"); not a shop's demo
        # service ("매장 시타용 클럽 보유", "전국 시타클럽 운영": a reviewer's)
        r"|시타\s?(?:채|용|클럽)(?![^,()\[\]]*?(?:보유|운영|대여|예약|체험|서비스))|"
        + english("used", r"pre[\s-]?owned"),
    ),
    # A consumable remanufactured from used ones ("재생 배터리", "재생토너"); 재생 alone is also playback ("연속 재생",
    # "30시간 재생 배터리", "음악 재생").
    _condition(
        "refurbished",
        r"(?<!슬)리퍼(?:브|비[시쉬]드?|폰)?|(?<!시간 )(?<!시간)(?<!음악 )재생\s?(?:배터리|토너|잉크|카트리지)|"
        + english("refurb(?:ished)?", "renewed"),
    ),
    # 무료반품 / 반품불가 / 반품 가능: return-policy words in the title of a new item.
    _condition("returned", r"(?<!무료)(?<!무료 )반품(?!\s?(?:불가|가능|무료|보장|안내|비용))"),
    _condition(
        "display", "전시(?:상품|품)?|진열(?:상품|품)|오픈박스|" + english(r"open\s?box")
    ),  # 진열대 alone is a shelf
    # An opened box, sold as a condition of its own below the new one ("[단순개봉]", "박스개봉 미사용", "개봉품"); not
    # unopened (미개봉, "미 개봉품", "박스 개봉 안한"), nor what opening would do or when ("단순개봉 시 반품 불가",
    # "박스 개봉 후 교환 불가", "택배박스 개봉 전 확인"), nor a notice of returns in its clause ("단순개봉 반품불가",
    # "(단순개봉 반품X)"), nor what a cutter opens ("박스개봉 커터"), nor a film's release ("개봉 기념"): reviewers'.
    _condition(
        "opened",
        r"(?<!미)(?<!미 )(?:(?:단순|박스)\s?개봉|개봉(?:품|상품|제품))"
        r"(?!\s?(?:시|후|전|불가|금지|안|않|하지|커터|칼|용)|[^,()\[\]]*?(?:반품|교환|환불))",
    ),
    _condition("rental", "렌탈|대여|" + english("rental")),
    # A listing that collects a fee or a difference, not the product: a payment the title opens with as its tag or
    # ends with ("[추가배송비 결제] …", "… 제주/도서산간 추가배송비 결제", "[추가결제] … 차액 결제"), or says it is for
    # ("사다리차 추가금 결제 전용", "차액결제용", "개인결제창"). Not a note in round brackets or with more after it,
    # of a fee paid apart or a change's difference ("(각인 추가결제)", "(사이즈 변경시 차액결제)", "추가결제 0원",
    # "추가 결제 필요 없음"), nor one none is needed for or offered ("추가결제 걱정없는", "개인결제 가능"): a
    # reviewer's.
    _condition(
        "a payment, not the product",
        rf"(?:(?<=^\[)|(?<=^\[ )){_PAYMENT}(?=\s?\])|{_PAYMENT}(?=\s*\]?\s*$)"
        rf"|{_PAID}\s?결제\s?(?:전용|용(?![가-힣]))|(?<![가-힣])(?:개인\s?)?결제\s?창",
    ),
    # A subscription sold instead of the thing once: deliveries over time at a price per delivery, said by its term
    # ("밀키트 2인분 정기구독 (매주 배송)", "정기구독 4주"), at the title's end ("원두 정기구독") or as its tag
    # ("[정기구독]"). Not an option, a perk or a service a title mentions ("1회구매/정기구독 선택", "정기구독 10%
    # 추가할인", "정기구독 문의 환영": a reviewer's), nor a first delivery's price, a conditional price (`buyable`:
    # "정기구독 첫달 반값"); a keyword that asks for one allows it ("과학동아 1년 정기구독", "꽃 구독 2주").
    _condition(
        "a subscription",
        r"(?<=[(\[])(?:정기\s?)?구독(?=[)\]])|(?:정기\s?)?구독(?=\s?[(\[]?\s?(?:매주|매월|격주|\d+\s?(?:주|개월|회))|\s*$)",
    ),
    # Another region's release, locked to its language or its power ("일본판", "북미판", "중국 내수용", "일본어 전용").
    _condition("another region's release", r"(?:일본|일|북미|유럽|홍콩|중국|대만)\s?판|내수용|일본어\s?전용"),
    # A book in another language is another book for a reader of the keyword's ("작별하지 않는다 영문판", "원서").
    _condition("another language", r"(?:영문|영어|일어|일본어|중국어|중문)판|원서|" + english(r"english\sedition")),
    # A file, not the thing: an e-book, a PDF, a download. Not the reader that shows one ("이북리더기", "ebook reader").
    _Concept(
        "digital copy",
        re.compile(
            r"(?:전자책|이북|e-?book|pdf)(?!\s?(?:리더|뷰어|단말기|reader|viewer))|다운로드\s?(?:판|버전|코드)|"
            r"디지털\s?(?:다운로드|코드(?!\s?(?:도어|락|자물쇠|잠금)))|"
            + english(r"digital\s(?:edition|download|code(?!\s(?:door|lock)))")
        ),
        _ConceptKind.STAND_IN,
    ),
    # A game's additional content sold without it ("모여봐요 동물의 숲 해피 홈 파라다이스 추가 콘텐츠"). Not 확장팩, the
    # Korean name of a card game's booster packs ("강화 확장팩 151"), nor DLC or a season pass, which name a coating
    # ("DLC 티타늄") or come with an edition of the game ("(시즌패스1)", "(초회특전 DLC 코드)") as often: a reviewer's.
    # Not content a product offers or supports besides itself ("(추가 콘텐츠 무료 다운로드)", "앱 추가 콘텐츠 지원",
    # "추가 콘텐츠 세트": a reviewer's).
    _Concept(
        "an add-on, not the game",
        re.compile(r"추가\s?(?:콘텐츠|컨텐츠)(?!\s?(?:무료|제공|지원|세트|합본))"),
        _ConceptKind.STAND_IN,
    ),
)

#: Words saying something comes with the product, or without it: either way the title sells the product.
_BUNDLED = re.compile(r"(?:미|불)?포함|증정|사은품|별매|별도|동봉|구성품?|내장|탑재|included|gift")
#: Written before a thing, up to two words of no digits away: it is given with the product ("with 충전 케이스",
#: "+ 케이스", "사은품 케이스", "+ 정품 커버 세트"). Not the + of a count ("1+1 케이스" sells cases).
_GIVEN_BEFORE = re.compile(r"(?:\bwith|\bw/|[+&]|사은품|증정)(?:[\s:]+[^\s\d+&,/|()\[\]]+){0,2}[\s:]*$")
#: How far past a thing a bundle word may stand in its clause ("케이스 + 필름 + 충전기 증정", "투명 케이스 무료 증정").
_BUNDLE_REACH = 4
#: Where a clause ends: a bundle word beyond it speaks of something else ("케이스 슬림 (필름 증정)").
_CLAUSE_END = re.compile(r"[,/|()\[\]]")


def _named(text: str) -> list[tuple[int, Aligned]]:
    """Every concept a normalized text names, as (concept index, match), in the text's order: a condition or a
    replacement as any whole segment, an accessory or a thing sold alone as the head of a word."""
    parts = segments(text)
    found = [
        (index, match)
        for index, concept in enumerate(_CONCEPTS)
        for match in aligned(concept.pattern, text)
        if not concept.kind.head_only
        or parts[match.last].head
        or (concept.kind is _ConceptKind.SOLD_ALONE and _modifies_its_words_head(parts, match))
    ]
    return sorted(found, key=lambda item: (item[1].first, item[0]))


def _after(parts: tuple[Segment, ...], match: Aligned) -> Segment | None:
    """The segment right after the match, if any."""
    return parts[match.last + 1] if match.last + 1 < len(parts) else None


def _modifies_its_words_head(parts: tuple[Segment, ...], match: Aligned) -> bool:
    """Whether the match is glued before the head of its own word: a compound that names a kind of it ("리필액",
    "리필팩" are refills, as "리필" is). Not 가능 nor 식, which say the product takes one ("리필가능 디퓨저", "멀티펜
    리필식")."""
    following = _after(parts, match)
    if following is None or following.start != parts[match.last].end:
        return False
    return following.head and following.text not in ("가능", "식")


@dataclass(frozen=True, slots=True)
class Allowed:
    """The concepts a keyword names itself (indexes into `_CONCEPTS`), and the noun it ends with."""

    concepts: frozenset[int]
    #: The keyword's last noun ("면도날" of "… 프로글라이드 면도날 8개입"): a thing sold alone written before it is
    #: what kind of it the title sells ("리필 면도날" are the blades), not another product.
    head: str | None

    #: The keyword asks for the domestic release (국내정품): an import is another offer.
    domestic: bool = False
    #: The keyword without its spaces: a thing's word it glues to the next word is part of the product's name
    #: ("스탠드믹서"), which a title may space ("스탠드 믹서").
    written: str = ""

    @property
    def accessory(self) -> bool:
        """The keyword names an accessory ("아이폰 15 케이스") rather than the product it is for."""
        return any(_CONCEPTS[index].kind is _ConceptKind.ACCESSORY for index in self.concepts)


def allowed_by(keyword: str) -> Allowed:
    """What a normalized keyword asks for: "갤럭시버즈3케이스" asks for a case and "… 중고" for a used one; "필름카메라"
    asks for a camera, not a film, and "커버걸" for nothing."""
    concepts = frozenset(index for index, _ in _named(keyword)) | _ended_with(keyword)
    return Allowed(
        concepts, last_noun(keyword), domestic=bool(_DOMESTIC.search(keyword)), written=keyword.replace(" ", "")
    )


def _ended_with(keyword: str) -> frozenset[int]:
    """The accessories and things sold alone a keyword's words end with, where the analyzer kept the compound whole
    ("멀티펜" is a pen, as "다기능펜" split into 다기능 + 펜 is): a Korean compound names its last word."""
    heads = [segment.text for segment in segments(keyword) if segment.head]
    return frozenset(
        index
        for index, concept in enumerate(_CONCEPTS)
        if concept.kind.head_only
        for head in heads
        if (end := re.search(f"(?:{concept.pattern.pattern})$", head)) and end.start() > 0
    )


def last_noun(text: str) -> str | None:
    """The last head of a normalized text that is not a number: what a keyword names ("면도날", "칫솔")."""
    nouns = [segment.text for segment in segments(text) if segment.head and not segment.text[0].isdigit()]
    return nouns[-1] if nouns else None


def _the_kind_named(keyword: str) -> str | None:
    """The keyword's last noun (`last_noun`), or where that is a maker's code (`identity.CODE_WORD`), its last head
    without a digit: the kind of thing it names ("세척기" of "웍스 무선 고압세척기 WG630", as the analyzer heads it),
    which `sold_for_it` reads as a name of the product; the code is one of its own. Only past a code: "갤럭시 워치7
    44mm" names a 워치7, whose maker's word 갤럭시 is no kind ("갤럭시 워치7 (갤럭시 전용)": a reviewer's)."""
    noun = last_noun(keyword)
    if noun is None or not CODE_WORD.fullmatch(noun):
        return noun
    kinds = [segment.text for segment in segments(keyword) if segment.head and not re.search(r"\d", segment.text)]
    return kinds[-1] if kinds else noun


#: A gift's word later in the clause of what is for the product ("+ 고압세척기 전용 폼건 증정", "(노트북 전용 가방
#: 사은품)"); not 포함 there, which says what the part itself holds ("전용 뚜껑 손잡이 포함"), nor 구성 ("전용 뚜껑
#: 2종 구성": a second reader's).
_GIFT_IN_THE_CLAUSE = re.compile(r"[^,/|()\[\]]*?(?:증정|사은품|동봉)")
#: 포함 in a bracket: the bracket says what comes with the product ("(에어랩 전용 파우치 포함)"); not 미포함 or 불포함.
_INCLUDED = re.compile(r"(?<![미불])포함")
_A_CLOSING_BRACKET = re.compile(r"[)\]]")


def _given_with_it(title: str, start: int, end: int) -> bool:
    """Whether what a title says is for the product (`title[start:end]`, "고압세척기 전용") is given with it: a gift's
    word or a "+" right before it (`_GIVEN_BEFORE`), a gift's word later in its clause (`_GIFT_IN_THE_CLAUSE`), or a
    bracket around it that says it is included (`_INCLUDED`)."""
    if _GIVEN_BEFORE.search(title, 0, start) or _GIFT_IN_THE_CLAUSE.match(title, end):
        return True
    opened = max(title.rfind("(", 0, start), title.rfind("[", 0, start))
    if opened <= max(title.rfind(")", 0, start), title.rfind("]", 0, start)):
        return False  # not inside a bracket
    closing = _A_CLOSING_BRACKET.search(title, end)
    return bool(_INCLUDED.search(title, end, closing.start() if closing else len(title)))


#: A bracket opened right after a bundle word, still open: it says what is given ("+ 샘플 증정 (자음생 샘플 파우치
#: 10매)").
_DESCRIBES_A_GIFT = re.compile(r"(?:증정|사은품|포함)\s?[(\[][^)\]]*$")


def _bundled(title: str, match: Aligned) -> bool:
    """Whether the title says the thing comes with the product (or without it): a bundle word within its clause
    after it (포함, 미포함, 증정, 사은품, 별매 …), or "with", "+", 사은품, 증정 right before it, or before the bracket
    it stands in."""
    parts = segments(title)
    before = title[: parts[match.first].start]
    if _GIVEN_BEFORE.search(before) or _DESCRIBES_A_GIFT.search(before):
        return True
    for after in parts[match.last + 1 : match.last + 1 + _BUNDLE_REACH]:
        if _CLAUSE_END.search(title, parts[match.last].end, after.start):
            return False
        if _BUNDLED.match(title, after.start):
            return True
    return False


#: A keyword that asks for the domestic release ("… 국내정품"), and a title that sells an import instead.
_DOMESTIC = re.compile(r"국내\s?정품|한국\s?정품|국내\s?정식|정식\s?발매")
_IMPORTED = re.compile(
    r"(?:해외\s?(?:직구|구매\s?대행|배송|판)|병행\s?수입|직수입|글로벌\s?버전)"
    rf"(?!(?:\s?(?:제품|상품))?\s?(?:{DENIALS}))"  # "병행수입 아님", "해외직구 제품 아님"
)

#: A title saying the product itself is not in the box sells something else (a service, a part, a kit), and so does
#: one selling the box alone (공박스, 빈 박스, 박스만; not "1박스만").
_PRODUCT_NOT_INCLUDED = re.compile(
    r"(?:제품|본품|본체|기기|단말기)\s?(?:미포함|불포함|제외)|(?<![가-힣])(?:공|빈)\s?박스|(?<![\d가-힣])박스만"
)


def excluded(title: str, allowed: Allowed, filed_as: frozenset[str]) -> str | None:
    """The concept a normalized title names that the keyword does not ask for: "accessory: 케이스", "used: 중고"; or
    "not the product: 제품 미포함". `filed_as`: the names the source files the offer under beside the keyword's own
    kind ("스킨/토너" for a 토너): an accessory's word among them names the product ("수분 스킨" is the toner)."""
    if said := _PRODUCT_NOT_INCLUDED.search(title):
        return f"not the product: {said.group()}"
    if allowed.domestic and (said := _IMPORTED.search(title)):
        return f"imported, not the domestic release: {said.group()}"
    parts = segments(title)
    named = _named(title)
    sells_what_the_keyword_names = False
    for index, match in named:
        concept = _CONCEPTS[index]
        if concept.kind.may_be_bundled and _bundled(title, match):
            continue
        if concept.kind is _ConceptKind.SOLD_ALONE and _modifies(parts, match, allowed.head):
            continue
        if concept.kind.head_only and _inside_the_name(parts, match, allowed.written):
            continue
        if concept.kind is _ConceptKind.ACCESSORY:
            if _a_watchs_body(title, parts, match):
                continue
            # `filed_as` is empty where the keyword asks for an accessory (`_filed_beside_its_kind`).
            if (
                sells_what_the_keyword_names
                or match.text in filed_as
                or _modifies_the_asked(title, parts, named, match, allowed)
            ):
                continue
            # The first accessory it sells decides: the asked one makes the rest its features.
            sells_what_the_keyword_names = index in allowed.concepts
        if index not in allowed.concepts:
            return f"{concept.category}: {match.text}"
    return None


#: What a watch's body is made of besides the materials `infra.text.materials` spells ("티타늄 케이스").
_OTHER_BODY_MATERIALS = frozenset({"티타늄", "titanium", "세라믹", "ceramic", "스틸", "steel"})
#: A band named after the case, in the rest of the title ("스포츠 밴드", "스포츠 루프", "밀레니즈 루프", "링크
#: 브레이슬릿").
_BAND_AFTER = re.compile(r"밴드|루프|브레이슬릿|band|loop|bracelet")


def _a_watchs_body(title: str, parts: tuple[Segment, ...], match: Aligned) -> bool:
    """Whether a case is a watch's body in the watch's own name: named right after what it is made of, with a band
    named after it ("제트 블랙 알루미늄 케이스, 블랙 스포츠 밴드", "티타늄 케이스 밀레니즈 루프": an Apple Watch's
    official name, three blind readers' answers). Not a case made as one piece with a band ("케이스 밴드 일체형"),
    nor one no material names ("투명 케이스 스포츠 밴드 세트"), which are sold for a watch."""
    if match.first == 0 or "일체형" in title:
        return False
    before = parts[match.first - 1]
    return bool(
        (material_spellings(before.text) or before.text in _OTHER_BODY_MATERIALS)
        and not title[before.end : parts[match.first].start].strip()
        and _BAND_AFTER.search(title, parts[match.last].end)
    )


def _inside_the_name(parts: tuple[Segment, ...], match: Aligned, written: str) -> bool:
    """Whether the match and the word after it are written together in the keyword (`written`, without spaces): part
    of the product's name there ("스탠드 믹서" for "… 스탠드믹서"), not a thing sold instead."""
    following = _after(parts, match)
    return following is not None and (match.text + following.text).replace(" ", "") in written


def _modifies_the_asked(
    title: str, parts: tuple[Segment, ...], named: list[tuple[int, Aligned]], match: Aligned, allowed: Allowed
) -> bool:
    """Whether an accessory's word is written right before an accessory the keyword asks for, as the kind of it the
    title sells: the word before is its modifier and the head decides ("범퍼 케이스" is a case for "… 케이스", the
    fiftieth reader's answer), as it does in a word that glues them ("범퍼케이스"). Only a space between them, the
    asked one sold (not given, "케이스 [필름 증정]", nor attached to, "링 거치대 케이스 부착형", "스트랩 케이스 연결
    고리"), and not a thing a case holds ("펜슬 케이스", "충전기 케이스", "필름 케이스", "이어팁 케이스"): a
    reviewer's. `named`: the concepts the title names (`_named`)."""
    following = _after(parts, match)
    if following is None or title[parts[match.last].end : following.start].strip() or _HELD.fullmatch(match.text):
        return False
    return any(
        index in allowed.concepts and head.text == following.text and not _bundled(title, head)
        for index, head in named
        if head.first == match.last + 1
    ) and not _ATTACHED.match(title, following.end)


#: What a case holds or carries rather than is: a pen, ear tips, a charger or its cable, an adapter, film.
_HELD = re.compile(r"펜슬|펜|스타일러스|이어팁|이어캡|(?:고속)?충전기|충전독|케이블|어댑터|젠더|(?:액정)?(?:보호)?필름")
#: Said right after a thing for another one: it attaches to it ("부착", "장착", "연결 고리"), fits it (호환) or clears
#: it (간섭).
_ATTACHED = re.compile(r"\s?(?:부착|장착|연결|고리|호환|간섭)")


def _modifies(parts: tuple[Segment, ...], match: Aligned, noun: str | None) -> bool:
    """Whether the match is written right before the keyword's own noun, as its modifier ("리필 면도날")."""
    following = _after(parts, match)
    return noun is not None and following is not None and following.text == noun


_FOR_IT = re.compile(r"\s?(?:전용|용)(?![가-힣])")
#: A number right after "…용", where a quantity starts.
_A_NUMBER_NEXT = re.compile(r"[\s(]*\d")


def _asked_amount_next(title: str, end: int, keyword: str) -> bool:
    """Whether the quantity a title writes right after "…용" (`end`) is the keyword's own amount ("국거리용 0.5kg" for
    "… 국거리 500g"): what the product is for, sold in the amount asked, not a thing sold for it in its own amount
    ("정수기용 3개입 필터", "면도기용 4입 면도날", "카메라용 64GB SD카드": a reviewer's)."""
    if (number := _A_NUMBER_NEXT.match(title, end)) is None:
        return False
    following = quantities(title[number.end() - 1 :])
    return bool(following) and any(
        asked.dimension == following[0].dimension and asked.same_amount(following[0]) for asked in quantities(keyword)
    )


#: "… 바라짜 엔코 사용가능", "… S24 울트라 적용 가능": usable with the product, so sold for it, when the product's name
#: (two of the keyword's words in a row) is what it is usable with. One word is a feature ("인덕션 사용가능", "모든
#: 식기세척기 사용가능", "캠핑 사용가능").
_USABLE_WITH = re.compile(r"\s?(?:에서?\s?)?(?:사용|적용|장착)\s?가능")


def sold_for_it(
    title: str,
    keyword: str,
    anchors: tuple[Word, ...],
    model: re.Pattern[str] | None = None,
    *,
    names_accessory: bool = False,
) -> str | None:
    """A title that sells something for the product: the product's name or model number followed by 용 or 전용
    ("M35용 필름", "S24 울트라 전용 거치대", "LS32CG510E 전용 받침대"), or its name followed by 사용 가능
    ("그라인더 클리너 … 바라짜 엔코 사용가능"; not when the keyword asks for an accessory, which is usable with its
    device).

    Only a word that names the product counts (one with digits or Latin letters, the keyword's last noun, or the kind
    it names before a maker's code it ends with, `_the_kind_named`): "유아용 칫솔" and "차량용 방향제" are
    toothbrushes and air fresheners, not things for 유아 or 차량. Nor when the keyword's own noun follows ("유아용
    칫솔"), or the keyword itself says so ("쿠쿠 전기밥솥 6인용"), nor the keyword's last noun with 용 and the
    keyword's own amount after it, its use ("한우 양지 국거리용 0.5kg" for 500g, meat for soup: a thirty-ninth
    reader's, `_asked_amount_next`); 전용 says a part even so ("스마트 로라 전용 11단 카세트"). Nor a number of people
    with 용 ("4인용" is for four people: `identity.counts_people`), nor what the title gives with the product
    (`_given_with_it`: "+ 고압세척기 전용 폼건 증정")."""
    undashed, asked = title.replace("-", ""), keyword.replace("-", "")
    noun, kind = last_noun(keyword), _the_kind_named(keyword)
    names = [word.pattern for word in anchors if re.search(r"[0-9a-z]", word.text) or word.text in (noun, kind)]
    for pattern in [*names, *([model] if model else [])]:
        for match in pattern.finditer(undashed):
            marker = _FOR_IT.match(undashed, match.end())
            if marker is None or (noun and undashed[marker.end() :].lstrip().startswith(noun)):
                continue
            if _given_with_it(undashed, match.start(), marker.end()):
                continue  # "웍스 WG630 고압세척기 + 고압세척기 전용 폼건 증정": a gift for it, beside the product
            if counts_people(match.group()):  # "4인용" is for four people (a reviewer's tent)
                continue
            if (
                match.group() == noun
                and marker.group().strip() == "용"
                and _asked_amount_next(undashed, marker.end(), asked)
            ):
                continue
            if any(_FOR_IT.match(asked, own.end()) for own in pattern.finditer(asked)):
                continue
            return f"sold for the product: {match.group()}{marker.group()}"
    if names_accessory or _USABLE_WITH.search(asked):
        return None
    for marker in _USABLE_WITH.finditer(undashed):
        name = undashed[: marker.start()].split()[-2:]
        named = len(name) == 2 and not any(part[0].isdigit() for part in name)  # a size is no name ("28cm 인덕션")
        if named and all(any(word.pattern.fullmatch(part) for word in anchors) for part in name):
            return f"sold for the product: {' '.join(name)}{marker.group()}"
    return None


#: A title saying it sells something without something else, which is then bought apart: "(시트 별매)", "(날
#: 미포함)", "(컬러팩 별도 구매)". Not 별도 alone, which sellers write of costs ("배송 별도", "설치 별도", "VAT
#: 별도"), nor a cost left out ("배송비 미포함", "부가세 불포함"); not 단품, which says "not a set" as often as "a part
#: alone" ("윤조에센스 90ml 단품"), nor 만 ("[오늘만 특가]", "1인 1개만"): a reviewer's counter-examples.
_WITHOUT_SOMETHING = re.compile(
    r"(?<![비세료])(?<![비세료]\s)\s?(?:미포함|불포함|별매|별도\s?(?:구매|판매))(?![가-힣])"
)


def sold_without_something(title: str) -> str | None:
    """The words by which a normalized title says it sells something without something else ("시트 별매", "날
    미포함"), or None. Alone it proves nothing (a camera "메모리카드 별매" is the camera); priced far under the
    product's other offers, it is a part sold alone (`actors.matching.prices.priced_without_a_part`)."""
    said = _WITHOUT_SOMETHING.search(title)
    if said is None:
        return None
    before = title[: said.start()].rstrip()  # with the word it is said of
    return title[before.rfind(" ") + 1 : said.end()].strip("([ ")
