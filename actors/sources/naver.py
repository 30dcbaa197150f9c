"""`naver`: the official Naver Shopping search API (25,000 calls a day; 429 on quota or burst)."""

from __future__ import annotations

import html
import re
from typing import Any

import aiohttp

from actors.errors import PermanentJobError
from actors.sources import SourceError, SourceParseFailed, SourceRateLimited, SourceTimeout, answer, own_url
from schemas.codes import JobErrorType
from schemas.offers import CATEGORY_SEPARATOR, Offer, SourceName, SourceResult

#: productType 1-3: new (catalog, general, ...); 4-6 used; 7-9 discontinued; 10-12 pre-sale.
NEW_TYPES = frozenset({1, 2, 3})
USED_TYPES = frozenset({4, 5, 6})
#: Where a Naver item's link may lead (catalogue pages, the mall gate, smartstore): anything else is dropped.
NAVER_HOSTS = ("naver.com",)
_TAGS = re.compile(r"<[^>]+>")
_WANTS_USED = re.compile(r"중고|리퍼|used|refurb", re.IGNORECASE)


def clean_title(title: str) -> str:
    """Naver marks the matched words with <b> tags and escapes entities."""
    return " ".join(html.unescape(_TAGS.sub("", title)).split())


class NaverSource:
    name = SourceName.NAVER

    def __init__(
        self,
        http: aiohttp.ClientSession,
        *,
        base_url: str,
        client_id: str,
        client_secret: str,
        display: int = 100,
        sort: str = "sim",
        timeout: float = 10.0,
    ) -> None:
        self._http = http
        self._url = f"{base_url.rstrip('/')}/v1/search/shop.json"
        self._headers = {"X-Naver-Client-Id": client_id, "X-Naver-Client-Secret": client_secret}
        self._display = min(max(display, 1), 100)
        self._sort = sort
        self._timeout = aiohttp.ClientTimeout(total=timeout)
        self._configured = bool(client_id and client_secret)

    def held_back(self) -> None:
        return None  # nothing in this process stops it from searching

    async def search(self, product: dict[str, Any]) -> SourceResult:
        if not self._configured:
            raise PermanentJobError(
                "naver: LPS_NAVER_CLIENT_ID / LPS_NAVER_CLIENT_SECRET are not set", error_type=JobErrorType.CONFIG
            )
        keyword = product["keyword"]
        wants_used = bool(_WANTS_USED.search(keyword))
        params = {
            "query": keyword,
            "display": self._display,
            "start": 1,
            "sort": self._sort,
            "exclude": "rental:cbshop" if wants_used else "used:rental:cbshop",
        }
        try:
            async with self._http.get(
                self._url, params=params, headers=self._headers, timeout=self._timeout
            ) as response:
                body = await response.json(content_type=None)
                status, retry_after = response.status, response.headers.get("Retry-After")
        except TimeoutError as error:
            raise SourceTimeout("naver did not answer in time") from error
        except (aiohttp.ClientError, ValueError) as error:
            raise SourceError(f"naver request failed: {type(error).__name__}: {error}") from error
        if status == 429:
            raise SourceRateLimited("naver quota or burst limit (429)", retry_after=_seconds(retry_after))
        if status in (401, 403):
            raise PermanentJobError(f"naver refused the credentials ({status})", error_type=JobErrorType.CONFIG)
        if status != 200:
            raise SourceError(f"naver answered {status}: {str(body)[:200]}")
        if not isinstance(body, dict) or not isinstance(body.get("items", []), list):
            raise SourceParseFailed(f"naver answered 200 without an item list: {str(body)[:200]}")
        return answer_from_items(body.get("items", []), wants_used=wants_used)


def answer_from_items(items: list[Any], *, wants_used: bool) -> SourceResult:
    """Naver's answer from the API's items (pure: the corpus tests call it on saved answers).

    Used, discontinued and pre-sale items are left out on purpose (unless the keyword asks for used ones). An item
    of a wanted type whose price or id cannot be read is skipped and counted: the answer is then not complete, as
    a Coupang page with unreadable items is not, because that item's price may be the lowest.
    """
    wanted = NEW_TYPES | USED_TYPES if wants_used else NEW_TYPES
    offers: list[Offer] = []
    skipped = 0
    for item in items:
        product_type = _integer(item.get("productType") if isinstance(item, dict) else None)
        if product_type is not None and product_type not in wanted:
            continue
        offer = _offer(item) if product_type is not None else None
        if offer is None:
            skipped += 1
        else:
            offers.append(offer)
    if items and skipped * 2 > len(items):
        raise SourceParseFailed(f"naver: {skipped} of {len(items)} items without a readable type, price or id")
    return answer(SourceName.NAVER, offers, skipped=skipped)


def _offer(item: dict[str, Any]) -> Offer | None:
    """The item as an offer; None when its price, id or title cannot be read."""
    price = _integer(item.get("lprice"))
    product_id = str(item.get("productId") or "").strip()
    title = clean_title(str(item.get("title") or ""))
    if price is None or price <= 0 or not product_id or not title:
        return None
    url = own_url(str(item.get("link") or ""), NAVER_HOSTS)
    levels = [str(item.get(f"category{level}") or "").strip() for level in range(1, 5)]
    category = CATEGORY_SEPARATOR.join(level for level in levels if level) or None
    return Offer(
        source=SourceName.NAVER,
        title=title,
        price=price,
        url=url,
        product_id=product_id,
        category=category,
        brand=_text(item.get("brand")),
        maker=_text(item.get("maker")),
    )


def _text(value: Any) -> str | None:
    """A text field of the item, tags and spaces stripped; None when empty or not text."""
    return (clean_title(value) or None) if isinstance(value, str) else None


def _integer(value: Any) -> int | None:
    """An integer the API sent as a number or a string of digits ("12900"); None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def _seconds(value: str | None) -> float | None:
    try:
        return float(value) if value else None
    except ValueError:
        return None
