"""Matching: which shopping offers really are the product a back office asked about.

Every offer gets a verdict in `Offer.rejected` (None: accepted) that names the one rule it broke, so a person
auditing a result can see why an offer did or did not win. Rules run in a fixed order and the first one that fails
gives the reason, which keeps verdicts deterministic:

1. it can be bought now, by anyone (`buyable`): not an ad, not sold out, no title saying so;
2. it carries the model number, when one is given (`identity`);
3. it sells the product, not a part, an accessory, a used or rented one (`sells`);
4. its quantities agree with the keyword's (`quantities`);
5. it names every word of the keyword (or the model number, which names the product; or the source does, as the
   offer's brand or category), and no variant the keyword does not name (`identity`);
6. its price is what a buyer of the asked product pays (`buyable`): no conditional price, no range start for
   another option, no pick among listings the product is only one of;
7. judged over all accepted offers at once (`codes`, `lines`, `wearers`, `sequels`): it names no model code but
   others than the one most of them share, no word inside the product's name that none of the others writes
   (another line: 포엥 어린이 암체어 beside 포엥 암체어; before the size, such a word in the lowest leaves it in doubt:
   `doubts_about_the_lowest`), no child before the name that none of the others names (MLB 키즈 루키 볼캡), and no
   number after the name that the keyword and most of the others do not write (불편한 편의점 2);
8. its price is plausible (`prices`): not far under the target price (judged with rule 6); and, without one, judged
   over all the search's offers at once, not far under the price the product's offers cluster around (every offer
   of it at a price anyone pays, even one that cannot be bought now; per unit for another pack size), nor, when its
   title says it sells something without something else bought apart, well under it (a part alone);
9. the cheapest accepted offer is what it seems beside the dearer ones (`_reasons_to_pass_over`): one that glues a
   suffix to a code the keyword writes where they write it bare, or cuts the asked code short where they write it
   whole, or glues letters (not a measure's symbol) to the keyword's short model number, or names the keyword's
   word only among a pick's later options, or, without a target price, is priced under half of their cluster with
   no other offer within twice its price and no quantity of its own to explain it, is passed over while a dearer
   accepted offer is left ("in doubt beside dearer offers: …"), and the result says so; the last accepted offer is
   never passed over, and stays the lowest in doubt.

Words are compared as a Korean reader splits them (`words`, `analyzer`). How each rule reads a title:
docs/sources.md, "Matching".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from statistics import median
from typing import Any

from actors.matching.buyable import (
    a_later_option_perhaps,
    a_mix,
    a_mix_said,
    not_buyable,
    not_everyones_price,
    one_of_several,
    one_of_several_perhaps,
    sold_out_perhaps,
)
from actors.matching.codes import (
    agreed_code,
    compact_code,
    model_codes,
    model_number,
    model_number_writings,
    model_numbers,
    number_tokens,
    numbers_as_written,
    other_code,
    suffix_cut_short_only_by_the_lowest,
    suffix_only_the_lowest_writes,
)
from actors.matching.identity import (
    CODE_WORD,
    ModelName,
    Word,
    bed_sizes_as_written,
    keyword_words,
    loanword_spellings,
    maker_of,
    missing_word,
    model_name,
    option_numbers,
    other_colour,
    other_count,
    other_models_number,
    other_option,
    other_pairs,
    other_size,
    other_variant,
    other_year,
)
from actors.matching.left_out import left_out
from actors.matching.lines import (
    PLAIN_LINE,
    PLAIN_NAMES_NEEDED,
    NamePair,
    after_the_name,
    after_the_number,
    before_the_size,
    inside_the_name,
    is_unvouched,
    name_pairs,
    the_names_end,
    unvouched,
)
from actors.matching.loanwords import HANGUL_RUN, Spellings
from actors.matching.prices import (
    against_target,
    cluster_of,
    doubt_about_the_lowest,
    priced_alone_far_under,
    priced_like_an_accessory,
    priced_without_a_part,
    priced_without_its_kind,
)
from actors.matching.quantities import Quantity, memory_and_storage_written_out, quantities, uncounted, unit_conflict
from actors.matching.sells import Allowed, allowed_by, excluded, sold_for_it, sold_without_something
from actors.matching.sequels import names_a_number, numbers_after, sequel_number, writes_the_name_plain
from actors.matching.wearers import for_a_child, for_one_sex, names_a_sex
from infra.text.folding import fold
from infra.text.units import MEASURE_SYMBOLS
from schemas.offers import Offer

__all__ = ["doubts_about_the_lowest", "match_offers", "passed_over"]


@dataclass(frozen=True, slots=True)
class _Wanted:
    """The product side of matching: what the keyword, the model number and the target price ask (`_wanted`)."""

    keyword: str  # normalized
    model_no: str
    model: re.Pattern[str] | None
    allowed: Allowed  # what the keyword itself asks for (a case, a refill, a used one …)
    quantities: tuple[Quantity, ...]
    words: tuple[Word, ...]
    #: The keyword's Hangul words: a title may count in one of them ("100티백", `quantities.unit_conflict`).
    nouns: tuple[str, ...]
    #: The keyword's maker: a title may write it in Latin letters before the product's name (`identity.missing_word`),
    #: or leave it out where the source names it as the offer's maker (`_unnamed_by_the_source`).
    maker: Word | None
    #: The keyword's words with its quantities: what "… 전용" may follow.
    anchors: tuple[Word, ...]
    name: ModelName
    #: The keyword's words side by side inside its name: what a word put between them would make another line.
    pairs: tuple[NamePair, ...]
    #: The name's last word and the size right after it: where a word no other offer writes leaves the lowest in doubt
    #: (sellers put a flavour there as often as a descriptor).
    before_the_size: NamePair | None
    #: The keyword's words side by side from its model's number on: a word between them that no other offer writes
    #: leaves the lowest in doubt too (a fit or a line sits there as often as a descriptor).
    after_the_number: tuple[NamePair, ...]
    #: The name's last word: a word after it that no other offer writes leaves the lowest in doubt (`after_the_name`).
    names_end: Word | None
    #: The keyword's numbers standing alone, the option it asks the product in ("네이비 4", "001 핑크":
    #: `option_numbers`): a title with the model number may leave them out, not write another (`other_option`), and
    #: the name ends before them (`names_end`).
    options: tuple[Word, ...]
    #: The keyword's loanwords: a title that writes them in the other script is read in the keyword's.
    spellings: Spellings
    target_price: int | None

    def fold(self, title: str) -> str:
        """An offer's title in the comparable form (`infra.text.folding.fold`), with the keyword's memory and storage
        written out where the title writes them as one sum (`quantities.memory_and_storage_written_out`)."""
        return memory_and_storage_written_out(fold(title), self.quantities)

    def spell(self, title: str) -> str:
        """A (lower-case) title with the keyword's words written as the keyword writes them: its loanwords ("wi-fi":
        와이파이) and its bed size's letters ("Q": 퀸, `identity.bed_sizes_as_written`)."""
        return bed_sizes_as_written(self.spellings.respell(title), self.words)


def _wanted(product: Mapping[str, Any]) -> _Wanted:
    """The product side of matching, read once for a product however often it is judged: a search judges its
    offers (`match_offers`), then the doubts about its lowest (`doubts_about_the_lowest`), and a retry or a watch
    judges the same product again (`_wanted_for` keeps the last few read)."""
    model_no = (product.get("model_no") or "").strip()
    return _wanted_for(product.get("keyword") or "", model_no, product.get("target_price"))


#: Products whose reading is kept: a worker's recent searches (the reading costs about half of a search's matching).
_PRODUCTS_REMEMBERED = 32


@lru_cache(maxsize=_PRODUCTS_REMEMBERED)
def _wanted_for(raw_keyword: str, model_no: str, target_price: int | None) -> _Wanted:
    folded = fold(raw_keyword)
    keyword = folded.lower()
    words = keyword_words(folded)
    anchors = keyword_words(folded, quantities=True)
    allowed = allowed_by(keyword)
    options = option_numbers(keyword, words)
    return _Wanted(
        keyword=keyword,
        model_no=model_no,
        model=model_number(model_no, written_whole=_writes_the_model_number(keyword, model_no)),
        allowed=allowed,
        quantities=quantities(folded),
        words=words,
        nouns=tuple(word.text for word in words if HANGUL_RUN.fullmatch(word.text)),
        maker=(maker := maker_of(keyword, words)),
        anchors=anchors,
        name=model_name(folded, words, names_accessory=allowed.accessory, maker=maker),
        pairs=name_pairs(keyword, words),
        before_the_size=before_the_size(keyword, words, anchors),
        after_the_number=after_the_number(keyword, words),
        names_end=the_names_end(words, options),
        options=options,
        spellings=loanword_spellings(keyword, words),
        target_price=target_price or None,
    )


def _writes_the_model_number(keyword: str, model_no: str) -> bool:
    """Whether the (normalized) keyword writes the model number whole, its separators aside ("마틴 LX1E 리틀마틴" for
    LX1E, "카시오 DJ-120D PLUS 계산기" for "DJ-120D PLUS"; not "카시오 CT-S1 블랙" for CT-S1BK)."""
    compact = compact_code(model_no)
    return bool(compact) and compact in compact_code(keyword)


def _not_the_product(offer: Offer, folded: str, wanted: _Wanted) -> str | None:
    """Why this offer's title names something else than the product (rules 2 to 5), or None. `folded`: its title,
    folded."""
    title = folded.lower()
    if wanted.model and not wanted.model.search(title):
        return f"model number {wanted.model_no} missing"
    spelled = wanted.spell(title)  # the keyword's words as the keyword writes them ("wi-fi": 와이파이)
    return (
        excluded(title, wanted.allowed, _filed_beside_its_kind(offer, wanted))
        or sold_for_it(spelled, wanted.keyword, wanted.anchors, wanted.model, names_accessory=wanted.allowed.accessory)
        or unit_conflict(folded, wanted.quantities, wanted.nouns)
        or left_out(spelled, wanted.keyword, wanted.words)
        # The model number names the product: its title need not repeat the keyword's category words ("모니터").
        or (
            None
            if wanted.model
            else missing_word(spelled, _unnamed_by_the_source(offer, wanted), wanted.words, wanted.maker, title)
        )
        or uncounted(folded, wanted.quantities, wanted.nouns)
        # ... but not another colour than the keyword's ("CT-S1 화이트" for "CT-S1 … 블랙").
        or other_colour(spelled, wanted.words)
        or other_count(spelled, wanted.words)
        or other_pairs(spelled, wanted.words)
        or other_option(title, wanted.options, wanted.words, wanted.model)
        or other_size(title, wanted.words, wanted.model)
        or other_year(title, wanted.words)
        or other_variant(spelled, wanted.name)
        or other_models_number(spelled, wanted.name)
    )


def _filed_beside_its_kind(offer: Offer, wanted: _Wanted) -> frozenset[str]:
    """The names the source files the offer under beside the keyword's own kind: the alternatives of the last level
    of its category path, where one of them is a keyword word ("스킨/토너" for "… 로즈워터 토너 500ml"), so that a
    title calling the toner by its other name ("수분 스킨") is not read as selling an accessory. Nothing where no
    alternative is the keyword's (a phone skin filed as "휴대폰스킨" for a phone), nor where the keyword asks for an
    accessory itself: a level files one beside another (a cable beside a charger, "충전기/케이블": a reviewer's)."""
    level = _filed_under(offer)
    if level is None or "/" not in level or wanted.allowed.accessory:
        return frozenset()
    names = frozenset(name.strip() for name in level.split("/"))
    return names if any(word.pattern.fullmatch(name) for name in names for word in wanted.words) else frozenset()


def _filed_under(offer: Offer) -> str | None:
    """The last level of the offer's category path, what the source files it as ("흉터/상처관리"); None: no category."""
    return fold(offer.category).lower().rsplit(">", 1)[-1].strip() if offer.category else None


def _filed_as(level: str, word: Word) -> bool:
    """Whether the last level of a category path (`_filed_under`), what the source files the offer as, names a keyword
    word: the level whole, or, for a word of two syllables or more, as the level's head, the noun it ends with
    ("의류건조기" is a 건조기, "무선청소기" a 청소기). Not a level's modifier ("카메라렌즈" is a lens, "유모차용품" no
    유모차, "스킨케어" no 스킨), nor a level naming alternatives ("세탁기/건조기", "케첩/마요네즈": which one the offer
    is, it does not say), nor the levels above it ("텀블러 > 텀블러 액세서리")."""
    if "/" in level:
        return False
    if word.pattern.fullmatch(level):
        return True
    return len(word.text) > 1 and any(found.end() == len(level) for found in word.pattern.finditer(level))


def _unnamed_by_the_source(offer: Offer, wanted: _Wanted) -> tuple[Word, ...]:
    """The keyword's words but those the source names beside the title:
    - what it files the offer as (the last level of Naver's category path): a title need not write the kind of
      thing the source files it as ("SMEG 토스터기 TSF01" filed as 토스터, a handle as 면도기), as it need not when a
      model number names the product;
    - its brand (Naver's brand field), when that brand is written in the keyword whole: a title may leave its maker
      out, or write it in another script ("Sennheiser …", brand 젠하이저). Not a brand the keyword only shares a word
      with (블랙야크 for a keyword's 블랙);
    - the keyword's maker (`maker_of`), where the source's maker field is that word whole and the offer's brand is
      written in the keyword: "육개장사발면 86g 24개입", brand 육개장사발면, made by 농심, for "농심 육개장 사발면".
      The maker field alone names no product, and often a parent company: 코카콜라음료 makes Fanta, LG생활건강
      makes 테크, and a Fanta filed as made by 코카콜라 with no brand is no 코카콜라 제로 (a reviewer's)."""
    words = wanted.words
    if (level := _filed_under(offer)) is not None:
        words = tuple(word for word in words if not _filed_as(level, word))
    if not offer.brand:
        return words
    brand = wanted.spellings.respell(fold(offer.brand).lower())
    written = brand.replace(" ", "")
    if not written or written not in wanted.keyword.replace(" ", ""):
        return words
    words = tuple(word for word in words if not word.pattern.search(brand))
    maker = wanted.maker
    if maker and offer.maker and maker.pattern.fullmatch(fold(offer.maker).lower()):
        words = tuple(word for word in words if word != maker)
    return words


def _not_everyones_price(offer: Offer, folded: str, wanted: _Wanted) -> str | None:
    """Why the product's offer is not at a price every buyer pays (rule 6 and the target price), or None."""
    return (
        not_everyones_price(offer, folded, wanted.quantities, wanted.keyword)
        or one_of_several(folded, wanted.words, wanted.quantities, wanted.model)
        or a_mix(folded, wanted.words, wanted.quantities)
        or a_mix_said(folded, wanted.words, wanted.keyword)
        or against_target(offer.price, wanted.target_price)
    )


def match_offers(product: Mapping[str, Any], offers: Iterable[Offer]) -> list[Offer]:
    """Set `rejected` on every offer (None: it is the product) and return them in input order.

    Give it every offer of the search at once, from every source: the price cluster is theirs together.
    """
    wanted = _wanted(product)
    judged = list(offers)
    titles = {id(offer): wanted.fold(offer.title) for offer in judged}  # each title folded once, for every rule
    #: Offers of the product at a price anyone pays, whether or not they can be bought now (an ad, a sold-out item):
    #: what the product costs is seen in their prices too. Not conditional prices: a carrier's subsidy or a monthly
    #: fee says nothing of it.
    the_product: list[Offer] = []
    for offer in judged:
        title = titles[id(offer)]
        not_it = _not_the_product(offer, title, wanted)
        conditional = None if not_it else _not_everyones_price(offer, title, wanted)
        if not_it is None and conditional is None:
            the_product.append(offer)
        # Rule 1 first: an ad or a sold-out item says so whatever else its title names.
        offer.rejected = not_buyable(offer, title.lower()) or not_it or conditional
    _refuse_other_model_codes([offer for offer in judged if offer.rejected is None], titles)
    _refuse_other_lines([offer for offer in judged if offer.rejected is None], titles, wanted)
    _refuse_what_is_for_a_child([offer for offer in judged if offer.rejected is None], titles, wanted)
    _refuse_sequels([offer for offer in judged if offer.rejected is None], titles, wanted)
    if wanted.target_price is None:  # the target price vouches for prices; a model number does not (parts carry it)
        accepted = [offer for offer in the_product if offer.rejected is None]
        _refuse_prices_like_an_accessory(accepted, the_product, titles, wanted)
    _pass_over_the_cheapest_in_doubt(
        sorted((offer for offer in judged if offer.rejected is None), key=lambda offer: offer.price), titles, wanted
    )
    return judged


#: The verdict's opening of an offer passed over (rule 9): `passed_over` finds them, and the result says so.
PASSED_OVER = "in doubt beside dearer offers"


def _pass_over_the_cheapest_in_doubt(accepted: list[Offer], titles: Mapping[int, str], wanted: _Wanted) -> None:
    """Refuse the cheapest accepted offer (`accepted`, cheapest first) while what it is stays in doubt beside the
    dearer ones (`_doubts_of_what_it_is`: a code's suffix no other writes, the keyword's word only among a pick's
    options), or, without a target price to vouch for it, its price stands alone far under theirs
    (`prices.priced_alone_far_under`), and a dearer accepted offer is left: delivered, it would be a sibling model's,
    another option's, a part's or a bait's price as often as the product's, and the next offer is the product's.
    The price alone passes it over only where the next offer writes no number it does not ("500ml 2P", "150포",
    "1kg" beside "500ml", "50포", "300g": a quantity or an edition the pack reader may not read explains the gap; a
    reviewer's). The result then says a cheaper offer was passed over (`doubts_about_the_lowest`)."""
    while len(accepted) > 1:
        lowered = [titles[id(offer)].lower() for offer in accepted]
        doubts = _reasons_to_pass_over(wanted, lowered)
        if (
            not doubts
            and wanted.target_price is None
            and numbers_as_written(lowered[1]) <= numbers_as_written(lowered[0])
        ):
            packs = {_pack_count(titles[id(offer)]) or 1 for offer in accepted}
            alone = priced_alone_far_under([offer.price for offer in accepted], packs_differ=len(packs) > 1)
            doubts = [alone] if alone else []
        if not doubts:
            return
        accepted.pop(0).rejected = f"{PASSED_OVER}: {doubts[0]}"


def passed_over(offers: Iterable[Offer]) -> list[Offer]:
    """The offers rule 9 passed over, as `match_offers` left them."""
    return [offer for offer in offers if offer.rejected and offer.rejected.startswith(PASSED_OVER)]


def _refuse_other_model_codes(accepted: list[Offer], titles: Mapping[int, str]) -> None:
    """Refuse the accepted offers that name only another model code than the one most accepted offers share: the
    kids' size of a shoe, another colour's code, a neighbour model whose title carries every keyword word."""
    codes = [model_codes(titles[id(offer)].lower()) for offer in accepted]
    if (agreed := agreed_code(codes)) is None:
        return
    for offer, found in zip(accepted, codes, strict=True):
        offer.rejected = other_code(found, agreed)


def _refuse_other_lines(accepted: list[Offer], titles: Mapping[int, str], wanted: _Wanted) -> None:
    """Refuse the accepted offers that write a noun inside the product's name, between two words the keyword writes
    side by side, when at least two other accepted offers write those words side by side and no other accepted offer
    writes that noun anywhere: another line or flavour named inside the name (포엥 어린이 암체어, 비비고 김치왕교자). A
    word another offer writes too is the product's ("브리타 마렐라 화이트" beside "… 2.4L 화이트", "눕시 다운 자켓"
    twice), though two sellers of another line then vouch for each other too: a word alone cannot tell which."""
    if not wanted.pairs or len(accepted) <= PLAIN_NAMES_NEEDED:
        return
    lowered = [titles[id(offer)].lower() for offer in accepted]
    written = [inside_the_name(wanted.spell(title), wanted.pairs) for title in lowered]
    compact = [_compact(title) for title in lowered]
    for index, offer in enumerate(accepted):
        others = [*written[:index], *written[index + 1 :]]
        found = unvouched(written[index], others, [*compact[:index], *compact[index + 1 :]], wanted.words)
        if found and not _the_kind_they_are_filed_as(index, accepted, found[1]):
            pair, between = found
            if _writes_its_own_code(lowered[index], wanted):
                continue  # the model's own code names the product: a word inside its name describes it
            offer.rejected = f"another line: {between} inside {pair.first.text} … {pair.second.text}"


def _writes_its_own_code(title: str, wanted: _Wanted) -> bool:
    """Whether a (lower-case) title writes the model's own code the keyword or the model number gives (`_an_own_code`),
    dashed or not ("IRT-6520" for irt6520), and nothing after a code ending in a digit that would make it another
    code: a letter glued or one standing alone ("M650L", "M650 L": the left-handed mouse; "K127A": a reviewer's).
    A code ending in letters may run on, its colour's or region's ("SM-S928NZKE")."""
    undashed = title.replace("-", "")
    if wanted.model and _an_own_code(compact := compact_code(wanted.model_no)):
        return any(
            not (compact[-1].isdigit() and _A_SUFFIX.match(title, found.end()))
            for found in wanted.model.finditer(title)
        )
    return any(
        not _A_SUFFIX.match(undashed, found.end())
        for word in wanted.words
        if _an_own_code(word.text)
        for found in word.pattern.finditer(undashed)
    )


#: Letters after a code that make it another one: glued, or one letter standing alone; not a multiplication sign
#: ("P121 x 2개") nor an after-sales service's "A/S" (a second reader's).
_A_SUFFIX = re.compile(r"[a-z]|\s(?!x\s?\d)[a-z](?![0-9a-z/&])")


def _an_own_code(text: str) -> bool:
    """Whether a keyword word is a model's own code (`identity.CODE_WORD`: letters and three digits or more, "irt6520",
    "wic004", "p121"), not a measure ("500ml", "1000mah") nor a size ("120x60")."""
    if not CODE_WORD.fullmatch(text) or re.search(r"\dx\d", text):
        return False
    return text.lstrip("0123456789") not in MEASURE_SYMBOLS


def _the_kind_they_are_filed_as(index: int, accepted: list[Offer], between: str) -> bool:
    """Whether a noun the offer at `index` writes inside the product's name is one the source files it under, in the
    last level of its category path, and the other accepted offers the source files are all filed under that level
    too (at least one): "흉터" of "더마틱스 울트라 흉터 겔" filed as 흉터/상처관리 beside plain offers filed so, "바디"
    of "… 모이스처라이징 바디 로션" as 바디로션: what kind of thing they all are, not a line. Offers filed under
    another level are evidence of another line (a reviewer's: 팬티형기저귀 beside 밴드형기저귀, 아동양말 beside
    남성양말, 전동칫솔 beside 칫솔, 캡슐커피 beside 원두커피), and offers with no category tell nothing."""
    level = _filed_under(accepted[index])
    if level is None or " " in between or len(between) < 2 or between not in level:
        return False
    others = [_filed_under(offer) for position, offer in enumerate(accepted) if position != index]
    filed = [other for other in others if other is not None]
    return bool(filed) and all(other == level for other in filed)


def _refuse_what_is_for_a_child(accepted: list[Offer], titles: Mapping[int, str], wanted: _Wanted) -> None:
    """Refuse the accepted offers whose titles name a child before a word of the keyword, where at least two other
    accepted offers exist and fewer of them write that word than leave it out (`wearers.for_a_child`): the kids'
    caps beside the caps, the junior racket beside the racket; a brand for children is written so by most of its
    sellers."""
    if len(accepted) <= PLAIN_NAMES_NEEDED:
        return
    spelled = _spelled_titles(accepted, titles, wanted)
    for index, offer in enumerate(accepted):
        child = for_a_child(spelled[index], wanted.keyword, wanted.words)
        if child and _fewer_write_it(index, [child in title for title in spelled]):
            offer.rejected = f"for a child: {child}"


def _refuse_sequels(accepted: list[Offer], titles: Mapping[int, str], wanted: _Wanted) -> None:
    """Refuse the accepted offers whose titles write a number right after the keyword's name, which names none
    (`sequels.sequel_number`), where at least two other accepted offers write the name plain and fewer of them write
    that number than leave it out: volume 2 of a novel beside the novel, the Switch 2 edition of a game beside the
    Switch one. Where every offer writes its own number after the name (a rank, a shade), none is another's sequel."""
    # A model number names the generation itself, and the model's rules judge a keyword's own number.
    if wanted.model or names_a_number(wanted.keyword) or len(accepted) <= PLAIN_NAMES_NEEDED:
        return
    spelled = _spelled_titles(accepted, titles, wanted)
    written = [numbers_after(title, wanted.words) for title in spelled]
    plain = [writes_the_name_plain(numbers) for numbers in written]
    for index, offer in enumerate(accepted):
        number = sequel_number(spelled[index], wanted.words)
        if number is None or sum(plain) - plain[index] < PLAIN_NAMES_NEEDED:
            continue
        if _fewer_write_it(index, [number in numbers for numbers in written]):
            offer.rejected = f"another volume or generation: {number}"


def _spelled_titles(accepted: list[Offer], titles: Mapping[int, str], wanted: _Wanted) -> list[str]:
    """The accepted offers' titles in lower case, the keyword's loanwords written as the keyword writes them."""
    return [wanted.spell(titles[id(offer)].lower()) for offer in accepted]


def _fewer_write_it(index: int, writes: list[bool]) -> bool:
    """Whether fewer of the offers but the one at `index` write what it writes (`writes`: whether each offer does)
    than leave it out: what the product's sellers mostly write is the product's, whatever one seller adds is not."""
    writing = sum(written for other, written in enumerate(writes) if other != index)
    return writing < len(writes) - 1 - writing


def _compact(title: str) -> str:
    """A lower-case title without spaces and dashes: where a word another offer writes is looked for."""
    return title.replace(" ", "").replace("-", "")


def _refuse_prices_like_an_accessory(
    accepted: list[Offer], the_product: list[Offer], titles: Mapping[int, str], wanted: _Wanted
) -> None:
    """Refuse the accepted offers priced far under the cluster of the product's prices (every offer of it at a price
    anyone pays, whether or not it can be bought now), comparing another pack size per unit against the cluster's
    usual pack count."""
    cluster = cluster_of([offer.price for offer in the_product])
    if cluster is None:
        return
    packs = {id(offer): _pack_count(titles[id(offer)]) for offer in the_product}
    cluster_packs = [count for offer in the_product if cluster.holds(offer.price) and (count := packs[id(offer)])]
    usual = int(median(cluster_packs)) if cluster_packs else None
    for offer in accepted:
        own = packs[id(offer)]
        units = (own, usual) if own and usual and own != usual else None
        without = sold_without_something(titles[id(offer)].lower())
        offer.rejected = (
            priced_like_an_accessory(offer.price, cluster.price, units)
            or priced_without_a_part(offer.price, cluster.price, without, units)
            or priced_without_its_kind(
                offer.price, cluster.price, _kind_left_out(offer, titles[id(offer)], wanted), units
            )
        )


def _kind_left_out(offer: Offer, title: str, wanted: _Wanted) -> str | None:
    """The keyword's kind (its last noun, in Hangul), where a title the model number given lets off the keyword's words
    does not write it (`title`: folded); None where it does, where the source files the offer as it, or where no model
    number is given. Known: a keyword ending with its model's code has no such kind (its last noun is the code)."""
    kind = wanted.allowed.head
    if wanted.model is None or not kind or not HANGUL_RUN.fullmatch(kind):
        return None
    if kind in wanted.spell(title.lower()).replace(" ", "") or kind in (_filed_under(offer) or ""):
        return None
    return kind


def _pack_count(folded_title: str) -> int | None:
    """How many units an offer's (folded) title says it sells (its pack count), if it says."""
    packs = [quantity.amount for quantity in quantities(folded_title) if quantity.dimension == "pack"]
    return int(packs[0]) if packs and packs[0] >= 1 else None


def doubts_about_the_lowest(
    product: Mapping[str, Any], accepted: list[Offer], passed: Sequence[Offer] = ()
) -> list[str]:
    """What leaves the lowest of the accepted offers (`accepted`, cheapest first) in doubt, for a person to look at:
    the matcher accepted it, and it stays the lowest.
    - A cheaper offer passed over beside it (`passed`: `passed_over` of the search's offers): the evidence that passed
      it over is a doubt, not a proof, so a person sees which one.
    - Its price (`prices.doubt_about_the_lowest`). Offers of different pack sizes explain a gap between them (one
      pouch beside 36), so where the accepted offers count their packs differently, their disagreement is none.
    - A word it writes between the name and the size that no other accepted offer writes, where the matcher refuses
      nothing ("코카콜라 제로 체리 355ml"): a flavour sits there as often as a descriptor. So does such a word right
      after the maker, where a maker's line sits as often as a category word ("하리보 사워 골드베렌" beside "하리보
      젤리 골드베렌"), but not what is glued to the maker, its company's name ("LG전자 코드제로"). So does such a word
      between the keyword's words after its model's number, where a fit sits as often as a descriptor ("카야노 31
      와이드 2E 남성" beside "MX Master 3S 퍼포먼스 무선"): refusing it there lost three right answers for four
      wrong ones. So does a thing it names right after the name's last word, before its size, number or colour, that
      no other accepted offer writes ("짭짤이 토마토 모종 5포트" beside "… 토마토 2kg": `lines.after_the_name`).
    - What it is (`_doubts_of_what_it_is`): a suffix it glues to the asked model code, or cuts short, where the others
      write it whole, letters on the keyword's short model number, and the keyword's word only among a bare pick's
      options. Those that pass it over beside a dearer offer have done so already (`_reasons_to_pass_over`); what is
      said here is the rest: a suffix after the model number given, a measure's symbol, a pick's first option, a
      numbered size, or a listing with no other offer to deliver.
    - A thing it says it sells alone or without something, which no other accepted offer says ("본체만 (가스
      실린더 미포함)", "프레임 (쿠션 별도)", "설명서만"): on the held-out corpus it flagged five wrong lowest offers
      and five right ones (a phone "충전기 미포함", a drill "본체만"), so it cannot refuse.
    - A word for sold out that sellers write as hype too (매진), which no other accepted offer writes
      (`buyable.sold_out_perhaps`).
    - A child it names before the keyword's words, by a brand's child word or a plain noun (어린이, 유아), which no
      other accepted offer names (`_for_a_child_only_in_the_lowest`): what matters where too few offers are
      accepted to refuse it."""
    wanted = _wanted(product)
    titles = [wanted.fold(offer.title) for offer in accepted]
    packs = {_pack_count(title) or 1 for title in titles}
    doubts = [doubt_about_the_lowest([offer.price for offer in accepted], packs_differ=len(packs) > 1)]
    if passed:
        cheapest = min(passed, key=lambda offer: offer.price)
        others = f" and {len(passed) - 1} more" if len(passed) > 1 else ""
        doubts.append(f"cheaper offers passed over: {cheapest.title}, {cheapest.price:,} ({cheapest.rejected}){others}")
    lowered = [title.lower() for title in titles]
    respelled = [wanted.spell(title) for title in lowered]
    doubts.append(_another_line_in_the_lowest(wanted, lowered, respelled))
    if lowered:
        doubts += _doubts_of_what_it_is(wanted, lowered)
        doubts.append(_a_part_only_in_the_lowest(lowered))
        doubts.append(_for_a_child_only_in_the_lowest(wanted, respelled))
        doubts.append(_for_one_sex_only_in_the_lowest(wanted, lowered))
        doubts.append(sold_out_perhaps(lowered))
    return [doubt for doubt in doubts if doubt]


def _doubts_of_what_it_is(wanted: _Wanted, lowered: list[str]) -> list[str]:
    """What leaves in doubt whether the cheapest of the accepted offers (`lowered`: their lower-case titles, cheapest
    first) is the product itself rather than a sibling or another option of a pick: a suffix it glues to the asked
    code (the model number as each title writes it too, with what it glues after it: "GLM 50-27 CG" for "… C"), or
    cuts short, where the others write it whole (`codes`); letters glued to the keyword's short model number where
    the others write it bare; the keyword's word only among a bare pick's options (`buyable.one_of_several_perhaps`).
    Not a child only the lowest names, which a product made for children writes as often ("일룸 어린이 링키 책상"
    beside "일룸 링키 책상"): `_for_a_child_only_in_the_lowest` says that apart."""
    asked = _asked_codes(wanted)
    codes = [model_codes(title) for title in lowered]
    # Not for a suffix cut short, which the model number lets titles leave off ("SEL50F18 FE" for SEL50F18F).
    written = [found | model_number_writings(title, wanted.model) for found, title in zip(codes, lowered, strict=True)]
    doubts = [
        suffix_only_the_lowest_writes(asked, written[0], written[1:], bare_needed=PLAIN_NAMES_NEEDED),
        suffix_cut_short_only_by_the_lowest(asked, codes[0], codes[1:], whole_needed=PLAIN_NAMES_NEEDED),
        _letters_on_the_model_number(wanted, lowered, measures_too=True),
        one_of_several_perhaps(lowered, wanted.words),
    ]
    return [doubt for doubt in doubts if doubt]


def _reasons_to_pass_over(wanted: _Wanted, lowered: list[str]) -> list[str]:
    """Those of `_doubts_of_what_it_is` that pass the cheapest over beside a dearer accepted offer
    (`_pass_over_the_cheapest_in_doubt`), narrowed on a reviewer's titles: a suffix on a code the keyword writes, not
    on the model number given with it, after which a store's full SKU writes its release and colour
    ("SM-S931NZKAKOO", "OLED65C4KNA", "MXP93KH/A"); a suffix cut short only where the title does not write the rest
    apart ("U9060 MAC"); letters on the keyword's number but a measure's symbol of two letters or more ("16GB",
    "11inch"; the 97L racket's litre-like L is passed over); a pick only where the asked option comes after another
    and the options are not numbered sizes (`buyable.a_later_option_perhaps`)."""
    asked, codes = _asked_codes(wanted), [model_codes(title) for title in lowered]
    reasons = [
        suffix_only_the_lowest_writes(model_codes(wanted.keyword), codes[0], codes[1:], bare_needed=PLAIN_NAMES_NEEDED),
        _letters_on_the_model_number(wanted, lowered, measures_too=False),
        a_later_option_perhaps(lowered, wanted.words),
    ]
    compact_title = compact_code(lowered[0])
    if not any(compact_code(code) in compact_title for code in asked):  # "U9060 MAC" writes U9060MAC whole
        reasons.append(suffix_cut_short_only_by_the_lowest(asked, codes[0], codes[1:], whole_needed=PLAIN_NAMES_NEEDED))
    return [reason for reason in reasons if reason]


def _asked_codes(wanted: _Wanted) -> frozenset[str]:
    """The model codes the product asks for: the keyword's, and the model number given with it."""
    return model_codes(wanted.keyword) | ({compact_code(wanted.model_no)} if wanted.model_no else frozenset())


def _letters_on_the_model_number(wanted: _Wanted, lowered: list[str], *, measures_too: bool) -> str | None:
    """Letters the cheapest glues to the keyword's one- or two-digit model number where the others write it bare: a
    unit's letter glued to a model's number is no tier, so nothing refuses it ("프로스태프 97L"). `measures_too`: a
    measure's symbol of two letters or more counts too ("16GB" beside "16"): in a doubt, not in a pass-over."""
    numbers = model_numbers(word.text for word in wanted.words)
    if not numbers:
        return None
    tokens = [number_tokens(title) for title in lowered]
    if not measures_too:
        tokens[0] = frozenset(token for token in tokens[0] if not _a_measure(token))
    return suffix_only_the_lowest_writes(numbers, tokens[0], tokens[1:], bare_needed=PLAIN_NAMES_NEEDED)


def _a_measure(token: str) -> bool:
    """A number with a measure's symbol of two letters or more glued on ("16gb", "11inch"): no model's letter."""
    letters = token.lstrip("0123456789")
    return len(letters) >= 2 and letters in MEASURE_SYMBOLS


#: A title saying it sells a thing alone ("본체만", "설명서만", "프레임만") or without something ("(실린더 미포함)",
#: "(쿠션 별도)", "공임비 별도"); not shipping, which every offer leaves out alike ("배송비 별도", "택배비 별도").
_PART_ONLY = re.compile(
    r"(?<![\w])[가-힣a-z]{1,8}만(?![가-힣])|(?<![\w])(?!배송|택배)[가-힣a-z]+\s?(?:미포함|불포함|별매|별도)(?![가-힣])"
)


def _a_part_only_in_the_lowest(lowered: list[str]) -> str | None:
    """The lowest says it sells a thing alone or without something, which no other accepted offer says: the product
    may come with what this one leaves out (a soda maker's cylinder, an armchair's cushion)."""
    said = _PART_ONLY.search(lowered[0])
    if said is None or any(said.group().strip() in title for title in lowered[1:]):
        return None
    return f"a part only?: the lowest says {said.group().strip()}, which no other offer does"


#: Child words grown-ups' product names hold ("Advanced Genifique Youth Activating", "Youth Surge", "Ken Griffey Jr"):
#: no doubt beside a single other offer (a reviewer's). Where enough offers are accepted to refuse, their consensus
#: still reads them as a child's (`_refuse_what_is_for_a_child`: a Giro helmet's "Youth" size beside the adult's).
_IN_GROWN_UPS_NAMES = frozenset({"youth", "jr"})


def _for_a_child_only_in_the_lowest(wanted: _Wanted, respelled: list[str]) -> str | None:
    """The lowest names a child before a word of the keyword (`wearers.for_a_child`), which no other accepted offer
    writes (`respelled`: the accepted offers' titles, cheapest first, respelled as the keyword spells its loanwords):
    the kids' version sold under the same name is in doubt. It matters where too few offers are accepted to refuse it
    (`_refuse_what_is_for_a_child` needs three); with more, that refusal has spoken already. A brand's child word
    first, then a plain noun (어린이, 유아, 아동, 유스), which never refuses: a product made only for children writes
    it as often, but beside a grown-up's offer that does not, the lowest is in doubt (a Giro helmet's "유스 어린이")."""
    if len(respelled) < 2:
        return None
    for plain in (False, True):
        child = for_a_child(respelled[0], wanted.keyword, wanted.words, plain=plain)
        if child is None or child in _IN_GROWN_UPS_NAMES or any(child in title for title in respelled[1:]):
            continue
        return f"for a child?: the lowest writes {child}, which no other offer does"
    return None


def _for_one_sex_only_in_the_lowest(wanted: _Wanted, lowered: list[str]) -> str | None:
    """The lowest names one sex where the keyword names none (`wearers.for_one_sex`), and no other accepted offer
    names in any spelling: a women's version sold under the same name ("나이키 우먼스 코르테즈") is in doubt beside the
    plain one.
    `lowered`: the accepted offers' titles, cheapest first, folded and in lower case."""
    if len(lowered) < 2 or (written := for_one_sex(lowered[0], wanted.keyword)) is None:
        return None
    # another offer naming the same sex in any spelling, its plain noun too ("남성" beside "Men's"), vouches for it
    sex = names_a_sex(lowered[0])
    if any(names_a_sex(title) == sex for title in lowered[1:]):
        return None
    return f"for one sex?: the lowest writes {written}, which no other offer does"


def _another_line_in_the_lowest(wanted: _Wanted, lowered: list[str], respelled: list[str]) -> str | None:
    """The doubt a word inside the lowest offer's name leaves (`lowered`: the accepted offers' titles, cheapest first,
    folded and in lower case; `respelled`: the same as the keyword spells its loanwords), judged as
    `_refuse_other_lines` judges a word between the name's words."""
    size = wanted.before_the_size
    # Where the lowest writes the model's own code, a word inside the name was not refused (`_refuse_other_lines`):
    # it is a doubt all the same, since a variant (왼손, 여성, 바디, 김치냉장고) sits there beside a code as often as a
    # descriptor does (a reviewer's); below, after the plain names are counted.
    after_the_maker = (pair for pair in wanted.pairs if pair.after_the_maker)
    pairs = (*((size,) if size else ()), *wanted.after_the_number, *after_the_maker)
    if len(lowered) <= PLAIN_NAMES_NEEDED:
        return None
    others_compact = [_compact(title) for title in lowered[1:]]
    if wanted.pairs and _writes_its_own_code(lowered[0], wanted):
        # The word the own code let through (`_refuse_other_lines`), read as the refusal reads it.
        named = [inside_the_name(title, wanted.pairs) for title in respelled]
        if found := unvouched(named[0], named[1:], others_compact, wanted.words):
            pair, between = found
            where = f"inside {pair.first.text} … {pair.second.text}"
            return f"another line?: the lowest writes {between} {where}, which no other offer does"
    written = [inside_the_name(title, pairs, after_the_maker=True, numerals=True) for title in respelled]
    if found := unvouched(written[0], written[1:], others_compact, wanted.words, doubting=True):
        pair, between = found
        where = f"before {pair.second.text}" if pair == size else f"inside {pair.first.text} … {pair.second.text}"
        return f"another line?: the lowest writes {between} {where}, which no other offer does"
    if end := wanted.names_end:
        after = [after_the_name(title, end) for title in respelled]
        if after[0] and is_unvouched(after[0], after[1:], others_compact, wanted.words, doubting=True):
            return f"another thing?: the lowest writes {after[0]} after {end.text}, which no other offer does"
    return _another_line_beside_the_plain_one(wanted, lowered, respelled)


def _another_line_beside_the_plain_one(wanted: _Wanted, lowered: list[str], respelled: list[str]) -> str | None:
    """The doubt a word the lowest writes right before the keyword's size leaves ("닥터페퍼 체리 355ml") where a dearer
    accepted offer writes the plain line's name in that place (`PLAIN_LINE`: "닥터페퍼 오리지널 355ml") and none writes
    that word: a flavour or a line beside the plain one as often as a descriptor ("정품", "대용량", "탄산음료"), so the
    lowest is delivered and said in doubt (passing it over refused descriptors six times for each flavour: a
    reviewer's). Not where the keyword or the lowest names the plain line itself."""
    size = wanted.before_the_size
    if size is None or PLAIN_LINE.search(wanted.keyword) or PLAIN_LINE.search(lowered[0]):
        return None
    written = [inside_the_name(title, (size,), after_the_maker=True, numerals=True).get(size) for title in respelled]
    own = written[0]
    if not own or not any(other and PLAIN_LINE.fullmatch(other.replace(" ", "")) for other in written[1:]):
        return None
    if any(own.replace(" ", "") in _compact(title) for title in lowered[1:]):
        return None
    return f"another line?: the lowest writes {own} before {size.second.text}, where another offer names the plain line"
