"""The browser pool against the real Chromium, serving pages from a local aiohttp server."""

from __future__ import annotations

import os
import signal
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
from aiohttp import web

from actors.browser import BrowserPool
from tests.process_tree import alive, chromium_processes, command_line
from tools.testbed import eventually


class Site:
    def __init__(self) -> None:
        self.requests: list[str] = []

    def app(self) -> web.Application:
        async def page(request: web.Request) -> web.Response:
            self.requests.append(request.path)
            cookie = request.cookies.get("seen", "no")
            html = (
                "<html><head><link rel=stylesheet href=/style.css></head><body>"
                f"<h1>cookie={cookie}</h1><img src=/photo.png><video src=/clip.mp4></video></body></html>"
            )
            response = web.Response(text=html, content_type="text/html")
            response.set_cookie("seen", "yes")
            return response

        async def asset(request: web.Request) -> web.Response:
            self.requests.append(request.path)
            return web.Response(body=b"x", content_type="application/octet-stream")

        app = web.Application()
        app.router.add_get("/page", page)
        app.router.add_get("/{name}", asset)
        return app


@pytest.fixture
async def site(aiohttp_server) -> tuple[Site, str]:
    site = Site()
    server = await aiohttp_server(site.app())
    return site, str(server.make_url("/page"))


def _gone(pids: set[int]) -> Callable[[], Awaitable[bool]]:
    """A probe for `eventually`: none of these processes is alive."""

    async def probe() -> bool:
        return not alive(pids)

    return probe


def owned_chromium(owner: str) -> set[int]:
    return {pid for pid in chromium_processes() if f"--lps-owner={owner}" in command_line(pid)}


@pytest.fixture
async def pool() -> AsyncIterator[BrowserPool]:
    owner = f"test-{uuid.uuid4().hex[:8]}"
    pool = BrowserPool(os.environ.get("LPS_BROWSER_PATH", "chromium"), pages_per_browser=3, owner=owner)
    pool.owner = owner  # type: ignore[attr-defined]
    yield pool
    await pool.close()


@pytest.mark.processes
async def test_images_media_and_fonts_are_blocked_but_the_page_and_styles_load(pool: BrowserPool, site):
    server, url = site
    async with pool.page() as page:
        await page.goto(url, wait_until="load")
        assert await page.inner_text("h1") == "cookie=no"
    assert "/page" in server.requests
    assert "/style.css" in server.requests
    assert "/photo.png" not in server.requests
    assert "/clip.mp4" not in server.requests


@pytest.mark.processes
async def test_every_search_gets_a_fresh_context_without_earlier_cookies(pool: BrowserPool, site):
    _, url = site
    for _ in range(2):
        async with pool.page() as page:
            await page.goto(url)
            assert await page.inner_text("h1") == "cookie=no"


@pytest.mark.processes
async def test_a_browser_is_retired_after_its_quota_of_searches(pool: BrowserPool, site):
    _, url = site
    for _ in range(7):  # 3 per browser: launches on searches 1, 4 and 7
        async with pool.page() as page:
            await page.goto(url)
    assert pool.restarts == 2
    assert len(owned_chromium(pool.owner)) == 1  # retired browsers were closed


@pytest.mark.processes
async def test_a_crashed_browser_is_replaced_on_the_next_search(pool: BrowserPool, site):
    _, url = site
    async with pool.page() as page:
        await page.goto(url)
    [browser_pid] = owned_chromium(pool.owner)
    os.kill(browser_pid, signal.SIGKILL)
    await eventually(_gone({browser_pid}), within=10, what="the killed Chromium to exit")

    async with pool.page() as page:
        await page.goto(url)
        assert await page.inner_text("h1") == "cookie=no"
    assert pool.restarts == 1


@pytest.mark.processes
async def test_closing_the_pool_leaves_no_chromium_running(site):
    _, url = site
    owner = f"test-{uuid.uuid4().hex[:8]}"
    pool = BrowserPool(os.environ.get("LPS_BROWSER_PATH", "chromium"), owner=owner)
    async with pool.page() as page:
        await page.goto(url)
    running = owned_chromium(owner)
    assert running

    await pool.close()
    # Closing ends Chromium; its processes are reaped a moment later. Any still alive after 10 s is a failure.
    await eventually(_gone(running), within=10, what="the pool's Chromium processes to exit")
