"""The dashboard in the system Chromium against a gateway on real loopback HTTP.

Screenshots of each page go to .lps/test-artifacts/dashboard/ (LPS_TEST_ARTIFACTS moves it)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from pathlib import Path

from playwright.async_api import Browser, Dialog, Page

from infra.clock import utcnow
from infra.mongo import create_client
from infra.price_history import price_history_documents
from infra.settings import Settings
from infra.snapshots import SnapshotStore
from schemas.codes import JobType
from service.app import create_app
from service.ui.live import REFRESH_SECONDS
from tests.dashboard_pages import ARTIFACTS, KEYS, PNG, ROLE_KEYS
from tests.harness import JobsView, screenshot, signed_in_page, worker_pool, worker_pools
from tests.stored_jobs import DEAD, ended_search, insert_job, store
from tools.testbed import Receiver


async def test_a_page_without_a_key_goes_to_the_login_form_and_the_key_opens_the_overview(
    page_server, settings: Settings, browser: Browser
):
    server = await page_server(create_app(settings.with_overrides(api_keys=KEYS)))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = await browser.new_page(viewport={"width": 1200, "height": 800})

    await page.goto(str(server.make_url("/ui")))
    assert page.url.endswith("/ui/login?next=/ui")  # back to the page asked for, once signed in
    await screenshot(page, ARTIFACTS / "login.png", full_page=True)

    await page.fill("input[name=key]", KEYS["ops"])
    await page.click("button[type=submit]")
    await page.wait_for_url("**/ui")
    assert await page.locator("h1").inner_text() == "Overview"
    assert await page.locator("text=Jobs by type and status").count() == 1
    assert await page.locator("header form.who").inner_text() == "Signed in as ops (admin)\nSign out"
    await screenshot(page, ARTIFACTS / "overview.png", full_page=True)

    await page.click("header form.who button")
    await page.wait_for_url("**/ui/login")
    await page.goto(str(server.make_url("/ui")))
    assert "/ui/login" in page.url  # the session ended


async def test_after_sign_out_back_shows_no_signed_in_page(page_server, settings: Settings, browser: Browser):
    """Back after sign-out used to show the jobs page from the browser's cache, "Signed in as ops (admin)" and all:
    signed-in pages are answered `Cache-Control: no-store`, so Back asks the gateway, which wants a sign-in."""
    server = await page_server(create_app(settings.with_overrides(api_keys=KEYS)))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = await signed_in_page(browser, server, KEYS["ops"], to="/ui/jobs", width=1200, height=800)
    assert await page.locator("header form.who").count() == 1

    await page.click("header form.who button")
    await page.wait_for_url("**/ui/login")
    await page.go_back()
    await page.wait_for_load_state()
    await screenshot(page, ARTIFACTS / "back-after-sign-out.png", full_page=True)

    assert "Signed in as" not in await page.locator("body").inner_text()
    assert "/ui/login" in page.url


async def test_on_a_phone_the_top_bar_keeps_every_link_and_the_sign_out_on_screen(
    page_server, settings: Settings, browser: Browser
):
    """At 390 px the top bar ran off the screen: Watches, "Signed in as" and Sign out were cut off."""
    server = await page_server(create_app(settings.with_overrides(api_keys=KEYS)))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = await signed_in_page(browser, server, KEYS["ops"], to="/ui/jobs", width=390, height=800)
    await screenshot(page, ARTIFACTS / "top-bar-390.png")

    header = await page.evaluate("(h => [h.scrollWidth, h.clientWidth])(document.querySelector('header'))")
    assert header[0] <= header[1]
    await page.click("header button.menu-toggle")  # folded into a menu at this width (issue 36)
    for item in ("header nav a >> nth=-1", "header form.who span", "header form.who button"):
        box = await page.locator(item).bounding_box()
        assert box is not None, item
        assert 0 <= box["x"] <= box["x"] + box["width"] <= 390, (item, box)
    assert await page.locator("header nav a").count() == 6
    await page.click("header form.who button")
    await page.wait_for_url("**/ui/login")


async def test_filtering_the_job_list_and_opening_a_job_shows_its_attempts(
    page_server, settings: Settings, browser: Browser
):
    server = await page_server(create_app(settings))
    dead = await insert_job(settings, product_code="BROWSER-DEAD", **DEAD)
    await insert_job(settings, product_code="BROWSER-PENDING", product={"keyword": "<script>alert(1)</script>"})
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = await browser.new_page(viewport={"width": 1200, "height": 800})

    await page.goto(str(server.make_url("/ui/jobs")))
    assert await page.locator("tbody tr").count() == 2
    await screenshot(page, ARTIFACTS / "jobs.png", full_page=True)
    await page.select_option("select[name=status]", "DEAD")
    await page.click("button[type=submit]")
    await page.wait_for_url("**/ui/jobs?status=DEAD")
    assert await page.locator("tbody tr").count() == 1

    await page.click(f"a[href='/ui/jobs/{dead['_id']}']")
    await page.wait_for_url(f"**/ui/jobs/{dead['_id']}")
    assert await page.locator("table.attempts tbody tr").count() == len(DEAD["history"])
    await screenshot(page, ARTIFACTS / "job.png", full_page=True)


async def test_redriving_a_dead_job_from_the_dashboard_runs_it_to_done(
    page_server, settings: Settings, browser: Browser, tmp_path: Path, page_receiver: Receiver
):
    settings = settings.with_overrides(outbox_url=page_receiver.url, outbox_secret="s")
    server = await page_server(create_app(settings))
    dead = await insert_job(settings, product_code="BROWSER-REDRIVE", product={"keyword": "무선 이어폰"}, **DEAD)
    page = await browser.new_page(viewport={"width": 1200, "height": 800})
    await page.goto(str(server.make_url("/ui/dead")))
    assert await page.locator("text=BROWSER-REDRIVE").count() == 1
    await screenshot(page, ARTIFACTS / "dead.png", full_page=True)

    async with worker_pool(settings, "search", tmp_path):
        await page.click("a.redrive")  # asks first, as the bulk re-drive does
        await page.wait_for_url(f"**/ui/jobs/{dead['_id']}/redrive")
        await screenshot(page, ARTIFACTS / "redrive-confirm.png", full_page=True)
        await page.click("button.confirm-redrive")
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
    await screenshot(page, ARTIFACTS / "redriven.png", full_page=True)


def never_alerted(page: Page) -> list[str]:
    """The texts of every dialog the page opens: a script of a scraped title or a keyword ran if any."""
    opened: list[str] = []

    async def note(dialog: Dialog) -> None:
        opened.append(dialog.message)
        await dialog.dismiss()

    page.on("dialog", note)
    return opened


async def test_on_a_running_stack_the_operator_filters_opens_a_search_with_its_delivery_and_redrives_two_dead_jobs(
    page_server, settings: Settings, browser: Browser, tmp_path: Path, page_receiver: Receiver
):
    settings = settings.with_overrides(outbox_url=page_receiver.url, outbox_secret="s", search_max_attempts=1)
    server = await page_server(create_app(settings))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = await browser.new_page(viewport={"width": 1280, "height": 900})
    dialogs = never_alerted(page)
    products = [
        {"product_code": "TOUR-FOUND", "keyword": "무선 이어폰"},
        {"product_code": "TOUR-XSS", "keyword": "<script>alert(1)</script> 이어폰"},
        {"product_code": "TOUR-FATAL", "keyword": "이어폰 #fatal"},
    ]
    # Two jobs that died earlier (their history as a worker left it) and can succeed when re-driven.
    dead = [
        await insert_job(settings, product_code=f"TOUR-DEAD-{n}", product={"keyword": "이어폰"}, **DEAD) for n in (1, 2)
    ]
    view = JobsView(settings)
    try:
        async with worker_pools(settings, ["search", "outbox"], tmp_path):
            answer = await (
                await page.request.post(str(server.make_url("/v1/lps/search")), data={"products": products})
            ).json()
            found_id, xss_id, fatal_id = [job["job_id"] for job in answer["jobs"]]
            assert [(await view.finished(job_id))["status"] for job_id in (found_id, xss_id, fatal_id)] == [
                "DONE",
                "DONE",
                "DEAD",
            ]
            delivery = await view.outbox_of(found_id)

            # Filter: a prefix, then the searches in which the static source found offers.
            await page.goto(str(server.make_url("/ui/jobs")))
            await page.fill("input[name=product_code_prefix]", "TOUR-DEAD")
            await page.click("form.filters button[type=submit]")
            await page.wait_for_url("**/ui/jobs?product_code_prefix=TOUR-DEAD")
            assert sorted(await page.locator("tbody tr td:nth-child(4)").all_inner_texts()) == [
                "TOUR-DEAD-1",
                "TOUR-DEAD-2",
            ]
            await page.fill("input[name=product_code_prefix]", "TOUR")
            await page.select_option("select[name=source]", "static")
            await page.select_option("select[name=source_outcome]", "FOUND")
            await page.click("form.filters button[type=submit]")
            await page.wait_for_url("**source_outcome=FOUND*")
            assert sorted(await page.locator("tbody tr td:nth-child(4)").all_inner_texts()) == [
                "TOUR-FOUND",
                "TOUR-XSS",
            ]
            await screenshot(page, ARTIFACTS / "jobs-filtered.png", full_page=True)

            # A search shows its delivery job and status, and leads to it.
            await page.click(f"a[href='/ui/jobs/{found_id}']")
            await page.wait_for_url(f"**/ui/jobs/{found_id}")
            assert await page.locator("td.delivery .badge").inner_text() == "DONE"
            await screenshot(page, ARTIFACTS / "job-with-delivery.png", full_page=True)
            await page.click(f"td.delivery a[href='/ui/jobs/{delivery['_id']}']")
            await page.wait_for_url(f"**/ui/jobs/{delivery['_id']}")
            assert (await page.locator("h1").inner_text()).startswith("OUTBOX job")

            # A keyword and offer titles with a script tag are shown as text and never run.
            await page.goto(str(server.make_url(f"/ui/jobs/{xss_id}")))
            assert "<script>alert(1)</script> 이어폰" in await page.locator("main").inner_text()
            assert await page.locator("main script").count() == 0
            await screenshot(page, ARTIFACTS / "job-escaped.png", full_page=True)

            # Tick the two dead jobs, confirm the count, and watch them run to DONE.
            await page.goto(str(server.make_url("/ui/dead?product_code_prefix=TOUR-DEAD")))
            for job in dead:
                await page.check(f"input[type=checkbox][value='{job['_id']}']")
            await screenshot(page, ARTIFACTS / "dead-ticked.png", full_page=True)
            await page.click("button.redrive-selected")
            await page.wait_for_url("**/ui/dead/redrive?*")
            assert (await page.locator("p.count").inner_text()).startswith("2 dead jobs will be re-driven:")
            await screenshot(page, ARTIFACTS / "redrive-confirmation.png", full_page=True)
            await page.click("button.confirm-redrive")
            await page.wait_for_url("**/ui/dead/redrive")
            assert await page.locator("section.outcome h2").inner_text() == "re-driven: 2"
            assert [(await view.finished(job["_id"], within=45))["status"] for job in dead] == ["DONE", "DONE"]
    finally:
        await view.close()
    for job in dead:
        await page.goto(str(server.make_url(f"/ui/jobs/{job['_id']}")))
        assert await page.locator("h1 .badge").inner_text() == "DONE"
    await screenshot(page, ARTIFACTS / "bulk-redriven-job.png", full_page=True)
    assert dialogs == []


async def test_a_blocked_pages_snapshot_opens_from_its_job_as_an_image_and_as_inert_text(
    page_server, settings: Settings, browser: Browser
):
    server = await page_server(create_app(settings))
    database = create_client(settings)
    try:
        store = SnapshotStore(database[settings.mongo_db])
        html = "<html><body><h1>Access Denied</h1><script>alert(1)</script></body></html>"
        reference = await store.save(
            source="coupang", url="https://shop/q", reason="BLOCKED", html=html, screenshot=PNG, at=utcnow()
        )
    finally:
        await database.close()
    job = await insert_job(
        settings,
        product_code="SNAP-1",
        **DEAD | {"last_error": {"type": "BLOCKED", "message": "blocked", "snapshot": reference}},
    )
    page = await browser.new_page(viewport={"width": 1000, "height": 700})
    dialogs = never_alerted(page)

    await page.goto(str(server.make_url(f"/ui/jobs/{job['_id']}")))
    assert await page.locator("section.snapshots li").count() == 1
    await screenshot(page, ARTIFACTS / "job-snapshots.png", full_page=True)
    async with page.context.expect_page() as opened:
        await page.click("section.snapshots a:text('HTML (as text)')")
    source = await opened.value
    await source.wait_for_load_state()
    assert await source.locator("body").inner_text() == html  # the markup as text: nothing of it rendered or run
    await screenshot(source, ARTIFACTS / "snapshot-html.png")
    async with page.context.expect_page() as opened:
        await page.click("section.snapshots a:text('screenshot')")
    image = await opened.value
    await image.wait_for_load_state()
    assert await image.locator("img").count() == 1
    assert dialogs == []


async def test_a_read_only_key_sees_no_redrive_controls_and_its_posts_are_refused_with_433(
    page_server, settings: Settings, browser: Browser
):
    keyed = settings.with_overrides(api_keys=ROLE_KEYS.api_keys, api_key_roles=ROLE_KEYS.api_key_roles)
    server = await page_server(create_app(keyed))
    dead = await insert_job(keyed, product_code="VIEWER-DEAD", **DEAD)
    page = await signed_in_page(browser, server, "view-c0ffee", width=1200, height=800)

    await page.goto(str(server.make_url("/ui/dead")))
    assert await page.locator("text=VIEWER-DEAD").count() == 1
    for control in ("a.redrive", "button.redrive-selected", "a.redrive-matching", "input[type=checkbox]"):
        assert await page.locator(control).count() == 0, control
    await screenshot(page, ARTIFACTS / "dead-read-only.png", full_page=True)

    # What a hand-made form would send, with this session's own CSRF token: refused all the same.
    token = await page.locator("header form.who input[name=csrf]").input_value()
    statuses = await page.evaluate(
        """async ([token, jobId]) => {
            const post = (path, fields) => fetch(path, {method: "POST", body: new URLSearchParams(fields)});
            return [
                (await post(`/ui/jobs/${jobId}/redrive`, {csrf: token})).status,
                (await post("/ui/dead/redrive", {csrf: token, job_id: jobId})).status,
                (await post("/ui/dead/redrive", {csrf: token, matching: "1"})).status,
            ];
        }""",
        [token, str(dead["_id"])],
    )
    assert statuses == [433, 433, 433]
    view = JobsView(keyed)
    try:
        assert (await view.get(dead["_id"]))["status"] == "DEAD"
    finally:
        await view.close()


async def test_the_product_page_charts_one_point_per_price_and_escapes_titles(
    page_server, settings: Settings, browser: Browser
):
    server = await page_server(create_app(settings))
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
    await screenshot(page, ARTIFACTS / "product.png", full_page=True)


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
    page_server, settings: Settings, browser: Browser
):
    server = await page_server(create_app(settings))
    await store(settings, busy_hour(utcnow()))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = await browser.new_page(viewport={"width": 1200, "height": 800})
    await page.clock.install()

    await page.goto(str(server.make_url("/ui")))
    # SEARCH and OUTBOX jobs ended, coupang's and naver's outcomes, SEARCH and OUTBOX attempt durations.
    assert await page.locator("#live svg.chart").count() == 6
    done_bars = page.locator("#live svg.chart rect.bar")
    assert await done_bars.count() > 0
    await screenshot(page, ARTIFACTS / "overview_charts.png", full_page=True)

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


async def test_the_job_page_shows_each_offers_verdict_as_a_person_reads_it(
    page_server, settings: Settings, browser: Browser
):
    from tests.dashboard_pages import JUDGED_DOUBTS, JUDGED_OFFERS

    server = await page_server(create_app(settings))
    result = {"outcome": "FOUND", "complete": True, "lowest": JUDGED_OFFERS[-1], "offers": JUDGED_OFFERS}
    result["doubts"] = JUDGED_DOUBTS
    job = await insert_job(settings, product_code="BROWSER-VERDICTS", status="DONE", result=result)
    for width in (1200, 390):
        page = await browser.new_page(viewport={"width": width, "height": 900})
        await page.goto(str(server.make_url(f"/ui/jobs/{job['_id']}")))
        verdicts = await page.locator("table.offers td .badge").all_inner_texts()
        assert verdicts == [f"rejected: {o['rejected']}" if "rejected" in o else "accepted" for o in JUDGED_OFFERS]
        assert await page.locator("table.offers td.price", has_text="13,900~").count() == 1
        assert await page.locator("table.offers td.price small", has_text="정기배송할인가 only").count() == 1
        assert await page.locator("p.doubt").inner_text() == f"In doubt: {JUDGED_DOUBTS[0]}"
        await screenshot(page, ARTIFACTS / f"job-verdicts-{width}.png", full_page=True)
        await page.close()
