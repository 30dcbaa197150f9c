"""The dashboard at /ui: the overview over the same stats the API serves, and its key login with a CSRF token."""

from __future__ import annotations

import re

from aiohttp.test_utils import TestClient

from infra.settings import Settings
from service.app import create_app
from service.ui import KEY_COOKIE

KEYS = {"ops": "ops-5e6d-admin"}


def csrf_of(html: str) -> str:
    match = re.search(r'name="csrf" value="([^"]+)"', html)
    assert match, "the form carries no CSRF token"
    return match.group(1)


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
    assert (redirected.status, redirected.headers["Location"]) == (303, "/ui/login")

    form = await client.get("/ui/login")
    token = csrf_of(await form.text())
    assert "HttpOnly" in form.headers["Set-Cookie"]
    assert "SameSite=Strict" in form.headers["Set-Cookie"]

    wrong = await client.post("/ui/login", data={"csrf": token, "key": "guess"}, allow_redirects=False)
    assert wrong.status == 403
    assert (await client.get("/ui", allow_redirects=False)).status == 303

    signed_in = await client.post("/ui/login", data={"csrf": token, "key": KEYS["ops"]}, allow_redirects=False)
    assert (signed_in.status, signed_in.headers["Location"]) == (303, "/ui")
    cookie = signed_in.cookies[KEY_COOKIE]
    assert cookie["httponly"]
    assert cookie["samesite"] == "Strict"
    assert (await client.get("/ui", allow_redirects=False)).status == 200


async def test_a_login_post_without_the_session_token_is_refused(aiohttp_client, settings: Settings):
    client = await aiohttp_client(create_app(settings.with_overrides(api_keys=KEYS)))
    await client.get("/ui/login")  # the session has a token; this post does not carry it
    forged = await client.post("/ui/login", data={"csrf": "forged", "key": KEYS["ops"]}, allow_redirects=False)
    assert forged.status == 403
    assert KEY_COOKIE not in forged.cookies
    client.session.cookie_jar.clear()
    bare = await client.post("/ui/login", data={"key": KEYS["ops"]}, allow_redirects=False)
    assert bare.status == 403
