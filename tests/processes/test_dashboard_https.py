"""The dashboard's cookies over HTTPS (a certificate made by `openssl`): Secure there, and not over plain
HTTP."""

from __future__ import annotations

import asyncio
import ssl
from pathlib import Path

import aiohttp
import pytest

from infra.settings import Settings
from service.app import create_app
from service.ui.signin import CSRF_COOKIE, SESSION_COOKIE
from tests.dashboard_pages import KEYS, csrf_of


@pytest.mark.processes
async def test_the_dashboards_cookies_are_secure_over_https_and_not_over_plain_http(
    aiohttp_server, settings: Settings, tmp_path: Path
):
    certificate, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    openssl = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"]
    made = await asyncio.create_subprocess_exec(
        *openssl, "-keyout", str(key), "-out", str(certificate), stderr=asyncio.subprocess.DEVNULL
    )
    assert await made.wait() == 0
    tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    tls.load_cert_chain(certificate, key)
    app = create_app(settings.with_overrides(api_keys=KEYS))
    https = await aiohttp_server(app, ssl=tls)
    plain = await aiohttp_server(create_app(settings.with_overrides(api_keys=KEYS)))

    # unsafe: the jar keeps cookies of an IP address (127.0.0.1), as a browser does.
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
        for server, secure in ((https, True), (plain, False)):
            form = await session.get(server.make_url("/ui/login"), ssl=False)
            token = csrf_of(await form.text())
            login = await session.post(
                server.make_url("/ui/login"),
                data={"csrf": token, "key": KEYS["ops"]},
                headers={"Origin": str(server.make_url("/")).rstrip("/")},
                allow_redirects=False,
                ssl=False,
            )
            assert login.status == 303
            for cookie in (form.cookies[CSRF_COOKIE], login.cookies[SESSION_COOKIE]):
                assert bool(cookie["secure"]) is secure, (server.scheme, cookie)
            session.cookie_jar.clear()
