"""One client's listings cannot starve the others', and the per-client rate limit covers the dashboard (issue 22,
item 20: ten listings in flight from one key once turned 59 of 200 answers into 503s)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from infra.job_listing import ListingPage
from infra.jobs import JobRepository
from infra.settings import Settings
from service.app import create_app

KEYS = {"heavy": "heavy-0f3a9c", "other": "other-7b21d4"}


async def test_a_client_holds_at_most_its_listing_slots_and_another_client_still_lists(
    aiohttp_client, settings: Settings, monkeypatch: pytest.MonkeyPatch
):
    in_flight: dict[str, int] = {"now": 0, "most": 0}

    async def slow_newest(self: JobRepository, *args: Any, **kwargs: Any) -> ListingPage:
        in_flight["now"] += 1
        in_flight["most"] = max(in_flight["most"], in_flight["now"])
        await asyncio.sleep(0.3)
        in_flight["now"] -= 1
        return ListingPage([], None)

    monkeypatch.setattr(JobRepository, "newest", slow_newest)
    client = await aiohttp_client(create_app(settings.with_overrides(api_keys=KEYS, listing_concurrency=2)))

    def listing(key: str) -> Any:
        return client.get("/v1/lps/jobs", headers={"X-API-Key": key})

    answers = await asyncio.gather(*(listing(KEYS["heavy"]) for _ in range(10)), listing(KEYS["other"]))
    heavy, other = answers[:10], answers[10]

    assert sorted(answer.status for answer in heavy) == [200] * 2 + [429] * 8
    refused = next(answer for answer in heavy if answer.status == 429)
    assert (refused.headers["Retry-After"], (await refused.json())["result"]) == ("1", 429)
    assert other.status == 200  # the other client had slots of its own
    assert in_flight["most"] == 3  # two of the heavy client's, one of the other's
    assert (await listing(KEYS["heavy"])).status == 200  # slots are given back


async def test_dashboard_pages_count_against_the_per_client_rate_limit(aiohttp_client, settings: Settings):
    limited = settings.with_overrides(rate_limit_per_second=0.01, rate_limit_burst=3)
    client = await aiohttp_client(create_app(limited))

    pages = [await client.get("/ui/jobs") for _ in range(4)]
    stylesheet = await client.get("/ui/static/dashboard.css")

    assert [page.status for page in pages] == [200, 200, 200, 429]
    assert int(pages[-1].headers["Retry-After"]) >= 1
    assert stylesheet.status == 200  # what a page load asks for alongside is not counted
