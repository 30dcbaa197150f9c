"""Signing in to the dashboard: a server-side session instead of the key, forms only from the dashboard's own pages,
one bucket for every wrong key, and no framing (issue 22, items 2 and 3: each test failed before its fix)."""

from __future__ import annotations

import aiohttp
import pytest
from aiohttp.test_utils import TestClient

from infra.clock import utcnow
from infra.mongo import create_client
from infra.settings import Settings
from infra.snapshots import SnapshotStore
from service.app import create_app
from service.ui.signin import CSRF_COOKIE, SESSION_COOKIE
from tests.dashboard_pages import KEYS, PNG, csrf_of, post_form
from tests.harness import keyed_gateway
from tests.stored_jobs import DEAD, insert_job

ADMIN_KEY = KEYS["ops"]


async def sign_in(client: TestClient, key: str = ADMIN_KEY, next_path: str | None = None) -> aiohttp.ClientResponse:
    form = await client.get("/ui/login" + (f"?next={next_path}" if next_path else ""))
    data = {"csrf": csrf_of(await form.text()), "key": key} | ({"next": next_path} if next_path else {})
    return await post_form(client, "/ui/login", data=data, allow_redirects=False)


async def is_dead(client: TestClient, job_id: object) -> bool:
    return '<span class="badge dead">DEAD</span>' in await (await client.get(f"/ui/jobs/{job_id}")).text()


async def test_a_csrf_token_planted_in_a_cookie_by_a_page_of_another_port_redrives_nothing(
    aiohttp_client, settings: Settings
):
    client = await keyed_gateway(aiohttp_client, settings, KEYS)
    assert (await sign_in(client)).status == 303
    dead = await insert_job(settings, product_code="PLANTED", **DEAD)
    # What the attacker's page on the same host, another port, did: plant the cookie and post its value.
    client.session.cookie_jar.update_cookies({CSRF_COOKIE: "planted"}, client.make_url("/ui"))
    other_port = f"http://{client.host}:{client.port + 1}"

    from_elsewhere = await client.post(
        f"/ui/jobs/{dead['_id']}/redrive", data={"csrf": "planted"}, headers={"Origin": other_port}
    )
    planted_token = await post_form(client, f"/ui/jobs/{dead['_id']}/redrive", data={"csrf": "planted"})

    assert (from_elsewhere.status, planted_token.status) == (403, 403)
    assert "Nothing was changed" in await from_elsewhere.text()
    assert await is_dead(client, dead["_id"])


async def test_a_form_posted_without_origin_or_referer_is_refused_and_one_with_our_referer_is_taken(
    aiohttp_client, settings: Settings
):
    client = await keyed_gateway(aiohttp_client, settings, KEYS)
    await sign_in(client)
    dead = await insert_job(settings, product_code="ORIGIN", **DEAD)
    token = csrf_of(await (await client.get("/ui/dead")).text())

    bare = await client.post(f"/ui/jobs/{dead['_id']}/redrive", data={"csrf": token}, allow_redirects=False)
    referred = await client.post(
        f"/ui/jobs/{dead['_id']}/redrive",
        data={"csrf": token},
        headers={"Referer": str(client.make_url("/ui/dead"))},
        allow_redirects=False,
    )

    assert (bare.status, referred.status) == (403, 303)


async def test_the_form_token_is_the_sessions_own_and_changes_at_every_sign_in(aiohttp_client, settings: Settings):
    client = await keyed_gateway(aiohttp_client, settings, KEYS)
    await sign_in(client)
    first = csrf_of(await (await client.get("/ui/dead")).text())
    await sign_in(client)
    second = csrf_of(await (await client.get("/ui/dead")).text())
    dead = await insert_job(settings, product_code="ROTATED", **DEAD)

    stale = await post_form(client, f"/ui/jobs/{dead['_id']}/redrive", data={"csrf": first}, allow_redirects=False)

    assert first != second
    assert stale.status == 403
    assert await is_dead(client, dead["_id"])


async def test_the_cookie_is_a_session_not_the_key_and_sign_out_ends_it(aiohttp_client, settings: Settings):
    client = await keyed_gateway(aiohttp_client, settings, KEYS)
    signed_in = await sign_in(client)
    session_token = signed_in.cookies[SESSION_COOKIE].value
    page = await (await client.get("/ui")).text()
    assert session_token != ADMIN_KEY
    assert "Signed in as <strong>ops</strong> (admin)" in page

    signed_out = await post_form(client, "/ui/logout", data={"csrf": csrf_of(page)}, allow_redirects=False)
    assert (signed_out.status, signed_out.headers["Location"]) == (303, "/ui/login")
    # The old token, replayed (as a stolen cookie would be), and the raw key as a cookie: both sign nobody in.
    for value in (session_token, ADMIN_KEY):
        client.session.cookie_jar.update_cookies({SESSION_COOKIE: value}, client.make_url("/ui"))
        assert (await client.get("/ui", allow_redirects=False)).status == 303


async def test_wrong_keys_through_the_header_the_form_and_the_session_cookie_share_one_bucket(
    aiohttp_client, settings: Settings
):
    client = await keyed_gateway(
        aiohttp_client, settings, KEYS, auth_failure_rate_per_second=0.01, auth_failure_burst=3
    )
    header = await client.get("/v1/lps/jobs", headers={"X-API-Key": "guess-1"})
    form = await sign_in(client, key="guess-2")
    client.session.cookie_jar.update_cookies({SESSION_COOKIE: "guess-3"}, client.make_url("/ui"))
    cookie = await client.get("/ui", allow_redirects=False)
    limited = [
        await client.get("/ui", allow_redirects=False),
        await client.get("/v1/lps/jobs", headers={"X-API-Key": "guess-5"}),
    ]

    assert (header.status, form.status, cookie.status) == (433, 403, 303)
    assert [answer.status for answer in limited] == [429, 429]
    assert int(limited[0].headers["Retry-After"]) >= 1


async def test_two_gateways_share_one_bucket_of_wrong_keys_per_address(aiohttp_client, settings: Settings):
    """The bucket of refused keys lived in each gateway process: behind a load balancer, two gateways doubled the
    rate at which one address could guess. It is kept in the store, as sessions are."""
    first = await keyed_gateway(aiohttp_client, settings, KEYS, auth_failure_rate_per_second=0.01, auth_failure_burst=3)
    second = await keyed_gateway(
        aiohttp_client, settings, KEYS, auth_failure_rate_per_second=0.01, auth_failure_burst=3
    )

    statuses = []
    for guess in range(6):
        gateway = (first, second)[guess % 2]
        statuses.append((await gateway.get("/v1/lps/jobs", headers={"X-API-Key": f"guess-{guess}"})).status)
    right_key = await second.get("/v1/lps/jobs", headers={"X-API-Key": ADMIN_KEY})

    assert statuses == [433, 433, 433, 429, 429, 429]
    assert right_key.status == 200  # a right key never waits on the guesses' bucket


@pytest.mark.parametrize(
    ("next_path", "lands_on"),
    [
        ("/ui/jobs/0123456789abcdef01234567", "/ui/jobs/0123456789abcdef01234567"),
        ("/ui/jobs?status=DEAD", "/ui/jobs?status=DEAD"),
        ("//evil.example/ui", "/ui"),
        ("https://evil.example/ui/jobs", "/ui"),
        ("/uix", "/ui"),
        ("/ui\\\\evil.example", "/ui"),
    ],
)
async def test_a_deep_link_survives_sign_in_and_only_to_a_dashboard_path(
    aiohttp_client, settings: Settings, next_path: str, lands_on: str
):
    client = await keyed_gateway(aiohttp_client, settings, KEYS)
    redirected = await client.get(next_path if next_path.startswith("/ui/") else "/ui", allow_redirects=False)
    assert redirected.headers["Location"].startswith("/ui/login?next=")

    signed_in = await sign_in(client, next_path=next_path)

    assert (signed_in.status, signed_in.headers["Location"]) == (303, lands_on)


@pytest.mark.parametrize("path", ["/ui/login", "/ui", "/ui/static/dashboard.css", "/ui/jobs"])
async def test_no_dashboard_answer_may_be_framed(aiohttp_client, settings: Settings, path: str):
    client = await keyed_gateway(aiohttp_client, settings, KEYS)
    answer = await client.get(path, allow_redirects=False)
    assert "frame-ancestors 'none'" in answer.headers["Content-Security-Policy"]
    assert answer.headers["X-Frame-Options"] == "DENY"


async def test_no_signed_in_answer_or_snapshot_is_kept_by_the_browser_and_static_files_are(
    aiohttp_client, settings: Settings
):
    """Back after sign-out showed the jobs page, "Signed in as ops (admin)", from the browser's cache (issue 33)."""
    client = await keyed_gateway(aiohttp_client, settings, KEYS)
    database = create_client(settings)
    try:
        reference = await SnapshotStore(database[settings.mongo_db]).save(
            source="coupang", url="https://shop/x", reason="BLOCKED", html="<p>x</p>", screenshot=PNG, at=utcnow()
        )
    finally:
        await database.close()
    snapshot_id = reference.removeprefix("gridfs:snapshots/")
    dead = await insert_job(settings, product_code="NO-STORE", **DEAD)
    signed_out = [await client.get(path, allow_redirects=False) for path in ("/ui", "/ui/login")]
    await sign_in(client)
    pages = ["/ui", "/ui/jobs", f"/ui/jobs/{dead['_id']}", "/ui/dead", "/ui/running", "/ui/watches", "/ui/live"]
    snapshots = [f"/ui/snapshots/{snapshot_id}/png", f"/ui/snapshots/{snapshot_id}/html"]
    api_snapshot = await client.get(f"/v1/lps/snapshots/{snapshot_id}/html", headers={"X-API-Key": ADMIN_KEY})
    signed_in = [await client.get(path) for path in pages + snapshots]

    for answer in [*signed_out, *signed_in, api_snapshot]:
        assert answer.status in (200, 303), answer.url
        assert answer.headers["Cache-Control"] == "no-store", answer.url
    assert "no-store" not in (await client.get("/ui/static/dashboard.css")).headers.get("Cache-Control", "")


async def redrive_from(client: TestClient, job_id: object, token: str, origin: str, host: str | None = None) -> int:
    """A re-drive POST with the page's form token, claiming `origin` (and `host`, as a rebinding page's request
    does)."""
    headers = {"Origin": origin} | ({"Host": host} if host else {})
    posted = await client.post(
        f"/ui/jobs/{job_id}/redrive", data={"csrf": token}, headers=headers, allow_redirects=False
    )
    return posted.status


async def test_a_post_whose_host_and_origin_both_name_another_address_is_refused(aiohttp_client, settings: Settings):
    """The Origin was compared with the request's own Host: rewrite both (a DNS-rebinding page's requests carry its
    name in both) and the check passed. Where the dashboard has no keys, the double-submit cookie alone guarded it."""
    client = await aiohttp_client(create_app(settings))  # no keys: nobody signs in
    dead = await insert_job(settings, product_code="REBOUND", **DEAD)
    token = csrf_of(await (await client.get(f"/ui/jobs/{dead['_id']}/redrive")).text())
    other_port = f"127.0.0.1:{client.port + 1}"
    rebinding = f"rebind.example:{client.port}"

    rewritten = await redrive_from(client, dead["_id"], token, f"http://{other_port}", host=other_port)
    rebound = await redrive_from(client, dead["_id"], token, f"http://{rebinding}", host=rebinding)

    assert (rewritten, rebound) == (403, 403)
    assert await is_dead(client, dead["_id"])
    # The addresses it listens on are the dashboard's origins by default; on loopback, `localhost` names them too.
    assert await redrive_from(client, dead["_id"], token, f"http://localhost:{client.port}") == 303


async def test_lps_ui_origins_lists_the_dashboards_public_origins_and_only_those(aiohttp_client, settings: Settings):
    """Behind a proxy the browser's origin is the proxy's: LPS_UI_ORIGINS names it, and then only what it names."""
    client = await aiohttp_client(create_app(settings.with_overrides(ui_origins=("https://lps.example.com",))))
    dead = await insert_job(settings, product_code="PROXIED", **DEAD)
    token = csrf_of(await (await client.get(f"/ui/jobs/{dead['_id']}/redrive")).text())

    direct = await redrive_from(client, dead["_id"], token, str(client.make_url("/")).rstrip("/"))
    other_scheme = await redrive_from(client, dead["_id"], token, "http://lps.example.com")
    proxied = await redrive_from(client, dead["_id"], token, "https://lps.example.com")

    assert (direct, other_scheme, proxied) == (403, 403, 303)
