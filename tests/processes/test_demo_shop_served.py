"""The demo shop as a browser and an operator meet it: its images are served locally, so a browser stays on
loopback, and `lps demo-shop` serves on the given port."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys

import aiohttp
import pytest

from embedded_store.server import wait_for_port
from tests.demo_shop_pages import COLA, DYSON, search_page
from tests.demo_shop_pages import shop as shop
from tests.ports import free_port

# ------------------------------------------------------------------------------------------------ Coupang pages


@pytest.mark.processes
async def test_images_are_served_locally_so_a_browser_stays_on_loopback(shop):
    _, text = await search_page(shop, DYSON)
    sources = re.findall(r'src="([^"]+)"', text)
    response = await shop.get(sources[0])

    assert sources
    assert all(source.startswith("/") and not source.startswith("//") for source in sources)
    assert response.status == 200
    assert response.content_type == "image/png"


# ------------------------------------------------------------------------------------------------ the command


@pytest.mark.processes
async def test_lps_demo_shop_serves_on_the_given_port():
    port = free_port()
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tools.lps", "demo-shop", "--port", str(port),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        assert await asyncio.to_thread(wait_for_port, "127.0.0.1", port, 20), "demo-shop did not listen"
        async with aiohttp.ClientSession(f"http://127.0.0.1:{port}") as http:
            health = await http.get("/healthz")
            page = await http.get("/np/search", params={"q": COLA})
            page_text = await page.text()
    finally:
        process.terminate()
        stdout, _ = await asyncio.wait_for(process.communicate(), timeout=20)
    assert health.status == 200
    assert 'id="product-list"' in page_text
    assert f"LPS_COUPANG_BASE_URL=http://127.0.0.1:{port}" in stdout.decode()
