"""The dashboard in the system Chromium against a gateway on real loopback HTTP.

Screenshots of each page go to .lps/test-artifacts/dashboard/ (LPS_TEST_ARTIFACTS moves it)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from pathlib import Path

from playwright.async_api import Browser

from infra.clock import utcnow
from infra.price_history import price_history_documents
from infra.settings import Settings
from schemas.codes import JobType
from service.app import create_app
from service.ui.live import REFRESH_SECONDS
from tests.harness import ARTIFACTS as TEST_ARTIFACTS
from tests.harness import JobsView, worker_pool
from tests.test_dashboard_charts import ended_search, store
from tests.test_redrive import DEAD, insert_job

ARTIFACTS = TEST_ARTIFACTS / "dashboard"
KEYS = {"ops": "ops-5e6d-admin"}


async def test_a_page_without_a_key_goes_to_the_login_form_and_the_key_opens_the_overview(
    aiohttp_server, settings: Settings, browser: Browser
):
    server = await aiohttp_server(create_app(settings.with_overrides(api_keys=KEYS)))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = await browser.new_page(viewport={"width": 1200, "height": 800})

    await page.goto(str(server.make_url("/ui")))
    assert page.url.endswith("/ui/login")
    await page.screenshot(path=ARTIFACTS / "login.png", full_page=True)

    await page.fill("input[name=key]", KEYS["ops"])
    await page.click("button[type=submit]")
    await page.wait_for_url("**/ui")
    assert await page.locator("h1").inner_text() == "Overview"
    assert await page.locator("text=Jobs by type and status").count() == 1
    await page.screenshot(path=ARTIFACTS / "overview.png", full_page=True)


async def test_filtering_the_job_list_and_opening_a_job_shows_its_attempts(
    aiohttp_server, settings: Settings, browser: Browser
):
    server = await aiohttp_server(create_app(settings))
    dead = await insert_job(settings, product_code="BROWSER-DEAD", **DEAD)
    await insert_job(settings, product_code="BROWSER-PENDING", product={"keyword": "<script>alert(1)</script>"})
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = await browser.new_page(viewport={"width": 1200, "height": 800})

    await page.goto(str(server.make_url("/ui/jobs")))
    assert await page.locator("tbody tr").count() == 2
    await page.screenshot(path=ARTIFACTS / "jobs.png", full_page=True)
    await page.select_option("select[name=status]", "DEAD")
    await page.click("button[type=submit]")
    await page.wait_for_url("**/ui/jobs?status=DEAD")
    assert await page.locator("tbody tr").count() == 1

    await page.click(f"a[href='/ui/jobs/{dead['_id']}']")
    await page.wait_for_url(f"**/ui/jobs/{dead['_id']}")
    assert await page.locator("table.attempts tbody tr").count() == len(DEAD["history"])
    await page.screenshot(path=ARTIFACTS / "job.png", full_page=True)


async def test_redriving_a_dead_job_from_the_dashboard_runs_it_to_done(
    aiohttp_server, settings: Settings, browser: Browser, tmp_path: Path, receiver
):
    settings = settings.with_overrides(outbox_url=receiver.url, outbox_secret="s")
    server = await aiohttp_server(create_app(settings))
    dead = await insert_job(settings, product_code="BROWSER-REDRIVE", product={"keyword": "무선 이어폰"}, **DEAD)
    page = await browser.new_page(viewport={"width": 1200, "height": 800})
    await page.goto(str(server.make_url("/ui/dead")))
    assert await page.locator("text=BROWSER-REDRIVE").count() == 1
    await page.screenshot(path=ARTIFACTS / "dead.png", full_page=True)

    async with worker_pool(settings, "search", tmp_path):
        await page.click("button.redrive")
        await page.wait_for_url(f"**/ui/jobs/{dead['_id']}")
        view = JobsView(settings)
        try:
            finished = await view.finished(dead["_id"], within=45)
        finally:
            await view.close()
    assert finished["status"] == "DONE"
    await page.reload()
    assert await page.locator("h1 .badge").inner_text() == "DONE"
    # The two attempts before it died, then the re-driven one.
    assert await page.locator("table.attempts tbody tr").count() == len(DEAD["history"]) + 1
    offers = finished["result"]["offers"]
    assert await page.locator("table.offers tbody tr").count() == len(offers)
    rejected = sum(1 for offer in offers if offer.get("rejected"))
    assert await page.locator("table.offers .badge.dead").count() == rejected
    await page.screenshot(path=ARTIFACTS / "redriven.png", full_page=True)


async def test_the_product_page_charts_one_point_per_price_and_escapes_titles(
    aiohttp_server, settings: Settings, browser: Browser
):
    server = await aiohttp_server(create_app(settings))
    now = utcnow()
    searches = [
        ended_search("BROWSER-P1", now - timedelta(hours=6 - hour), prices=prices, target=1_000, keyword="<script>x")
        for hour, prices in enumerate(
            [
                {"coupang": 1_180, "naver": 1_210},
                {"coupang": 1_120, "naver": None},
                {"coupang": 1_050, "naver": 1_090},
                {"coupang": 990, "naver": 1_020},
                {"coupang": None, "naver": 980},
            ]
        )
    ]
    prices = [entry for job in searches for entry in price_history_documents(job)]
    await store(settings, searches, prices)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = await browser.new_page(viewport={"width": 1200, "height": 800})
    alerts: list[str] = []
    page.on("dialog", lambda dialog: alerts.append(dialog.message))

    await page.goto(str(server.make_url("/ui/jobs")))
    await page.click("a[href='/ui/products/BROWSER-P1'] >> nth=0")
    await page.wait_for_url("**/ui/products/BROWSER-P1")

    priced = sum(1 for entry in prices if entry.get("lowest_price") is not None)
    assert priced == 8
    assert await page.locator("svg.chart circle.point").count() == priced
    assert await page.locator("svg.chart polyline.series").count() == 2
    assert await page.locator("svg.chart line.target").count() == 1
    assert await page.locator("table.searches tbody tr").count() == len(searches)
    assert await page.locator("table.searches td", has_text="<script>x").count() == len(searches)
    assert alerts == []
    await page.screenshot(path=ARTIFACTS / "product.png", full_page=True)


def busy_hour(now: datetime) -> list[dict]:
    """Searches and their deliveries ending over the last 50 minutes, a varying number each minute (seeded)."""
    rng = random.Random(15)
    outcomes = [{"coupang": 5, "naver": 6}, {"coupang": None, "naver": 6}, {"coupang": 7, "naver": None}, {"naver": 4}]
    jobs = []
    for minutes_ago in range(50):
        for n in range(rng.randint(2, 9)):
            at = now - timedelta(minutes=minutes_ago, seconds=rng.uniform(0, 59))
            ran = timedelta(seconds=rng.lognormvariate(0.8, 0.5))
            dead = rng.random() < 0.12
            search = ended_search(f"OV-{minutes_ago}-{n}", at, prices=rng.choice(outcomes), dead=dead, ran=ran)
            jobs.append(search)
            if not dead:
                ran = timedelta(milliseconds=rng.uniform(5, 60))
                delivery = ended_search(f"OV-{minutes_ago}-{n}", at, prices={}, ran=ran, job_type=JobType.OUTBOX)
                jobs.append(delivery | {"source_job_id": search["_id"]})
    return jobs


async def test_the_overview_draws_the_last_hour_and_refreshes_only_while_visible(
    aiohttp_server, settings: Settings, browser: Browser
):
    server = await aiohttp_server(create_app(settings))
    await store(settings, busy_hour(utcnow()))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = await browser.new_page(viewport={"width": 1200, "height": 800})
    await page.clock.install()

    await page.goto(str(server.make_url("/ui")))
    # SEARCH and OUTBOX jobs ended, coupang's and naver's outcomes, SEARCH and OUTBOX attempt durations.
    assert await page.locator("#live svg.chart").count() == 6
    done_bars = page.locator("#live svg.chart rect.bar")
    assert await done_bars.count() > 0
    await page.screenshot(path=ARTIFACTS / "overview_charts.png", full_page=True)

    refreshes = page.locator("#live[data-refreshes]")
    await page.clock.run_for(REFRESH_SECONDS * 1000 + 500)
    await page.wait_for_function("document.getElementById('live').dataset.refreshes === '1'")
    assert await page.locator("#live svg.chart").count() == 6

    # Hidden: no request while the timers run; shown again: brought up to date at once.
    await page.evaluate(
        "Object.defineProperty(document, 'hidden', {configurable: true, get: () => true});"
        "document.dispatchEvent(new Event('visibilitychange'))"
    )
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    await page.clock.run_for(REFRESH_SECONDS * 3000)
    await page.wait_for_timeout(300)
    assert requests == []
    await page.evaluate(
        "Object.defineProperty(document, 'hidden', {configurable: true, get: () => false});"
        "document.dispatchEvent(new Event('visibilitychange'))"
    )
    await page.wait_for_function("document.getElementById('live').dataset.refreshes === '2'")
    assert [url for url in requests if url.endswith("/ui/live")] == [str(server.make_url("/ui/live"))]
    assert await refreshes.count() == 1
