"""One Chromium per worker process, driven by Playwright on the worker's event loop.

Playwright objects belong to the loop that created them, so the pool lives on the AsyncIO
middleware's loop thread and is only touched from coroutines running there. Each search gets a
fresh browser context (no cookies or cache shared between searches) with images, media and fonts
blocked. A browser is retired after `pages_per_browser` searches (long-running Chromium leaks
memory) and replaced when it crashes; a retired browser closes once its last search ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shutil
from collections.abc import AsyncIterator
from dataclasses import dataclass

from playwright.async_api import Browser, BrowserContext, Page, Playwright, ProxySettings, Route, async_playwright
from playwright.async_api import Error as PlaywrightError

from actors import metrics
from infra.proxy_urls import Proxy

log = logging.getLogger(__name__)

#: Flags for a root user on a machine whose network reaches only what it must.
LAUNCH_FLAGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
)
BLOCKED_RESOURCE_TYPES = frozenset({"image", "media", "font"})


async def _skip_heavy_resources(route: Route) -> None:
    if route.request.resource_type in BLOCKED_RESOURCE_TYPES:
        await route.abort()
    else:
        await route.continue_()


def _proxy_settings(proxy: Proxy) -> ProxySettings:
    """Playwright's `proxy` option of a context.

    Chromium never proxies loopback addresses unless told to (`<-loopback>`): production's shop is not on loopback,
    and dev and tests (the demo shop on 127.0.0.1) must go through the proxy as production does.
    """
    settings = ProxySettings(server=proxy.label, bypass="<-loopback>")
    if proxy.username:
        settings["username"], settings["password"] = proxy.username, proxy.password
    return settings


def resolve_executable(name_or_path: str) -> str:
    """LPS_BROWSER_PATH may name a binary on PATH (the default, `chromium`) or give a path."""
    found = shutil.which(name_or_path)
    if found is None:
        raise FileNotFoundError(
            f"Chromium not found: {name_or_path!r} (install Debian's chromium or set LPS_BROWSER_PATH)"
        )
    return found


@dataclass(slots=True, eq=False)
class _Handle:
    browser: Browser
    pages_left: int
    in_use: int = 0
    retiring: bool = False


class BrowserPool:
    def __init__(
        self, executable: str, *, pages_per_browser: int = 200, navigation_timeout: float = 20.0, owner: str = ""
    ) -> None:
        self._executable = executable
        self._pages_per_browser = pages_per_browser
        self._navigation_timeout_ms = navigation_timeout * 1000
        # Shows in `ps`: which worker a Chromium belongs to (Chromium ignores unknown switches).
        self._owner_flag = f"--lps-owner={owner}" if owner else ""
        self._lock = asyncio.Lock()
        self._playwright: Playwright | None = None
        self._current: _Handle | None = None
        #: Every browser not yet closed: the current one and retired ones still finishing a search.
        self._open: set[_Handle] = set()
        self._launches = 0
        self._closed = False

    @property
    def restarts(self) -> int:
        """Browsers launched after the first one (retirements and crashes)."""
        return max(self._launches - 1, 0)

    async def _launch(self) -> _Handle:
        if self._playwright is None:
            self._playwright = await async_playwright().start()
        args = [*LAUNCH_FLAGS, self._owner_flag] if self._owner_flag else list(LAUNCH_FLAGS)
        browser = await self._playwright.chromium.launch(
            executable_path=resolve_executable(self._executable), args=args
        )
        self._launches += 1
        log.info("chromium %s launched (launch #%d)", browser.version, self._launches)
        handle = _Handle(browser, pages_left=self._pages_per_browser)
        self._open.add(handle)
        return handle

    async def _acquire(self) -> _Handle:
        async with self._lock:
            if self._closed:
                raise RuntimeError("browser pool is closed")
            handle = self._current
            if handle is None or handle.retiring or not handle.browser.is_connected():
                replacing = None if handle is None else "retired" if handle.browser.is_connected() else "crashed"
                if handle is not None:
                    await self._retire(handle)
                self._current = handle = await self._launch()
                if replacing:
                    metrics.browser_replaced(replacing)
            handle.in_use += 1
            handle.pages_left -= 1
            if handle.pages_left <= 0:
                handle.retiring = True  # the next search launches a fresh browser
            return handle

    async def _retire(self, handle: _Handle) -> None:
        if not handle.browser.is_connected():
            log.warning("chromium disconnected (crashed?): launching a new one")
        handle.retiring = True
        if handle.in_use == 0:
            await self._close(handle)

    async def _release(self, handle: _Handle) -> None:
        handle.in_use -= 1
        if handle.retiring and handle.in_use == 0:
            await self._close(handle)

    async def _close(self, handle: _Handle) -> None:
        self._open.discard(handle)
        with contextlib.suppress(PlaywrightError):
            await handle.browser.close()

    @contextlib.asynccontextmanager
    async def page(self, proxy: Proxy | None = None) -> AsyncIterator[Page]:
        """A page in a fresh context (through `proxy` when given); the context is closed whatever happens."""
        handle, context = await self._new_context(proxy)
        try:
            try:
                await context.route("**/*", _skip_heavy_resources)
                page = await context.new_page()
                page.set_default_navigation_timeout(self._navigation_timeout_ms)
                page.set_default_timeout(self._navigation_timeout_ms)
                yield page
            finally:
                with contextlib.suppress(PlaywrightError):
                    await context.close()
        finally:
            await self._release(handle)

    async def _new_context(self, proxy: Proxy | None) -> tuple[_Handle, BrowserContext]:
        """A fresh context in the current browser. A browser that cannot open one is replaced, once: it died after
        the last search (Chromium crashed or was killed) and Playwright has not yet seen it go."""
        settings = _proxy_settings(proxy) if proxy else None
        for launched_for_it in (False, True):
            handle = await self._acquire()
            try:
                return handle, await handle.browser.new_context(locale="ko-KR", proxy=settings)
            except PlaywrightError:
                handle.retiring = True  # the next `_acquire` launches another
                await self._release(handle)
                if launched_for_it:
                    raise
                log.warning("chromium could not open a page (crashed?): launching a new one")
        raise AssertionError("unreachable")

    async def close(self) -> None:
        async with self._lock:
            self._closed = True
            self._current = None
            for handle in list(self._open):
                await self._close(handle)
            if self._playwright is not None:
                await self._playwright.stop()
                self._playwright = None
