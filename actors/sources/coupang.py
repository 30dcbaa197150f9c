"""`coupang`: Coupang's search page in a real Chromium (plain HTTP fetches get blocked there).

A block (403, Access Denied, maintenance, a tiny page, an HTTP/2 protocol error) is never "no
results": it is a retryable failure that waits `LPS_BLOCKED_BACKOFF_FACTOR` times longer. We back off
when blocked; we never try to get around bot protection. Blocked and unreadable pages are saved as
snapshots (HTML and a screenshot) for a person to look at.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlencode

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from actors.browser import BrowserPool
from actors.proxies import ProxyRotation, ProxyUnreachable, outcome_of
from actors.sources import SourceBlocked, SourceError, SourceParseFailed, SourceTimeout, answer
from actors.sources.coupang_parser import CoupangPage, PageKind, parse_search_page
from infra.clock import utcnow
from infra.proxy_urls import Proxy
from infra.snapshots import SnapshotStore
from schemas.offers import SourceName, SourceResult

log = logging.getLogger(__name__)

LIST_SIZE = 72
#: Navigation errors that mean the site refused us rather than that the network failed.
BLOCK_SIGNATURES = ("ERR_HTTP2_PROTOCOL_ERROR", "ERR_BLOCKED_BY_RESPONSE")
#: Navigation errors that mean the browser could not get through its proxy.
PROXY_SIGNATURES = ("ERR_PROXY_", "ERR_TUNNEL_CONNECTION_FAILED", "ERR_NO_SUPPORTED_PROXIES", "ERR_SOCKS_")


#: The page's readiness, polled in the page: "settled" once it shows a product list (of either layout) whose item
#: count has not changed for `quiet` ms, or, without a list, the no-results text or a block / maintenance
#: signature; "growing" while a list's count still changes; "waiting" before anything readable shows. A list whose
#: first items come in the served HTML and the rest from the page's script a second later is read whole, not at
#: its first item. The count's history lives on `window`, which a navigation replaces.
PAGE_STATE = """(quiet) => {
  const lists = '#product-list > li, ul#productList > li.search-product, li[data-product-id]';
  const items = document.querySelectorAll(lists);
  const now = performance.now();
  const seen = window.__lpsListCount || (window.__lpsListCount = {count: -1, since: now});
  if (items.length !== seen.count) { seen.count = items.length; seen.since = now; }
  if (items.length) return now - seen.since >= quiet ? 'settled' : 'growing';
  const text = document.body ? document.body.innerText : '';
  if (/검색결과가 없습니다|일치하는 상품이 없습니다|다른 검색어를 입력하시거나/.test(text)) return 'settled';
  return (/Access Denied/i.test(document.title) || /점검/.test(text)) ? 'settled' : 'waiting';
}"""
#: How often the page's readiness is polled (ms): often enough that a settled list is read within a tenth of a
#: second of its quiet period, rarely enough to cost the page nothing.
PAGE_POLL_MS = 100


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
        settle: float = 1.5,
        proxies: ProxyRotation | None = None,
    ) -> None:
        self._browser = browser
        self._snapshots = snapshots
        self._base_url = base_url
        self._max_pages = max(max_pages, 1)
        self._blocked_backoff_factor = blocked_backoff_factor
        self._render_timeout_ms = render_timeout * 1000
        self._settle_ms = min(settle, render_timeout) * 1000
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
        # A later page refused is a block of this proxy as much as a refused first page.
        await self._proxies.record(proxy, outcome_of(result.incomplete))
        return result

    def held_back(self) -> SourceError | None:
        """Every proxy benched: no search can go out from this process now (asked before the fleet-wide turn is
        taken, so a turn is not spent on a search that would not be sent)."""
        return None if self._proxies is None else self._proxies.all_benched()

    async def _search(self, product: dict[str, Any], proxy: Proxy | None = None) -> SourceResult:
        pages: list[CoupangPage] = []
        unread: SourceError | None = None
        async with self._browser.page(proxy) as page:
            for number in range(1, self._max_pages + 1):
                try:
                    parsed, settled = await self._read_page(page, product["keyword"], number)
                except SourceError as error:
                    if number == 1:
                        raise
                    # The pages read so far are shown, but the search did not see everything it asked for.
                    unread = _later_page_failed(error, number)
                    log.warning("coupang page %d of %r not read: %s", number, product["keyword"], error)
                    break
                pages.append(parsed)
                if not settled:
                    # Read as it stood at the render timeout: what came later was never seen.
                    unread = SourceParseFailed(
                        f"coupang page {number}: the product list was still growing when it was read "
                        f"({parsed.listed} items after {self._render_timeout_ms / 1000:g}s)"
                    )
                    break
                if parsed.kind is PageKind.NO_RESULTS or parsed.listed < LIST_SIZE:
                    break  # a short page is the last one
        return source_answer(pages, unread=unread)

    async def _read_page(self, page: Page, keyword: str, number: int) -> tuple[CoupangPage, bool]:
        """The page as parsed, and whether its product list had settled when it was read."""
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
        state = await self._rendered(page) if status is None or status < 400 else "settled"
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
        return parsed, state != "growing"

    async def _rendered(self, page: Page) -> str:
        """Wait until the page's list has settled (its item count unchanged for LPS_COUPANG_SETTLE seconds), or it
        says there is none, or refuses us; bounded by the render timeout. Returns the page's last state: a page that
        shows nothing by then is read as it stands (the parser says what it is), a list still growing is partial."""
        try:
            await page.wait_for_function(
                f"(quiet) => ({PAGE_STATE})(quiet) === 'settled'",
                arg=self._settle_ms,
                polling=PAGE_POLL_MS,
                timeout=self._render_timeout_ms,
            )
        except PlaywrightTimeoutError:
            return str(await page.evaluate(PAGE_STATE, self._settle_ms))
        return "settled"

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


def source_answer(pages: Sequence[CoupangPage], *, unread: SourceError | None = None) -> SourceResult:
    """Coupang's answer from the result pages read, in order (pure: the corpus tests call it on saved pages).

    Complete only when every page asked for was read and every product item on them was readable; otherwise the
    offers read are shown and `incomplete` says why not: `unread` (a later page refused or failed), else the
    product items skipped (their prices may be lower than every price read).
    """
    offers = [offer for page in pages for offer in page.offers]
    return answer(SourceName.COUPANG, offers, skipped=sum(page.skipped for page in pages), unread=unread)


def _later_page_failed(error: SourceError, number: int) -> SourceError:
    """A failure of result page `number` (> 1), as the reason the source's answer is partial: of the same kind (a
    block stays a block, for the breaker, the adaptive pace and the proxy's bench), naming the pages not read."""
    return type(error)(
        f"coupang page {number} and later not read: {error}",
        snapshot=error.snapshot,
        backoff_factor=error.backoff_factor,
        retry_after=error.retry_after,
    )
