"""The dashboard at /ui: the overview over the same stats the API serves, and its key login with a CSRF token."""

from __future__ import annotations

import asyncio
from html import escape as html_escape

import pytest
from aiohttp.test_utils import TestClient

from infra.clock import utcnow
from infra.mongo import create_client
from infra.settings import Settings
from infra.snapshots import SnapshotStore
from schemas.codes import JobType
from service.app import create_app
from service.ui.signin import SESSION_COOKIE
from tests.dashboard_pages import JUDGED_DOUBTS, JUDGED_OFFERS, KEYS, PNG, csrf_of, post_form, signed_in
from tests.rabbit import drain
from tests.stored_jobs import DEAD, insert_job


async def test_the_overview_shows_counts_per_type_and_status_and_the_queues(client: TestClient):
    response = await client.get("/ui")
    html = await response.text()

    assert response.status == 200
    assert response.content_type == "text/html"
    for word in ("SEARCH", "OUTBOX", "PENDING", "RUNNING", "DONE", "DEAD", "Consumers", "Reconciler repairs"):
        assert word in html
    stats = await (await client.get("/v1/lps/queue/stats")).json()
    for queue in stats["queues"]:
        assert f"<td>{queue}</td>" in html
    css = await client.get("/ui/static/dashboard.css")
    assert (css.status, css.content_type) == (200, "text/css")


async def test_with_keys_the_dashboard_redirects_to_the_login_form_until_a_known_key_is_given(
    aiohttp_client, settings: Settings
):
    client = await aiohttp_client(create_app(settings.with_overrides(api_keys=KEYS)))
    redirected = await client.get("/ui", allow_redirects=False)
    assert (redirected.status, redirected.headers["Location"]) == (303, "/ui/login?next=/ui")

    form = await client.get("/ui/login")
    token = csrf_of(await form.text())
    assert "HttpOnly" in form.headers["Set-Cookie"]
    assert "SameSite=Strict" in form.headers["Set-Cookie"]

    wrong = await post_form(client, "/ui/login", data={"csrf": token, "key": "guess"}, allow_redirects=False)
    assert wrong.status == 403
    assert (await client.get("/ui", allow_redirects=False)).status == 303

    signed_in = await post_form(client, "/ui/login", data={"csrf": token, "key": KEYS["ops"]}, allow_redirects=False)
    assert (signed_in.status, signed_in.headers["Location"]) == (303, "/ui")
    cookie = signed_in.cookies[SESSION_COOKIE]
    assert cookie.value != KEYS["ops"]  # a session's token, never the key
    assert cookie["httponly"]
    assert cookie["samesite"] == "Strict"
    assert (await client.get("/ui", allow_redirects=False)).status == 200


async def test_a_login_post_without_the_session_token_is_refused(aiohttp_client, settings: Settings):
    client = await aiohttp_client(create_app(settings.with_overrides(api_keys=KEYS)))
    await client.get("/ui/login")  # the session has a token; this post does not carry it
    forged = await post_form(client, "/ui/login", data={"csrf": "forged", "key": KEYS["ops"]}, allow_redirects=False)
    assert forged.status == 403
    assert SESSION_COOKIE not in forged.cookies
    client.session.cookie_jar.clear()
    bare = await post_form(client, "/ui/login", data={"key": KEYS["ops"]}, allow_redirects=False)
    assert bare.status == 403


async def test_the_job_list_filters_and_links_to_a_job_with_its_attempts(client: TestClient, settings: Settings):
    dead = await insert_job(settings, product_code="DASH-DEAD", **DEAD)
    await insert_job(settings, product_code="DASH-PENDING")

    listed = await (await client.get("/ui/jobs?job_type=SEARCH&status=&product_code=")).text()
    assert "DASH-DEAD" in listed
    assert "DASH-PENDING" in listed
    dead_only = await (await client.get("/ui/jobs?status=DEAD")).text()
    assert "DASH-DEAD" in dead_only
    assert "DASH-PENDING" not in dead_only

    detail = await client.get(f"/ui/jobs/{dead['_id']}")
    html = await detail.text()
    assert detail.status == 200
    assert "ERROR: boom" in html
    assert html.count('<tr><td class="num">') == len(DEAD["history"])


@pytest.mark.parametrize(
    "query", ["status=%24ne", "product_code[%24ne]=x", "since=yesterday", "status=DEAD&status=DONE", "cursor=zz"]
)
async def test_bad_filters_are_refused_with_result_101(client: TestClient, query: str):
    response = await client.get(f"/ui/jobs?{query}")
    assert response.status == 400
    assert "Result 101" in await response.text()


@pytest.mark.parametrize("job_id", ["0123456789abcdef01234567", "not-an-id", "<script>"])
async def test_an_unknown_job_is_a_clear_not_found_page(client: TestClient, job_id: str):
    response = await client.get(f"/ui/jobs/{job_id}")
    html = await response.text()
    assert response.status == 404
    assert "No such job" in html
    assert "<script>" not in html.split("<main>")[1]


async def test_html_in_a_product_keyword_is_escaped(client: TestClient, settings: Settings):
    job = await insert_job(settings, product_code="DASH-XSS", product={"keyword": "<script>alert(1)</script>"})
    for path in (f"/ui/jobs/{job['_id']}",):
        html = await (await client.get(path)).text()
        assert "<script>alert(1)</script>" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


async def test_an_admin_redrives_a_dead_job_from_its_page_after_confirming(aiohttp_client, settings: Settings):
    """The single re-drive acted at the first click, where the bulk one asks first: now it asks too."""
    client = await signed_in(aiohttp_client, settings, "ops-5e6d-admin")
    dead = await insert_job(settings, product_code="DASH-REDRIVE", **DEAD)
    dead_page = await (await client.get("/ui/dead")).text()
    assert "DASH-REDRIVE" in dead_page
    assert dead_page.count('class="button redrive"') == 1
    job_page = await (await client.get(f"/ui/jobs/{dead['_id']}")).text()
    assert f'<a href="/ui/jobs/{dead["_id"]}/redrive" class="button redrive">' in job_page  # it asks, never posts

    asked = await client.get(f"/ui/jobs/{dead['_id']}/redrive")
    question = await asked.text()
    assert asked.status == 200
    assert "will be re-driven" in question
    assert "DASH-REDRIVE" in question
    assert f'<a href="/ui/jobs/{dead["_id"]}">Cancel</a>' in question
    assert '<span class="badge dead">DEAD</span>' in await (await client.get(f"/ui/jobs/{dead['_id']}")).text()

    token = csrf_of(question)
    redriven = await post_form(client, f"/ui/jobs/{dead['_id']}/redrive", data={"csrf": token}, allow_redirects=False)
    assert (redriven.status, redriven.headers["Location"]) == (303, f"/ui/jobs/{dead['_id']}")
    shown = await (await client.get(redriven.headers["Location"])).text()
    assert '<span class="badge pending">PENDING</span>' in shown
    await asyncio.to_thread(drain, settings.amqp_url, settings.job(JobType.SEARCH).queue)
    again = await (await client.get(f"/ui/jobs/{dead['_id']}/redrive")).text()
    assert "only a DEAD job can be re-driven" in again
    assert 'class="confirm-redrive"' not in again


async def test_a_redriven_job_running_its_first_attempt_shows_it_in_its_new_life(
    client: TestClient, settings: Settings
):
    """After a re-drive the page said "Running on … since" above "No attempt yet": the running attempt is in no
    history entry until it ends. The new life shows it, running."""
    started = utcnow()
    running = await insert_job(
        settings,
        product_code="NEW-LIFE",
        **DEAD | {"status": "RUNNING", "attempts": 1, "redrives": 1, "worker": "host:42:w0", "started_at": started},
    )

    page = await (await client.get(f"/ui/jobs/{running['_id']}")).text()

    assert "No attempt yet." not in page
    new_life = page[page.index("Life 2:") :]
    row = new_life[new_life.index('<tr class="running">') :]
    row = row[: row.index("</tr>")]
    assert '<td class="num">1</td>' in row
    assert "host:42:w0" in row
    assert "running" in row.lower()


async def test_a_read_only_key_sees_no_redrive_button_and_its_post_is_refused_with_433(
    aiohttp_client, settings: Settings
):
    client = await signed_in(aiohttp_client, settings, "view-c0ffee")
    dead = await insert_job(settings, product_code="DASH-READ", **DEAD)
    for path in ("/ui/dead", f"/ui/jobs/{dead['_id']}"):
        html = await (await client.get(path)).text()
        assert "DASH-READ" in html
        assert 'class="button redrive"' not in html
    asked = await client.get(f"/ui/jobs/{dead['_id']}/redrive")
    assert asked.status == 433  # nor its confirmation

    token = csrf_of(await (await client.get("/ui/dead")).text())  # the sign-out form's token: a valid one
    refused = await post_form(client, f"/ui/jobs/{dead['_id']}/redrive", data={"csrf": token}, allow_redirects=False)
    assert refused.status == 433
    assert "Result 433" in await refused.text()
    assert '<span class="badge dead">DEAD</span>' in await (await client.get(f"/ui/jobs/{dead['_id']}")).text()


async def test_a_redrive_post_without_the_session_token_changes_nothing(aiohttp_client, settings: Settings):
    client = await signed_in(aiohttp_client, settings, "ops-5e6d-admin")
    dead = await insert_job(settings, product_code="DASH-CSRF", **DEAD)
    forged = await post_form(client, f"/ui/jobs/{dead['_id']}/redrive", data={"csrf": "forged"}, allow_redirects=False)
    assert forged.status == 403
    assert '<span class="badge dead">DEAD</span>' in await (await client.get(f"/ui/jobs/{dead['_id']}")).text()


async def test_guessing_keys_at_the_login_form_is_limited_per_address(aiohttp_client, settings: Settings):
    limited = settings.with_overrides(api_keys=KEYS, auth_failure_rate_per_second=0.01, auth_failure_burst=2)
    client = await aiohttp_client(create_app(limited))
    token = csrf_of(await (await client.get("/ui/login")).text())

    answers = [
        await post_form(client, "/ui/login", data={"csrf": token, "key": f"guess-{n}"}, allow_redirects=False)
        for n in range(3)
    ]

    assert [answer.status for answer in answers] == [403, 403, 429]
    assert int(answers[-1].headers["Retry-After"]) >= 1
    assert "too many unknown keys" in await answers[-1].text()


async def test_the_job_list_filters_by_prefix_source_outcome_and_time_range(client: TestClient, settings: Settings):
    blocked = {"result": {"outcome": "INCOMPLETE", "sources": {"coupang": {"outcome": "BLOCKED"}}}, "status": "DONE"}
    await insert_job(settings, product_code="PFX.1", **blocked)
    await insert_job(settings, product_code="PFX.2")
    await insert_job(settings, product_code="PFXX3", **blocked)

    by_prefix = await (await client.get("/ui/jobs?product_code_prefix=PFX.")).text()
    by_outcome = await (
        await client.get("/ui/jobs?source=coupang&source_outcome=BLOCKED&product_code_prefix=PFX")
    ).text()
    in_the_future = await (await client.get("/ui/jobs?since=2099-01-01T00:00")).text()
    in_the_past = await (await client.get("/ui/jobs?until=2000-01-01T00:00:00")).text()

    assert ("PFX.1" in by_prefix, "PFX.2" in by_prefix, "PFXX3" in by_prefix) == (True, True, False)
    assert ("PFX.1" in by_outcome, "PFX.2" in by_outcome, "PFXX3" in by_outcome) == (True, False, True)
    assert "<option selected>BLOCKED</option>" in by_outcome  # the form shows the filter it applied
    assert "No job matches." in in_the_future
    assert "No job matches." in in_the_past


@pytest.mark.parametrize(
    "query", ["product_code_prefix=.%2A", "source=%24where", "source_outcome=%24ne&source=coupang", "until=soon"]
)
async def test_bad_new_filters_are_refused_with_result_101(client: TestClient, query: str):
    for page in ("/ui/jobs", "/ui/dead"):
        response = await client.get(f"{page}?{query}")
        assert response.status == 400
        assert "Result 101" in await response.text()


async def test_a_search_shows_its_delivery_job_and_the_snapshots_of_its_blocked_pages(
    client: TestClient, settings: Settings
):
    database = create_client(settings)
    try:
        reference = await SnapshotStore(database[settings.mongo_db]).save(
            source="coupang",
            url="https://shop/x",
            reason="BLOCKED",
            html="<script>alert(1)</script>",
            screenshot=PNG,
            at=utcnow(),
        )
    finally:
        await database.close()
    error = {"type": "BLOCKED", "message": "blocked", "snapshot": reference}
    search = await insert_job(settings, product_code="DASH-DELIVERED", status="DONE", last_error=error)
    delivery = await insert_job(
        settings, product_code="DASH-DELIVERED", status="DONE", job_type="OUTBOX", source_job_id=search["_id"]
    )
    snapshot_id = reference.removeprefix("gridfs:snapshots/")

    html = await (await client.get(f"/ui/jobs/{search['_id']}")).text()
    assert f'<a href="/ui/jobs/{delivery["_id"]}">' in html
    assert '<span class="badge done">DONE</span>' in html.split('class="delivery"')[1]
    for kind, content_type, body in (("png", "image/png", PNG), ("html", "text/plain", b"<script>alert(1)</script>")):
        assert f'href="/ui/snapshots/{snapshot_id}/{kind}"' in html
        for path in (f"/ui/snapshots/{snapshot_id}/{kind}", f"/v1/lps/snapshots/{snapshot_id}/{kind}"):
            served = await client.get(path)
            assert (served.status, served.content_type, await served.read()) == (200, content_type, body)
            assert served.headers["Content-Security-Policy"].split("; ")[0] == "sandbox"
            assert served.headers["X-Content-Type-Options"] == "nosniff"
    for path in (
        f"/v1/lps/snapshots/{'0' * 24}/png",
        f"/v1/lps/snapshots/{snapshot_id}/exe",
        "/v1/lps/snapshots/$ne/png",
    ):
        missing = await client.get(path)
        assert (missing.status, (await missing.json())["result"]) == (404, 1500)


async def test_an_admin_redrives_the_ticked_dead_jobs_after_a_confirmation_stating_how_many(
    aiohttp_client, settings: Settings
):
    client = await signed_in(aiohttp_client, settings, "ops-5e6d-admin")
    ticked = [await insert_job(settings, product_code=f"BULK-{n}", **DEAD) for n in range(2)]
    untouched = await insert_job(settings, product_code="BULK-LEFT", **DEAD)

    ids = "&".join(f"job_id={job['_id']}" for job in ticked)
    confirmation = await (await client.get(f"/ui/dead/redrive?{ids}")).text()
    assert "<strong>2</strong> dead jobs will be re-driven" in confirmation
    form = [("csrf", csrf_of(confirmation)), *(("job_id", str(job["_id"])) for job in ticked)]
    done = await post_form(client, "/ui/dead/redrive", data=form)
    html = await done.text()

    assert done.status == 200
    assert 're-driven: <span class="count">2</span>' in html
    for job in ticked:
        assert '<span class="badge pending">PENDING</span>' in await (await client.get(f"/ui/jobs/{job['_id']}")).text()
    assert '<span class="badge dead">DEAD</span>' in await (await client.get(f"/ui/jobs/{untouched['_id']}")).text()
    await asyncio.to_thread(drain, settings.amqp_url, settings.job(JobType.SEARCH).queue)


async def test_redriving_all_matching_dead_jobs_takes_the_filtered_ones_only(aiohttp_client, settings: Settings):
    client = await signed_in(aiohttp_client, settings, "ops-5e6d-admin")
    matching = [await insert_job(settings, product_code=f"ALL.{n}", **DEAD) for n in range(3)]
    other = await insert_job(settings, product_code="ALLX", **DEAD)

    confirmation = await (await client.get("/ui/dead/redrive?matching=1&product_code_prefix=ALL.")).text()
    assert "<strong>3</strong> dead jobs will be re-driven" in confirmation
    assert "<code>product_code_prefix=ALL.</code>" in confirmation
    form = {"csrf": csrf_of(confirmation), "matching": "1", "product_code_prefix": "ALL."}
    html = await (await post_form(client, "/ui/dead/redrive", data=form)).text()

    assert 're-driven: <span class="count">3</span>' in html
    pending = {"product_code_prefix": "ALL", "status": "PENDING"}
    listed = await (await client.get("/v1/lps/jobs", params=pending, headers={"X-API-Key": "ops-5e6d-admin"})).json()
    assert sorted(job["job_id"] for job in listed["jobs"]) == sorted(str(job["_id"]) for job in matching)
    assert '<span class="badge dead">DEAD</span>' in await (await client.get(f"/ui/jobs/{other['_id']}")).text()
    await asyncio.to_thread(drain, settings.amqp_url, settings.job(JobType.SEARCH).queue)


async def test_a_read_only_key_sees_no_bulk_redrive_and_its_bulk_requests_are_refused_with_433(
    aiohttp_client, settings: Settings
):
    client = await signed_in(aiohttp_client, settings, "view-c0ffee")
    dead = await insert_job(settings, product_code="BULK-READ", **DEAD)

    page = await (await client.get("/ui/dead")).text()
    assert "BULK-READ" in page
    for control in ("redrive-selected", "redrive-matching", 'type="checkbox"'):
        assert control not in page
    asked = await client.get(f"/ui/dead/redrive?job_id={dead['_id']}")
    token = csrf_of(page)  # the sign-out form's: a valid token of this session
    posted = await post_form(client, "/ui/dead/redrive", data={"csrf": token, "matching": "1"})

    assert (asked.status, posted.status) == (433, 433)
    assert '<span class="badge dead">DEAD</span>' in await (await client.get(f"/ui/jobs/{dead['_id']}")).text()


async def test_redriving_all_matching_takes_at_most_the_cap_per_request_and_says_so(
    aiohttp_client, settings: Settings, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr("service.ui.dead.BULK_REDRIVE_CAP", 2)
    client = await signed_in(aiohttp_client, settings, "ops-5e6d-admin")
    for n in range(3):
        await insert_job(settings, product_code=f"CAP-{n}", **DEAD)

    confirmation = await (await client.get("/ui/dead/redrive?matching=1&product_code_prefix=CAP-")).text()
    assert "<strong>2</strong> dead jobs will be re-driven" in confirmation
    assert "More dead jobs match: one request re-drives at most 2" in confirmation
    form = {"csrf": csrf_of(confirmation), "matching": "1", "product_code_prefix": "CAP-"}
    first = await (await post_form(client, "/ui/dead/redrive", data=form)).text()
    assert 're-driven: <span class="count">2</span>' in first
    assert "re-drive the next ones" in first
    rest = await (await client.get("/ui/dead/redrive?matching=1&product_code_prefix=CAP-")).text()
    assert "<strong>1</strong> dead job will be re-driven" in rest
    assert "More dead jobs match" not in rest
    await asyncio.to_thread(drain, settings.amqp_url, settings.job(JobType.SEARCH).queue)


async def test_a_snapshot_needs_a_key_like_every_api_call_and_a_signed_in_dashboard(aiohttp_client, settings: Settings):
    client = await aiohttp_client(create_app(settings.with_overrides(api_keys=KEYS)))
    path = f"/snapshots/{'0' * 24}/png"

    api = await client.get(f"/v1/lps{path}")
    ui = await client.get(f"/ui{path}", allow_redirects=False)
    with_key = await client.get(f"/v1/lps{path}", headers={"X-API-Key": KEYS["ops"]})

    assert (api.status, (await api.json())["result"]) == (433, 433)
    assert (ui.status, ui.headers["Location"]) == (303, f"/ui/login?next=/ui{path}")
    assert with_key.status == 404


async def test_the_job_page_shows_the_items_a_source_skipped_and_why_it_is_not_complete(
    client: TestClient, settings: Settings
):
    why = "coupang: 3 product item(s) listed without a readable price or link; the lowest may be among them"
    result = {
        "outcome": "FOUND",
        "complete": False,
        "sources": {
            "coupang": {"outcome": "PARSE_FAIL", "count": 69, "skipped": 3, "ms": 812, "error": why},
            "naver": {"outcome": "FOUND", "count": 40, "ms": 120},
        },
        "failed_sources": {"coupang": {"type": "PARSE_FAIL", "message": why}},
    }
    job = await insert_job(settings, product_code="DASH-SKIPPED", status="DONE", result=result)

    html = await (await client.get(f"/ui/jobs/{job['_id']}")).text()

    assert "(incomplete)" in html
    assert '<td>coupang</td><td>PARSE_FAIL</td><td class="num">69</td><td class="num">3</td>' in html
    assert why in html
    assert '<td>naver</td><td>FOUND</td><td class="num">40</td><td class="num">0</td>' in html


async def test_the_job_page_shows_every_verdict_with_its_reason_and_marks_conditional_and_range_prices(
    client: TestClient, settings: Settings
):
    result = {"outcome": "FOUND", "complete": True, "lowest": JUDGED_OFFERS[-1], "offers": JUDGED_OFFERS}
    result["doubts"] = JUDGED_DOUBTS
    job = await insert_job(settings, product_code="DASH-VERDICTS", status="DONE", result=result)

    html = await (await client.get(f"/ui/jobs/{job['_id']}")).text()

    for offer in JUDGED_OFFERS[:-1]:
        assert f"rejected: {html_escape(offer['rejected'])}" in html
    assert html.count('badge done">accepted') == 1
    assert '11,230<br><small class="muted">정기배송할인가 only</small>' in html
    assert "13,900~" in html
    assert f'<p class="doubt">In doubt: {JUDGED_DOUBTS[0]}</p>' in html  # beside the lowest it is about
