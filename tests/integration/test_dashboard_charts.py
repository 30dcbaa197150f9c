"""The dashboard's charts over HTTP: the product page and the overview's charts, and
`GET /v1/lps/queue/timeline`."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from aiohttp.test_utils import TestClient

from infra.clock import utcnow
from infra.jobs import JobRepository
from infra.mongo import MainDatabase, create_client
from infra.price_history import price_history_documents
from infra.settings import Settings
from infra.timeline import EndedTimeline
from service.app import create_app
from tests.harness import JobsView, in_process_pool
from tests.stored_jobs import ended_search, store


# --- over HTTP ------------------------------------------------------------------------------------------------
async def test_the_product_page_charts_each_price_and_lists_the_searches_newest_first(
    client: TestClient, settings: Settings
):
    now = utcnow()
    searches = [
        ended_search("PROD-1", now - timedelta(hours=3), prices={"coupang": 1_200, "naver": 1_150}),
        ended_search("PROD-1", now - timedelta(hours=2), prices={"coupang": 1_100, "naver": None}),
        ended_search("PROD-1", now - timedelta(hours=1), prices={"coupang": 990, "naver": 1_010}, target=1_050),
        ended_search("PROD-2", now, prices={"coupang": 5}),
    ]
    prices = [entry for job in searches for entry in price_history_documents(job)]
    await store(settings, searches, prices)

    response = await client.get("/ui/products/PROD-1")
    html = await response.text()

    assert response.status == 200
    svg = html[html.index("<svg") : html.index("</svg>")]
    assert svg.count('class="point"') == 5  # naver had no price in the second search
    assert svg.count('class="series"') == 2
    assert "target 1,050" in svg  # the newest search's target
    rows = re.findall(r'<a href="/ui/jobs/([0-9a-f]{24})">', html)
    assert rows == [str(job["_id"]) for job in reversed(searches[:3])]
    assert "PROD-2" not in html


async def test_the_product_page_pages_its_searches_by_cursor(client: TestClient, settings: Settings):
    now = utcnow()
    searches = [ended_search("PAGED", now - timedelta(minutes=n), prices={"static": 10 + n}) for n in range(3)]
    await store(settings, searches)

    first = await (await client.get("/ui/products/PAGED?limit=2")).text()
    cursor = re.search(r'href="/ui/products/PAGED\?cursor=([^"]+)"', first)
    assert cursor, "no link to the older searches"
    second = await (await client.get(f"/ui/products/PAGED?limit=2&cursor={cursor.group(1)}")).text()

    assert re.findall(r'<a href="/ui/jobs/([0-9a-f]{24})">', first) == [str(s["_id"]) for s in searches[:2]]
    assert re.findall(r'<a href="/ui/jobs/([0-9a-f]{24})">', second) == [str(searches[2]["_id"])]


async def test_an_unknown_product_is_a_clear_not_found_page(client: TestClient):
    response = await client.get("/ui/products/NEVER-SEARCHED")
    assert response.status == 404
    assert "No search of product NEVER-SEARCHED" in await response.text()


@pytest.mark.parametrize("code", ["%3Cscript%3Ealert(1)%3C%2Fscript%3E", "a%24ne", "x" * 65])
async def test_a_malformed_product_code_is_refused_with_result_101_and_shown_escaped(client: TestClient, code: str):
    response = await client.get(f"/ui/products/{code}")
    html = await response.text()
    assert response.status == 400
    assert "Result 101" in html
    assert "<script>alert(1)" not in html


async def test_html_in_a_searched_keyword_and_offer_titles_is_escaped_on_the_product_page(
    client: TestClient, settings: Settings
):
    job = ended_search("XSS-1", utcnow(), prices={"<script>alert(2)</script>": 5}, keyword="<script>alert(1)</script>")
    await store(settings, [job], price_history_documents(job))

    html = await (await client.get("/ui/products/XSS-1")).text()

    assert "<script>alert(" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html  # the keyword
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in html  # a source's name in the chart's legend


async def test_the_job_list_and_a_job_link_to_the_product_page(client: TestClient, settings: Settings):
    job = ended_search("LINKED-1", utcnow(), prices={"static": 5})
    await store(settings, [job])
    for path in ("/ui/jobs", f"/ui/jobs/{job['_id']}"):
        assert 'href="/ui/products/LINKED-1"' in await (await client.get(path)).text()


async def test_the_timeline_counts_what_ended_per_minute_by_type_and_source(client: TestClient, settings: Settings):
    minute = utcnow().replace(second=0, microsecond=0) - timedelta(minutes=3)
    jobs = [
        ended_search("T1", minute + timedelta(seconds=10), prices={"coupang": 5, "naver": None}),
        ended_search("T2", minute + timedelta(seconds=20), prices={"coupang": 6, "naver": 7}),
        ended_search("T3", minute + timedelta(seconds=30), prices={}, dead=True),
        ended_search("T4", minute + timedelta(minutes=1, seconds=5), prices={"coupang": 8}),
        ended_search("OLD", minute - timedelta(hours=3), prices={"coupang": 1}),  # before any window
    ]
    await store(settings, jobs)

    response = await client.get("/v1/lps/queue/timeline", params={"minutes": "5"})
    body = await response.json()

    assert response.status == 200
    assert body["result"] == 0
    timeline = body["timeline"]
    assert len(timeline) == 5
    by_minute = {entry["at"]: entry for entry in timeline}
    first = by_minute[minute.isoformat()]
    assert first["ended"] == {"SEARCH": {"DONE": 2, "DEAD": 1}, "OUTBOX": {"DONE": 0, "DEAD": 0}}
    assert first["sources"] == {"coupang": {"FOUND": 2}, "naver": {"BLOCKED": 1, "FOUND": 1}}
    assert first["attempt_ms"] == {"SEARCH": {"p50": 2000.0, "p95": 2000.0, "count": 3}}
    second = by_minute[(minute + timedelta(minutes=1)).isoformat()]
    assert second["ended"]["SEARCH"] == {"DONE": 1, "DEAD": 0}
    assert sum(entry["ended"]["SEARCH"]["DONE"] for entry in timeline) == 3
    assert body["catching_up"] is False


async def test_searches_that_died_blocked_are_charted_with_their_sources_outcomes(aiohttp_client, settings: Settings):
    """A search whose sources were all blocked on its last attempt ends DEAD without a result: its sources' outcomes
    were left out of the charts, exactly when blocking kills jobs."""
    dying = settings.with_overrides(search_max_attempts=1, test_directives=True)
    client = await aiohttp_client(create_app(dying))
    async with in_process_pool(dying) as pool:
        [job_id] = await pool.submit({"product_code": "BLOCKED-1", "keyword": "#blocked"})
        jobs = JobsView(dying)
        try:
            dead = await jobs.finished(job_id, within=30)
        finally:
            await jobs.close()

    answer = await (await client.get("/v1/lps/queue/timeline", params={"minutes": "5"})).json()
    overview = await (await client.get("/ui")).text()

    assert dead["status"] == "DEAD"
    assert dead["last_error"]["sources"] == {"static": "BLOCKED"}
    assert sum(minute["sources"].get("static", {}).get("BLOCKED", 0) for minute in answer["timeline"]) == 1
    chart = overview[overview.index("static: search outcomes") :]
    assert ">BLOCKED</text>" in chart[: chart.index("</svg>")]


async def test_the_timeline_counts_each_ended_job_once_however_often_it_is_asked(
    client: TestClient, settings: Settings
):
    # The previous minute: still inside a three-minute window if the clock turns a minute during the test.
    minute = utcnow().replace(second=0, microsecond=0) - timedelta(minutes=1)
    await store(settings, [ended_search("ONCE", minute + timedelta(seconds=1), prices={"static": 1})])
    answers = [await (await client.get("/v1/lps/queue/timeline?minutes=3")).json() for _ in range(3)]
    # Ended now, after the answers: the timeline counts up to the moment of its last walk (less the settle, 0 here),
    # so a job backdated a second could fall behind a walk made within that second and never be counted.
    later = ended_search("LATER", utcnow(), prices={"static": 1})
    await store(settings, [later])
    last = await (await client.get("/v1/lps/queue/timeline?minutes=3")).json()

    for answer in answers:
        assert sum(entry["ended"]["SEARCH"]["DONE"] for entry in answer["timeline"]) == 1
    assert sum(entry["ended"]["SEARCH"]["DONE"] for entry in last["timeline"]) == 2


@pytest.mark.parametrize("query", ["minutes=0", "minutes=121", "minutes=abc", "minutes[%24gt]=1", "other=1"])
async def test_a_bad_timeline_query_is_refused_with_result_101(client: TestClient, query: str):
    response = await client.get(f"/v1/lps/queue/timeline?{query}")
    assert (response.status, (await response.json())["result"]) == (400, 101)


async def test_the_overview_draws_the_timeline_and_its_live_part_is_served_alone(
    client: TestClient, settings: Settings
):
    minute = utcnow().replace(second=0, microsecond=0) - timedelta(minutes=2)
    await store(settings, [ended_search("OV-1", minute, prices={"coupang": 5, "naver": None})])

    html = await (await client.get("/ui")).text()
    live = await (await client.get("/ui/live")).text()

    for page in (html, live):
        assert page.count('<svg class="chart"') == 5  # SEARCH and OUTBOX ended, coupang, naver, SEARCH durations
        assert page.count('class="bar"') == 1 + 1 + 1  # SEARCH DONE, coupang FOUND, naver BLOCKED
        assert "Jobs by type and status" in page
    assert '<script src="/ui/static/refresh.js" defer></script>' in html
    assert "<html" not in live  # the part alone, for refresh.js to swap in
    script = await client.get("/ui/static/refresh.js")
    assert script.status == 200
    assert "visibilitychange" in await script.text()


async def test_the_overview_shows_the_minutes_asked_for_and_keeps_them_when_it_refreshes(client: TestClient):
    html = await (await client.get("/ui?minutes=5")).text()
    assert 'data-refresh="/ui/live?minutes=5"' in html
    assert "the last 5 minutes" in html
    assert "the last 5 minutes" in await (await client.get("/ui/live?minutes=5")).text()

    refused = await client.get("/ui?minutes=%24gt")
    assert refused.status == 400
    assert "Result 101" in await refused.text()


async def test_a_timeline_call_reads_at_most_its_limit_and_the_next_calls_catch_up(settings: Settings):
    minute = utcnow().replace(second=0, microsecond=0) - timedelta(minutes=5)
    ended = [ended_search(f"C{n}", minute + timedelta(seconds=n), prices={"static": 1}) for n in range(7)]
    await store(settings, ended)
    client = create_client(settings)
    try:
        timeline = EndedTimeline(JobRepository(MainDatabase.open(client, settings.mongo_db)), settle=0.0, limit=3)
        answers = [await timeline.last(10) for _ in range(4)]
    finally:
        await client.close()

    counted = [sum(tally.ended.get("SEARCH", {}).get("DONE", 0) for tally in answer.tallies) for answer in answers]
    assert counted == [3, 6, 7, 7]
    assert [answer.catching_up for answer in answers] == [True, True, False, False]
    assert answers[-1].minutes[-1] == utcnow().replace(second=0, microsecond=0)
