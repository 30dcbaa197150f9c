"""Offers and search outcomes: what sources return, what a SEARCH job's `result` stores and delivers."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any

from schemas.codes import JobErrorType


class SourceName(StrEnum):
    """The shopping sources a search can ask. `static` is a deterministic local source for tests and benchmarks."""

    COUPANG = "coupang"
    NAVER = "naver"
    STATIC = "static"


class Delivery(StrEnum):
    ROCKET = "ROCKET"
    ROCKET_FRESH = "ROCKET_FRESH"
    ROCKET_DIRECT = "ROCKET_DIRECT"
    ROCKET_SELLER = "ROCKET_SELLER"
    ROCKET_INSTALL = "ROCKET_INSTALL"
    GENERAL = "GENERAL"


class SourceOutcome(StrEnum):
    """How one source's search went. Only FOUND and NO_RESULTS are answers; the rest are failures."""

    FOUND = "FOUND"
    NO_RESULTS = "NO_RESULTS"
    BLOCKED = "BLOCKED"
    RATE_LIMITED = "RATE_LIMITED"
    PARSE_FAIL = "PARSE_FAIL"
    TIMEOUT = "TIMEOUT"
    ERROR = "ERROR"
    # Not searched in this attempt: the source's turn did not come (LPS_SOURCE_RATES / _CONCURRENCY, or its circuit
    # breaker is open). It runs on a later attempt; waiting never counts as one.
    DEFERRED = "DEFERRED"


#: The outcomes that are answers; every other outcome is a failure.
SOURCE_ANSWERS = (SourceOutcome.FOUND, SourceOutcome.NO_RESULTS)
#: Every `result.sources.<source>.outcome` a search can store: how the source's search went, or CONFIG when the
#: deployment could not ask it at all (not enabled, missing credentials), so it was never searched.
SOURCE_OUTCOMES: tuple[StrEnum, ...] = (*SourceOutcome, JobErrorType.CONFIG)
#: The field where a SEARCH job keeps, between attempts, what its answering sources found (a retry runs only the
#: others). Internal: the API does not show it.
SOURCES_ANSWERED = "sources_answered"


class SearchOutcome(StrEnum):
    """A SEARCH job's answer over all its sources."""

    FOUND = "FOUND"  # a matching offer won (among the sources that answered: see `complete`)
    NO_MATCH = "NO_MATCH"  # every source answered; offers exist, none is the product (or all are ads / sold out)
    NO_RESULTS = "NO_RESULTS"  # every source answered, none had any offer
    INCOMPLETE = "INCOMPLETE"  # some source failed for good and those that answered had no eligible offer


#: How an offer's `category` joins the levels of the source's category path.
CATEGORY_SEPARATOR = " > "


@dataclass(slots=True)
class Offer:
    source: str
    title: str
    price: int  # KRW
    #: The offer's page: an http(s) address on the source's own hosts, or None when the source gave none such
    #: (a stored offer then has no `url`, and is rebuilt without one).
    url: str | None = None
    product_id: str | None = None
    item_id: str | None = None
    vendor_item_id: str | None = None
    delivery: Delivery = Delivery.GENERAL
    sold_out: bool = False
    is_ad: bool = False
    #: The label of a conditional price (와우할인가, 정기배송할인가, 쿠폰할인가 …): the item showed no price every
    #: buyer pays, so `price` is one only some buyers pay. None: the plain sale price.
    price_condition: str | None = None
    #: The price is a range's start ("12,900원~"): the cheapest option's price, not necessarily the asked one's.
    price_from: bool | None = None
    unit_price: str | None = None
    #: Where the source files the item, its levels joined by " > " ("스포츠/레저 > 캠핑 > 캠핑의자"): Naver's
    #: category1–4. None where the source gives none (Coupang's search page).
    category: str | None = None
    #: The brand the source names beside the title (Naver's brand): a keyword's maker word a title leaves out or writes
    #: in another script is named there ("Sennheiser …", brand 젠하이저).
    brand: str | None = None
    #: The maker the source names (Naver's maker): often the parent company (코카콜라음료), kept for auditing only.
    maker: str | None = None
    rating: float | None = None
    review_count: int | None = None
    #: Why the matcher refused this offer (None: accepted), so a person can audit a result.
    rejected: str | None = None

    def as_document(self) -> dict[str, Any]:
        return {
            key: (str(value) if isinstance(value, StrEnum) else value)
            for key, value in asdict(self).items()
            if value is not None
        }


@dataclass(slots=True)
class SourceResult:
    """What one source answered. `incomplete` set: the answer is partial (product items it saw but could not read,
    pages after the first refused or unread, a list still growing when it was read), and this is the failure that
    says why; such a source is not complete, and a later attempt searches it again."""

    outcome: SourceOutcome
    offers: list[Offer]
    #: Product items the source listed (an id and a title) whose price or id it could not read.
    skipped: int = 0
    incomplete: Exception | None = None
