"""The OpenAPI document in Swagger UI, in the system Chromium: "Try it out" fills in the search example."""

from __future__ import annotations

import asyncio
import json

import pytest
from playwright.async_api import Browser

from infra.settings import Settings
from service.app import create_app
from tests.harness import ARTIFACTS, screenshot


@pytest.mark.processes
async def test_swagger_ui_try_it_out_fills_in_the_search_example(page_server, settings: Settings, browser: Browser):
    server = await page_server(create_app(settings))
    await asyncio.to_thread(ARTIFACTS.mkdir, parents=True, exist_ok=True)
    page = await browser.new_page(viewport={"width": 1280, "height": 1400})
    await page.goto(str(server.make_url("/api/docs")))
    await page.locator("#operations-search-post_v1_lps_search").click()
    await page.get_by_role("button", name="Try it out").click()
    body = page.locator("#operations-search-post_v1_lps_search textarea.body-param__text")
    await body.wait_for()
    posted = json.loads(await body.input_value())
    await screenshot(page.locator("#operations-search-post_v1_lps_search"), ARTIFACTS / "swagger-try-it-out-search.png")
    assert "Authorize" in await page.locator(".auth-wrapper").inner_text()
    assert posted["products"][0] == {
        "product_code": "SKU-1001",
        "keyword": "삼성 갤럭시 버즈3 프로",
        "model_no": "SM-R630",
        "target_price": 259000,
    }
