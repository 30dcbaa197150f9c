"""`lps demo-shop`: a local imitation of Coupang's search pages and the Naver Shopping search API.

Tests, benchmarks and demos point `LPS_COUPANG_BASE_URL` and `LPS_NAVER_BASE_URL` at it and search "for real"
on loopback. Products come from `tools/demo_data/*.json` (see the "about" lines of products.json): one entry per
keyword, with the offer that must win on each site written down next to the data.

Routes:

- `GET /np/search?q=<keyword>&page=<n>&listSize=<n>`: a Coupang search page following the markup documented in
  docs/sources.md ("Coupang search page"). The current layout (CSS-module class names with hash suffixes) unless the
  keyword's data says `"layout": "old"`; `&layout=old|current` overrides. `listSize` items a page (default 36, at
  most 72); a page beyond the data is the no-results page. `&build=<text>` changes every hash suffix, as a new
  deployment of the real site does, so parsers can be shown to match class-name prefixes only.
- `GET /v1/search/shop.json?query=&display=&start=&sort=&exclude=`: the Naver Shopping search API. Needs the
  `X-Naver-Client-Id` and `X-Naver-Client-Secret` headers (any non-empty values); answers Naver's error JSON for
  missing credentials (401, errorCode 024) and out-of-range parameters (400, SE01-SE04). `sort=date` orders by
  productId, newest (largest) first.
- `GET /healthz`; `GET /image/...` and `/thumbnails/...`: a 1x1 PNG, so a browser rendering the pages never
  reaches out to the real CDN.

Special keywords (case-insensitive):

- `blocked`: 403, `<title>Access Denied</title>` and a body of a few hundred bytes (Coupang's bot wall).
- `maintenance`: a 200 page of about 1.5 KB saying the site is under maintenance (점검), with no product list.
- `weird layout`: 200, the first keyword's products in markup no parser knows (no `#product-list`, no
  `#productList`, no `/vp/products/` links).
- `slow`, `slow=<seconds>`, `slow <keyword>`, `slow=<seconds> <keyword>`: waits (default 10 s), then answers for
  `<keyword>` (the no-results page when there is none). `&delay=<seconds>` delays any request on both routes.
  Every delay is bounded to 30 s.
- `scripted <keyword>`, `scripted=<ms> <keyword>`: the results page of `<keyword>` with its product list empty in the
  HTML; the page's own script fills it `<ms>` (default 400) milliseconds after DOMContentLoaded, as a site whose
  list is rendered client-side does. Either layout (the keyword's own).
- `stepped <keyword>`, `stepped=<ms> <keyword>`: the results page of `<keyword>` with the first half of its list in
  the HTML and the other half added by the page's script `<ms>` (default 400) milliseconds after DOMContentLoaded,
  as a site that renders the first items on the server and the rest in the browser does.
- `trickled <keyword>`, `trickled=<ms> <keyword>`: as `stepped`, but the other half comes one item every `<ms>`
  (default 400) milliseconds: a list still growing long after the page loaded.
- `blocked-from=<n> <keyword>`: the results of `<keyword>`, but its result pages from page `<n>` on are the
  `blocked` 403 Access Denied page (a bot wall that triggers on paging).
- `quota` (Naver only): 429 with Naver's rate-limit error JSON.
- any keyword not in the data: the no-results page (검색결과가 없습니다) / a Naver answer with no items.

Refusing like Akamai (`lps demo-shop --block-above RATE --block-for SECONDS`, `create_demo_shop_app(block_above=…)`):
a client (by peer address) that makes more than RATE Coupang searches within one second gets the `blocked` 403
Access Denied page for every Coupang search of the next SECONDS (default 30), the request that went over included;
the searches it makes while blocked do not count towards the rate. Naver's API is not affected.

Every search request (both routes) is written down in the app's `SHOP_LOG` (`ShopLog`: time, route, peer, status,
and the most requests of each route it answered at once), for tests and benchmarks that count what reached the shop.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import html
import json
import math
import re
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from aiohttp import web

DEFAULT_DATA_DIR = Path(__file__).parent / "demo_data"

#: The longest a request may be held (`slow`, `?delay=`): longer than any sane client timeout, short enough that
#: a forgotten test does not hang for minutes.
MAX_DELAY = 30.0
DEFAULT_SLOW_DELAY = 10.0
DEFAULT_LIST_SIZE = 36
MAX_LIST_SIZE = 72  # Coupang offers 36, 48, 60 and 72 items a page.
#: Seeds the CSS-module hash suffixes; `?build=` replaces it.
DEFAULT_BUILD = "2025.11.04-a1f9"

NAVER_MAX_DISPLAY = 100
NAVER_MAX_START = 1000
NAVER_SORTS = ("sim", "date", "asc", "dsc")
#: Naver productType: 1-3 new, 4-6 used, 7-9 discontinued, 10-12 pre-sale.
NAVER_USED_TYPES = range(4, 7)
KST = timezone(timedelta(hours=9))

_SLOW = re.compile(r"^slow(?:=(\d+(?:\.\d+)?))?(?:\s+(.*))?$", re.IGNORECASE)
#: How long after DOMContentLoaded a `scripted` page fills its product list (and a `stepped` one completes it).
DEFAULT_SCRIPTED_DELAY_MS = 400

#: The smallest valid PNG (1x1, transparent): stands in for every product image and delivery badge.
PIXEL_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)

#: Delivery badge image per delivery type: paths carry the fragments parsers look for (docs/sources.md). They are local
#: paths, not the real CDN, so pages rendered by a browser stay on loopback.
BADGES = {
    "ROCKET": ("/image/cmm/logo_rocket_large@3x.png", "로켓배송"),
    "ROCKET_FRESH": ("/image/badges/rocket-fresh/pc/rocket-fresh@2x.png", "로켓프레시"),
    "ROCKET_DIRECT": ("/image/badges/rocket/global_b@2x.png", "로켓직구"),
    "ROCKET_SELLER": ("/image/badges/rocket-merchant/logoRocketMerchant@2x.png", "판매자로켓"),
    "ROCKET_INSTALL": ("/image/badges/rocket-install/rocket_install@2x.png", "로켓설치"),
}

NAVER_ERRORS = {
    "auth": (401, "024", "Not Exist Client ID : Authentication failed. (인증에 실패했습니다.)"),
    "quota": (429, "012", "Rate limit exceeded. (속도 제한을 초과했습니다.)"),
    "query": (400, "SE01", "Incorrect query request (잘못된 쿼리요청입니다.)"),
    "display": (400, "SE02", "Invalid display value (부적절한 display 값입니다.)"),
    "start": (400, "SE03", "Invalid start value (부적절한 start 값입니다.)"),
    "sort": (400, "SE04", "Invalid sort value (부적절한 sort 값입니다.)"),
}

#: The site's category menu: real pages carry a large navigation around the list, so pages get a realistic size.
CATEGORY_MENU = {
    "패션의류/잡화": ["여성패션", "남성패션", "남녀 공용 의류", "유아동패션", "신발", "가방/잡화", "쥬얼리", "시계"],
    "뷰티": ["명품뷰티", "스킨케어", "클렌징/필링", "메이크업", "향수", "남성화장품", "헤어", "바디"],
    "출산/유아동": ["유아동패션", "기저귀", "물티슈", "분유/이유식", "수유용품", "목욕용품", "외출용품"],
    "식품": ["유기농/친환경", "과일", "견과/건과", "채소", "쌀/잡곡", "축산/계란", "수산물/건어물", "생수/음료"],
    "주방용품": ["주방가전", "냄비/프라이팬", "주방조리도구", "그릇/홈세트", "수저/커트러리", "컵/텀블러", "밀폐용기"],
    "생활용품": ["헤어", "바디/세안", "구강/면도", "화장지/물티슈", "생리대/성인기저귀", "세탁세제", "청소용품"],
    "홈인테리어": ["가구", "수납/정리", "침구", "커튼/블라인드", "카페트/쿠션", "인테리어소품", "조명", "DIY자재"],
    "가전디지털": ["TV/영상가전", "냉장고", "세탁기/건조기", "생활가전", "청소기", "휴대폰", "태블릿", "노트북"],
    "스포츠/레저": ["캠핑", "자전거", "등산", "헬스/요가", "골프", "수영/수상스포츠", "구기스포츠", "낚시"],
    "자동차용품": ["인테리어용품", "익스테리어용품", "세차/관리용품", "차량용 전자기기", "공구/안전용품", "타이어"],
    "도서/음반/DVD": ["유아/어린이", "소설/에세이/시", "초중고참고서", "경제 경영", "인문", "음반", "DVD/블루레이"],
    "완구/취미": ["신생아/영아완구", "블록놀이", "역할놀이", "로봇/작동완구", "인형", "보드게임", "RC완구", "퍼즐"],
    "문구/오피스": ["사무용품", "필기류", "노트/메모지", "미술/화방용품", "학용품", "파일/바인더", "다이어리"],
    "반려동물용품": ["강아지 사료", "강아지 간식", "고양이 사료", "고양이 간식", "배변용품", "장난감", "관상어용품"],
    "헬스/건강식품": ["비타민/미네랄", "건강기능식품", "홍삼/인삼", "건강즙/음료", "다이어트/이너뷰티", "헬스보충식품"],
}

FOOTER_LINKS = [
    "회사소개", "Investor Relations", "인재채용", "입점 / 제휴문의", "공지사항", "고객의 소리", "이용약관",
    "개인정보 처리방침", "쿠팡 비즈니스", "신뢰관리센터", "제휴마케팅", "광고안내",
]  # fmt: skip


def normalize_keyword(text: str) -> str:
    """Keywords match ignoring case and runs of whitespace, as a search box does."""
    return " ".join(text.split()).casefold()


@dataclass(frozen=True, slots=True)
class Catalogue:
    #: normalized keyword -> the data file's entry, plus "keyword" (as written in the file).
    entries: dict[str, dict[str, Any]]

    @classmethod
    def load(cls, data_dir: Path) -> Catalogue:
        """Every *.json file of the directory contributes keywords, so benchmarks can add files beside ours."""
        entries: dict[str, dict[str, Any]] = {}
        for path in sorted(data_dir.glob("*.json")):
            for keyword, entry in json.loads(path.read_text(encoding="utf-8"))["keywords"].items():
                key = normalize_keyword(keyword)
                if key in entries:
                    raise ValueError(f"{path}: keyword {keyword!r} is defined twice")
                entries[key] = {**entry, "keyword": keyword}
        if not entries:
            raise ValueError(f"{data_dir}: no demo-shop data (*.json with a 'keywords' object)")
        return cls(entries)

    def find(self, keyword: str) -> dict[str, Any] | None:
        return self.entries.get(normalize_keyword(keyword))

    def first(self) -> dict[str, Any]:
        return next(iter(self.entries.values()))


CATALOGUE = web.AppKey("demo_catalogue", Catalogue)


@dataclass(frozen=True, slots=True)
class ShopRequest:
    #: `time.monotonic()` when the request arrived (before any `slow` delay).
    at: float
    #: "coupang" (/np/search) or "naver" (/v1/search/shop.json).
    route: str
    peer: str
    status: int


#: Search routes by path, as the log names them.
SEARCH_ROUTES = {"/np/search": "coupang", "/v1/search/shop.json": "naver"}
#: The log keeps the newest this many requests (a long-running shop must not grow without bound).
SHOP_LOG_SIZE = 100_000


@dataclass(slots=True)
class ShopLog:
    """Every search request that reached the shop, oldest first."""

    requests: deque[ShopRequest] = field(default_factory=lambda: deque(maxlen=SHOP_LOG_SIZE))
    #: Per route: requests being answered now, and the most there ever were at once.
    in_flight: dict[str, int] = field(default_factory=dict)
    most_at_once: dict[str, int] = field(default_factory=dict)

    def of(self, route: str) -> list[ShopRequest]:
        return [request for request in self.requests if request.route == route]


@dataclass(slots=True)
class BlockMode:
    """Akamai-like: a client over `above` Coupang searches within one second is refused for `duration` seconds."""

    above: float
    duration: float
    _recent: dict[str, deque[float]] = field(default_factory=dict)
    _blocked_until: dict[str, float] = field(default_factory=dict)

    def refuses(self, peer: str, now: float) -> bool:
        if self._blocked_until.get(peer, 0.0) > now:
            return True
        recent = self._recent.setdefault(peer, deque())
        recent.append(now)
        while recent and recent[0] <= now - 1.0:
            recent.popleft()
        if len(recent) > self.above:
            self._blocked_until[peer] = now + self.duration
            recent.clear()
            return True
        return False


SHOP_LOG = web.AppKey("demo_log", ShopLog)
BLOCK_MODE = web.AppKey("demo_block_mode", BlockMode)


# ---------------------------------------------------------------------------------------------------- helpers


def _int(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


def _split_slow(keyword: str) -> tuple[str, float | None]:
    """`slow=2 아이폰` -> ("아이폰", 2.0); keywords without the directive come back unchanged with no delay."""
    match = _SLOW.match(keyword.strip())
    if not match:
        return keyword, None
    return (match.group(2) or ""), float(match.group(1) or DEFAULT_SLOW_DELAY)


def _split_directive(keyword: str, name: str, default: int) -> tuple[str, int | None]:
    """`<name>=300 아이폰` -> ("아이폰", 300), `<name> 아이폰` -> ("아이폰", default); other keywords come back
    unchanged with None."""
    match = re.match(rf"^{re.escape(name)}(?:=(\d+))?\s+(.*)$", keyword.strip(), re.IGNORECASE)
    if not match:
        return keyword, None
    return match.group(2), int(match.group(1) or default)


def _filled_by_script(page: str, items: list[str], delay_ms: int, *, served: int = 0, one_by_one: bool = False) -> str:
    """The page with only its first `served` items in the product list, and a script that adds the others
    `delay_ms` after DOMContentLoaded: all at once, or `one_by_one`, one every `delay_ms`."""
    listing = "\n".join(items)
    partial = page.replace(listing, "\n".join(items[:served]), 1)
    later = json.dumps(items[served:], ensure_ascii=False).replace("</", "<\\/")
    step = "1" if one_by_one else "later.length"
    script = (
        "<script>document.addEventListener('DOMContentLoaded', function () {"
        f" var later = {later};"
        " var list = document.getElementById('product-list') || document.getElementById('productList');"
        " var timer = setInterval(function () {"
        f" list.insertAdjacentHTML('beforeend', later.splice(0, {step}).join('\\n'));"
        f" if (!later.length) clearInterval(timer); }}, {delay_ms}); }});</script>"
    )
    return partial.replace("</body>", script + "\n</body>", 1)


async def _hold(request: web.Request, slow: float | None) -> None:
    delay = slow
    if "delay" in request.query:
        try:
            delay = float(request.query["delay"])
        except ValueError:
            delay = None
    if delay and delay > 0:
        await asyncio.sleep(min(delay, MAX_DELAY))


def _won(amount: int) -> str:
    return f"{amount:,}"


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


class ClassNames:
    """CSS-module class names: `ProductUnit_productName` -> `ProductUnit_productName__gH7jK`.

    The suffix is a hash of the build and the name, so it is stable within a build and changes with `?build=`,
    which is what makes whole-class-name selectors break on the real site.
    """

    def __init__(self, build: str) -> None:
        self._build = build

    def __call__(self, name: str) -> str:
        digest = hashlib.sha256(f"{self._build}:{name}".encode()).digest()
        return f"{name}__{base64.b64encode(digest, altchars=b'Xz').decode()[:5]}"


def _search_url(keyword: str, page: int, extra: dict[str, str]) -> str:
    return "/np/search?" + urlencode({"q": keyword, **extra, "page": page})


def _search_id(keyword: str, page: int) -> str:
    return hashlib.md5(f"{keyword}#{page}".encode(), usedforsecurity=False).hexdigest()


def _thumbnail(product_id: str) -> str:
    return f"/thumbnails/remote/230x230ex/image/vendor_inventory/{product_id[-4:]}/{product_id}.jpg"


def _coupang_link(product: dict[str, Any], rank: int | None, keyword: str, page: int) -> str:
    coupang = product["coupang"]
    query: dict[str, Any] = {"itemId": coupang["item_id"], "vendorItemId": coupang["vendor_item_id"]}
    if rank is None:
        # Ads: the real site links them through its ad tracker and never with a rank.
        query |= {
            "sourceType": "srp_product_ads",
            "clickEventId": _search_id(coupang["product_id"], page)[:24],
            "korePlacement": 15,
            "koreSubPlacement": 1,
        }
    else:
        query |= {"sourceType": "search", "q": keyword, "rank": rank, "searchId": _search_id(keyword, page)}
    return f"/vp/products/{coupang['product_id']}?{urlencode(query)}"


def _delivery_promise(delivery: str) -> str:
    if delivery == "ROCKET_DIRECT":
        return "3일 이내 도착 예정"
    if delivery == "GENERAL":
        return "모레(금) 도착 예정"
    return "내일(목) 도착 보장"


# ---------------------------------------------------------------------------------------------------- page chrome


def _stylesheet(css: ClassNames) -> str:
    rules = {
        "ProductList_productList": "display:flex;flex-wrap:wrap;margin:0;padding:0;list-style:none",
        "ProductUnit_productUnit": "width:25%;padding:16px 12px;box-sizing:border-box;position:relative",
        "ProductUnit_productImage": "margin:0;width:212px;height:212px;overflow:hidden",
        "ProductUnit_productInfo": "padding-top:8px;font-size:13px;line-height:1.4",
        "ProductUnit_productName": "color:#111;max-height:36px;overflow:hidden;text-overflow:ellipsis",
        "ProductUnit_soldoutText": "color:#888;font-weight:700;margin-top:4px",
        "PriceArea_priceArea": "margin-top:6px",
        "PriceInfo_discountRate": "color:#ae0000;margin-right:4px",
        "PriceInfo_basePrice": "color:#888;font-size:12px",
        "Price_priceValue": "display:block;color:#ae0000;font-size:16px;font-weight:700",
        "UnitPrice_unitPrice": "color:#888;font-size:12px",
        "ImageBadge_default": "display:inline-block;height:16px;margin-top:4px",
        "ProductRating_productRating": "display:flex;align-items:center;margin-top:4px",
        "ProductRating_star": "width:72px;height:14px;background:#eee;position:relative",
        "ProductRating_ratingCount": "color:#888;font-size:12px;margin-left:4px",
        "AdMark_adMark": "position:absolute;top:8px;left:8px;color:#888;font-size:11px",
        "DeliveryInfo_delivery": "color:#00891a;font-size:12px",
        "Pagination_pagination": "display:flex;justify-content:center;gap:4px;margin:32px 0",
        "Pagination_page": "min-width:32px;height:32px;text-align:center;border:1px solid #ddd",
        "Pagination_selected": "border-color:#346aff;color:#346aff",
        "SearchFilter_filter": "width:200px;float:left;font-size:12px",
        "SearchResult_result": "margin-left:220px",
        "SortBar_sortBar": "display:flex;gap:12px;border-bottom:1px solid #ddd;padding:8px 0",
        "NoResult_noResult": "padding:80px 0;text-align:center",
    }
    return "\n".join(f".{css(name)}{{{body}}}" for name, body in rules.items())


def _header(keyword: str) -> str:
    menu = "\n".join(
        f'<li class="category-menu__item"><a href="/np/categories/{index}">{_esc(top)}</a><ul class="category-sub">'
        + "".join(
            f'<li><a href="/np/categories/{index}{sub_index:02d}">{_esc(sub)}</a></li>'
            for sub_index, sub in enumerate(subs, 1)
        )
        + "</ul></li>"
        for index, (top, subs) in enumerate(CATEGORY_MENU.items(), 1)
    )
    return f"""<header id="header" class="header">
<div class="top-bar"><ul class="top-bar__menu"><li><a href="/login">로그인</a></li><li><a href="/join">회원가입</a></li>
<li><a href="/help">고객센터</a></li><li><a href="/np/biz">쿠팡 비즈니스</a></li></ul></div>
<div class="header-main"><h1 class="logo"><a href="/" title="쿠팡">쿠팡</a></h1>
<form id="headerSearchForm" class="header-search" action="/np/search" method="get">
<input type="text" id="headerSearchKeyword" name="q" value="{_esc(keyword)}" autocomplete="off" maxlength="49">
<button type="submit" id="headerSearchBtn">검색</button></form>
<ul class="header-icons"><li><a href="/np/mycoupang">마이쿠팡</a></li><li><a href="/cart">장바구니</a></li></ul></div>
<nav id="gnbAnalytics" class="category-menu"><h2 class="category-menu__title">카테고리</h2>
<ul class="category-menu__list">
{menu}
</ul></nav>
</header>"""


def _footer() -> str:
    links = "".join(
        f'<li><a href="/np/footer/{index}">{_esc(text)}</a></li>' for index, text in enumerate(FOOTER_LINKS)
    )
    return f"""<footer id="footer" class="footer"><ul class="footer-links">{links}</ul>
<address>상호명 및 호스팅 서비스 제공 : 쿠팡(주) | 대표이사 : 데모 | 서울시 송파구 송파대로 570 |
사업자 등록번호 : 000-00-00000 | 통신판매업신고 : 0000-서울송파-0000 | 개인정보 보호책임자 : 데모</address>
<p class="footer-notice">쿠팡은 통신판매중개자로서 통신판매의 당사자가 아니며 오픈마켓 상품의 상품정보, 거래 등에 대하여
책임을 지지 않습니다. 이 페이지는 LPS demo-shop이 만든 연습용 페이지입니다.</p>
<p class="copyright">Copyright &copy; Coupang Corp. 2010-2025 All rights reserved.</p></footer>"""


def _state_script(keyword: str, build: str, brands: Iterable[str], total: int) -> str:
    """The framework's page state: real pages embed several kilobytes of it (filters, experiments, tracking)."""
    state = {
        "props": {
            "pageProps": {
                "searchKeyword": keyword,
                "filters": {
                    "brand": sorted({brand for brand in brands if brand}),
                    "priceRange": [[0, 10000], [10000, 50000], [50000, 100000], [100000, 500000], [500000, None]],
                    "delivery": ["rocket", "rocketFresh", "rocketGlobal", "rocketInstall", "rocketMerchant"],
                    "rating": [4, 3, 2],
                },
                "sorters": ["scoreDesc", "salePriceAsc", "salePriceDesc", "saleCountDesc", "latestAsc"],
                "experiments": {f"exp_{index:03d}": "B" if index % 3 else "A" for index in range(60)},
                "categories": list(CATEGORY_MENU),
                "itemsCount": total,
            }
        },
        "page": "/np/search",
        "query": {"q": keyword},
        "buildId": build,
        "isFallback": False,
        "gssp": True,
    }
    payload = json.dumps(state, ensure_ascii=False).replace("</", "<\\/")
    return f'<script id="__NEXT_DATA__" type="application/json">{payload}</script>'


def _page(
    title: str, keyword: str, body: str, *, css: ClassNames, build: str, brands: Iterable[str], total: int
) -> str:
    return f"""<!DOCTYPE html>
<html lang="ko">
<head>
<meta charset="utf-8">
<meta http-equiv="X-UA-Compatible" content="IE=edge">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="쿠팡은 로켓배송으로 빠르게, 다양한 상품을 합리적인 가격에 만나보세요.">
<meta property="og:title" content="{_esc(title)}">
<meta property="og:site_name" content="쿠팡!">
<meta property="og:image" content="/image/coupang/common/logo_coupang_w350.png">
<meta name="format-detection" content="telephone=no">
<link rel="icon" href="/image/coupang/favicon/v2/favicon.png">
<title>{_esc(title)}</title>
<style>
body{{margin:0;font-family:"Apple SD Gothic Neo","Malgun Gothic",sans-serif;color:#111}}
.header-main{{display:flex;align-items:center;gap:16px;padding:12px 24px}}
.category-menu__list{{display:none}}
.footer{{border-top:1px solid #ddd;padding:24px;color:#555;font-size:12px}}
{_stylesheet(css)}
</style>
<script>window.dataLayer = window.dataLayer || []; window.__pageStart = Date.now();</script>
</head>
<body class="search-page">
{_header(keyword)}
<main id="searchContent" class="search-content">
{body}
</main>
{_footer()}
{_state_script(keyword, build, brands, total)}
<script>window.dataLayer.push({{"event": "pageview", "page": "search"}});</script>
</body>
</html>
"""


# ---------------------------------------------------------------------------------------------------- Coupang layouts


def _current_item(product: dict[str, Any], rank: int | None, index: int, css: ClassNames, link: str) -> str:
    coupang = product["coupang"]
    price, base = product["price"], product.get("base_price")
    parts = [
        f'<li class="{css("ProductUnit_productUnit")}" data-id="{_esc(coupang["product_id"])}">',
        f'<a href="{_esc(link)}">',
        f'<figure class="{css("ProductUnit_productImage")}"><img src="{_thumbnail(coupang["product_id"])}" '
        f'alt="{_esc(product["title"])}" width="212" height="212" loading="lazy"></figure>',
        f'<div class="{css("ProductUnit_productInfo")}">',
        f'<div class="{css("ProductUnit_productName")}">{_esc(product["title"])}</div>',
        f'<div class="{css("PriceArea_priceArea")}">',
    ]
    if base and base > price:
        parts.append(f'<span class="{css("PriceInfo_discountRate")}">{math.floor((base - price) * 100 / base)}%</span>')
        parts.append(f'<del class="{css("PriceInfo_basePrice")}">{_won(base)}원</del>')
    # The real site renders the price in a <strong> or, in some experiments, a <div>.
    tag = "div" if index % 5 == 4 else "strong"
    parts.append(f'<{tag} class="{css("Price_priceValue")}">{_won(price)}원</{tag}>')
    if unit_price := coupang.get("unit_price"):
        parts.append(f'<span class="{css("UnitPrice_unitPrice")}">{_esc(unit_price)}</span>')
    parts.append("</div>")
    if badge := BADGES.get(coupang["delivery"]):
        parts.append(f'<div class="{css("ImageBadge_default")}"><img src="{badge[0]}" alt="{badge[1]}"></div>')
    parts.append(f'<div class="{css("DeliveryInfo_delivery")}">{_delivery_promise(coupang["delivery"])}</div>')
    if (rating := coupang.get("rating")) is not None:
        # Some experiments drop the aria-label: the star width is then the only rating (NN% / 20).
        label = f' aria-label="{rating}"' if index % 3 != 2 else ""
        parts.append(
            f'<div class="{css("ProductRating_productRating")}">'
            f'<div class="{css("ProductRating_star")}"{label}><div style="width: {round(rating * 20)}%"></div></div>'
            f'<span class="{css("ProductRating_ratingCount")}">({_won(coupang.get("review_count") or 0)})</span>'
            "</div>"
        )
    if rank is None:
        parts.append(f'<span class="{css("AdMark_adMark")}">광고</span>')
    if coupang.get("sold_out"):
        parts.append(f'<div class="{css("ProductUnit_soldoutText")}">일시품절</div>')
    parts.append("</div></a></li>")
    return "\n".join(parts)


def _old_item(product: dict[str, Any], rank: int | None, link: str) -> str:
    coupang = product["coupang"]
    product_id = _esc(coupang["product_id"])
    price, base = product["price"], product.get("base_price")
    classes = "search-product" if rank is not None else "search-product search-product__ad-badge"
    parts = [
        f'<li class="{classes}" data-product-id="{product_id}" data-vendor-item-id="{_esc(coupang["vendor_item_id"])}"'
        f' id="{product_id}">',
        f'<a class="search-product-link" href="{_esc(link)}" data-product-id="{product_id}"'
        f' data-item-id="{_esc(coupang["item_id"])}" data-vendor-item-id="{_esc(coupang["vendor_item_id"])}">',
        f'<div class="image"><img class="search-product-wrap-img" src="{_thumbnail(coupang["product_id"])}"'
        ' width="230" height="230" alt=""></div>',
        f'<div class="name">{_esc(product["title"])}</div>',
        '<div class="price-area">',
    ]
    if base and base > price:
        parts.append(f'<del class="base-price">{_won(base)}</del>')
    parts.append(f'<strong class="price-value">{_won(price)}</strong>원')
    if unit_price := coupang.get("unit_price"):
        parts.append(f'<span class="unit-price">{_esc(unit_price)}</span>')
    parts.append("</div>")
    if badge := BADGES.get(coupang["delivery"]):
        parts.append(f'<span class="badge rocket"><img src="{badge[0]}" alt="{badge[1]}"></span>')
    if rank is None:
        parts.append('<span class="ad-badge-text">광고</span>')
    if coupang.get("sold_out"):
        parts.append('<div class="out-of-stock">일시품절</div>')
    if (rating := coupang.get("rating")) is not None:
        parts.append(
            f'<em class="rating">{rating}</em><span class="rating-total-count">'
            f"({_won(coupang.get('review_count') or 0)})</span>"
        )
    parts.append("</a></li>")
    return "\n".join(parts)


def _pagination(keyword: str, page: int, pages: int, extra: dict[str, str], *, css: ClassNames, old: bool) -> str:
    first = max(1, min(page - 4, pages - 9))
    numbers = range(first, min(pages, first + 9) + 1)
    if old:
        links = "".join(
            f'<a href="{_esc(_search_url(keyword, n, extra))}" class="btn-page{" selected" if n == page else ""}"'
            f' data-page="{n}">{n}</a>'
            for n in numbers
        )
        prev_url, next_url = _esc(_search_url(keyword, page - 1, extra)), _esc(_search_url(keyword, page + 1, extra))
        prev = f'<a class="btn-prev" href="{prev_url}">이전</a>' if page > 1 else ""
        nxt = f'<a class="btn-next" href="{next_url}">다음</a>' if page < pages else ""
        return f'<div class="search-pagination" id="searchOptionForm-pagination">{prev}{links}{nxt}</div>'
    links = "".join(
        f'<a href="{_esc(_search_url(keyword, n, extra))}" class="{css("Pagination_page")}'
        f'{" " + css("Pagination_selected") if n == page else ""}" data-page="{n}">{n}</a>'
        for n in numbers
    )
    prev = (
        f'<a class="{css("Pagination_prevBtn")}" href="{_esc(_search_url(keyword, page - 1, extra))}">이전</a>'
        if page > 1
        else ""
    )
    nxt = (
        f'<a class="{css("Pagination_nextBtn")}" href="{_esc(_search_url(keyword, page + 1, extra))}">다음</a>'
        if page < pages
        else ""
    )
    return f'<nav class="{css("Pagination_pagination")}" data-page-total="{pages}">{prev}{links}{nxt}</nav>'


def _filters(products: list[dict[str, Any]], css: ClassNames | None) -> str:
    brands = sorted({product["brand"] for product in products if product.get("brand")})
    brand_items = "".join(f'<li><label><input type="checkbox" name="brand">{_esc(b)}</label></li>' for b in brands)
    deliveries = "".join(
        f'<li><label><input type="checkbox" name="delivery"><img src="{path}" alt="{alt}"> {alt}</label></li>'
        for path, alt in BADGES.values()
    )
    cls = css("SearchFilter_filter") if css else "search-filter"
    return (
        f'<aside class="{cls}"><h3>배송</h3><ul>{deliveries}</ul><h3>브랜드</h3><ul>{brand_items}</ul>'
        "<h3>가격</h3><ul><li>1만원 이하</li><li>1만원 ~ 5만원</li><li>5만원 ~ 10만원</li>"
        "<li>10만원 이상</li></ul></aside>"
    )


def _sort_bar(css: ClassNames | None) -> str:
    cls = css("SortBar_sortBar") if css else "search-sort-bar"
    options = ["쿠팡 랭킹순", "낮은가격순", "높은가격순", "판매량순", "최신순"]
    return f'<ul class="{cls}">' + "".join(f'<li><a href="#">{option}</a></li>' for option in options) + "</ul>"


def _results_page(
    entry: dict[str, Any],
    keyword: str,
    page: int,
    list_size: int,
    *,
    old: bool,
    build: str,
    extra: dict[str, str],
    scripted_ms: int | None = None,
    stepped_ms: int | None = None,
    trickled_ms: int | None = None,
) -> str | None:
    """The page's HTML, or None when the page is past the data (the caller answers no-results)."""
    products = [product for product in entry["products"] if "coupang" in product]
    pages = math.ceil(len(products) / list_size)
    if page > pages:
        return None
    # Ranks count organic results over the whole search, as the real site numbers them; ads have none.
    ranks: list[int | None] = []
    organic = 0
    for product in products:
        if product["coupang"].get("ad"):
            ranks.append(None)
        else:
            organic += 1
            ranks.append(organic)
    start = (page - 1) * list_size
    css = ClassNames(build)
    items = []
    for index in range(start, min(start + list_size, len(products))):
        link = _coupang_link(products[index], ranks[index], keyword, page)
        if old:
            items.append(_old_item(products[index], ranks[index], link))
        else:
            items.append(_current_item(products[index], ranks[index], index, css, link))
    listing = "\n".join(items)
    if old:
        body = (
            f'<div id="searchOptionForm" class="search-wrapper">{_filters(products, None)}'
            f'<div class="search-content search-content-with-feedback">{_sort_bar(None)}'
            f'<form id="productListForm"><ul id="productList" class="search-product-list">\n{listing}\n</ul></form>'
            f"{_pagination(keyword, page, pages, extra, css=css, old=True)}</div></div>"
        )
    else:
        body = (
            f"{_filters(products, css)}"
            f'<section class="{css("SearchResult_result")}">{_sort_bar(css)}'
            f'<ul id="product-list" class="{css("ProductList_productList")}">\n{listing}\n</ul>'
            f"{_pagination(keyword, page, pages, extra, css=css, old=False)}</section>"
        )
    brands = (product.get("brand", "") for product in products)
    text = _page(f"{keyword} - 쿠팡!", keyword, body, css=css, build=build, brands=brands, total=len(products))
    if scripted_ms is not None:
        return _filled_by_script(text, items, scripted_ms)
    if stepped_ms is not None:
        return _filled_by_script(text, items, stepped_ms, served=len(items) // 2)
    if trickled_ms is not None:
        return _filled_by_script(text, items, trickled_ms, served=len(items) // 2, one_by_one=True)
    return text


def _no_results_page(keyword: str, build: str) -> str:
    css = ClassNames(build)
    body = (
        f'<div class="{css("NoResult_noResult")}" id="searchNoResult">'
        f"<p class=\"no-result-text\">'<strong>{_esc(keyword)}</strong>'에 대한 검색결과가 없습니다.</p>"
        '<ul class="no-result-tips"><li>단어의 철자가 정확한지 확인해 보세요.</li>'
        "<li>다른 검색어를 입력하시거나, 검색어의 단어 수를 줄여 보세요.</li>"
        "<li>보다 일반적인 검색어로 다시 검색해 보세요.</li></ul></div>"
    )
    return _page(f"{keyword} - 쿠팡!", keyword, body, css=css, build=build, brands=(), total=0)


def _weird_layout_page(entry: dict[str, Any], keyword: str, build: str) -> str:
    """Products in markup no LPS parser knows: a redesign shipped overnight. Must read as a parse failure."""
    css = ClassNames(build + ":redesign")
    cards = "\n".join(
        f'<article class="{css("ProductCard_card")}" data-sku="{_esc(product["coupang"]["product_id"])}">'
        f'<a class="{css("ProductCard_link")}" href="/p/{_esc(product["coupang"]["product_id"])}">'
        f'<img src="{_thumbnail(product["coupang"]["product_id"])}" alt="">'
        f'<h3 class="{css("ProductCard_title")}">{_esc(product["title"])}</h3>'
        f'<p class="{css("ProductCard_amount")}"><span>{_won(product["price"])}</span><span>원</span></p>'
        "</a></article>"
        for product in entry["products"]
        if "coupang" in product
    )
    body = f'<section class="{css("SearchGrid_grid")}" data-testid="search-grid">\n{cards}\n</section>'
    return _page(f"{keyword} - 쿠팡!", keyword, body, css=css, build=build, brands=(), total=0)


def _access_denied_page() -> str:
    # Akamai's wall: tiny, no site chrome at all.
    reference = "18&#46;6f2b1402&#46;1735689600&#46;1a2b3c4d"
    return (
        "<html><head>\n<title>Access Denied</title>\n</head><body>\n<h1>Access Denied</h1>\n \n"
        'You don\'t have permission to access "http&#58;&#47;&#47;www&#46;coupang&#46;com&#47;np&#47;search&#63;" '
        f"on this server.<p>\nReference&#32;&#35;{reference}\n"
        f"<p>https&#58;&#47;&#47;errors&#46;edgesuite&#46;net&#47;{reference}</p>\n</body>\n</html>\n"
    )


def _maintenance_page() -> str:
    # A standalone notice of a few kilobytes: small, but not "tiny", so a client must read the 점검 text to know.
    return """<!DOCTYPE html>
<html lang="ko">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>쿠팡 - 서비스 점검 안내</title>
<style>
body{margin:0;font-family:"Apple SD Gothic Neo","Malgun Gothic",sans-serif;color:#333;background:#f5f6f8}
.maintenance{max-width:640px;margin:80px auto;padding:48px 40px;background:#fff;border:1px solid #e3e5e8}
.maintenance h1{font-size:28px;margin:0 0 24px;color:#111}
.maintenance .logo{display:block;width:174px;height:41px;margin:0 auto 32px}
.maintenance p{font-size:15px;line-height:1.7;margin:0 0 12px}
.maintenance .time{margin:24px 0;padding:16px;background:#f5f6f8;font-weight:700;text-align:center}
.maintenance ul{padding-left:20px;font-size:14px;line-height:1.8;color:#555}
.maintenance .contact{margin-top:32px;padding-top:24px;border-top:1px solid #e3e5e8;font-size:13px;color:#777}
</style>
</head>
<body>
<div class="maintenance">
<img class="logo" src="/image/coupang/common/logo_coupang_w350.png" alt="쿠팡">
<h1>서비스 점검 중입니다</h1>
<p>보다 안정적이고 편리한 서비스를 제공하기 위해 시스템 점검을 진행하고 있습니다.</p>
<p>점검 시간 동안 쿠팡 웹사이트와 앱의 상품 검색, 주문, 결제 등 모든 서비스 이용이 일시적으로 중단됩니다.
이용에 불편을 드려 대단히 죄송합니다.</p>
<p class="time">점검 일시: 2025년 11월 12일(수) 02:00 ~ 06:00</p>
<ul>
<li>점검 시간은 작업 상황에 따라 앞당겨지거나 연장될 수 있습니다.</li>
<li>점검 전에 결제하신 주문은 정상적으로 처리되며, 배송 일정에는 영향이 없습니다.</li>
<li>점검이 끝나면 이 페이지를 새로고침하여 서비스를 다시 이용하실 수 있습니다.</li>
</ul>
<p class="contact">문의: 쿠팡 고객센터 1577-7011 (점검 중에는 상담 연결이 지연될 수 있습니다)</p>
</div>
</body>
</html>
"""


# ---------------------------------------------------------------------------------------------------- handlers


def _html(text: str, status: int = 200, **headers: str) -> web.Response:
    return web.Response(text=text, status=status, content_type="text/html", headers=headers or None)


async def coupang_search(request: web.Request) -> web.Response:
    keyword, slow = _split_slow(request.query.get("q", ""))
    keyword, scripted_ms = _split_directive(keyword, "scripted", DEFAULT_SCRIPTED_DELAY_MS)
    keyword, stepped_ms = _split_directive(keyword, "stepped", DEFAULT_SCRIPTED_DELAY_MS)
    keyword, trickled_ms = _split_directive(keyword, "trickled", DEFAULT_SCRIPTED_DELAY_MS)
    keyword, blocked_from = _split_directive(keyword, "blocked-from", 2)
    await _hold(request, slow)
    build = request.query.get("build") or DEFAULT_BUILD
    key = normalize_keyword(keyword)
    catalogue = request.app[CATALOGUE]
    if key == "blocked":
        return _html(_access_denied_page(), status=403, Server="AkamaiGHost")
    if key == "maintenance":
        return _html(_maintenance_page())
    if key == "weird layout":
        return _html(_weird_layout_page(catalogue.first(), keyword, build))
    entry = catalogue.find(keyword)
    if entry is None:
        return _html(_no_results_page(keyword, build))
    page = max(1, _int(request.query.get("page"), 1))
    if blocked_from is not None and page >= blocked_from:
        return _html(_access_denied_page(), status=403, Server="AkamaiGHost")
    list_size = min(MAX_LIST_SIZE, max(1, _int(request.query.get("listSize"), DEFAULT_LIST_SIZE)))
    layout = request.query.get("layout") or entry.get("layout", "current")
    # Pagination links keep the options the request chose.
    extra = {name: request.query[name] for name in ("listSize", "layout", "build") if name in request.query}
    text = _results_page(
        entry,
        keyword,
        page,
        list_size,
        old=layout == "old",
        build=build,
        extra=extra,
        scripted_ms=scripted_ms,
        stepped_ms=stepped_ms,
        trickled_ms=trickled_ms,
    )
    return _html(text if text is not None else _no_results_page(keyword, build))


def _naver_error(kind: str) -> web.Response:
    status, code, message = NAVER_ERRORS[kind]
    return web.json_response({"errorMessage": message, "errorCode": code}, status=status)


def _bold(title: str, query: str) -> str:
    """Naver wraps the query's words in <b> tags; one pass, longest words first, so tags never nest."""
    escaped = html.escape(title, quote=False)
    words = sorted({html.escape(word, quote=False) for word in query.split()}, key=len, reverse=True)
    if not words:
        return escaped
    pattern = re.compile("|".join(re.escape(word) for word in words), re.IGNORECASE)
    return pattern.sub(lambda match: f"<b>{match.group(0)}</b>", escaped)


def _naver_item(product: dict[str, Any], query: str) -> dict[str, str]:
    naver = product["naver"]
    product_id = naver["product_id"]
    product_type = int(naver["product_type"])
    categories = [*product.get("categories", []), "", "", "", ""][:4]
    # Catalogue (price-comparison) products link to their catalogue page, mall products through Naver's gate.
    if product_type in (1, 4, 7, 10):
        link = f"https://search.shopping.naver.com/catalog/{product_id}"
    else:
        link = f"https://search.shopping.naver.com/gate.nhn?id={product_id}"
    return {
        "title": _bold(product["title"], query),
        "link": link,
        "image": f"https://shopping-phinf.pstatic.net/main_{product_id[:7]}/{product_id}.20250101000000.jpg",
        "lprice": str(naver.get("price", product["price"])),
        "hprice": str(naver.get("hprice", "")),
        "mallName": naver["mall_name"],
        "productId": product_id,
        "productType": str(product_type),
        "brand": product.get("brand", ""),
        "maker": product.get("maker", ""),
        **{f"category{index}": category for index, category in enumerate(categories, 1)},
    }


_EXCLUDES: dict[str, Callable[[dict[str, Any]], bool]] = {
    "used": lambda naver: int(naver["product_type"]) in NAVER_USED_TYPES,
    "rental": lambda naver: bool(naver.get("rental")),
    "cbshop": lambda naver: bool(naver.get("cross_border")),
}


async def naver_search(request: web.Request) -> web.Response:
    if not (request.headers.get("X-Naver-Client-Id") and request.headers.get("X-Naver-Client-Secret")):
        return _naver_error("auth")
    query, slow = _split_slow(request.query.get("query", ""))
    await _hold(request, slow)
    if normalize_keyword(query) == "quota":
        return _naver_error("quota")
    if not query.strip():
        return _naver_error("query")
    display = _int(request.query.get("display"), 10)
    if not 1 <= display <= NAVER_MAX_DISPLAY:
        return _naver_error("display")
    start = _int(request.query.get("start"), 1)
    if not 1 <= start <= NAVER_MAX_START:
        return _naver_error("start")
    sort = request.query.get("sort", "sim")
    if sort not in NAVER_SORTS:
        return _naver_error("sort")
    excluded = [_EXCLUDES[name] for name in request.query.get("exclude", "").split(":") if name in _EXCLUDES]

    entry = request.app[CATALOGUE].find(query)
    products = [
        product
        for product in (entry["products"] if entry else [])
        if "naver" in product and not any(rule(product["naver"]) for rule in excluded)
    ]
    items = [_naver_item(product, query) for product in products]
    # sorted() is stable: equal prices keep the relevance order, as Naver's do.
    if sort == "asc":
        items.sort(key=lambda item: int(item["lprice"]))
    elif sort == "dsc":
        items.sort(key=lambda item: int(item["lprice"]), reverse=True)
    elif sort == "date":
        items.sort(key=lambda item: int(item["productId"]), reverse=True)
    window = items[start - 1 : start - 1 + display]
    return web.json_response(
        {
            "lastBuildDate": format_datetime(datetime.now(KST).replace(microsecond=0)),
            "total": len(items),
            "start": start,
            "display": len(window),
            "items": window,
        },
        dumps=lambda value: json.dumps(value, ensure_ascii=False),
    )


async def pixel(request: web.Request) -> web.Response:
    return web.Response(body=PIXEL_PNG, content_type="image/png", headers={"Cache-Control": "max-age=86400"})


async def healthz(request: web.Request) -> web.Response:
    return web.json_response({"status": "ok", "keywords": len(request.app[CATALOGUE].entries)})


@web.middleware
async def searches_logged_and_refused(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Writes each search request into the log; in block mode, refuses a Coupang client that searches too fast."""
    route = SEARCH_ROUTES.get(request.path)
    if route is None:
        return await handler(request)
    now, peer, log = time.monotonic(), request.remote or "?", request.app[SHOP_LOG]
    block = request.app.get(BLOCK_MODE)
    log.in_flight[route] = log.in_flight.get(route, 0) + 1
    log.most_at_once[route] = max(log.most_at_once.get(route, 0), log.in_flight[route])
    try:
        if route == "coupang" and block is not None and block.refuses(peer, now):
            response: web.StreamResponse = _html(_access_denied_page(), status=403, Server="AkamaiGHost")
        else:
            response = await handler(request)
    finally:
        log.in_flight[route] -= 1
    log.requests.append(ShopRequest(now, route, peer, response.status))
    return response


def create_demo_shop_app(
    data_dir: Path | None = None, *, block_above: float | None = None, block_for: float = 30.0
) -> web.Application:
    """The shop; with `block_above`, a client over that many Coupang searches a second is refused for `block_for` s."""
    app = web.Application(middlewares=[searches_logged_and_refused])
    # Loaded here, not at import or start-up, so a broken data file fails the command before it listens.
    app[CATALOGUE] = Catalogue.load(data_dir or DEFAULT_DATA_DIR)
    app[SHOP_LOG] = ShopLog()
    if block_above is not None:
        if block_above <= 0 or block_for <= 0:
            raise ValueError("--block-above and --block-for must be positive")
        app[BLOCK_MODE] = BlockMode(block_above, block_for)
    app.router.add_get("/np/search", coupang_search)
    app.router.add_get("/v1/search/shop.json", naver_search)
    app.router.add_get("/image/{path:.*}", pixel)
    app.router.add_get("/thumbnails/{path:.*}", pixel)
    app.router.add_get("/healthz", healthz)
    return app
