"""The dashboard in the system Chromium against a gateway on real loopback HTTP.

Screenshots of each page go to .lps/test-artifacts/dashboard/ (LPS_TEST_ARTIFACTS moves it)."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser

from infra.settings import Settings
from service.app import create_app
from tests.harness import ARTIFACTS as TEST_ARTIFACTS
from tests.harness import JobsView, worker_pool
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
