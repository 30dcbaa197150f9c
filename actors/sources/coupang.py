"""`coupang`: Coupang's search page in a real Chromium (plain HTTP fetches get blocked there).

A block (403, Access Denied, maintenance, a tiny page, an HTTP/2 protocol error) is never "no
results": it is a retryable failure that waits `LPS_BLOCKED_BACKOFF_FACTOR` times longer. We back off
when blocked; we never try to get around bot protection. Blocked and unreadable pages are saved as
snapshots (HTML and a screenshot) for a person to look at.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any
from urllib.parse import urlencode

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from actors.browser import BrowserPool
from actors.proxies import ProxyRotation, ProxyUnreachable, outcome_of
from actors.sources import SourceBlocked, SourceError, SourceParseFailed, SourceTimeout
from actors.sources.coupang_parser import CoupangPage, PageKind, parse_search_page
from infra.clock import utcnow
from infra.settings import Proxy
from infra.snapshots import SnapshotStore
from schemas.offers import Offer, SourceName, SourceOutcome, SourceResult

log = logging.getLogger(__name__)

LIST_SIZE = 72
#: Navigation errors that mean the site refused us rather than that the network failed.
BLOCK_SIGNATURES = ("ERR_HTTP2_PROTOCOL_ERROR", "ERR_BLOCKED_BY_RESPONSE")
#: Navigation errors that mean the browser could not get through its proxy.
PROXY_SIGNATURES = ("ERR_PROXY_", "ERR_TUNNEL_CONNECTION_FAILED", "ERR_NO_SUPPORTED_PROXIES", "ERR_SOCKS_")


#: True once the page shows what the parser reads: a product list of either layout, the no-results text, or a
#: block / maintenance signature. A list the page's own script fills after DOMContentLoaded counts only then.
PAGE_READY = """() => {
  const lists = '#product-list > li, ul#productList > li.search-product, li[data-product-id]';
  if (document.querySelector(lists)) return true;
  const text = document.body ? document.body.innerText : '';
  if (/검색결과가 없습니다|일치하는 상품이 없습니다|다른 검색어를 입력하시거나/.test(text)) return true;
  return /Access Denied/i.test(document.title) || /점검/.test(text);
}"""


def search_url(base_url: str, keyword: str, page: int) -> str:
    return f"{base_url.rstrip('/')}/np/search?{urlencode({'q': keyword, 'page': page, 'listSize': LIST_SIZE})}"


class CoupangSource:
    name = SourceName.COUPANG

    def __init__(
        self,
        browser: BrowserPool,
        snapshots: SnapshotStore,
        *,
        base_url: str,
        max_pages: int,
        blocked_backoff_factor: float,
        render_timeout: float = 10.0,
        proxies: ProxyRotation | None = None,
    ) -> None:
        self._browser = browser
        self._snapshots = snapshots
        self._base_url = base_url
        self._max_pages = max(max_pages, 1)
        self._blocked_backoff_factor = blocked_backoff_factor
        self._render_timeout_ms = render_timeout * 1000
        self._proxies = proxies

    async def search(self, product: dict[str, Any]) -> SourceResult:
        if self._proxies is None:
            return await self._search(product)
        proxy = self._proxies.take()  # before a browser page is taken: all benched fails without holding one
        try:
            result = await self._search(product, proxy)
        except Exception as error:
            await self._proxies.record(proxy, outcome_of(error))
            raise
        await self._proxies.record(proxy, outcome_of(None))
        return result

    def held_back(self) -> SourceError | None:
        """Every proxy benched: no search can go out from this process now (asked before the fleet-wide turn is
        taken, so a turn is not spent on a search that would not be sent)."""
        return None if self._proxies is None else self._proxies.all_benched()

    async def _search(self, product: dict[str, Any], proxy: Proxy | None = None) -> SourceResult:
        offers: list[Offer] = []
        async with self._browser.page(proxy) as page:
            for number in range(1, self._max_pages + 1):
                try:
                    parsed = await self._read_page(page, product["keyword"], number)
                except SourceError:
                    if number == 1:
                        raise
                    log.warning(
                        "coupang page %d of %r failed: keeping the first pages' offers", number, product["keyword"]
                    )
                    break
                offers += parsed.offers
                if parsed.kind is PageKind.NO_RESULTS or parsed.listed < LIST_SIZE:
                    break  # a short page is the last one
        return SourceResult(SourceOutcome.FOUND if offers else SourceOutcome.NO_RESULTS, offers)

    async def _read_page(self, page: Page, keyword: str, number: int) -> CoupangPage:
        url = search_url(self._base_url, keyword, number)
        try:
            response = await page.goto(url, wait_until="domcontentloaded")
        except PlaywrightTimeoutError as error:
            raise SourceTimeout(f"coupang did not answer in time: {url}") from error
        except PlaywrightError as error:
            if any(signature in error.message for signature in BLOCK_SIGNATURES):
                raise SourceBlocked(
                    f"coupang refused the connection: {error.message.splitlines()[0]}",
                    backoff_factor=self._blocked_backoff_factor,
                ) from error
            if any(signature in error.message for signature in PROXY_SIGNATURES):
                raise ProxyUnreachable(f"coupang's proxy failed: {error.message.splitlines()[0]}") from error
            raise SourceError(f"coupang navigation failed: {error.message.splitlines()[0]}") from error
        status = response.status if response else None
        if status is None or status < 400:
            await self._rendered(page)
        html = await page.content()
        # Off the event loop: a 72-item page takes tens of milliseconds to parse.
        parsed = await asyncio.to_thread(parse_search_page, html, base_url=self._base_url, status=status)
        if parsed.kind is PageKind.BLOCKED:
            raise SourceBlocked(
                f"coupang blocked the search: {parsed.detail}",
                snapshot=await self._snapshot(page, url, html, "BLOCKED"),
                backoff_factor=self._blocked_backoff_factor,
            )
        if parsed.kind is PageKind.UNKNOWN:
            raise SourceParseFailed(
                f"coupang page not understood: {parsed.detail}",
                snapshot=await self._snapshot(page, url, html, "PARSE_FAIL"),
            )
        return parsed

    async def _rendered(self, page: Page) -> None:
        """Wait until the page shows its list (or says there is none, or refuses us), bounded: a page that never
        does is read as it stands, and the parser says what it is (PARSE_FAIL for markup it does not know)."""
        with contextlib.suppress(PlaywrightTimeoutError):
            await page.wait_for_function(PAGE_READY, timeout=self._render_timeout_ms)

    async def _snapshot(self, page: Page, url: str, html: str, reason: str) -> str | None:
        try:
            screenshot = await page.screenshot(full_page=True)
        except PlaywrightError:
            screenshot = None  # the HTML alone still tells most of the story
        try:
            return await self._snapshots.save(
                source=self.name, url=url, reason=reason, html=html, screenshot=screenshot, at=utcnow()
            )
        except Exception:
            log.exception("could not save the %s snapshot of %s", reason, url)
            return None
