"""The search figure's raw baseline: Playwright alone on the same Chromium, doing the same navigation and parse.

Per search, what `CoupangSource` does for one result page: a fresh context (LPS never shares cookies
between searches) with images, media and fonts blocked, `goto` the same search URL until the DOM is
ready, read the HTML and parse it with the same parser off the event loop. No queue, no database, no
matching: what is left is the browser's own cost, the floor LPS's rate is compared with.

Runs as its own process, like a worker, and takes orders on stdin: each line is a JSON list of keywords
to search (`--concurrency` at a time); each answer is one JSON line. The first line it prints is
`{"ready": true, "chromium": VERSION}`.

    python -m bench.raw_browser --base-url http://127.0.0.1:8090 --concurrency 2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import Iterator

from playwright.async_api import Browser, Route, async_playwright

from actors.browser import BLOCKED_RESOURCE_TYPES, LAUNCH_FLAGS, resolve_executable
from actors.sources.coupang import search_url
from actors.sources.coupang_parser import PageKind, parse_search_page

KEYWORDS = ["아이폰 15 128GB", "코카콜라 제로 355ml 24캔", "갤럭시 S24 울트라 256GB", "다이슨 에어랩", "햇반 210g 24개"]


async def _block_heavy(route: Route) -> None:
    if route.request.resource_type in BLOCKED_RESOURCE_TYPES:
        await route.abort()
    else:
        await route.continue_()


async def one_search(browser: Browser, base_url: str, keyword: str, timeout_ms: float) -> int:
    """Offers read from the first result page of `keyword`."""
    context = await browser.new_context(locale="ko-KR")
    try:
        await context.route("**/*", _block_heavy)
        page = await context.new_page()
        page.set_default_navigation_timeout(timeout_ms)
        response = await page.goto(search_url(base_url, keyword, 1), wait_until="domcontentloaded")
        html = await page.content()
        status = response.status if response else None
        parsed = await asyncio.to_thread(parse_search_page, html, base_url=base_url, status=status)
        if parsed.kind is not PageKind.RESULTS:
            raise RuntimeError(f"raw search for {keyword!r} got a {parsed.kind} page")
        return len(parsed.offers)
    finally:
        await context.close()


async def run_searches(
    browser: Browser, base_url: str, keywords: list[str], concurrency: int, timeout_ms: float
) -> int:
    remaining: Iterator[str] = iter(keywords)
    offers = 0

    async def lane() -> None:
        nonlocal offers
        for keyword in remaining:  # shared iterator: each lane takes the next search until none is left
            found = await one_search(browser, base_url, keyword, timeout_ms)
            offers += found  # not `offers += await …`: that reads `offers` before the await and loses updates

    await asyncio.gather(*(lane() for _ in range(concurrency)))
    return offers


async def serve(base_url: str, concurrency: int, browser_path: str, timeout_s: float) -> None:
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=resolve_executable(browser_path), args=list(LAUNCH_FLAGS)
        )
        print(json.dumps({"ready": True, "chromium": browser.version}), flush=True)
        try:
            while line := await asyncio.to_thread(sys.stdin.readline):
                keywords = json.loads(line)
                started = time.perf_counter()
                offers = await run_searches(browser, base_url, keywords, concurrency, timeout_s * 1000)
                seconds = time.perf_counter() - started
                print(json.dumps({"searches": len(keywords), "seconds": seconds, "offers": offers}), flush=True)
        finally:
            await browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--browser-path", default="chromium")
    parser.add_argument("--navigation-timeout", type=float, default=20.0)
    args = parser.parse_args()
    asyncio.run(serve(args.base_url, args.concurrency, args.browser_path, args.navigation_timeout))


if __name__ == "__main__":
    main()
