"""Watches end to end: the gateway, `lps reconciler` (the scheduler), both worker pools and the receiver, all
real: what is delivered on change and below target, and when a result counts as delivered."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient
from bson import ObjectId

from actors.sources.static import StaticSource
from infra.settings import Settings
from tests.harness import JobsView, reconciler_process, worker_pools
from tests.watch_api import post
from tools.testbed import Receiver, eventually


@pytest.fixture
def stack_settings(settings: Settings, receiver: Receiver) -> Settings:
    return settings.with_overrides(
        outbox_url=receiver.url,
        outbox_secret="s",
        watch_min_interval=1.0,
        watch_poll_interval=0.2,
        watch_max_jitter=0.0,
    )


@contextlib.asynccontextmanager
async def running(settings: Settings, log_dir: Path) -> AsyncIterator[JobsView]:
    view = JobsView(settings)
    async with (
        worker_pools(settings, ["search", "outbox"], log_dir),
        reconciler_process(settings, log_dir),
    ):
        yield view
    await view.close()


async def judged(jobs: JobsView, keyword: str, count: int) -> list[dict[str, Any]]:
    """Wait until `count` searches of `keyword` started by a watch had their delivery judged; their OUTBOX jobs."""

    async def probe() -> list[dict[str, Any]] | None:
        searches = await jobs.jobs.find(
            {"job_type": "SEARCH", "watch_id": {"$exists": True}, "product.keyword": keyword}, {"_id": 1}
        ).to_list()
        outboxes = [
            outbox
            for search in searches
            if (outbox := await jobs.jobs.find_one({"job_type": "OUTBOX", "source_job_id": search["_id"]}))
            and outbox["status"] == "DONE"
        ]
        return outboxes if len(outboxes) >= count else None

    return await eventually(probe, within=45, what=f"{count} judged results of {keyword!r}")


def price_of(keyword: str) -> int:
    """The static source's lowest eligible price for a keyword: the third of its offers (an ad and a sold-out
    offer are cheaper)."""
    return StaticSource.offers_for(keyword)[2].price


CHEAP, DEAR = "market item 39", "market item 4"


@pytest.mark.processes
async def test_on_change_delivers_the_first_result_and_then_only_changes(
    gateway: TestClient, stack_settings: Settings, receiver: Receiver, tmp_path: Path
):
    async with running(stack_settings, tmp_path) as jobs:
        _, answer = await post(
            gateway, {"products": [{"product_code": "OC-1", "keyword": DEAR}], "every": "1s", "notify": "on_change"}
        )
        watch_id = answer["watches"][0]["watch_id"]
        unchanged = await judged(jobs, DEAR, 3)
        # The market moves: the same product now finds another price.
        await gateway.patch(f"/v1/lps/watches/{watch_id}", json={"keyword": CHEAP})
        await judged(jobs, CHEAP, 2)
        watch = (await (await gateway.get(f"/v1/lps/watches/{watch_id}")).json())["watch"]

    payloads = [json.loads(delivery["body"]) for delivery in receiver.deliveries]
    assert [p["result"]["lowest"]["price"] for p in payloads] == [price_of(DEAR), price_of(CHEAP)]
    assert {p["watch_id"] for p in payloads} == {watch_id}
    skipped = [o["delivery"] for o in unchanged if o["delivery"].get("status") == "skipped"]
    assert len(skipped) >= 2
    assert {d["reason"] for d in skipped} == {"unchanged"}
    assert watch["last_delivered"]["lowest_price"] == price_of(CHEAP)
    assert watch["deliveries"] == 2
    assert watch["deliveries_skipped"] >= 3
    assert watch["lowest_prices"][0]["lowest_price"] in (price_of(CHEAP), price_of(DEAR))


@pytest.mark.processes
async def test_a_result_is_recorded_delivered_only_after_the_receivers_2xx(
    gateway: TestClient, stack_settings: Settings, receiver: Receiver, tmp_path: Path
):
    # The first delivery is refused for good (its OUTBOX job ends DEAD), the second fails and is retried.
    receiver.fail_next(1, status=400)
    receiver.fail_next(1, status=503)
    settings = stack_settings.with_overrides(retry_min_backoff=0.2, retry_max_backoff=0.5)
    async with running(settings, tmp_path) as jobs:
        _, answer = await post(
            gateway, {"products": [{"product_code": "RD-1", "keyword": DEAR}], "every": "1s", "notify": "on_change"}
        )
        watch_id = answer["watches"][0]["watch_id"]
        await judged(jobs, DEAR, 4)
        watch = (await (await gateway.get(f"/v1/lps/watches/{watch_id}")).json())["watch"]
        refused, failed, *taken = [json.loads(delivery["body"])["job_id"] for delivery in receiver.deliveries]
        retried = await jobs.jobs.find_one({"job_type": "OUTBOX", "source_job_id": ObjectId(failed)})

    # The refused result was never recorded as delivered, so an unchanged price after it was still delivered.
    assert taken, receiver.deliveries
    assert refused not in taken
    assert watch["last_delivered"]["job_id"] == taken[-1]
    assert watch["deliveries"] == len(set(taken))
    # The retried one was delivered, or skipped as superseded by a newer result judged before its retry.
    assert failed in taken or retried["delivery"]["reason"] == "superseded"


@pytest.mark.processes
async def test_below_target_fires_once_per_crossing(
    gateway: TestClient, stack_settings: Settings, receiver: Receiver, tmp_path: Path
):
    target = (price_of(CHEAP) + price_of(DEAR)) // 2
    product = {"product_code": "BT-1", "keyword": DEAR, "target_price": target}
    async with running(stack_settings, tmp_path) as jobs:
        _, answer = await post(gateway, {"products": [product], "every": "1s", "notify": "below_target"})
        url = f"/v1/lps/watches/{answer['watches'][0]['watch_id']}"
        await judged(jobs, DEAR, 2)
        assert receiver.deliveries == []
        await gateway.patch(url, json={"keyword": CHEAP})
        await judged(jobs, CHEAP, 3)
        assert len(receiver.deliveries) == 1
        await gateway.patch(url, json={"keyword": DEAR})
        await judged(jobs, DEAR, 4)
        await gateway.patch(url, json={"keyword": CHEAP})
        await judged(jobs, CHEAP, 5)

    payloads = [json.loads(delivery["body"]) for delivery in receiver.deliveries]
    assert [p["result"]["lowest"]["price"] for p in payloads] == [price_of(CHEAP)] * 2
