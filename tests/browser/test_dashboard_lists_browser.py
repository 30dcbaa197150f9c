"""The lists that refresh themselves and the dashboard on a phone (issue 36.4), in the system Chromium against a
gateway on real loopback HTTP: the jobs, running and dead pages refresh like the overview (only while shown, saying
when, filters, scroll and ticks kept); at 390 px the top bar folds into a menu and tables scroll within their card.

Screenshots go to .lps/test-artifacts/dashboard/ (LPS_TEST_ARTIFACTS moves it)."""

from __future__ import annotations

from playwright.async_api import Browser, Page

from infra.settings import Settings
from service.app import create_app
from service.ui.live import REFRESH_SECONDS
from tests.dashboard_pages import ARTIFACTS, KEYS
from tests.harness import screenshot, signed_in_page
from tests.stored_jobs import DEAD, insert_job
from tools.testbed import eventually


async def _hide(page: Page, hidden: bool) -> None:
    await page.evaluate(
        f"Object.defineProperty(document, 'hidden', {{configurable: true, get: () => {str(hidden).lower()}}});"
        "document.dispatchEvent(new Event('visibilitychange'))"
    )


async def test_the_jobs_and_dead_lists_refresh_keeping_filters_scroll_and_ticks_and_only_while_shown(
    page_server, settings: Settings, browser: Browser
):
    server = await page_server(create_app(settings))
    for index in range(40):
        await insert_job(settings, product_code=f"LIST-{index:02}", **DEAD)
    await insert_job(settings, product_code="OTHER-1")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = await browser.new_page(viewport={"width": 1280, "height": 600})
    await page.clock.install()

    await page.goto(str(server.make_url("/ui/jobs?product_code_prefix=LIST-&status=DEAD")))
    assert await page.locator("#live tbody tr").count() == 40
    taken = await page.locator("#live time.taken-at").get_attribute("datetime")
    await page.evaluate("window.scrollTo(0, 400)")
    await insert_job(settings, product_code="LIST-NEW", **DEAD)
    await page.clock.run_for(REFRESH_SECONDS * 1000 + 500)
    await page.wait_for_function("document.getElementById('live').dataset.refreshes === '1'")
    assert await page.locator("#live tbody tr").count() == 41
    assert await page.locator("#live a:text('LIST-NEW')").count() == 1
    assert await page.locator("#live a:text('OTHER-1')").count() == 0  # its filters kept
    assert page.url.endswith("/ui/jobs?product_code_prefix=LIST-&status=DEAD")
    assert await page.evaluate("window.scrollY") == 400
    assert await page.locator("#live time.taken-at").get_attribute("datetime") != taken
    assert (await page.locator("#refresh-state").inner_text()).startswith("Live: last refreshed at")
    await screenshot(page, ARTIFACTS / "jobs-live.png")

    # Hidden: no request while the timers run; shown again: brought up to date at once.
    await _hide(page, True)
    assert (await page.locator("#refresh-state").inner_text()).startswith("Paused while this tab is hidden")
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    await page.clock.run_for(REFRESH_SECONDS * 3000)
    await page.wait_for_timeout(300)
    assert requests == []
    await _hide(page, False)
    await page.wait_for_function("document.getElementById('live').dataset.refreshes === '2'")

    # The dead page: a ticked job stays ticked across a refresh, and the bulk buttons still take it.
    await page.goto(str(server.make_url("/ui/dead?product_code_prefix=LIST-")))
    box = page.locator("#live input[type=checkbox]").first
    await box.check()
    ticked = await box.get_attribute("value")
    await page.clock.run_for(REFRESH_SECONDS * 1000 + 500)
    await page.wait_for_function("document.getElementById('live').dataset.refreshes === '1'")
    assert await page.locator(f"#live input[value='{ticked}']").is_checked()
    assert await page.locator("#live input[type=checkbox]:checked").count() == 1
    await screenshot(page, ARTIFACTS / "dead-live.png")

    await page.goto(str(server.make_url("/ui/running")))
    await page.clock.run_for(REFRESH_SECONDS * 1000 + 500)
    await page.wait_for_function("document.getElementById('live').dataset.refreshes === '1'")
    assert await page.locator("#live p.taken").count() == 1


PHONE_PAGES = ["/ui", "/ui/jobs", "/ui/running", "/ui/dead", "/ui/watches", "/ui/audit"]


async def test_at_390_px_every_page_fits_the_top_bar_folds_into_a_menu_and_tables_scroll_in_their_card(
    page_server, settings: Settings, browser: Browser
):
    server = await page_server(create_app(settings.with_overrides(api_keys=KEYS)))
    dead = await insert_job(settings, product_code="PHONE-DEAD-WITH-A-LONG-CODE", **DEAD)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = await signed_in_page(browser, server, KEYS["ops"], width=390, height=844)

    paused = await page.request.post(
        str(server.make_url("/v1/lps/queues/search/pause")), headers={"X-API-Key": KEYS["ops"]}
    )
    assert paused.ok

    async def stats_say_paused() -> bool:
        stats = await page.request.get(str(server.make_url("/v1/lps/queue/stats")), headers={"X-API-Key": KEYS["ops"]})
        return (await stats.json())["paused"]["search"]["paused"]

    await eventually(stats_say_paused, within=10, what="the stats to say paused")
    for path in [*PHONE_PAGES, f"/ui/jobs/{dead['_id']}"]:
        await page.goto(str(server.make_url(path)))
        name = path.strip("/").replace("/", "-") or "ui"
        # Nothing wider than the screen: the page itself never scrolls sideways.
        widths = await page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert widths[0] <= widths[1] == 390, (path, widths)
        assert await page.locator("header button.menu-toggle").is_visible(), path
        assert not await page.locator("header nav").is_visible(), path
        await screenshot(page, ARTIFACTS / f"phone-{name}.png", full_page=True)

    # A table wider than the screen scrolls inside its card.
    await page.goto(str(server.make_url("/ui/jobs")))
    card = await page.evaluate("(c => [c.scrollWidth, c.clientWidth])(document.querySelector('#live section.card'))")
    assert card[0] > card[1], card

    await page.click("header button.menu-toggle")
    assert await page.locator("header button.menu-toggle").get_attribute("aria-expanded") == "true"
    links = page.locator("header nav a")
    assert await links.count() == 6
    for index in range(6):
        box = await links.nth(index).bounding_box()
        assert box is not None
        assert 0 <= box["x"] <= box["x"] + box["width"] <= 390, box
    assert await page.locator("header form.who button").is_visible()
    await screenshot(page, ARTIFACTS / "phone-menu-open.png")
    await page.click("header nav a:text('Dead')")
    await page.wait_for_url("**/ui/dead")

    # At a desktop width the bar is unfolded: no menu button.
    desktop = await browser.new_page(viewport={"width": 1280, "height": 800})
    await desktop.context.add_cookies(await page.context.cookies())
    await desktop.goto(str(server.make_url("/ui")))
    assert "PAUSED by ops since" in await desktop.locator("#live table.queues").inner_text()
    assert not await desktop.locator("header button.menu-toggle").is_visible()
    assert await desktop.locator("header nav a").count() == 6
    await screenshot(desktop, ARTIFACTS / "desktop-overview-36.png", full_page=True)
