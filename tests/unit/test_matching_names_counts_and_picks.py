"""The matcher reads a keyword's and a title's names, counts and picks as a shopper does: a word the analyzer took
for an ending, a maker's name against a grade of gold, a refill glued into a compound, counters and old weights, a
pack where one item is named, a pick among counts or grades, a thing's word inside the product's own name."""

from __future__ import annotations

from typing import Any

import pytest

from actors.matching import doubts_about_the_lowest, match_offers
from schemas.offers import Offer


def verdict(keyword: str, title: str, price: int = 100_000, **product: Any) -> str | None:
    offer = Offer(source="static", title=title, price=price, url="https://example.test/p/1")
    (matched,) = match_offers({"keyword": keyword, **product}, [offer])
    return matched.rejected


def test_a_word_the_analyzer_reads_as_an_ending_is_still_a_keyword_word():
    # Kiwi reads a lone 라지 as the ending of 이라지: the large diary must not let the pocket one through.
    keyword = "몰스킨 2026 데일리 다이어리 라지 하드커버 블랙"

    assert verdict(keyword, "몰스킨 2026 데일리 다이어리 포켓 하드커버 블랙") == "keyword word missing: 라지"
    assert verdict(keyword, "몰스킨 2026 데일리 다이어리 라지 하드커버 블랙") is None


def test_a_grade_of_gold_in_latin_letters_is_not_the_makers_name():
    # The maker may be written in Latin letters before the name ("Dr.G 레드블레미쉬"); "14K" is no name.
    assert verdict("순금 돌반지 1돈", "14K 돌반지 1돈 아기반지") == "keyword word missing: 순금"
    assert verdict("닥터지 레드 블레미쉬 클리어 수딩 크림 70ml", "Dr.G 레드 블레미쉬 클리어 수딩 크림 70ml") is None


@pytest.mark.parametrize(
    ("title", "reason"),
    [
        ("24K 순금 99.9 아기 돌반지 3.75g 보증서 동봉", None),  # one 돈 is 3.75 g
        ("순금 돌반지 반돈 1.875g 24K", "weight 1.875g ≠ 1돈"),
    ],
)
def test_gold_weighed_in_don_is_its_weight_in_grams(title: str, reason: str | None):
    assert verdict("순금 돌반지 1돈", title, 900_000) == reason


def test_pens_counted_in_bon_or_jaru_are_the_same_count():
    keyword = "스테들러 루모그래프 연필 4B 12자루"

    assert verdict(keyword, "STAEDTLER 루모그래프 연필 4B 12본") is None
    assert verdict(keyword, "스테들러 루모그래프 연필 4B 6자루") == "pack 6자루 ≠ 12자루"


def test_a_title_ending_in_single_sells_one():
    assert verdict("모나미 153 볼펜 0.7mm 검정 12자루", "모나미 153 볼펜 0.7mm 검정 낱개", 300) == "pack 낱개 ≠ 12자루"


@pytest.mark.parametrize(
    ("title", "reason"),
    [
        ("코코도르 디퓨저 리필액 블랙체리 200ml", "refill: 리필"),  # refill liquid: a compound of 리필
        ("코코도르 디퓨저 블랙체리 리필팩 200ml", "refill: 리필"),
        ("코코도르 리필가능 디퓨저 블랙체리 200ml", None),  # it takes refills
        ("cocodor 코코도르 블랙체리 디퓨저 200ml (공병+리드스틱 포함)", None),
    ],
)
def test_a_refill_glued_before_its_words_head_is_a_refill(title: str, reason: str | None):
    assert verdict("코코도르 디퓨저 블랙체리 200ml", title, 9_900) == reason


@pytest.mark.parametrize(
    ("keyword", "title", "reason"),
    [
        # Its numbers name the tyre: a set of four is not one tyre.
        (
            "한국타이어 벤투스 S1 에보3 245/45R18",
            "한국타이어 벤투스 S1 에보3 245/45R18 4본 세트 (장착비 포함)",
            "pack 4본, not one",
        ),
        ("한국타이어 벤투스 S1 에보3 245/45R18", "한국타이어 벤투스 S1 에보3 K127 245/45R18", None),
        # What comes with it is counted apart.
        ("인스타360 X4", "인스타360 X4 스타터 키트 (본체 + 배터리 2개 + 충전허브)", None),
        # No number in the keyword, or its unit measured: any pack.
        ("코카콜라 제로", "코카콜라 제로 355ml 24캔", None),
        ("햇반 210g", "햇반 210g 12개", None),
    ],
)
def test_a_keyword_whose_numbers_name_the_item_asks_for_one(keyword: str, title: str, reason: str | None):
    assert verdict(keyword, title) == reason


@pytest.mark.parametrize(
    ("keyword", "title"),
    [
        # the three's price:
        ("브리타 맥스트라 프로 올인원 필터 6개입", "브리타 맥스트라 프로 올인원 필터 3개/6개/12개 택1"),
        ("제주 노지감귤 로얄과 5kg", "제주 노지감귤 5kg 크기 선택 (소과/로얄과/대과)"),  # the small fruit's price
    ],
)
def test_a_pick_that_lists_the_asked_count_or_grade_beside_others_is_the_price_of_one_of_several(
    keyword: str, title: str
):
    assert (verdict(keyword, title) or "").startswith("price of one of several")


def test_a_bare_choice_among_alternatives_the_keyword_does_not_name_sells_the_product():
    assert verdict("제주 노지감귤 로얄과 5kg", "제주 노지감귤 로얄과 5kg 발송일 선택 (12/5/12/8)") is None


def test_a_things_word_the_keyword_glues_into_the_products_name_is_not_an_accessory():
    keyword = "키친에이드 아티산 스탠드믹서 5KSM150 엠파이어레드"

    assert verdict(keyword, "KitchenAid 키친에이드 아티산 스탠드 믹서 4.8L 5KSM150PSER 엠파이어 레드", 618_000) is None
    assert (
        verdict("키친에이드 아티산 믹서 5KSM150", "키친에이드 아티산 5KSM150 믹서 스탠드", 30_000)
        == "accessory: 스탠드"
    )


def test_a_lowest_that_glues_a_suffix_to_the_model_code_no_other_offer_writes_is_in_doubt():
    # RB2140F is the Asian fit of the RB2140: a suffix is a region or a colour as often as another model.
    product = {"keyword": "레이밴 오리지널 웨이페어러 RB2140 901 50", "model_no": "RB2140"}
    titles = [
        ("RAY-BAN 레이밴 RB2140F 901 52 아시안핏 웨이페어러", 189_000),
        ("RAY-BAN 레이밴 RB2140 901 50mm 웨이페어러 클래식 블랙 G-15 선글라스", 205_000),
        ("레이밴 오리지널 웨이페어러 RB2140 901 50 선글라스 블랙 국내정품", 219_000),
    ]
    offers = [Offer(source="static", title=title, price=price, url="https://example.test/p") for title, price in titles]
    accepted = [item for item in match_offers(product, offers) if item.rejected is None]

    assert doubts_about_the_lowest(product, accepted) == [
        "another model?: the lowest writes rb2140f, the others rb2140"
    ]
    assert doubts_about_the_lowest(product, accepted[1:]) == []


@pytest.mark.parametrize(
    ("title", "reason"),
    [
        ("[매입] 소니 A7C2 바디 최고가 매입합니다 (카메라 삽니다)", "not buyable: [매입]"),
        ("소니 A7C II 바디 매입합니다", "not buyable: 매입합니다"),
        ("소니 A7C II 바디 ILCE-7CM2 (매입가 비교 불가 최저가)", None),
    ],
)
def test_a_listing_that_buys_the_item_sells_none(title: str, reason: str | None):
    assert verdict("소니 A7C II 바디", title, 1_650_000) == reason


@pytest.mark.parametrize(
    ("title", "reason"),
    [
        ("이니스프리 그린티 씨드 히알루론산 세럼 80ml 매진", "sold out: 매진"),
        ("이니스프리 그린티 씨드 히알루론산 세럼 80ml 홈쇼핑 완판 매진", None),  # a sale's boast
        ("이니스프리 그린티 씨드 히알루론산 세럼 80ml 3회 연속 매진", None),
        ("[매진 임박] 이니스프리 그린티 씨드 히알루론산 세럼 80ml", None),
    ],
)
def test_sold_out_ending_a_title_is_not_an_offer(title: str, reason: str | None):
    assert verdict("이니스프리 그린티 씨드 히알루론산 세럼 80ml", title, 16_500) == reason


@pytest.mark.parametrize(
    ("keyword", "title", "reason"),
    [
        (
            "갤럭시 탭 S11 울트라 256GB",
            "[현금가] 갤럭시탭 S11 울트라 256GB 새상품 계좌이체 시 (카드결제 불가)",
            "conditional price: 현금가",
        ),
        (
            "풀무원 동물복지 유정란 대란 10구",
            "[서울·경기 새벽배송 지역 한정] 풀무원 동물복지 유정란 대란 10구",
            "conditional price: 지역 한정",
        ),
        ("닌텐도 스위치 2 본체", "닌텐도 스위치2 한국정발 본체 (1인 1대 한정)", None),  # a limit per buyer
    ],
)
def test_a_price_for_cash_outside_the_checkout_or_for_one_region_is_not_everyones(
    keyword: str, title: str, reason: str | None
):
    said = verdict(keyword, title)
    assert said == reason if reason is None else (said or "").startswith(reason), said


@pytest.mark.parametrize(
    ("keyword", "title", "reason"),
    [
        (
            "테일러메이드 Qi35 드라이버 10.5도 R",
            "테일러메이드 Qi35 드라이버 왼손용(LH) 10.5도 R",
            "the other hand: 왼손용",
        ),
        ("테일러메이드 Qi35 드라이버 10.5도 R", "테일러메이드 Qi35 드라이버 10.5도 R LH", "the other hand: lh"),
        ("테일러메이드 Qi35 드라이버 왼손용 10.5도 R", "테일러메이드 Qi35 드라이버 왼손용 10.5도 R", None),
        (
            "닌텐도 스위치 2 본체",
            "Nintendo Switch 2 일본판 본체 (일본어 전용 모델)",
            "another region's release: 일본판",
        ),
        ("샤오미 미밴드9 블랙", "샤오미 미밴드9 중국 내수용 블랙", "another region's release: 내수용"),
    ],
)
def test_the_other_hands_model_or_another_regions_release_is_another_product(
    keyword: str, title: str, reason: str | None
):
    assert verdict(keyword, title) == reason


def test_an_angles_degree_sign_is_the_word_for_degrees():
    keyword = "테일러메이드 Qi35 드라이버 10.5도 R"

    assert verdict(keyword, "TaylorMade 2025 Qi35 DRIVER 10.5° Flex R 테일러메이드코리아 정품") is None
    assert verdict(keyword, "테일러메이드 Qi35 드라이버 9° R") == "keyword word missing: 10.5도"
