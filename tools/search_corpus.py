"""The saved-page search corpus: searches whose right answer a person wrote down, run through LPS's own code.

Each case (tests/search_corpus/*.json) is one product (keyword, optional model_no and target_price) and what its
sources showed: Coupang result pages as HTML (a saved page from tests/fixtures/coupang/, or one rendered here from a
compact item spec in one of the three markups the parser reads) and Naver Shopping API answers (their JSON items, or
an HTTP status such as 429), either of them per attempt when a source fails in some attempts only.

Nothing of the search is re-implemented here. The pages are served to the real `CoupangSource` through a stand-in
browser (its page loop, later-page failures, block and parse-failure handling all run), the answers to the real
`NaverSource` through a stand-in HTTP session, and attempts run as the worker runs them: `actors.search.work_search`,
`actors.middleware.failure_of` and `infra.lifecycle.decide_after_failure`, keeping what answered, until the job is
DONE or DEAD.

A case is right when its chosen lowest offer (source, product_id, price, or none), `complete` and outcome are the ones
recorded. A case may say `known_wrong` (why no general rule reads it yet): the suite expects it wrong, and the figures
count it so. The corpus has two parts: the tuned one (tests/search_corpus/*.json) and the held-out one
(tests/search_corpus/held_out/, written before the code that judges it and never tuned on). `python -m
tools.search_corpus` prints every case and each part's summary; `bench/quality.py` makes their figures.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import time
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any, cast
from urllib.parse import parse_qs, urlsplit

from playwright.async_api import Error as PlaywrightError

from actors.errors import JobError
from actors.middleware import failure_of
from actors.search import work_search
from actors.sources.coupang import CoupangSource
from actors.sources.coupang_parser import PageKind, parse_search_page
from actors.sources.naver import NaverSource
from infra.lifecycle import RetryPolicy, decide_after_failure
from infra.settings import Settings
from infra.source_limits import Ticket
from schemas.codes import AttemptOutcome, JobStatus

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "tests" / "search_corpus"
#: The held-out part: written before the code that judges it, never tuned on (its README).
HELD_OUT = CORPUS / "held_out"
FIXTURES = REPO / "tests" / "fixtures" / "coupang"
COUPANG_URL = "https://www.coupang.com"
NAVER_URL = "https://openapi.naver.com"
#: The product's sources, in the order ties on price are decided (the default LPS_SEARCH_SOURCES order).
SOURCES = ("coupang", "naver")
MAX_ATTEMPTS = 3
MAX_PAGES = 2
NOW = datetime(2026, 1, 1, tzinfo=UTC)
POLICY = RetryPolicy(1.0, 10.0)
#: The outcome of a case whose every attempt failed in every source: no result at all, the job DEAD.
DEAD = JobStatus.DEAD.name
#: Outcomes a case may record.
OUTCOMES = ("FOUND", "NO_MATCH", "NO_RESULTS", "INCOMPLETE", DEAD)


# --- Coupang pages: saved, or rendered from an item spec --------------------------------------------------------------

#: Rendered pages' frame: enough of a real page (header, sort tabs, a script carrying the no-results i18n strings that
#: the parser must not read) that the parser sees what it sees on Coupang.
_CURRENT_FRAME = """<!DOCTYPE html>
<html lang="ko"><head><meta charset="utf-8"><title>{keyword} - 쿠팡!</title>
<link rel="stylesheet" href="https://static.coupangcdn.com/srp/_next/static/css/7d1e0c8b4a9f2e31.css"></head>
<body><div id="__next">
<header id="header" class="Header_header__f9Jk2"><form id="headerSearchForm" action="/np/search" method="get">
<input type="text" id="headerSearchKeyword" name="q" value="{keyword}"></form></header>
<main class="SearchLayout_main__c4Vb8"><section class="SearchResult_result__Hh3kq">
<div class="SearchResult_header__P0o9L"><strong>'{keyword}'</strong>에 대한 검색결과</div>
<ul class="SortTab_tabs__h0Jk1"><li class="SortTab_active__x1Y2z"><a href="?sorter=scoreDesc">쿠팡 랭킹순</a></li>
<li><a href="?sorter=salePriceAsc">낮은가격순</a></li></ul>
<ul id="product-list" class="ProductList_productList__a1B2c">
{items}
</ul></section></main></div>
<script id="__NEXT_DATA__" type="application/json">{{"props": {{"pageProps": {{"i18n": {{"search.noResult": \
"검색결과가 없습니다"}}}}}}}}</script>
</body></html>
"""
_OLDER_FRAME = """<!DOCTYPE html>
<html lang="ko"><head><meta charset="utf-8"><title>쿠팡! | {keyword}</title></head>
<body><div id="container"><div id="searchOptionForm">
<div class="search-query-result"><strong>'{keyword}'</strong>에 대한 검색결과</div>
<ul id="productList" class="search-product-list" data-products="{{}}">
{items}
</ul></div></div>
<script>var i18n = {{"noResult": "검색결과가 없습니다"}};</script>
</body></html>
"""
_AD_MARK = '<span class="AdMark_adMark__KPMsC">광고<svg width="14" height="14" viewBox="0 0 14 14"></svg></span>'
_OLDER_AD = '<span class="ad-badge"><span class="ad-badge-text">광고</span></span>'
_ROCKET = (
    '<div class="ImageBadge_default__JWaYp"><img src="https://image.coupangcdn.com/image/cmm/'
    'logo_rocket_large@3x.png" alt="로켓배송" height="16"></div>'
)


def _won(amount: int) -> str:
    return f"{amount:,}"


def _current_link(item: Mapping[str, Any], rank: int | None) -> str:
    """The current layout's product link: organic results carry `rank=`, ads (`srp_product_ads`) none."""
    product_id = item["id"]
    ids = f"itemId=2{product_id[-9:]}&amp;vendorItemId=8{product_id[-9:]}"
    if rank is None:
        return (
            f"/vp/products/{product_id}?{ids}&amp;sourceType=srp_product_ads&amp;searchId=42d5d7f2d265&amp;isAddedCart="
        )
    return (
        f"/vp/products/{product_id}?{ids}&amp;sourceType=search&amp;rank={rank}&amp;searchRank={rank}"
        "&amp;searchId=42d5d7f2d265&amp;isAddedCart="
    )


def _conditions(item: Mapping[str, Any]) -> list[tuple[str, int]]:
    """The item's labelled price lines (`cond`: [[label, price], …]): a price for members, a coupon, a subscription…"""
    return [(str(label), int(price)) for label, price in item.get("cond", [])]


def _legacy_price_area(item: Mapping[str, Any]) -> str:
    """The `Price_priceValue` markup: the sale price in a <strong>, the list price crossed out in a <del>. A labelled
    line (`cond`) comes first, its price in a `Price_priceValue` of its own beside its label."""
    parts = []
    won = '<span class="Price_won__c0nQ1">원</span>'
    for label, price in _conditions(item):
        parts.append(
            '<div class="PriceArea_benefitPrice__u7Yk2"><span class="PriceArea_benefitLabel__p3Lq9">'
            f'{html.escape(label)}</span><strong class="Price_priceValue__A4KOr">{_won(price)}{won}</strong></div>'
        )
    if "list" in item:
        parts.append(f'<del class="PriceInfo_basePrice__8BQ32">{_won(item["list"])}원</del>')
    if "p" in item:
        tilde = "~" if item.get("from") else ""
        parts.append(f'<strong class="Price_priceValue__A4KOr">{_won(item["p"])}{won}{tilde}</strong>')
    elif not item.get("cond"):
        parts.append('<span class="Price_priceInfo__q1W2e"></span>')
    if "unit" in item:
        parts.append(f'<span class="UnitPrice_unitPrice__R9yTd">({html.escape(item["unit"])})</span>')
    return '<div class="PriceArea_priceArea__NntJz">' + "".join(parts) + "</div>"


def _utility_price_area(item: Mapping[str, Any]) -> str:
    """The 2025 utility-class markup: rate and `del.custom-oos` list price in one row, the bold red sale price and
    the `span.custom-oos` unit price in the next."""
    rows = ['<div class="fw-flex fw-flex-col fw-gap-[2px]">']
    if "list" in item and "p" in item:
        rate = round(100 * (item["list"] - item["p"]) / item["list"])
        rows.append(
            '<div class="custom-oos fw-flex fw-flex-wrap fw-items-center fw-gap-x-[4px] fw-gap-y-[2px]">'
            f'<div class="custom-oos fw-text-[12px]/[14px] fw-font-bold fw-text-red-700">{rate}%</div>'
            f'<del class="custom-oos fw-text-[12px]/[14px] fw-text-bluegray-600">{_won(item["list"])}원</del></div>'
        )
    row = ['<div class="custom-oos fw-flex fw-flex-wrap fw-items-center fw-gap-x-[4px]">']
    for label, price in _conditions(item):
        row.append(
            '<div class="custom-oos fw-flex fw-items-center fw-gap-x-[2px]">'
            f'<span class="custom-oos fw-text-[12px]/[14px] fw-text-red-700">{html.escape(label)}</span>'
            f'<div class="custom-oos fw-text-[16px]/[20px] fw-font-bold fw-text-red-700">{_won(price)}원</div></div>'
        )
    if "p" in item:
        tilde = "~" if item.get("from") else ""
        row.append(
            '<div class="custom-oos fw-text-[20px]/[24px] fw-font-bold fw-mr-[4px] fw-text-red-700">'
            f"{_won(item['p'])}원{tilde}</div>"
        )
    if "unit" in item:
        row.append(
            f'<span class="custom-oos fw-text-[12px]/[14px] fw-text-bluegray-600">({html.escape(item["unit"])})</span>'
        )
    rows += ["".join(row) + "</div>", "</div>"]
    delivery = (
        '<div class="fw-text-[14px]/[18px] fw-mt-[4px]"><span style="color:#008C00">내일(목) 도착 보장</span></div>'
    )
    return '<div class="PriceArea_priceArea__NntJz">' + "".join(rows) + delivery + "</div>"


def _current_item(item: Mapping[str, Any], rank: int | None, utility: bool) -> str:
    title = html.escape(item["t"])
    sold_out = '<div class="ProductUnit_soldoutText__Zx9Yw">일시품절</div>' if item.get("so") else ""
    price = _utility_price_area(item) if utility else _legacy_price_area(item)
    return (
        f'<li class="ProductUnit_productUnit__Xy12z" data-id="{item["id"]}">'
        f'<a href="{_current_link(item, rank)}" target="_blank" rel="noopener">'
        '<figure class="ProductUnit_productImage__Qw3rT"><img src="//thumbnail.coupangcdn.com/thumbnails/remote/'
        f'320x320ex/image/retail/images/{item["id"]}.jpg" alt="{title}" width="212" height="212"></figure>'
        '<div class="ProductUnit_productInfo__9kLmN">'
        f"{_AD_MARK if item.get('ad') else ''}"
        f'<div class="ProductUnit_productName__gH7jK">{title}</div>{price}{sold_out}{_ROCKET}'
        "</div></a></li>"
    )


def _older_item(item: Mapping[str, Any], rank: int) -> str:
    """The older layout (`#productList > li.search-product`): ads are labelled, and ranked like the rest."""
    product_id, title = item["id"], html.escape(item["t"])
    ad = item.get("ad")
    base = f'<del class="base-price">{_won(item["list"])}</del>' if "list" in item else ""
    tilde = "~" if item.get("from") else ""
    price = f'<strong class="price-value">{_won(item["p"])}</strong>원{tilde}' if "p" in item else "<strong></strong>"
    unit = f'<span class="unit-price">({html.escape(item["unit"])})</span>' if "unit" in item else ""
    sold_out = '<div class="out-of-stock">일시품절</div>' if item.get("so") else ""
    return (
        f'<li class="search-product{" search-product__ad-badge" if ad else ""}" id="{product_id}" '
        f'data-product-id="{product_id}" data-vendor-item-id="8{product_id}" data-is-soldout="">'
        f'<a class="search-product-link" href="/vp/products/{product_id}?itemId=2{product_id}&amp;'
        f'vendorItemId=8{product_id}&amp;pickType=&amp;sourceType=search&amp;rank={rank}&amp;searchId=0b1c2d3e" '
        f'data-product-id="{product_id}" target="_self"><dl class="search-product-wrap adjust-spacing">'
        f'<dt class="image"><img class="search-product-wrap-img" src="//thumbnail10.coupangcdn.com/{product_id}.jpg" '
        f'alt="{title}"></dt><dd class="descriptions"><div class="descriptions-inner">'
        f'<div class="name">{title}</div><div class="price-area"><div class="price-wrap"><div class="price">'
        f'<span class="price-info">{base}</span><em class="sale discount">{price}</em></div>'
        f'<div class="unit-price-area">{unit}</div></div></div>{sold_out}</div></dd></dl></a>'
        f"{_OLDER_AD if ad else ''}</li>"
    )


def _filled(items: Sequence[Mapping[str, Any]], fill: Mapping[str, Any] | None) -> list[Mapping[str, Any]]:
    """The items, then `fill.count` more of the same kind (a full page of 72 lets the source ask for page 2):
    `fill.t` with its number, priced from `fill.p` up by `fill.step` (well above every case's right answer)."""
    if not fill:
        return list(items)
    extra = [
        {
            "id": f"{fill['id']}{index:03d}",
            "t": f"{fill['t']} {index + 1}",
            "p": fill["p"] + index * fill.get("step", 0),
        }
        for index in range(fill["count"])
    ]
    return [*items, *extra]


def render_page(spec: Mapping[str, Any], keyword: str) -> str:
    """A result page from `{"markup": "current" | "utility" | "older", "items": [...], "fill": {...}}`.

    Items: `id` (product id), `t` (title), `p` (sale price; absent: the price is unreadable), `from` (the sale price
    is written as a range's start, "12,900원~"), `cond` (labelled price lines before it, `[["와우할인가", 11900], …]`,
    in the current layout's markups), `list` (crossed-out list price), `unit` (unit price text, "100g당 1,230원"),
    `ad`, `so` (sold out). In the "utility" markup an item
    may say `"markup": "current"` to keep the `Price_priceValue` markup: pages mix both while Coupang migrates.
    """
    markup = spec["markup"]
    items = _filled(spec.get("items", []), spec.get("fill"))
    rendered, rank = [], 0
    for item in items:
        if markup == "older":
            rank += 1
            rendered.append(_older_item(item, rank))
            continue
        rank += 0 if item.get("ad") else 1
        utility = item.get("markup", markup) == "utility"
        rendered.append(_current_item(item, None if item.get("ad") else rank, utility))
    frame = _OLDER_FRAME if markup == "older" else _CURRENT_FRAME
    return frame.format(keyword=html.escape(keyword), items="\n".join(rendered))


def page_html(spec: Mapping[str, Any], keyword: str) -> str | None:
    """The page's HTML: a saved fixture (`file`) or a rendered one; None for a page that never loads."""
    if "file" in spec:
        return (FIXTURES / spec["file"]).read_text(encoding="utf-8")
    if "markup" in spec:
        return render_page(spec, keyword)
    return None


# --- stand-ins for the browser and the HTTP session -----------------------------------------------------------------


@dataclass(slots=True)
class _Response:
    status: int | None
    headers: dict[str, str] = field(default_factory=dict)
    body: Any = None

    async def json(self, content_type: str | None = None) -> Any:
        return self.body


class _Page:
    """A browser page that serves the case's pages by their `page=` number (a settled list, read at once)."""

    def __init__(self, pages: Sequence[Mapping[str, Any]], keyword: str) -> None:
        self._pages, self._keyword = pages, keyword
        self._html = ""

    async def goto(self, url: str, wait_until: str = "load") -> _Response:
        number = int(parse_qs(urlsplit(url).query)["page"][0])
        if number > len(self._pages):
            raise AssertionError(f"the source asked for page {number}; the case has {len(self._pages)}")
        spec = self._pages[number - 1]
        if "navigation_error" in spec:
            raise PlaywrightError(f"{spec['navigation_error']} at {url}")
        self._html = page_html(spec, self._keyword) or ""
        return _Response(spec.get("status", 200))

    async def wait_for_function(self, expression: str, **options: Any) -> None:
        return None

    async def evaluate(self, expression: str, argument: Any = None) -> str:
        return "settled"

    async def content(self) -> str:
        return self._html

    async def screenshot(self, **options: Any) -> bytes:
        return b""


class _Browser:
    def __init__(self) -> None:
        self.pages: Sequence[Mapping[str, Any]] = ()
        self.keyword = ""

    @contextlib.asynccontextmanager
    async def page(self, proxy: Any = None) -> AsyncIterator[_Page]:
        yield _Page(self.pages, self.keyword)


class _Snapshots:
    async def save(self, **fields: Any) -> str | None:
        return None


class _NaverHttp:
    """An aiohttp session whose every GET answers the attempt's scripted response."""

    def __init__(self) -> None:
        self.response = _Response(200, body={"items": []})

    @contextlib.asynccontextmanager
    async def get(self, url: str, **options: Any) -> AsyncIterator[_Response]:
        yield self.response


# --- the case's sources, attempt by attempt ---------------------------------------------------------------------------


class _CaseSource:
    """One of the case's sources: the real source class, fed the case's data for the current attempt."""

    def __init__(self, name: str, spec: Mapping[str, Any], keyword: str) -> None:
        self.name = name
        self._spec = spec
        self.attempt = 0
        if name == "coupang":
            self._browser = _Browser()
            self._browser.keyword = keyword
            self._source: CoupangSource | NaverSource = CoupangSource(
                cast(Any, self._browser),
                cast(Any, _Snapshots()),
                base_url=COUPANG_URL,
                max_pages=MAX_PAGES,
                blocked_backoff_factor=4.0,
            )
        else:
            self._http = _NaverHttp()
            self._source = NaverSource(
                cast(Any, self._http), base_url=NAVER_URL, client_id="corpus", client_secret="corpus"
            )

    def held_back(self) -> None:
        return None

    async def search(self, product: dict[str, Any]) -> Any:
        scripted = self._spec.get("attempts", {}).get(str(self.attempt))
        if self.name == "coupang":
            self._browser.pages = scripted if scripted is not None else self._spec.get("pages", [])
        else:
            answer = scripted or {}
            body = answer.get("body", {"lastBuildDate": "", "total": 0, "items": self._spec.get("items", [])})
            retry_after = {"Retry-After": str(answer["retry_after"])} if "retry_after" in answer else {}
            self._http.response = _Response(answer.get("status", 200), retry_after, body)
        return await self._source.search(product)


class _Gates:
    async def acquire(self, source: str) -> Ticket:
        return Ticket(source, "holder")

    async def release(self, ticket: Ticket, *, blocked: bool) -> None:
        return None


class _Runtime:
    def __init__(self, sources: dict[str, _CaseSource]) -> None:
        self.sources = sources
        self.settings = Settings(search_sources=tuple(sources))
        self.gates = _Gates()


async def run_attempts(case: Mapping[str, Any]) -> dict[str, Any] | None:
    """The case's search as the worker runs it, attempt after attempt until DONE; its result (None: DEAD)."""
    product = dict(case["product"])
    keyword = product["keyword"]
    sources = {name: _CaseSource(name, case["sources"][name], keyword) for name in SOURCES if name in case["sources"]}
    runtime = _Runtime(sources)
    max_attempts = case.get("max_attempts", MAX_ATTEMPTS)
    job: dict[str, Any] = {
        "_id": case["id"],
        "product_code": case["id"],
        "product": product,
        "attempts": 0,
        "max_attempts": max_attempts,
    }
    while job["attempts"] < max_attempts + 2:  # a deferral (never scripted) could otherwise loop
        job["attempts"] += 1
        for source in sources.values():
            source.attempt = job["attempts"]
        try:
            output = await work_search(job, cast(Any, runtime))
        except JobError as error:
            decision = decide_after_failure(job, failure_of(error), POLICY, NOW)
        else:
            return cast(dict[str, Any], output["result"])
        if decision.outcome is AttemptOutcome.DONE:
            return cast(dict[str, Any], cast(dict[str, Any], decision.output)["result"])
        if decision.outcome is AttemptOutcome.DEAD:
            return None
        job |= decision.keep or {}
    raise AssertionError(f"{case['id']}: the job neither ended nor failed in {job['attempts']} attempts")


# --- answers and their judgement --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Lowest:
    source: str
    product_id: str | None
    price: int

    @classmethod
    def of(cls, document: Mapping[str, Any] | None) -> Lowest | None:
        if not document:
            return None
        return cls(str(document["source"]), document.get("product_id"), int(document["price"]))

    def __str__(self) -> str:
        return f"{self.source}:{self.product_id} at {self.price:,}"


class Mistake(StrEnum):
    """How a wrong answer is wrong, worst first."""

    #: An offer the case says must lose was delivered as the lowest, under the answer's price: a wrong product or a
    #: price not everyone pays (delivered at its plain price, above the answer's, it is a dearer answer).
    REFUSED_OFFER_CHOSEN = "refused offer chosen"
    #: The right product, but a dearer offer than the lowest one: the cheapest was refused.
    DEARER_THAN_THE_ANSWER = "dearer than the answer"
    #: No lowest where there is one: every offer of the product was refused (an honest miss).
    NO_ANSWER = "no answer"
    #: `complete`, the outcome or the failed sources differ.
    OTHER = "other"


@dataclass(slots=True)
class CaseResult:
    case_id: str
    case_class: str
    chosen: Lowest | None
    complete: bool | None  # None: the job died without a result
    outcome: str
    failed_sources: dict[str, str]
    right: bool
    seconds: float
    expected: Mapping[str, Any]
    #: Every offer of the result with its verdict (`rejected`), cheapest first.
    offers: list[dict[str, Any]]
    #: What the result said leaves its lowest in doubt (`result.doubts`).
    doubts: list[str] = field(default_factory=list)

    @property
    def mistake(self) -> Mistake | None:
        """What kind of wrong answer this is (None: right)."""
        if self.right:
            return None
        chosen, expected = self.chosen, Lowest.of(self.expected.get("lowest"))
        if chosen is None:
            return Mistake.NO_ANSWER if expected is not None else Mistake.OTHER
        # Judged by the price alone: an offer the case refuses at a price cheaper than the answer (a conditional
        # line), delivered at its plain price above the answer's, is a dearer answer, not a refused offer; the
        # reason the case gives is prose, not read here.
        if offer_key(chosen.source, chosen.product_id) in self.expected.get("why_cheaper_lose", {}) and (
            expected is None or chosen.price <= expected.price
        ):
            return Mistake.REFUSED_OFFER_CHOSEN
        if expected is not None and chosen.price > expected.price:
            return Mistake.DEARER_THAN_THE_ANSWER
        return Mistake.OTHER

    def explain(self) -> str:
        """Chosen against expected, and every offer's verdict: what a failing test shows."""
        expected = self.expected
        lines = [
            f"{self.case_id} ({self.case_class}):",
            f"  chosen   {self.chosen or 'none'}, complete {self.complete}, {self.outcome}, "
            f"failed {self.failed_sources}",
            f"  expected {Lowest.of(expected.get('lowest')) or 'none'}, complete {expected['complete']}, "
            f"{expected['outcome']}, failed {expected.get('failed_sources', {})}",
            *(f"  in doubt: {doubt}" for doubt in self.doubts),
            "  offers:",
        ]
        why = expected.get("why_cheaper_lose", {})
        for offer in self.offers:
            key = offer_key(offer["source"], offer.get("product_id"))
            flags = [flag for flag in ("is_ad", "sold_out") if offer.get(flag)]
            verdict = offer.get("rejected") or ("not eligible: " + ", ".join(flags) if flags else "eligible")
            note = f"  [case: {why[key]}]" if key in why else ""
            lines.append(f"    {key} {offer['price']:>9,} {verdict:<40} {offer['title']}{note}")
        return "\n".join(lines)


def offer_key(source: str, product_id: str | None) -> str:
    return f"{source}:{product_id}"


def judge(case: Mapping[str, Any], result: dict[str, Any] | None, seconds: float) -> CaseResult:
    expected = case["expect"]
    doubts: list[str] = []
    if result is None:
        chosen, complete, outcome, failed, offers = None, None, DEAD, {}, []
    else:
        chosen, complete, outcome = Lowest.of(result.get("lowest")), result["complete"], result["outcome"]
        failed = {name: entry["type"] for name, entry in (result.get("failed_sources") or {}).items()}
        offers = list(result.get("offers", []))
        doubts = list(result.get("doubts") or [])
    right = (
        chosen == Lowest.of(expected.get("lowest"))
        and complete == (expected["complete"] if expected["outcome"] != DEAD else None)
        and outcome == expected["outcome"]
    )
    return CaseResult(
        case["id"], case["class"], chosen, complete, outcome, failed, right, seconds, expected, offers, doubts
    )


async def run_case(case: Mapping[str, Any]) -> CaseResult:
    started = time.perf_counter()
    result = await run_attempts(case)
    return judge(case, result, time.perf_counter() - started)


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Each attempt logs a line per search (and a block of page 2 a warning): not wanted 100 times over."""
    loggers = [logging.getLogger(name) for name in ("actors.search", "actors.sources.coupang")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


async def run_corpus(cases: Sequence[Mapping[str, Any]] | None = None) -> list[CaseResult]:
    cases = load_cases() if cases is None else cases
    with _quiet():
        return [await run_case(case) for case in cases]


def summary(results: Sequence[CaseResult], cases: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The corpus's figure: cases, the share answered right, the share answered complete, the share whose recorded
    answer is complete (the most `complete: true` a right LPS can reach), mean ms per case."""
    count = len(results)
    return {
        "cases": count,
        "right_share": round(sum(result.right for result in results) / count, 4) if count else 0.0,
        "complete_share": round(sum(bool(result.complete) for result in results) / count, 4) if count else 0.0,
        "expected_complete_share": round(sum(bool(case["expect"]["complete"]) for case in cases) / count, 4)
        if count
        else 0.0,
        "ms_per_case": round(1000 * sum(result.seconds for result in results) / count, 2) if count else 0.0,
        "wrong": [result.case_id for result in results if not result.right],
        "mistakes": {
            str(kind): [result.case_id for result in results if result.mistake is kind]
            for kind in Mistake
            if any(result.mistake is kind for result in results)
        },
        # The answers the result said were in doubt: a wrong one so flagged is the lesser harm, a right one a false
        # alarm.
        "said_in_doubt": {
            "wrong": [result.case_id for result in results if result.doubts and not result.right],
            "right": [result.case_id for result in results if result.doubts and result.right],
        },
        "cases_per_class": _per_class(cases),
    }


def _per_class(cases: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for case in cases:
        counts[case["class"]] = counts.get(case["class"], 0) + 1
    return counts


# --- the corpus's own consistency ---------------------------------------------------------------------------------


def load_cases(directory: Path = CORPUS) -> list[dict[str, Any]]:
    """Every case of every `*.json` file of the corpus directory (each file a list of cases), in file order."""
    return [case for path in sorted(directory.glob("*.json")) for case in load_cases_of(path)]


def load_cases_of(path: Path) -> list[dict[str, Any]]:
    """The cases of one corpus file."""
    return list(json.loads(path.read_text(encoding="utf-8")))


def shown_offers(case: Mapping[str, Any]) -> dict[str, int]:
    """Every offer with a readable price the case's data shows, in any attempt: {"source:product_id": price}.

    Coupang: on each page the parser reads as results (a blocked or unreadable page shows none), a saved page's
    offers as the parser reads them, and a rendered page's items at the lowest price any of their lines shows.
    Naver: every item with a numeric `lprice` and a `productId`, whatever its productType, since a used or
    discontinued item cheaper than the answer must lose too. The corpus test checks that a case's
    `why_cheaper_lose` names exactly those cheaper than its right answer.
    """
    shown: dict[str, int] = {}
    keyword = case["product"]["keyword"]
    coupang = case["sources"].get("coupang", {})
    for pages in [coupang.get("pages", []), *coupang.get("attempts", {}).values()]:
        for spec in pages:
            text = page_html(spec, keyword)
            if text is None:
                continue
            page = parse_search_page(text, base_url=COUPANG_URL, status=spec.get("status", 200))
            if page.kind is not PageKind.RESULTS:
                continue
            if "markup" in spec:  # rendered: every price a line shows, labelled or not, whatever the parser reads
                shown |= {
                    offer_key("coupang", item["id"]): cheapest
                    for item in _filled(spec.get("items", []), spec.get("fill"))
                    if (cheapest := _cheapest_line(item)) is not None
                }
            else:
                shown |= {offer_key("coupang", offer.product_id): offer.price for offer in page.offers}
    naver = case["sources"].get("naver", {})
    bodies = [{"items": naver.get("items", [])}, *(a.get("body", {}) for a in naver.get("attempts", {}).values())]
    for body in bodies:
        for item in body.get("items", []) if isinstance(body, dict) else []:
            price = str(item.get("lprice", "")).strip()
            if price.isdigit() and int(price) > 0 and item.get("productId"):
                shown[offer_key("naver", str(item["productId"]))] = int(price)
    return shown


def _cheapest_line(item: Mapping[str, Any]) -> int | None:
    """The lowest price any line of a rendered item shows (its sale price or a labelled one); None: no price."""
    prices = [int(item["p"])] if "p" in item else []
    return min(prices + [price for _, price in _conditions(item)], default=None)


def cheaper_than_answer(case: Mapping[str, Any]) -> set[str]:
    """The offers shown that are cheaper than the case's right answer (all of them when it has none)."""
    lowest = Lowest.of(case["expect"].get("lowest"))
    return {key for key, price in shown_offers(case).items() if lowest is None or price < lowest.price}


def main() -> int:
    """Every case of both parts, then each part's summary; exit 1 when a tuned case is wrong."""
    tuned_right = True
    for part, folder in (("tuned", CORPUS), ("held-out", HELD_OUT)):
        cases = load_cases(folder)
        results = asyncio.run(run_corpus(cases))
        for result in results:
            print(f"{'ok   ' if result.right else 'WRONG'} {result.case_id}")
            if not result.right:
                print(result.explain())
        print(part, json.dumps(summary(results, cases), ensure_ascii=False, indent=2))
        tuned_right = tuned_right and (part != "tuned" or all(result.right for result in results))
    return 0 if tuned_right else 1


if __name__ == "__main__":
    raise SystemExit(main())
