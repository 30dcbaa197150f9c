"""What kind of product an offer is, as its source files it: Naver's category path ("스포츠/레저 > 캠핑 > 캠핑의자").

A shop's taxonomy names the things sold for a kind of product after that kind: "캠핑의자 액세서리" beside "캠핑의자",
"태블릿PC 액세서리" beside "태블릿PC", "청소기 액세서리" beside "로봇청소기", "모니터 주변기기" beside "모니터". So
when an accepted offer is filed under a category named after another accepted offer's, with more words, it sells
something for that product (a frame, a case, a base station), whatever its title says; no list of those words is
kept. The offers decide together (`actors.matching`): one category alone says nothing of what the product is, and
accessories that outnumber the product (a frame and a ground sheet beside one chair) still extend its category.

A sibling leaf (젤리 beside 캔디) is not judged: sellers file one product in neighbouring leaves.
"""

from __future__ import annotations

from collections.abc import Iterable

from schemas.offers import CATEGORY_SEPARATOR

#: The shortest stem a category can be named after: one syllable (the 화 of 운동화) names nothing on its own.
_SHORTEST_STEM = 2


def _named_after(own: str, products: str) -> bool:
    """Whether a category level is named after the product's level with more words ("캠핑의자 액세서리" after
    "캠핑의자", "청소기 액세서리" after "로봇청소기")."""
    stem, _, more = own.partition(" ")
    return bool(more) and len(stem) >= _SHORTEST_STEM and own != products and products.endswith(stem)


def for_the_product(category: str | None, products: Iterable[str | None], keyword: str) -> str | None:
    """The verdict for an offer filed under a category named after another accepted offer's (`products`), with more
    words, on the same level ("category: 캠핑의자 액세서리, for 캠핑의자"); None for the same category, a sibling,
    none, or a category whose own words the keyword names (a keyword asking for "아이패드 미니 케이스" wants what
    "태블릿PC 액세서리 > 케이스" files)."""
    if not category:
        return None
    levels = category.split(CATEGORY_SEPARATOR)
    for product in {product for product in products if product and product != category}:
        for depth, (own, products_level) in enumerate(zip(levels, product.split(CATEGORY_SEPARATOR), strict=False)):
            if not _named_after(own, products_level):
                continue
            own_words = {word for level in levels[depth:] for word in level.split()} - set(products_level.split())
            if not any(word.lower() in keyword for word in own_words):
                return f"category: {own}, for {products_level}"
    return None
