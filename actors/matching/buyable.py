"""Whether an offer can be bought at its price by anyone: ads, stock, conditional prices, range prices.

- Ads compete only as the organic listings they duplicate; sold-out items never win (the source's stock field).
- A title that says the item cannot be bought now is not an offer ([품절], 일시품절, 재입고 예정 / 알림 / 미정,
  입고예정, 판매종료 / 완료, 구매불가, 재고없음, 재고 0개, 현재 판매하지 않음, 단종상품, a pre-order (예약판매,
  사전예약, open or closed); not "낱개 판매하지 않음" or "마트에서 판매하지 않는 상품", which say how or where it is
  sold, nor a reservation that is none ("예약불가", "매장픽업 예약")):
  Naver's API has no stock field, and sellers write it into titles on both sources. 품절임박 (almost sold out) is
  on sale: 품절 counts only as the head of its word, and none of them said of a time ahead (판매종료 임박). Not 매진,
  which sellers write as hype more than as stock ("홈쇼핑 완판 매진", "3회 연속 매진", "1차 매진 2차 입고 완료"): in
  the lowest alone it leaves the lowest in doubt.
- Only the price every buyer pays counts: a listing that showed a member, coupon, subscription, first-purchase, app
  or card price and no plain sale price carries `price_condition` (the parser decides, `coupang_parser`). A title
  that binds its price to a condition says so in its grammar ("세탁기 동시구매 시 특가": a clause of 시, "when", that
  leads to a price) or in its words (임직원 전용, 쿠폰 적용가: `_CONDITION_OF_SALE`, hints for what no clause says).
- A range's start ("12,900원~", marked by the source or written in the title: "19,900원부터") is the cheapest
  option's price: it stands for the asked product only when the keyword names a quantity the title lists first in
  every dimension it names.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from decimal import Decimal
from functools import lru_cache
from itertools import pairwise

from actors.matching.codes import model_codes
from actors.matching.identity import Word
from actors.matching.left_out import named_only_within
from actors.matching.loanwords import HANGUL_RUN
from actors.matching.quantities import SIZE_RANGE, SPACED_SIZES, Quantity, first_stated, listed_sizes, quantities
from actors.matching.sells import DENIALS
from infra.text.analyzer import Morpheme, morphemes
from infra.text.folding import english
from infra.text.words import aligned, segments
from schemas.offers import Offer

#: 품절 said as hype, not stock: 품절임박 (almost sold out), 품절 대란 (sold out everywhere else), 조기품절 주의.
_HYPE = r"(?!\s?(?:임박|대란|주의|직전|예상|행진|시|전))"
_SOLD_OUT = re.compile(rf"(?:일시)?품절{_HYPE}|" + english(r"sold\s?out", r"out\sof\sstock"))
#: Phrases saying an item is not on sale, unless said of a time ahead ("재고소진시 종료", "판매종료 임박"), a denial
#: ("단종모델 아님") or a region ("도서산간 주문불가").
_NOT_ON_SALE = re.compile(
    r"(?:재?입고\s?(?:예정|알림|대기|신청|예약|미정)|판매\s?(?:일시\s?)?(?:종료|중지|중단|완료)|출하\s?(?:종료|중단|마감)"
    r"|(?<!산간 )(?<!산간)(?:구매|주문)\s?불가|재고\s?(?:없음|소진|0(?![\d.,])\s?개?)|단종\s?(?:상품|모델)"
    r"|현재\s?판매\s?(?:하지\s?않|안\s?함)"
    # A shop that buys the item ("[매입] … 최고가 매입합니다") sells none.
    r"|^\s?[(\[]\s?매입\s?[)\]]|매입\s?합니다)"
    rf"{_HYPE}(?!\s?(?:아님|까지|시까지|해제|예정))"
)


#: A pre-order, open or closed: sold ahead of its stock, not on sale now. Not its bonus or its price kept once the item
#: is out ("사전예약 특전 포함", "사전예약 사은품", "사전예약가 그대로"), nor denied ("예약판매X", "예약판매 아닙니다").
_PRE_ORDER = re.compile(
    rf"(?:사전\s?예약|예약\s?(?:판매|구매|상품)|프리\s?오더|{english(r'pre\W?orders?')})"
    rf"(?!\s?(?:특전|혜택|사은품|가\s?그대로|(?:가\s?)?(?:{DENIALS}|아닙니다|안\s?함)))"
)
_RELEASE = r"(?:발매|출시)\s?예정"
#: What a release is not the title's own after: another thing named right before it ("신규 컬러", "후속작", "2탄",
#: "신형출시예정" glued).
_ANOTHERS = (
    r"(?<![가-힣\d])(?<!컬러 )(?<!색상 )(?<!버전 )(?<!모델 )(?<!후속 )(?<!후속작 )(?<!신형 )(?<!신규 )(?<!외전 )"
    r"(?<!탄 )(?<!차 )"
)
#: ... nor before a denial or the occasion of a sale ("출시 예정 모델 아님", "출시 예정 없음", "출시 예정 기념 할인").
_NOT_SO_OR_AN_OCCASION = rf"(?!\s?(?:기념|작|모델|{DENIALS}|없))"
_DATE = r"(?:\d{1,2}\s?월(?:\s?\d{1,2}\s?일)?|\d{4}\s?[.\-/년]\s?\d{1,2}(?:\s?[.\-/월]\s?\d{1,2}\s?일?)?)"
#: A release ahead, the title's own: dated ("3월 출시예정", "2025.02.28 발매예정"), what the title ends or opens with
#: ("… 마리오 테니스 피버 발매 예정": the eighty-fifth reader's; "[발매예정] …"), or before its shipping ("발매예정
#: 순차발송", "출시예정 사전판매"). Not another thing's release, which a title names before it or in brackets
#: ("(후속작 출시 예정)", "신규 컬러 3월 출시예정", "(2탄 발매예정)", "신형출시예정 재고정리"), nor a release over
#: or denied ("발매 예정일 2023.5.12 (발매 완료)", "출시 예정 모델 아님"): a reviewer's.
_RELEASE_AHEAD = re.compile(
    rf"{_ANOTHERS}(?:{_DATE}\s?(?:중|말|초)?\s?{_RELEASE}"
    # undated: its date, if any, was read with the thing named before it
    rf"|(?<!월 )(?<!일 )(?<!\d )(?<!말 )(?<!중 )(?<!초 ){_RELEASE}(?=\s*\]?\s*$|\s?(?:순차|사전\s?판매|예약)))"
    rf"{_NOT_SO_OR_AN_OCCASION}"
    rf"|(?:^|(?<=^\[)|(?<=^\[ )){_RELEASE}{_NOT_SO_OR_AN_OCCASION}"
)
#: What says the release is over, or the title is clearing stock before another's ("발매 완료", "재고정리").
_RELEASED = re.compile(r"(?:발매|출시)\s?완료|재고\s?정리")
#: A title saying the item ships now, whatever it says of a pre-order ("사전예약 종료 정상판매중", "사전예약 재고
#: 즉시출고": a reviewer's); not once stock arrives ("입고 후 즉시발송"), nor the regular price (정상판매가).
_SHIPS_NOW = re.compile(r"(?<!후)(?<!후 )(?:즉시|당일)\s?(?:발송|출고|배송)|재고\s?보유|정상\s?판매(?!\s?가)")


#: 매진 ("sold out", said of tickets and shows): sellers write it as hype more than as stock, so it refuses nothing;
#: in the lowest it leaves the lowest in doubt.
_SOLD_OUT_OR_HYPE = re.compile(rf"매진{_HYPE}")


def sold_out_perhaps(lowered: Sequence[str]) -> str | None:
    """The doubt a word the lowest offer's title writes for sold out, as sellers write hype too ("… 세럼 80ml 매진"),
    leaves when no other accepted offer writes it (`lowered`: their titles, cheapest first); hype a maker's
    campaign spreads ("홈쇼핑 완판 매진") is written by several sellers."""
    said = _SOLD_OUT_OR_HYPE.search(lowered[0])
    if said is None or any(_SOLD_OUT_OR_HYPE.search(title) for title in lowered[1:]):
        return None
    return f"sold out?: the lowest's title says {said.group()}, which no other offer's does"


def not_buyable(offer: Offer, title: str) -> str | None:
    """Why the offer cannot be bought now, from its flags or its normalized title; None: it can."""
    if offer.is_ad:
        return "ad"
    if offer.sold_out:
        return "sold out"
    parts = segments(title)
    for match in aligned(_SOLD_OUT, title):
        if parts[match.last].head:
            return f"sold out: {match.text}"
    if said := _NOT_ON_SALE.search(title):
        return f"not buyable: {said.group()}"
    if (said := _PRE_ORDER.search(title)) and not _SHIPS_NOW.search(title):
        return f"not buyable: {said.group()}"
    if (said := _RELEASE_AHEAD.search(title)) and not (_SHIPS_NOW.search(title) or _RELEASED.search(title)):
        return f"not buyable: {said.group()}"
    return None


#: A title that binds its price to who the buyer is or what else they sign: a group it is reserved for (임직원 전용,
#: 임직원가, 멤버십 전용가, 교육할인), a proof to show (구매인증, 인증 필요), a carrier contract (번호이동, 공시지원,
#: 요금제), an introductory period or a first purchase (첫달 반값, "첫 달 가격", "첫구매 전용가"), a coupon's price
#: (쿠폰 적용가), a trade-in price (보상판매가), a month of an instalment (월 60,375원), a duty-free sale (출국자,
#: 인도장 수령, 면세가: for travellers leaving the country), a minimum order (단체 50더즌 이상, 최소주문 30개, 2개 이상
#: 구매시 개당), a card's discount (삼성카드 결제시 청구할인, 카드 즉시할인), business members (사업자 전용), a
#: subscription (정기배송 전용, 정기구독 첫 회, 정기구독 첫 달), a deposit (예약금: part of a price, not the price),
#: every benefit stacked (최대혜택가), a return or a contract asked for (반납조건, 약정 조건). Not what every buyer gets
#: ("온라인 전용가", "쿠팡 전용 특가": a channel's price; "면세점 정품": a claim; "단체주문 환영", "2개 이상 구매시
#: 무료배송", "카드 무이자 24개월 할부"). The parser reads such conditions from a price line's place; sellers also write
#: them into the title, where only their words tell. Hints, not the rule: the price cluster still judges what they miss.
#: A subscription: a keyword that asks for one ("과학동아 1년 정기구독") asks for its price.
_SUBSCRIPTION = r"정기\s?(?:배송|구독)"
#: "Only" said between who a price is for and the price, with the price's amount perhaps ("첫 구매 고객 한정 9,900원
#: 특가", "신규회원 한정 특가").
_ONLY = r"(?:한정\s?(?:[\d,]+\s?원\s?)?)?"
#: A rate before its price word ("7% 할인가", "5% 즉시할인가"); not what a discount makes possible ("할인 가능").
_RATES_PRICE = r"\d{1,2}\s?%\s?(?:즉시\s?)?할인\s?가(?:격)?(?![가-힣])"
_CONDITION_OF_SALE = re.compile(
    # A group's price; the group's discount may be given between them ("[T멤버십 20%할인가]"), applied or added
    # ("[네이버 멤버십 10% 적용가]", "멤버십 회원 추가할인가": the hundred-and-sixth and -seventh readers').
    # Not a non-member's (비회원), nor an applied price said to be left out ("멤버십 10% 적용가 별도"), nor an added
    # discount that is no price ("회원 추가할인 쿠폰 증정", "… 종료": a reviewer's).
    r"(?:(?:임직원|직원|(?<!비)회원|멤버십|학생|교직원|법인|신규\s?(?:가입자?|회원)|체험단)\s?(?:\d{1,2}\s?%\s?)?"
    rf"{_ONLY}(?:전용|가(?![가-힣])|적용\s?가(?![가-힣])(?!\s?(?:미반영|별도|미포함|동일))|추가\s?할인\s?가(?![가-힣])"
    r"|할인|특가|모집가)"
    # A shop's messenger friends' price ("[톡톡친구 전용가]", "카톡 플친 특가", "카카오 채널 친구 10% 할인"): only
    # those who added the shop. Not a couple's friends ("커플 친구"), an invitation ("톡톡친구가 되어주세요") nor a
    # coupon given on top ("톡톡친구 할인쿠폰 증정").
    rf"|(?:(?<![가-힣])(?:톡톡|카톡|카카오톡?|톡|플러스|플)\s?(?:채널\s?)?친구|(?<![가-힣])플친)\s?(?:\d{{1,2}}\s?%\s?)?"
    rf"{_ONLY}(?:전용|할인(?!\s?쿠폰)|특가)"
    r"|교육\s?할인"
    # A channel the shop reserves a price for ("(모바일 전용가)", "앱 전용 특가", "어플할인"), or a tag opening with
    # it says is the only one ("[APP전용]", "[쇼핑라이브 전용]": the hundred-and-eleventh and -ninth readers'); not the
    # device a thing is for ("모바일 전용 게임패드": a reviewer's, "라이브 방송 전용 마이크", "[M.2 드라이브 전용]",
    # "[Hue App 전용]": a second reviewer's), nor "온라인 전용", which anyone ordering online is.
    r"|(?:앱|어플|모바일|(?<![a-z])app(?![a-z]))\s?(?:\d{1,2}\s?%\s?)?(?:전용\s?)?(?:가(?![가-힣])|할인|특가)"
    r"|(?<=[(\[])\s?(?:앱|어플|모바일|app|(?:쇼핑\s?)?라이브)\s?전용(?=\s?[)\]])"
    r"|(?:구매|자격|재직|재학|학생|신분)\s?인증|번호\s?이동|기기\s?변경|공시\s?지원"
    rf"|요금제\s?(?:\d+\s?개월\s?)?(?:유지|의무|필수|조건|가입)"
    # A first month's, purchase's or order's price; 가 only after 전용 or closing a tag ("[신규회원 첫구매가]": the
    # eighty-sixth reader's; "첫구매가 아니어도" is a particle); not a coupon handed out ("첫구매 전용 할인쿠폰",
    # "첫구매 3,000원 할인쿠폰 증정") nor a sale over ("특가 종료").
    rf"|첫\s?(?:달|구매|주문)\s?{_ONLY}(?:전용\s?가(?![가-힣])|가(?=\s?[)\]])|(?:전용\s?)?(?:가격|혜택가|반값|할인(?!\s?쿠폰)"
    r"|특가(?!\s?종료)|\d(?![\d,.]*\s?(?:%|원)?\s?(?:할인\s?)?쿠폰)))"
    r"|면세\s?(?:가|특가)(?![가-힣])|출국자|인도장\s?수령"
    r"|쿠폰\s?(?:적용|할인)?\s?가(?![가-힣])|보상\s?판매\s?가|월\s?[\d,]+\s?원"
    # A group's minimum ("단체 50더즌 이상", "단체주문 (20권 이상)"); not a discount or an enquiry offered to groups
    # ("(10개 이상 할인)", "(100개 이상 문의)", "(30개 이상 주문 제작 가능)": a reviewer's).
    r"|(?:단체|대량)\s?(?:주문|구매)?\s?[(\[]?\s?\d+[^\s)\]]*\s?이상"
    r"(?![\s)\]]*(?:할인|문의|별도|상담|(?:주문\s?)?(?:제작|가능)))"
    r"|최소\s?(?:주문|구매)\s?(?:수량\s?)?\d"
    # A group order's price ("단체 주문가 (10개 이상)", "단체특가"); not an invitation to one ("단체주문 환영",
    # "단체주문가 별도문의", "단체할인가 카톡상담"), nor a clearance sale open to anyone ("대량특가"), nor 단체 with a
    # particle ("단체가 많이 찾는": reviewers').
    r"|단체\s?(?:(?:주문|구매)\s?(?:가|단가)|(?:주문|구매)?\s?(?:특가|할인가))(?![가-힣])"
    r"(?![\s()]*(?:별도|[가-힣]{0,3}\s?(?:문의|상담|협의)))"
    # A price per unit from a minimum ("2개 이상 구매시 개당", "(20권 이상) 권당 5,500원"); an amount after it that is
    # no price of the offer's is a note of a discount (`not_everyones_price`: "병당 2,000원 할인").
    r"|\d+\s?(?:개|세트|박스|팩|더즌|권|병|캔|봉)\s?이상[\s)\]]*(?:(?:주문|구매)\s?시?\s?)?"
    r"(?:(?:개|세트|박스|팩|권|병|캔|봉)당|단가)(?!\s?(?:배송|택배))"
    # A card's or a card issuer's discount (카드사 즉시할인), unless said to come on top of the price shown ("카드
    # 청구할인 별도", "+ 카드할인 추가", "카드할인 미적용가", "[카드할인 7%]"; but "청구할인 10% 적용가" is the
    # discounted price).
    # A card's rate before its price word is the card's price too ("[삼성카드 결제시 7% 할인가]", "카드사 5%
    # 즉시할인가"), where a card issuer or a payment says it is a card's, not a thing sold as a card ("그래픽카드 15%
    # 할인"); nor a discount said to be left out or handed out ("카드사 할인 제외", "미포함가", "적용 안됨", "쿠폰":
    # a reviewer's).
    r"|(?:청구\s?할인|카드\s?사?\s?(?:결제\s?시?\s?)?(?:즉시\s?)?할인"
    rf"|카드\s?(?:사\s?(?:결제\s?시?\s?)?|결제\s?시?\s?)(?:즉시\s?)?{_RATES_PRICE})"
    r"(?!\s?(?:별도|추가|미적용|미포함|제외|전(?![가-힣])|적용\s?(?:안|전)|쿠폰|이벤트"
    r"|\d+(?:\.\d+)?\s?%(?!\s?(?:적용|최종))))"
    # A price paid with one means of payment, named (a card's, a pay service's, points' or vouchers' name glued
    # before it: "카카오페이 결제 즉시할인가", "(현대카드 M포인트 결제가)", "나라사랑카드 결제가": the
    # hundred-and-eighteenth and -fourth readers'; not a kind of card anyone pays with, 신용카드, 체크카드,
    # 법인카드); a bare 가 only where its phrase ends or an amount in 원 follows, since it is a particle as often
    # ("삼성페이 결제가 지원되는", "현금/카드 결제가 동일", "카카오페이 결제가 3개월 무이자": reviewers'); not every
    # buyer's checkout ("최종 결제가"), nor a discount said to come on top ("네이버페이 결제 할인가 별도").
    r"|(?<![가-힣a-z0-9])(?!(?:신용|체크|법인)\s?카드)[가-힣a-z0-9]+?(?:카드|페이|포인트|상품권)\s?결제\s?(?:시\s?)?"
    r"(?:(?:즉시\s?)?할인\s?가(?:격)?(?![가-힣])|가(?=\s?(?:$|[)\]]|[\d,]+\s?원)))(?!\s?(?:별도|추가))"
    # A business's price; not a business that sells or invoices ("사업자가 직접 판매", "사업자 전용 세금계산서").
    r"|사업자\s?(?:전용|회원)\s?(?:가|특가|할인가)?(?![가-힣])(?!\s?(?:세금|계산서))"
    # A subscription's rate before its price word ("정기구독 15% 할인가"); not a perk ("정기배송 10% 할인 별도").
    rf"|{_SUBSCRIPTION}\s?(?:{_RATES_PRICE}|전용|할인|특가|가(?![가-힣])|첫\s?회)|(?:예약|계약)금(?![가-힣])"
    # A tag giving a subscription's rate ("[정기구독 15%할인]": the hundred-and-sixteenth reader's ramen).
    rf"|{_SUBSCRIPTION}\s?\d{{1,2}}\s?%\s?할인(?=\s?[)\]])"
    # Every benefit stacked (coupons, cards, points: "[최대혜택가]", "최대 할인가"; not a sale's boast, "역대 최대
    # 할인가"), or something handed back or signed for ("폐전지 반납조건", "약정 조건"; not "미반납 조건", the price
    # for keeping it): not what a buyer pays who has none of them.
    # A price for paying outside the shop's checkout ("[현금가] … 계좌이체 시", "카드결제 불가"; not "현금가 카드가
    # 동일"), or for one region's buyers ("그 외 지역 주문 시 취소"; not a regional edition, "제주 지역 한정 에디션").
    r"|현금\s?(?:가|특가|결제\s?시)(?![가-힣])(?!\s?(?:카드\s?가?\s?)?동일)|계좌\s?이체\s?시|카드\s?결제\s?불가"
    # A price for those who come to the shop ("[매장 방문 수령 전용] 현장결제", "매장 픽업 전용"): not an order anyone
    # can place. Not a fee paid on site ("사다리차 비용 현장결제", "배관비 현장결제": a reviewer's), nor a comparison
    # ("현장결제 대비 30% 할인").
    r"|방문\s?수령\s?전용|(?:매장\s?)?픽업\s?전용"
    r"|(?<!비)(?<!비 )(?<!비용)(?<!비용 )(?<!요금)(?<!요금 )(?<!추가금)(?<!추가금 )(?<!잔금)(?<!잔금 )"
    r"현장\s?결제(?!\s?대비)"
    r"|(?:그\s?)?외\s?지역\s?(?:주문|구매)\s?시?\s?(?:취소|불가)"
    r"|(?<!역대)(?<!역대 )(?<!연중)(?<!연중 )(?<!올해)(?<!올해 )최대\s?(?:혜택|할인)\s?(?:적용\s?)?가(?![가-힣])"
    r"|(?<!미)반납\s?조건|(?:약정|작성)\s?조건"
    # A price to come, not the price now ("타임딜 예정가"); a price before the duties every importer pays ("관부가세
    # 별도").
    r"|(?<!인상)(?<!인상 )예정\s?가(?![가-힣])|관\s?부가세\s?별도(?!\s?(?:부담|청구|발생)?\s?(?:없|x\b|無))"
    # A price for some of a shop's customers ("찜 고객 3천원 할인가", "신규 고객 특가", "첫 구매 고객 한정 특가", or its
    # amount alone: "(첫구매 고객 5,900원)"); not all of them ("전 고객", "일반고객가", "쿠팡 고객 특가").
    r"|(?:찜|신규|재구매|기존|우수|vip|단골|알림\s?받기|소식\s?받기|와우|첫\s?구매|가입)\s?고객\s?"
    rf"(?:(?:[\d,]+\s?천?\s?원\s?)?{_ONLY}(?:전용|할인가|특가|가(?![가-힣]))|(?:한정\s?)?[\d,]+\s?천?\s?원))"
    # Not when the title says it is not so, or not needed ("교육할인 없이", "번호이동 불가", "회원가 아님").
    rf"(?!\s?(?:{DENIALS}|없이|없는|無|필요\s?없|무관|자유|가능))"
)


#: The price a condition is written with: inside it ("월 60,375원") or right after its price word ("카드할인가
#: 28,900원", "169만원", "1,690,000"); not a discount's size ("청구할인 100,000원"), nor the first of "A원 → B원".
_AMOUNT = (
    r"(?:(?P<man>\d+(?:\.\d+)?)\s?만\s?원|(?P<won>\d{1,3}(?:,\d{3})+|\d+)\s?원|(?P<bare>\d{1,3}(?:,\d{3})+)(?![\d,원만]))"
    r"(?!\s?(?:→|->|>|\d))"
)
_AMOUNT_INSIDE = re.compile(_AMOUNT)
_PRICE_WORD_AND_AMOUNT = re.compile(rf"(?:\s?(?:가|가격|적용가))?[\s:]*{_AMOUNT}")
_SUBSCRIBED = re.compile(_SUBSCRIPTION)


def _won(amount: re.Match[str]) -> int:
    if amount["man"]:
        return round(float(amount["man"]) * 10_000)
    return int((amount["won"] or amount["bare"]).replace(",", ""))


def _another_price(title: str, start: int, end: int, price: int, *, price_word_said: bool) -> bool:
    """Whether the title gives a condition (`title[start:end]`) a price of its own, inside it or right after its price
    word, and it is not the offer's: then the offer's price is the one every buyer pays, and the condition is the
    seller's note of a cheaper one ("… 33,000" titled "카드할인가 28,900원", "3개 이상 주문시 개당 9,900원" on an
    offer of 29,700). `price_word_said`: the condition ends on a price word, so an amount right after it is its own."""
    written = _AMOUNT_INSIDE.search(title, start, end)
    if written is None and (price_word_said or title.startswith("가", end)):
        written = _PRICE_WORD_AND_AMOUNT.match(title, end)
    return written is not None and _won(written) != price


#: Where a clause's consequence ends: a bracket, a comma or a slash (Kiwi's SS*, SP tags), or a sentence's end.
_CLAUSE_ENDS = frozenset({"SSO", "SSC", "SP", "SF"})
#: What may stand before the 시 of a condition: a noun ("구매 시"), or a verb made a modifier or a noun ("구매할 시",
#: "알림받기 시").
_CONDITION_TAGS = frozenset({"NNG", "NNP", "ETM", "ETN"})
#: The words for a price itself (a clause followed by one binds it); a price suffix glued to a word counts too.
_PRICE_NOUNS = frozenset({"가격", "단가", "특가", "정가", "최저가", "할인가", "판매가", "혜택가", "최종가"})
#: A perk a bracketed clause may qualify instead of the price ("당일발송 (오후 3시 이전 주문 시)", "무료배송 (3만원
#: 이상 구매 시)", "사은품 증정 (리뷰 작성 시)"): shipping and gifts, the two things sellers promise on a condition.
_PERK = re.compile(r"배송|발송|출고|도착|증정|사은품|적립|무료")
#: What applied to a price leaves it everyone's: a rate or an amount, or a sale of the shop's own ("특가 적용가",
#: "20%dc 적용가", "타임딜 적용가", "블랙프라이데이 적용가", "세일가 적용시").
_PLAIN_SALE = re.compile(r"(?:할인|세일|특가|딜|데이|행사|이벤트|dc)가?$")


def _price_suffix(morpheme: Morpheme, before: Morpheme) -> bool:
    """가 glued to the word before it: 개당가, 최종가, 적용가 (Kiwi tags it XSN or NNG by context)."""
    return morpheme.surface == "가" and before.end == morpheme.start


def _words(morphemes_in: Sequence[Morpheme]) -> list[list[Morpheme]]:
    """Morphemes grouped into the words a title spaces, up to a bracket, a comma or a slash."""
    words: list[list[Morpheme]] = []
    for morpheme in morphemes_in:
        if morpheme.tag in _CLAUSE_ENDS:
            break
        if words and words[-1][-1].end == morpheme.start:
            words[-1].append(morpheme)
        else:
            words.append([morpheme])
    return words


#: An amount written with a thousands separator and nothing after it: a price, as sellers write one after a condition
#: without its 원 ("[쿠폰 적용시 79,000]": the hundred-and-fourth reader's); a count or a size has its unit glued on.
_BARE_PRICE = re.compile(r"\d{1,3}(?:,\d{3})+")


def _names_a_price(word: list[Morpheme]) -> bool:
    """A price noun, a glued price suffix, an amount in 원 or written bare with a thousands separator
    (`_BARE_PRICE`), or a "per" word (개당, 1대당)."""
    if len(word) == 1 and word[0].tag == "SN" and _BARE_PRICE.fullmatch(word[0].surface):
        return True
    for index, morpheme in enumerate(word):
        if morpheme.surface in _PRICE_NOUNS or (index and _price_suffix(morpheme, word[index - 1])):
            return True
        if morpheme.tag == "SN" and index + 1 < len(word) and word[index + 1].surface == "원":
            return True
    return word[-1].surface.endswith(("당", "당가"))  # Kiwi may read 대당가 as one proper noun


#: A word saying the price after it is what is finally paid ("현대카드 결제시 최종 279,000원", "실결제 9,900원"): the
#: clause leads to that price all the same (the ninety-fourth and ninety-sixth readers' card prices).
_FINALLY_PAID = frozenset({"최종", "실결제", "실구매"})


def _the_price_led_to(words: list[list[Morpheme]]) -> list[Morpheme] | None:
    """The word naming a price a clause's next words lead to, when the price is not then talked about ("가격 문의",
    "단가 협의", "가격 인상", "정상가 환원": a Hangul noun after it says what happens to it); None: they lead to none.
    A "per" word takes the amount after it along ("개당 9,900원"); a word of the price finally paid leads on to it
    ("최종 279,000원": `_FINALLY_PAID`)."""
    if words and "".join(morpheme.surface for morpheme in words[0]) in _FINALLY_PAID:
        words = words[1:]
    if not words or not _names_a_price(words[0]):
        return None
    following = words[1] if len(words) > 1 else None
    if following is not None and words[0][-1].surface.endswith("당"):
        following = words[2] if len(words) > 2 else None
    talked_about = following is not None and following[0].tag == "NNG" and HANGUL_RUN.match(following[0].surface)
    return None if talked_about else words[0]


#: Money a buyer gets back or a coupon they must take, named before 후 ("after"): a price after it is not what is paid
#: ("N페이 포인트 적립 후 실결제가", "캐시백 후 가격", "쿠폰 적용 후 가격"). Not an event of the shop's ("출시 후
#: 최저가", "리뉴얼 후 특가", "방송 후 특가", "즉시할인 후 최종가"), whose sale everyone gets: a reviewer's
#: counter-examples to reading every 후.
_REBATE = re.compile(r"적립|캐시백|페이백|환급|리워드|쿠폰")


def _after_a_rebate(title: str, after: Morpheme) -> bool:
    """Whether the two words before a 후 name a rebate or a coupon."""
    return bool(_REBATE.search(" ".join(title[: after.start].split()[-2:])))


def _closing(found: Sequence[Morpheme], after: int) -> bool:
    """Whether a clause ends its title or its bracket: nothing follows it but a closing bracket (not a comma or a
    slash, which go on to the next item of a list: "캠핑시/여행시")."""
    rest = found[after:]
    return not rest or rest[0].tag == "SSC"


def _perk_before_the_bracket(title: str, found: Sequence[Morpheme], index: int) -> bool:
    """Whether the bracket a clause closes follows a perk, which the clause then qualifies instead of the price. Only
    a bracket still open at the clause: "무료배송 (정품) 구매 시" ends the title, bound to its price."""
    opening = next((m for m in reversed(found[:index]) if m.tag in ("SSO", "SSC")), None)
    if opening is None or opening.tag == "SSC":
        return False
    before = title[: opening.start].rstrip().rsplit(" ", 1)[-1]
    return bool(_PERK.search(before))


#: What happens to the stock or the sale, not what a buyer does ("재고 소진시 특가", "품절시 최종 가격", "행사 종료될
#: 시"): a reviewer's, after the final price was read.
_THE_STOCKS_OR_THE_SALES = frozenset({"소진", "품절", "마감", "종료"})
#: A cost a price may include, which every buyer pays ("부가세 포함시 최종 X원", "배송비 포함 시", "기본설치 포함시").
_A_COST = re.compile(r"부가세|부가가치세|vat|배송비|택배비|설치|관부가세")


def _the_shops_own_sale(applied: str) -> bool:
    """Whether what a title says is applied to its price (the word before 적용) is the shop's own sale or a rate,
    which every buyer gets ("즉시할인 적용가", "타임딜 적용시", "10% 적용가"), not what some buyers have (a coupon, a
    card, a rebate); "" (nothing before it) too."""
    return not applied or applied[-1] in "%0123456789" or bool(_PLAIN_SALE.search(applied))


def _no_buyers_condition(said: str, before: str) -> bool:
    """Whether a 시 clause's condition (`said`, its words up to 시: "소진", "종료될", "진행"; `before`: the word before
    them) is none a buyer meets: what happens to the stock or the sale (`_THE_STOCKS_OR_THE_SALES`), a cost included
    (`_A_COST` before 포함), the shop's own sale in progress or applied ("타임특가 진행시", "즉시할인 적용시 최종
    X원"); not a payment or a coupon in progress or included ("현대카드 결제 진행시", "쿠폰 포함시")."""
    if said.startswith(tuple(_THE_STOCKS_OR_THE_SALES)):
        return True
    if said.startswith("포함"):
        return bool(_A_COST.search(before))
    if said.startswith("진행"):
        return bool(before) and _the_shops_own_sale(before)
    return said.startswith("적용") and _the_shops_own_sale(before)


def prices_on_a_condition(title: str) -> Iterator[tuple[int, int]]:
    """Each clause of a title that makes its price hold only when something is done ("세탁기 동시구매 시 특가", "4본
    구매시 개당가", "(라이브 방송 중 구매 시)"), read from the grammar, not from a list of conditions: the dependent
    noun 시 ("when") after a noun or a verb opens a condition, and the price is bound to it when the clause's next
    word is a price or when the clause ends the title or its bracket. So does 후 ("after") after a rebate or a
    coupon ("포인트 적립 후 실결제가", "쿠폰 적용 후 가격") when a price follows it; not after the shop's own event
    ("출시 후 최저가", "방송 후 특가"). A clause followed by anything else gives a perk or a use, not the price
    ("2개 이상 구매시 무료배송", "가입 시 증정", "착용시 편안한", "카드 결제 시 5% 할인", "재고 소진시 종료 특가"),
    and so does a bracketed one after a perk ("무료배송 (3만원 이상 구매 시)"). The same for a price after something
    applied to it ("으뜸효율 10% 환급 적용가"), but a sale of the shop's own ("즉시할인 적용가", "타임딜 적용가").
    A word of the price finally paid leads on to the price after it ("현대카드 결제시 최종 279,000원":
    `_the_price_led_to`), and a clause of what no buyer meets binds nothing ("재고 소진시 특가", "부가세 포함시 최종
    X원": `_no_buyers_condition`). Yields where each such clause stands in the title: a clause with a price of its
    own that is not the offer's (a review's reward, "[리뷰 작성시 1,000]") does not hide a later one that is ("쿠폰
    적용시 79,000원": a reviewer's)."""
    if "시" not in title and "적용" not in title and not _REBATE.search(title):  # most titles: no analysis
        return
    found = morphemes(title)
    for index, morpheme in enumerate(found):
        condition = found[index - 1] if index else None
        if condition is None or condition.tag not in _CONDITION_TAGS:
            continue
        if _price_suffix(morpheme, condition) and condition.surface == "적용":  # "… 적용가": what was applied decides
            applied = found[index - 2] if index >= 2 else None
            if applied is not None and not _the_shops_own_sale(applied.surface):
                yield applied.start, morpheme.end
            continue
        after_a_rebate = morpheme.surface == "후" and morpheme.tag == "NNG" and _after_a_rebate(title, morpheme)
        if not after_a_rebate and (morpheme.surface != "시" or morpheme.tag not in ("NNB", "XSN")):
            continue
        after = index + 1
        while after < len(found) and found[after].surface in ("에", "만"):  # 시에, 시에만; not 시까지 (until)
            after += 1
        first = index - 2 if condition.tag in ("ETM", "ETN") and index >= 2 else index - 1
        if first and found[first - 1].tag == "SP":  # an item of a list of uses: "캠핑시/여행시"
            continue
        # The whole word (동시구매 시, 구매할 시), but not a bracket glued before it.
        start = title.rfind(" ", 0, found[first].start) + 1
        start += len(title[start:]) - len(title[start:].lstrip("([{"))
        before = (title[:start].split() or [""])[-1]  # the word before the clause's
        if not after_a_rebate and _no_buyers_condition(title[start : morpheme.start], before):
            continue
        if price := _the_price_led_to(_words(found[after:])):
            yield start, price[-1].end
        elif not after_a_rebate and _closing(found, after) and not _perk_before_the_bracket(title, found, index):
            yield start, found[after - 1].end


#: What makes an amount a shop's terms, not a listing's price: free delivery, an order's or a gift's threshold, a
#: discount or points.
_TERMS = r"(?!\s?(?:무료|무배|배송|택배|구매|주문|이상|결제|할인|적립))"
#: A title that writes its price as a range's start ("19,900원부터", "7,900원~ (옵션 선택)", "1만원~5만원": the
#: forty-fourth reader's gift sets) says what the source's "원~" mark says
#: (`Offer.price_from`): the price is the cheapest option's. Only an amount that is the offer's price, or a range
#: written whole around it: a reviewer's titles write other amounts so, a gift's or free delivery's threshold, an
#: add-on's, a fee's or a coupon's ("[5만원부터 사은품 증정]", "(추가구성 4,900원~)", "(택배비 3,000원~)", "[2,000원~
#: 5,000원 할인쿠폰]"), and none of a shop's terms from an amount on ("3만원부터 무료배송", "2만원~ 무배", "5만원~
#: 구매시 사은품") nor a sale's last day ("29,900원~12/31").
_PRICE_FROM_SAID = re.compile(rf"(?<![\d,.]){_AMOUNT}\s?(?:부터|[~∼〜]){_TERMS}(?!\s?\d{{1,2}}\s?(?:/|월))")
#: A range's end written after its start ("1만원~5만원"); not a band's ("2만원대"), nor the shop's terms
#: ("1만원~3만원 구매시 사은품 증정", "[1만원~3만원 할인쿠폰]": a second reader's).
_RANGE_END = re.compile(rf"\s?{_AMOUNT}(?!대){_TERMS}")


def _price_from_said(title: str, price: int) -> bool:
    """Whether a (lower-case) title writes the offer's `price` as a range's start (`_PRICE_FROM_SAID`)."""
    for said in _PRICE_FROM_SAID.finditer(title):
        start, end = _won(said), _RANGE_END.match(title, said.end())
        if start == price or (end is not None and start <= price <= _won(end)):
            return True
    return False


def not_everyones_price(offer: Offer, folded_title: str, wanted: tuple[Quantity, ...], keyword: str) -> str | None:
    """Why the offer's price is not what a buyer of the asked product pays; None: it is. `keyword`: normalized."""
    if offer.price_condition:
        return f"conditional price: {offer.price_condition} {offer.price:,}"
    title = folded_title.lower()
    for said in _CONDITION_OF_SALE.finditer(title):
        # A keyword that asks for a subscription ("과학동아 1년 정기구독") asks for its price.
        if _SUBSCRIBED.search(keyword) and _SUBSCRIBED.search(said.group()):
            continue
        if not _another_price(
            title, said.start(), said.end(), offer.price, price_word_said=said.group().endswith(("가", "당"))
        ):
            return f"conditional price: {said.group().strip()} {offer.price:,}"
    for start, end in prices_on_a_condition(title):
        if not _another_price(title, start, end, offer.price, price_word_said=True):
            return f"conditional price: {title[start:end]} {offer.price:,}"
    if not (offer.price_from or _price_from_said(title, offer.price)):
        return None
    if not wanted:
        return f"price from {offer.price:,}: option not known"
    for want in wanted:
        first = first_stated(folded_title, want.dimension)
        if first is None:
            return f"price from {offer.price:,}: option not known"
        if not first.same_amount(want):
            return f"price from {offer.price:,}: the first option is {first.text}, not {want.text}"
    return None


#: A title offering a pick among several listings: its price is the cheapest pick's ("용량별 가격 상이": the price
#: differs by size). Not a bare 선택 ("사이즈 선택", "색상선택": a variant of the same product, which the options
#: of one listing mostly share a price with; reading one whose alternatives name a keyword word as a pick was tried
#: and taken back: it refused the asked colour or size among "화이트/블랙 색상 선택"), but for sizes of the keyword's
#: measure (`one_of_several`).
_PRICES_DIFFER = re.compile(r"(?:용량|사이즈|중량|옵션)별\s?가격\s?(?:상이|다름)")
_CHOICE = re.compile(rf"모음전?|택\s?\d|골라\s?담기|(?:중|에서)\s?(?:택|선택)|{_PRICES_DIFFER.pattern}")
#: What ends a list of things one product suits all at once ("인덕션/가스렌지 겸용", "V7/V8/V10/V11 공용", glued or
#: after a bracket too: "인덕션/가스렌지겸용", "(인덕션/가스) 겸용"): its alternatives are no pick and no mix.
_NOT_FOR_ALL_AT_ONCE = r"(?<!겸용)(?<!공용)(?![)\]]?\s?(?:겸용|공용))"
#: Alternatives written with slashes ("와일드프레리/그래스랜드/퍼시픽카"); not all at once (`_NOT_FOR_ALL_AT_ONCE`).
#: Possessive, so the words cannot give back a letter to slip past the check ("v7/v8/v10/v1" before "1 공용").
_ALTERNATIVES = re.compile(rf"[^\s/()\[\]]++(?:\s?/\s?[^\s/()\[\]]++)++{_NOT_FOR_ALL_AT_ONCE}")
#: A list of models a part is 호환 with sells one part per model, at the cheapest one's price, where the title's pick
#: is of models ("V8/V10/V11 호환 배터리 택1"); one part for all of them where it picks another option ("15/16 호환
#: 고속충전기 색상 택1"): two reviewers'.
_COMPATIBLE_WITH_THE_LIST = re.compile(r"\s?호환")
_ANOTHER_OPTION_PICKED = re.compile(r"(?:색상|컬러|색|사이즈|길이|디자인)\s?(?:택\s?\d|선택)")
#: "… 외 5종": the listing sells the product named and N others, at the cheapest one's price, whichever it is. Not what
#: comes with the product ("샘플 외 3종 증정", "비타민B군 외 20종 함유"): not followed by a word of giving or holding.
_AND_N_OTHERS = r"(?<![가-힣])외\s?\d+\s?(?:종|가지)"
#: "… 외 택1": the product "and others, pick one" ("슈퍼 마리오 파티 잼버리 외 택1": the hundred-and-fourth reader's
#: titles sale); not besides the product itself or "the rest" ("본품 외 택1", "그 외 택1"), which picks a gift.
_AND_OTHERS_PICK_ONE = r"(?<![가-힣])(?<!본품 )(?<!그 )외\s?택\s?\d"
_AND_OTHERS = re.compile(
    rf"(?:{_AND_N_OTHERS}|{_AND_OTHERS_PICK_ONE})"
    r"(?!\s?(?:무료\s?|랜덤\s?)?(?:증정|사은품|선물|샘플|동봉|포함|함유|추가|서비스))"
)
#: The same, whatever follows: where the title says it is a pick, what follows it does not make it a gift. So is the
#: product named with others of a kind in a collection sale ("오징어땅콩 98g 외 과자 모음전": the forty-third
#: reader's snacks), however many: 외 a word of its own, spaced after it (not a word's first syllable: "[외장하드
#: 기획전]", "[외식 기획전]", "겨울 외투 모음전": a reviewer's), after the product, not opening a tag ("[외 …").
_AND_OTHERS_ANYHOW = re.compile(rf"{_AND_N_OTHERS}|(?<=[^\s\[(]\s)외\s[가-힣]{{1,6}}\s?(?:모음전?|기획전)")
#: Where the title says it is a collection to pick from (`_COLLECTION_PICK`), so is a bare "외" after a word, the
#: others after it or not ("모음전 파워핀 프로 외 숏핀/키즈핀": the ninety-fourth reader's fins; "색상선택 (티타늄화이트
#: 외 60색, 색상별 가격상이)": the ninety-seventh's paints): not "본품 외" or "그 외", nor what the same stretch says
#: of a gift, delivery, a warranty, what is in the box or sold apart, a use, an enquiry or a surcharge ("외 사은품
#: 증정", "무료배송(제주 외)", "(주말 외 당일출고)", "무상AS (소모품 외)", "(렌즈 외 액세서리 별매)", "실내 외
#: 겸용", "(블랙 외 색상 +2,000원)": a reviewer's).
_AND_OTHERS_BARE = re.compile(r"(?<=[^\s\[(]\s)(?<!본품\s)(?<!그\s)외(?![가-힣])(?:\s[^\s()\[\]]+)?")
_NOT_OTHER_PRODUCTS = re.compile(
    r"증정|사은품|선물|샘플|동봉|포함|함유|서비스|택배|배송|지역|발송|출고|도서|산간|주말|공휴일"
    r"|별도|별매|구성품|겸용|가능|불가|없음|제외|문의|보증|소모품|교환|반품|환불|(?<![a-z])a/?s(?![a-z])|\+\s?\d"
)
_BRACKET = re.compile(r"[()\[\]]")
_CLOSING_BRACKET = re.compile(r"[)\]]")
#: A collection to pick from, not a bare 선택, which nearly every listing writes of its colours or sizes
#: ("색상선택", "사이즈선택": a reviewer's); prices said to differ by option are one.
_COLLECTION_PICK = re.compile(r"모음|기획전|골라|택\s?\d|가격\s?(?:상이|다름)")


def _others_in_a_collection(title: str) -> re.Match[str] | None:
    """A bare 외 in a (lower-case) title that says it is a collection (`_AND_OTHERS_BARE`), where what follows it up
    to a bracket, or the whole bracket it stands in, says nothing of a gift, delivery, a warranty, the box or a
    surcharge (`_NOT_OTHER_PRODUCTS`)."""
    if not _COLLECTION_PICK.search(title):
        return None
    for others in _AND_OTHERS_BARE.finditer(title):
        before = list(_BRACKET.finditer(title, 0, others.start()))
        inside = bool(before) and before[-1].group() in "(["
        closing = _CLOSING_BRACKET.search(title, others.end())
        # A bracket's note is read whole ("(주말 외)"); outside one, what follows up to the next bracket's end
        # ("… 외 (사은품 증정)": a second reader's).
        start = before[-1].end() if inside else others.start()
        if not _NOT_OTHER_PRODUCTS.search(title, start, closing.end() if closing else len(title)):
            return others
    return None


#: Where "외 N종" lists what comes with the product or what a set holds: inside brackets, after a "+", in a set.
_WITH_THE_PRODUCT = re.compile(r"[(\[][^)\]]*$|(?<!\d)\+[^+]*$")
_A_SET = re.compile(r"세트|기획")
#: A pick said outright: then "외 N종" is one whatever else the title says ("외 5종 포함 옵션선택", "외 12종 기획전").
_PICK_SAID = re.compile(r"선택|골라|모음|기획전|택\s?\d")


def _and_others(title: str) -> str | None:
    """What a (lower-case) title writes of others sold under its price besides the product, if anything: "외 N종"
    wherever a pick is said, a bare 외 in a collection (`_others_in_a_collection`), and "외 N종" or "외 택1" not given
    with the product (`_WITH_THE_PRODUCT`) nor in a set."""
    if _PICK_SAID.search(title) and (others := _AND_OTHERS_ANYHOW.search(title)):
        return others.group()
    if others := _others_in_a_collection(title):
        return others.group()
    for others in _AND_OTHERS.finditer(title):
        if not (_WITH_THE_PRODUCT.search(title, 0, others.start()) or _A_SET.search(title)):
            return others.group()
    return None


def one_of_several(
    folded_title: str,
    words: tuple[Word, ...],
    wanted: Sequence[Quantity] = (),
    model: re.Pattern[str] | None = None,
) -> str | None:
    """A title that offers a pick (모음전, 택1, … 선택) in which the product is only one of the alternatives ("아카나 독
    사료 모음전 (와일드프레리/그래스랜드/퍼시픽카) 2kg"): its price is the cheapest alternative's, not the asked one's.
    Alternatives the keyword does not name (colours, "색상 택1") leave the product the one sold. A title that names
    the product and N others ("M9160C 외 5종") is always such a pick: which one its price is for is not said. So is
    a pick of sizes that lists the keyword's quantity (`wanted`) after another ("400g / 2kg / 3.4kg 택1" for 2kg):
    its price is the first size's, as a range's start is (`not_everyones_price`); a bare pick of them too ("20/24/
    28인치 사이즈선택", "5~8kg 옵션 선택"), unless the title sells every size it lists (`_ALL_OF_THEM`: "3종 세트")
    or names the asked one as the option it sells (`_named_as_the_option`)."""
    title = folded_title.lower()
    if others := _and_others(title):
        return f"price of one of several: {others}"
    alternatives = _alternative_runs(title)
    if _CHOICE.search(title):
        if picked := _named_only_as_an_option(title, words) or _model_only_as_an_option(title, alternatives, model):
            return f"price of one of several: {picked}"
    elif not _BARE_PICK.search(title) or _ALL_OF_THEM.search(title):
        return None
    if (measure := _a_measure_picked_unnamed(folded_title, wanted)) is not None:
        return f"price of one of several: {measure}"
    # Sizes of the keyword's measure are a pick, said outright or bare ("20/24/28인치 사이즈선택", "5~8kg 옵션
    # 선택"): one listing's sizes rarely share a price, as its colours mostly do.
    runs = alternatives + _ranges_to_pick_from(title)
    prices_differ = _PRICES_DIFFER.search(title) is not None
    for start, end in runs:
        later = _a_later_size(folded_title[start:end], wanted, any_dimension=prices_differ)
        if later is not None and not _named_as_the_option(folded_title, end, later):
            return f"price of one of several: {title[start:end]}"
    return None


#: A range of models' codes, each end a code with a digit ("MS-01~MS-60", "A1~A12"): in a pick, its ends are read
#: (a range written "MS-01~60" is not).
_CODE_RANGE = re.compile(r"(?<![\w-])(?P<first>[a-z][a-z0-9-]*\d)\s?[~∼〜]\s?(?P<last>[a-z][a-z0-9-]*\d)(?![\w-])")


def _model_only_as_an_option(
    title: str, alternatives: list[tuple[int, int]], model: re.Pattern[str] | None
) -> str | None:
    """The alternatives of a pick (`alternatives`: the title's `_alternative_runs`, and its ranges of codes,
    `_CODE_RANGE`) the model number given is written only among ("HX9042 / HX9044 / HX9054 택1" for HX9044: the
    eighty-ninth reader's brush heads; "MS-01~MS-60 택1" for MS-01: the hundred-and-fourth reader's figures), if any:
    each alternative is another model's listing."""
    if model is None:
        return None
    found = [match.span() for match in model.finditer(title)]
    # A run of models' codes with another model among them: not a code's suffix after a slash ("HX9044/67"), its
    # colours ("SM-R510NZAA/SM-R510NZWA") nor its packs ("HX9044/2p/4p": a second reader's); a range of codes whose
    # other end is another model's.
    runs = [
        (start, end)
        for start, end in alternatives
        if any(not model.search(code) for code in model_codes(title[start:end]))
        and not any(_the_listings_own(title, (start, end), first) for first, _ in found)
    ]
    runs += [
        match.span()
        for match in _CODE_RANGE.finditer(title)
        if not (model.search(match["first"]) and model.search(match["last"]))
    ]
    if not found or not all(any(start <= first < end for start, end in runs) for first, _ in found):
        return None
    return next(title[start:end] for start, end in runs if start <= found[0][0] < end)


#: A title selling every size it lists ("20/24/28인치 3종 세트", "1/2/3kg 각 2개", "총 60kg"): no pick.
_ALL_OF_THEM = re.compile(r"세트|\d\s?종|(?<![가-힣])[각총]\s?\d")
#: A pick said right after what it picks among ("5~8kg 옵션 선택", "(1~10박스 선택)").
_PICK_FOLLOWS = re.compile(r"\s?(?:옵션|사이즈|크기|중량|용량|수량)?\s?(?:선택|택\s?1)")


def _ranges_to_pick_from(title: str) -> list[tuple[int, int]]:
    """Where a (lower-case) title offers a range of sizes to pick from: the pick said right after it ("5~8kg 옵션 선택",
    "24~27인치 택1"), its ends in one unit. Not one item's band or span beside a pick of something else ("7~8kg 1통
    (배송일 택1)", "17~32인치 모니터암 색상 선택", "1g~5kg 주방저울": reviewers'). So are sizes listed with spaces
    and the pick said right after them ("헥스 덤벨 2kg 5kg 10kg 15kg 택1": the hundred-and-thirteenth reader's)."""
    ranges = [
        match.span()
        for match in SIZE_RANGE.finditer(title)
        if _PICK_FOLLOWS.match(title, match.end()) and match["first"] in (None, match["last"])
    ]
    return ranges + [match.span() for match in SPACED_SIZES.finditer(title) if _PICK_FOLLOWS.match(title, match.end())]


#: A pick said of a measure ("용량선택", "중량 선택"; not 대용량 or 고용량, a big one), and the dimensions it
#: picks: sellers write 용량 of a weight and of a memory's bytes too ("고춧가루 용량선택", "마이크로SD 용량선택": a
#: reviewer's).
_MEASURE_PICKED = re.compile(r"(?<![대소고저])(?P<measure>용량|중량)\s?(?:별\s?)?(?:선택|택\s?1)")
_PICKED_MEASURE = {"용량": ("volume", "weight", "capacity"), "중량": ("weight",)}
#: A size written in a unit the quantities do not read ("500미리", "16oz", "한근"): a size named all the same.
_A_MEASURE_UNREAD = re.compile(r"(?:\d|한)\s?(?:미리|mm|oz|온스|근)(?![가-힣a-z])")


def _a_measure_picked_unnamed(folded_title: str, wanted: Sequence[Quantity]) -> str | None:
    """A pick of the keyword's measure in a title that names no size of it ("노니 에너지 앰플 용량선택" for 30ml: the
    hundred-and-ninth reader's): its price is one size's, which it does not say. None where the title names one."""
    title = folded_title.lower()
    if _A_MEASURE_UNREAD.search(title):
        return None
    for said in _MEASURE_PICKED.finditer(title):
        for dimension in _PICKED_MEASURE[said["measure"]]:
            if any(want.dimension == dimension for want in wanted) and first_stated(folded_title, dimension) is None:
                return said.group()
    return None


#: An option named after a comma ("…사이즈선택, 28인치, 네이비"): how Coupang titles a listing's chosen option.
_NAMED_OPTION = re.compile(r",\s?([^,]+)")


def _named_as_the_option(folded_title: str, end: int, size: Quantity) -> bool:
    """Whether the title names the picked size as the option it sells, after a comma following its options ("20/24/
    28인치 사이즈선택, 28인치, 네이비": a reviewer's); not a price for it ("(28인치 +3만원)")."""
    return any(
        stated.dimension == size.dimension and stated.same_amount(size)
        for option in _NAMED_OPTION.finditer(folded_title, end)
        for stated in quantities(option.group(1))
    )


#: One part of a mixed pack: a name, then how many of the pack it is, bare or with a counter ("릴렉싱아로마2",
#: "새우깡 10봉"); not a weight or a volume, which a set of two products writes ("고추장 1kg + 쌈장 500g").
_MIXED_PART = r"[가-힣a-z]{2,}\s?\d{1,3}(?:\s?(?:개|봉|팩|병|캔|입|종|포|매))?(?![\w.])"
#: A pack written as its parts joined by "+" ("(릴렉싱아로마2+아로마테라피2)"); not "1+1", whose parts are no names.
_MIXED_PARTS = re.compile(rf"{_MIXED_PART}(?:\s?\+\s?{_MIXED_PART})+")
_ONE_MIXED_PART = re.compile(_MIXED_PART)
_COUNT = re.compile(r"\d+")


def a_mix(folded_title: str, words: tuple[Word, ...], wanted: Sequence[Quantity]) -> str | None:
    """The keyword's pack split among kinds, each counted apart, that names a keyword word only in some of them
    ("샤프란 섬유유연제 리필 1.6L 4개 (릴렉싱아로마2+아로마테라피2)" for four relaxing-aroma refills, "라면 10개
    (신라면5개+짜파게티5개)" for 신라면 10개): only some of the pack is the asked product, and its price is the mix's.
    Only where the parts add up to the keyword's count and those naming the word do not: "국그릇 4개 + 밥공기 4개
    세트" is the product whole and something more, "치약 3개+치약1개 (총4개)" all of it, and a keyword that counts
    nothing has no pack to split ("치약 3개 + 칫솔 2개 증정" for 치약: a reviewer's)."""
    asked = {quantity.amount for quantity in wanted if quantity.dimension in _SPLIT_DIMENSIONS}
    title = folded_title.lower()
    mixes = [mix for mix in _MIXED_PARTS.finditer(title) if sum(_counts_of(mix.group())) in asked]
    if not mixes:
        return None
    spans = [mix.span() for mix in mixes]
    for word in words:
        if (named := named_only_within(word, title, spans)) is None:
            continue
        mix = next(mix for mix in mixes if mix.start() <= named.start() < mix.end())
        naming = _counts_of(mix.group(), word)
        if not asked.intersection({*naming, sum(naming)}):
            return f"a mix: {mix.group()}"
    return None


#: A mix said outright ("혼합"), glued to what it mixes or how it ships ("3색혼합", "랜덤혼합", "혼합구성",
#: "혼합발송"), not a blend sold as one kind ("혼합미", "혼합곡", "혼합견과"), nor a mix denied or merely allowed
#: ("혼합 불가", "혼합 X", "혼합 아님", "혼합 가능"), nor a fabric's or a material's ("면/폴리 혼합 소재").
_MIX_SAID = re.compile(
    r"(?<![가-힣])(?:\d\s?[색종]|색상|컬러|랜덤)?혼합(?:구성|발송|배송|세트|포장)?(?![가-힣])"
    r"(?!\s?(?:불가|안\s?[됨돼되]|x(?![a-z])|no(?![a-z])|아님|아닌|없음|금지|가능|소재|재질|원단|혼방))"
)
#: Alternatives joined by slashes or plus signs ("검정/빨강/파랑", "라임 + 망고"), each a word of its own, a comma
#: ending them; not what one thing suits all of ("강아지/고양이 공용": `_NOT_FOR_ALL_AT_ONCE`).
_MIXED_KINDS = re.compile(rf"[^\s/+()\[\],]++(?:\s?[/+]\s?[^\s/+()\[\],]++)++{_NOT_FOR_ALL_AT_ONCE}")
#: What ends the stretch a mix is said of: a closing bracket or a comma.
_CLAUSE_END = re.compile(r"[)\],]")


def _kinds_mixed(title: str, said: re.Match[str]) -> re.Match[str] | None:
    """The alternatives a "혼합" is said of: the last run before it in its stretch ("라임 + 망고 355ml 각 12캔 혼합"),
    else one right after it ("혼합 (검정/빨강)")."""
    before = None
    for kinds in _MIXED_KINDS.finditer(title, 0, said.start()):
        before = kinds
    if before is not None and not _CLAUSE_END.search(title, before.end(), said.start()):
        return before
    after = _MIXED_KINDS.search(title, said.end())
    if after is not None and re.fullmatch(r"[\s(\[:]*(?:구성|색상|컬러)?[\s(\[:]*", title[said.end() : after.start()]):
        return after
    return None


def a_mix_said(folded_title: str, words: tuple[Word, ...], keyword: str) -> str | None:
    """A title that says it sells a mix ("혼합") of alternatives, one of which the keyword names and another not
    ("모나미 153 볼펜 0.7 검정/빨강/파랑 혼합 12자루" for 12 black pens: the hundred-and-twelfth reader's; "라임 + 망고
    355ml 각 12캔 혼합", "베지밀 A/B 혼합"): only some of it is the product. Not a keyword that asks the mix itself,
    nor one that names two of the alternatives or more: it asks a blend of them ("딸기/바나나 혼합 스무디" for "딸기
    바나나 스무디", "호두/아몬드/캐슈넛 혼합" for "하루견과 호두 아몬드"). A keyword word the title names outside the
    alternatives as well names none of them ("LED 전구 … 주광색/전구색 혼합": 전구 is the product, not a colour)."""
    title = folded_title.lower()
    if _MIX_SAID.search(keyword):
        return None
    for said in _MIX_SAID.finditer(title):
        kinds = _kinds_mixed(title, said)
        if kinds is None:
            continue
        inside = [word for word in words if named_only_within(word, title, [kinds.span()])]
        if not inside:
            continue
        alternatives = re.split(r"\s?[/+]\s?", kinds.group())
        if sum(any(word.pattern.search(kind) for word in inside) for kind in alternatives) >= 2:
            continue
        return f"a mix: {kinds.group()} 혼합"
    return None


#: The keyword's counts a mix splits: its packs, or its sheets ("마스크 50매").
_SPLIT_DIMENSIONS = frozenset({"pack", "sheets"})


def _counts_of(mix: str, word: Word | None = None) -> list[Decimal]:
    """How many of the pack each part of a mix is (`_MIXED_PARTS`), of the parts naming `word` if given."""
    return [
        Decimal(_COUNT.findall(part.group())[0])
        for part in _ONE_MIXED_PART.finditer(mix)
        if word is None or word.pattern.search(part.group())
    ]


def _alternative_runs(title: str) -> list[tuple[int, int]]:
    """Where a (lower-case) title lists alternatives, with slashes or as codes of one shape with spaces
    (`_spaced_codes`), but a list of models a part is compatible with where another option is picked
    (`_COMPATIBLE_WITH_THE_LIST`)."""
    other_option = _ANOTHER_OPTION_PICKED.search(title) is not None
    return [
        (start, end)
        for start, end in [match.span() for match in _ALTERNATIVES.finditer(title)] + list(_spaced_codes(title))
        if not (other_option and _COMPATIBLE_WITH_THE_LIST.match(title, end))
    ]


#: A code or a number written as a word of its own ("eb50", "20"; not "4개입", "1.5", "v8/v10"): its letters around
#: its digits are its shape.
_CODE_TOKEN = re.compile(r"(?<![\w.,/+~-])(?P<before>[a-z]*)(?P<digits>\d+)(?P<after>[a-z]*)(?![\w.,/+~%-])")
#: Where spaced codes are a pick's: the pick or a collection said right after them ("10 20 30 택1", "(옵션 선택)",
#: "55 65 75 85 모음전"), not a pick of a colour or a size, which one listing's options mostly share a price for ("70A
#: 75A 80A 사이즈 택1"), or a collection's word right before them ("모음전 EB20 EB50 EB60").
_PICKED_RIGHT_AFTER = re.compile(r"\s?[(\[]?\s?(?:(?:모음전?|기획전)(?![가-힣])|(?:옵션\s?)?(?:선택|택\s?1|중\s?택))")
_A_COLLECTION_BEFORE = re.compile(r"(?:모음전?|기획전)\s?[)\]]?\s?[(\[]?\s?$")


#: Titles whose spaced codes are kept: an offer's judging reads them for its alternatives and again for the asked
#: word's or model number's place among them, of its title and its undashed form.
_TITLES_READ = 64


@lru_cache(maxsize=_TITLES_READ)
def _spaced_codes(title: str) -> tuple[tuple[int, int], ...]:
    """Where a (lower-case) title lists codes of one shape, each another, with single spaces, as a pick's
    alternatives ("eb20 eb50 eb60" after 모음전, "10 20 30 택1": the hundred-and-eighteenth reader's carriers): the pick
    said right after them or a collection's word right before (`_PICKED_RIGHT_AFTER`, `_A_COLLECTION_BEFORE`), not
    all at once (`_NOT_FOR_ALL_AT_ONCE`, "호환", "프리볼트"). Bare numbers of as many digits or rising (`_one_more_of`):
    sizes ("1400 700") are no list, and a model's number beside its year or storage ("프로 2 2023", "15 128") is its
    first, which names the listing's own option (a reviewer's). Not codes of other shapes side by side ("4060 8g": a
    model and its memory). Unlike alternatives parted by slashes, the first of them is the listing's own: its price is
    the first option's (`_named_only_as_an_option`, `_model_only_as_an_option`)."""
    runs: list[tuple[int, int]] = []
    run: list[re.Match[str]] = []
    for token in [*_CODE_TOKEN.finditer(title), None]:
        if token is not None and run and _one_more_of(run, token, title):
            run.append(token)
            continue
        if len(run) > 1 and _spaced_codes_picked(title, run[0].start(), run[-1].end()):
            runs.append((run[0].start(), run[-1].end()))
        run = [token] if token is not None else []
    return tuple(runs)


def _one_more_of(run: list[re.Match[str]], token: re.Match[str], title: str) -> bool:
    """Whether a code (`token`) follows a run of spaced codes as one more of them: one space after the last, the same
    letters around other digits; a bare number of as many digits or a greater one ("5 10 20 30", "65 75 85 100", not
    "1400 700")."""
    last = run[-1]
    return (
        title[last.end() : token.start()] == " "
        and (token["before"], token["after"]) == (last["before"], last["after"])
        and token["digits"] not in {listed["digits"] for listed in run}
        and (
            bool(token["before"] or token["after"])
            or len(token["digits"]) == len(last["digits"])
            or int(token["digits"]) > int(last["digits"])
        )
    )


#: After spaced codes: not what one thing suits all of (`_NOT_FOR_ALL_AT_ONCE`'s lookahead; its lookbehinds never hold
#: after a code), nor models a part fits or the voltages of one plug.
_NOT_ALL_AT_ONCE_AFTER = re.compile(rf"{_NOT_FOR_ALL_AT_ONCE}(?!\s?(?:호환|프리볼트))")


def _the_listings_own(title: str, run: tuple[int, int], first: int) -> bool:
    """Whether the asked word or model number, named at `first`, opens spaced codes (`run`, `_spaced_codes`): the
    listing's own option, whose price it shows, not a later one's."""
    return first == run[0] and run in _spaced_codes(title)


def _spaced_codes_picked(title: str, start: int, end: int) -> bool:
    """Whether spaced codes (`title[start:end]`) are a pick's alternatives (`_spaced_codes`)."""
    said = _PICKED_RIGHT_AFTER.match(title, end) or _A_COLLECTION_BEFORE.search(title, 0, start)
    return bool(said) and bool(_NOT_ALL_AT_ONCE_AFTER.match(title, end))


_DASH_IN_A_CODE = re.compile(r"(?<=[a-z0-9])-(?=[a-z0-9])")
_DASH_BEFORE_A_WORD = re.compile(r"-(?=[가-힣])")


def _named_only_as_an_option(title: str, words: Sequence[Word]) -> str | None:
    """The list of alternatives (`_alternative_runs`) a keyword word is named only within, if any. A word is looked for
    where `identity.missing_word` looks: in the title without its dashes ("LD-515/LD-918BT/LD-1210" for LD-918BT),
    but a range with them (`Word.dashed`)."""
    # A dash inside a code goes, as missing_word drops it; one before a word is a space: "LD-918BT-화이트/블랙" picks
    # colours of LD-918BT, not among models (a reviewer's).
    spaced = _DASH_BEFORE_A_WORD.sub(" ", title)
    undashed = _DASH_IN_A_CODE.sub("", spaced)
    runs = {text: _alternative_runs(text) for text in (title, undashed)}  # each text's alternatives, read once
    for word in words:
        text = title if word.dashed else undashed
        for start, end in runs[text]:
            if not (found := named_only_within(word, text, [(start, end)])):
                continue
            if _the_listings_own(text, (start, end), found.start()):
                continue
            if word.dashed:
                return text[start:end]
            # As the title writes it: where each character of the text without dashes stands in the title.
            kept = [index for index in range(len(spaced)) if not _DASH_IN_A_CODE.match(spaced, index)]
            return title[kept[start] : kept[end - 1] + 1]
    return None


#: A bare pick ("크기 선택", "사이즈 선택", "택1"): `one_of_several` reads it only among sizes of the keyword's measure
#: (most such listings share one price), but a keyword word named only among its options leaves the lowest in doubt.
_BARE_PICK = re.compile(r"선택|택\s?1")


def one_of_several_perhaps(lowered: Sequence[str], words: Sequence[Word]) -> str | None:
    """What leaves the lowest of the accepted offers (`lowered`: their lower-case titles, cheapest first) in doubt: a
    keyword word it names only among the options of a bare pick ("제주 노지감귤 5kg 크기 선택 (소과/로얄과/대과)" for
    로얄과, "12색/18색/24색/30색 선택" for 24색), so its price may be another option's. Not a hue (colours of one
    listing mostly share a price: reading "화이트/블랙 색상 선택" as a pick was taken back); alone, only a doubt:
    refusing such listings refused the asked colour or size as often."""
    picked = _picked_among_options(lowered[0] if lowered else "", words)
    return _one_of_several_said(picked) if picked else None


def a_later_option_perhaps(lowered: Sequence[str], words: Sequence[Word]) -> str | None:
    """`one_of_several_perhaps`, only where the asked option comes after another (a listing shows its first option's
    price) and the options are not sizes written as numbers (shoe sizes share a price, with or without their unit):
    what passes the lowest over beside a dearer offer (a reviewer's "사이즈 선택 (240/…/260)" for 260, and
    "12색/24색/36색 선택" for 12색)."""
    picked = _picked_among_options(lowered[0] if lowered else "", words)
    if picked is None:
        return None
    options = [option.strip() for option in picked.split("/")]
    if all(_A_NUMBERED_SIZE.fullmatch(option) for option in options) or any(
        word.pattern.search(options[0]) for word in words if not word.hue
    ):
        return None
    return _one_of_several_said(picked)


def _one_of_several_said(picked: str) -> str:
    return f"one of several?: the lowest names the keyword's word only among its options {picked}"


#: An option that is a number, with its unit perhaps ("260", "260mm", "95"): a size of one product.
_A_NUMBERED_SIZE = re.compile(r"\d+(?:\.\d+)?\s?[a-z]*")


def _picked_among_options(title: str, words: Sequence[Word]) -> str | None:
    """The alternatives of a bare pick in the title that a keyword word (not a hue) is named only among, if any."""
    if not _BARE_PICK.search(title):
        return None
    return _named_only_as_an_option(title, [word for word in words if not word.hue])


#: The sizes a pick lists as alternatives of one product: a weight, a volume, a count or inches ("400g / 2kg",
#: "3개/6개/12개 택1", "20/24/28인치": a suitcase's, a screen's). Not a memory's and a storage's bytes ("12GB/256GB" is
#: one phone).
_PICKED_DIMENSIONS = frozenset({"weight", "volume", "tablets", "pack", "size"})


def _a_later_size(alternatives: str, wanted: Sequence[Quantity], *, any_dimension: bool) -> Quantity | None:
    """The quantity the keyword asks for that alternatives of sizes ("400g / 2kg / 3.4kg") list after another of the
    same dimension, if any; not alternatives that add up ("1kg+1kg/2kg"). `any_dimension`: the title says its prices
    differ by option, so a storage's sizes are a pick too ("128GB/256GB/512GB 옵션별 가격 상이")."""
    if "+" in alternatives:
        return None
    listed = listed_sizes(alternatives)  # read once, whichever quantity the keyword asks
    for want in wanted:
        sizes = [quantity.amount for quantity in listed if quantity.dimension == want.dimension]
        if not (any_dimension or want.dimension in _PICKED_DIMENSIONS or _storage_options(want, sizes)):
            continue
        if len(sizes) > 1 and want.amount in sizes and sizes[0] != want.amount:
            return want
    return None


def _storage_options(want: Quantity, sizes: Sequence[Decimal]) -> bool:
    """Whether bytes listed are a storage's options, each about twice the one before ("1TB / 2TB / 4TB",
    "500GB/1TB/2TB", "128GB/256GB"), not a memory's and a storage's sizes ("12GB/256GB": one phone)."""
    return want.dimension == "capacity" and len(sizes) > 1 and all(1.9 <= b / a <= 2.1 for a, b in pairwise(sizes))
