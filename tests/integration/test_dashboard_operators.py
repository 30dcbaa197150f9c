"""What an operator missed in the dashboard's first hour (issue 25), over HTTP: watches, re-drive history,
what a job does next, formatting, the job list's finder and filters, the dead page's totals, and the favicon."""

from __future__ import annotations

import asyncio
import re
from datetime import timedelta

from aiohttp.test_utils import TestClient
from bson import ObjectId

from infra.clock import utcnow
from infra.display import utc_text
from infra.jobs import JobRepository
from infra.mongo import MainDatabase, create_client
from infra.reconciler_log import ReconcilerLog
from infra.settings import Settings
from schemas.codes import JobType
from service.app import create_app
from tests.dashboard_pages import ROLE_KEYS, csrf_of, post_form, signed_in
from tests.rabbit import drain
from tests.stored_jobs import DEAD, insert_job, insert_watch, stored_watch


# Watches.
async def test_the_watches_page_pages_by_product_code_and_filters_by_its_prefix(
    client: TestClient, settings: Settings, monkeypatch
):
    monkeypatch.setattr("service.ui.watches.WATCH_PAGE", 2)
    for code in ("W-3", "W-1", "X-1", "W-2"):
        await insert_watch(settings, code)

    first = await (await client.get("/ui/watches?product_code_prefix=W-")).text()
    second = await (await client.get("/ui/watches?product_code_prefix=W-&cursor=W-2")).text()
    bad = await client.get("/ui/watches?product_code_prefix=%24ne")

    assert ("W-1" in first, "W-2" in first, "W-3" in first, "X-1" in first) == (True, True, False, False)
    assert 'href="/ui/watches?product_code_prefix=W-&amp;cursor=W-2"' in first
    assert ("W-3" in second, "W-2" in second, "More watches" in second) == (True, False, False)
    assert (bad.status, "Result 101" in await bad.text()) == (400, True)


async def test_a_read_key_posting_to_a_watch_is_refused_with_433_and_the_watch_is_unchanged(
    aiohttp_client, settings: Settings
):
    client = await signed_in(aiohttp_client, settings, "view-c0ffee")
    watch = await insert_watch(settings, "RO-1")
    page = await (await client.get("/ui/watches")).text()
    token = csrf_of(page)

    refused = [
        await post_form(client, f"/ui/watches/{watch['_id']}/{action}", data={"csrf": token}, allow_redirects=False)
        for action in ("pause", "delete")
    ]
    confirmation = await client.get(f"/ui/watches/{watch['_id']}/delete")

    assert [answer.status for answer in refused] == [433, 433]
    assert confirmation.status == 433
    assert "Pause…" not in page
    assert "read-only" in page
    assert (await stored_watch(settings, watch["_id"]))["paused"] is False


async def test_an_admin_pauses_then_deletes_a_watch_by_posting_its_confirmation(aiohttp_client, settings: Settings):
    client = await signed_in(aiohttp_client, settings, "ops-5e6d-admin")
    watch = await insert_watch(settings, "ADM-1")
    confirmation = await (await client.get(f"/ui/watches/{watch['_id']}/pause")).text()
    assert (await stored_watch(settings, watch["_id"]))["paused"] is False  # asking changes nothing

    paused = await post_form(
        client, f"/ui/watches/{watch['_id']}/pause", data={"csrf": csrf_of(confirmation)}, allow_redirects=False
    )
    deleted = await post_form(
        client, f"/ui/watches/{watch['_id']}/delete", data={"csrf": csrf_of(confirmation)}, allow_redirects=False
    )

    assert (paused.status, paused.headers["Location"]) == (303, f"/ui/watches/{watch['_id']}")
    assert (deleted.status, deleted.headers["Location"]) == (303, "/ui/watches")
    assert await stored_watch(settings, watch["_id"]) is None
    gone = await client.get(f"/ui/watches/{watch['_id']}")
    assert (gone.status, "No such watch" in await gone.text()) == (404, True)


async def test_the_product_page_links_its_watch_and_a_search_started_by_a_watch_links_it(
    client: TestClient, settings: Settings
):
    watch = await insert_watch(settings, "WATCHED-1")
    job = await insert_job(settings, product_code="WATCHED-1", watch_id=watch["_id"])
    await insert_job(settings, product_code="UNWATCHED-1")

    product = await (await client.get("/ui/products/WATCHED-1")).text()
    other = await (await client.get("/ui/products/UNWATCHED-1")).text()
    job_page = await (await client.get(f"/ui/jobs/{job['_id']}")).text()

    assert f'<a href="/ui/watches/{watch["_id"]}">its watch</a>' in product
    assert "Not watched" in other
    assert f'<a href="/ui/watches/{watch["_id"]}"><code>{watch["_id"]}</code></a>' in job_page


# Re-drives: who and when, on the job document and in the API.


async def test_each_redrive_is_recorded_with_the_key_name_in_the_api_job_document(aiohttp_client, settings: Settings):
    keyed = settings.with_overrides(api_keys=ROLE_KEYS.api_keys, api_key_roles=ROLE_KEYS.api_key_roles)
    client = await aiohttp_client(create_app(keyed))
    dead = await insert_job(settings, **DEAD)
    admin = {"X-API-Key": "ops-5e6d-admin"}

    redriven = await (await client.post(f"/v1/lps/jobs/{dead['_id']}/retry", headers=admin)).json()
    shown = await (await client.get(f"/v1/lps/jobs/{dead['_id']}", headers=admin)).json()

    records = shown["job"]["redrive_history"]
    assert [record["by"] for record in records] == ["ops"]
    assert records == redriven["job"]["redrive_history"]
    assert records[0]["at"] == shown["job"]["redriven_at"]
    await asyncio.to_thread(drain, settings.amqp_url, settings.job(JobType.SEARCH).queue)


async def test_the_store_keeps_every_redrive_in_order_and_leaves_by_out_when_no_key_asked(settings: Settings):
    client = create_client(settings)
    try:
        database = MainDatabase.open(client, settings.mongo_db)
        jobs = JobRepository(database)
        dead = await insert_job(settings, **DEAD)
        first = await jobs.redrive(dead["_id"], now=utcnow(), max_attempts=2, message_id="m2", by="ops")
        await database.jobs().update_one({"_id": dead["_id"]}, {"$set": {"status": "DEAD"}})
        second = await jobs.redrive(dead["_id"], now=utcnow(), max_attempts=2, message_id="m3")
    finally:
        await client.close()
    assert first is not None
    assert second is not None
    assert [record.get("by") for record in second["redrive_history"]] == ["ops", None]
    assert "by" not in second["redrive_history"][1]
    assert second["redrives"] == 2


# What happens next.


async def test_the_job_page_says_when_a_waiting_job_runs_next_and_why(client: TestClient, settings: Settings):
    later = utcnow() + timedelta(minutes=3)
    retry = await insert_job(
        settings,
        product_code="NEXT-RETRY",
        attempts=1,
        run_after=later,
        last_error={"type": "TIMEOUT", "message": "slow"},
    )
    deferred = await insert_job(
        settings,
        product_code="NEXT-DEFERRED",
        run_after=later,
        deferrals=2,
        deferred={"sources": ["coupang", "naver"], "reason": "pacing (LPS_SOURCE_RATES)", "until": later},
    )

    retry_page = await (await client.get(f"/ui/jobs/{retry['_id']}")).text()
    deferred_page = await (await client.get(f"/ui/jobs/{deferred['_id']}")).text()

    shown_at = utc_text(later)
    assert shown_at in retry_page
    assert "waiting out the backoff after attempt 1 failed (TIMEOUT: slow)" in retry_page
    assert shown_at in deferred_page
    assert "deferred, pacing (LPS_SOURCE_RATES) (coupang, naver); no attempt was spent" in deferred_page


# Formatting.


async def test_the_job_page_writes_prices_with_separators_lists_as_words_and_offers_the_raw_document(
    client: TestClient, settings: Settings
):
    offer = {"source": "naver", "title": "t", "price": 1_009_000, "url": "https://x.invalid/", "delivery": "GENERAL"}
    result = {"outcome": "FOUND", "complete": True, "lowest": offer, "offers": [offer], "sources": {}}
    job = await insert_job(
        settings,
        product_code="FMT-1",
        status="DONE",
        product={"keyword": "k", "target_price": 1_200_000, "sources": ["coupang", "naver"]},
        result=result,
    )

    html = await (await client.get(f"/ui/jobs/{job['_id']}")).text()

    assert '<strong class="price">1,009,000</strong>' in html
    assert '<td class="num price">1,009,000</td>' in html
    assert '<td class="price">1,200,000</td>' in html
    assert "<td>coupang, naver</td>" in html
    assert "[&#39;coupang&#39;" not in html
    assert "['coupang'" not in html
    assert "target_price</th>" not in html  # labels are words, not field names
    assert "&#34;product_code&#34;: &#34;FMT-1&#34;" in html  # the raw JSON, escaped in its <pre>


# The job list and the dead page.


async def test_the_job_list_finds_a_job_by_its_id_and_refuses_what_is_not_one(client: TestClient, settings: Settings):
    job = await insert_job(settings, product_code="FIND-1")

    found = await client.get(f"/ui/jobs?job_id=+{str(job['_id']).upper()}+", allow_redirects=False)
    bad = await client.get("/ui/jobs?job_id=nope")

    assert (found.status, found.headers["Location"]) == (303, f"/ui/jobs/{job['_id']}")
    assert (bad.status, "Result 101" in await bad.text()) == (400, True)


async def test_the_filters_offer_only_enabled_sources_and_known_error_types_in_any_case(
    client: TestClient, settings: Settings
):
    await insert_job(settings, product_code="CASE-1", **DEAD | {"last_error": {"type": "BLOCKED", "message": "403"}})

    lower = await client.get("/ui/jobs?error_type=blocked&status=", allow_redirects=False)
    html = await (await client.get(lower.headers["Location"])).text()

    assert (lower.status, lower.headers["Location"]) == (303, "/ui/jobs?error_type=BLOCKED")
    assert "CASE-1" in html
    assert "<option selected>BLOCKED</option>" in html
    sources = html.split('name="source"')[1].split("</select>")[0]
    assert sources.count("<option") == 1 + len(settings.search_sources)  # "any" and each enabled source
    assert "<option>coupang</option>" not in sources
    error_types = html.split('name="error_type"')[1].split("</select>")[0]
    for known in ("DEAD_LETTER", "ATTEMPTS_EXHAUSTED", "PARSE_FAIL", "DELIVERY_REJECTED"):
        assert f"<option>{known}</option>" in error_types


async def test_the_job_list_filters_delayed_jobs_shows_when_they_run_and_refuses_a_bad_value(
    client: TestClient, settings: Settings
):
    later = utcnow() + timedelta(minutes=5)
    await insert_job(settings, product_code="LIST-DELAYED", attempts=1, run_after=later)
    await insert_job(settings, product_code="LIST-DUE")

    delayed = await (await client.get("/ui/jobs?status=PENDING&delayed=true")).text()
    due = await (await client.get("/ui/jobs?delayed=false")).text()
    bad = await client.get("/ui/jobs?delayed=soon")

    assert ("LIST-DELAYED" in delayed, "LIST-DUE" in delayed) == (True, False)
    assert '<option value="true" selected>ahead (delayed)</option>' in delayed
    assert f'<td class="nowrap run-after">{utc_text(later)}</td>' in delayed
    assert ("LIST-DELAYED" in due, "LIST-DUE" in due) == (False, True)
    assert (bad.status, "Result 101" in await bad.text()) == (400, True)


async def test_the_overview_leads_delayed_ready_and_consumer_counts_to_their_jobs(client: TestClient):
    html = await (await client.get("/ui")).text()

    counts, queues = html.split('<table class="counts">')[1], html.split('<table class="queues">')[1]
    for job_type in ("SEARCH", "OUTBOX"):
        assert f'<a href="/ui/jobs?job_type={job_type}&status=PENDING&delayed=true">' in counts
        assert f'<a href="/ui/jobs?job_type={job_type}&status=PENDING&delayed=false">' in queues
        assert f'<a href="/ui/jobs?job_type={job_type}&status=PENDING&delayed=true">' in queues
        assert f'<a href="/ui/running?job_type={job_type}"' in queues
    assert '<td class="num delayed"><a href="/ui/jobs?status=PENDING&delayed=true">' in counts  # the total
    assert "their list shows every PENDING job" not in html


async def test_the_overview_leads_each_repair_to_the_jobs_it_left_where_a_filter_finds_them(
    client: TestClient, settings: Settings
):
    repairs = ("republished_unconfirmed", "republished_lost", "recovered", "dead_letters_kept", "outbox_created")
    mongo = create_client(settings)
    try:
        await ReconcilerLog(MainDatabase.open(mongo, settings.mongo_db).write).add(dict.fromkeys(repairs, 2), utcnow())
    finally:
        await mongo.close()
    await insert_job(settings, product_code="REPUBLISHED-1", republishes=1)
    await insert_job(settings, product_code="NEVER-REPUBLISHED")

    html = await (await client.get("/ui")).text()
    republished = await (await client.get("/ui/jobs?republished=true")).text()

    rows = dict(re.findall(r"<tr><td>([^<]+)</td><td class=\"num\">(.*?)</td></tr>", html.split('class="repairs"')[1]))
    assert rows["Republished unconfirmed"] == rows["Republished lost"] == '<a href="/ui/jobs?republished=true">2</a>'
    assert rows["Recovered"] == '<a href="/ui/jobs?error_type=WORKER_LOST">2</a>'
    assert rows["Dead letters kept"] == "2"  # kept in dead_letters: no job to list
    assert ("REPUBLISHED-1" in republished, "NEVER-REPUBLISHED" in republished) == (True, False)


async def test_the_running_page_shows_one_types_jobs_when_asked_and_refuses_an_unknown_type(
    client: TestClient, settings: Settings
):
    running = {"status": "RUNNING", "worker": "host:1:1", "started_at": utcnow(), "lease_until": utcnow()}
    await insert_job(settings, product_code="RUN-SEARCH", **running)
    await insert_job(settings, product_code="RUN-OUTBOX", job_type="OUTBOX", source_job_id=ObjectId(), **running)

    every = await (await client.get("/ui/running")).text()
    searches = await (await client.get("/ui/running?job_type=SEARCH")).text()
    bad = await client.get("/ui/running?job_type=BOGUS")

    assert ("RUN-SEARCH" in every, "RUN-OUTBOX" in every) == (True, True)
    assert ("RUN-SEARCH" in searches, "RUN-OUTBOX" in searches) == (True, False)
    assert "Now running: SEARCH jobs" in searches
    assert (bad.status, "Result 101" in await bad.text()) == (400, True)


async def test_each_dead_group_shows_its_total_beyond_the_page_and_links_its_products(
    client: TestClient, settings: Settings
):
    blocked = DEAD | {"last_error": {"type": "BLOCKED", "message": "403"}}
    await insert_job(settings, product_code="TOTAL-E", **DEAD)
    for n in range(3):
        await insert_job(settings, product_code=f"TOTAL-{n}", **blocked)

    html = await (await client.get("/ui/dead?limit=2")).text()

    assert '<span class="total">3 dead jobs</span>' in html
    assert "(2 on this page;" in html
    assert '<a href="/ui/products/TOTAL-2">TOTAL-2</a>' in html


async def test_the_favicon_answers_with_an_icon(client: TestClient):
    icon = await client.get("/favicon.ico")
    assert (icon.status, icon.content_type) == (200, "image/x-icon")
    assert (await icon.read())[:4] == b"\x00\x00\x01\x00"
