"""A defect an attack on the gateway found (issue 11), reproduced before its fix: a store that freezes (its
process stopped) is answered 503 within the store's timeout, and a retried POST gets the same jobs."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from infra.reconciler import open_reconciler
from infra.settings import Settings
from service.app import create_app
from tests.gateway_calls import PRODUCT, search
from tests.harness import JobsView, MongoProcess
from tests.ports import free_port

# --- a hung store: answered within its timeout, and a 503 never hides a completed write ---
FROZEN_TIMEOUT_MS = 1000
#: What the test allows beyond LPS_MONGO_TIMEOUT_MS for the answer to come (scheduling on a busy 2-core machine).
MARGIN = 1.5
#: Before the fix the answer came only when the driver's next heartbeat (every 10 s) failed, or when its socket
#: timeout passed: a freeze this long after the last one was answered 5 to 9 s later, with a 1 s timeout.
QUIET_BEFORE_FREEZE = 3.0
FREEZES = 2
#: How many times the client posts the batch again once the store runs: more than once only where a loaded machine's
#: store answers the first repost 503 as well (seen on a machine running Python three times slower, at a load of 9,
#: where three reposts in a row were answered 503 once in five clean runs). Each try must still get the same jobs.
REPOSTS = 8


async def settled_count(jobs: JobsView, query: dict[str, Any], *, within: float = 20.0) -> int:
    """The number of matching jobs once it stopped changing for half a second."""
    deadline = time.monotonic() + within
    count = await jobs.jobs.count_documents(query)
    while time.monotonic() < deadline:
        await asyncio.sleep(0.5)
        previous, count = count, await jobs.jobs.count_documents(query)
        if count == previous:
            return count
    raise AssertionError(f"the store kept writing for {within}s")


async def ready(client: TestClient, *, within: float = 20.0) -> None:
    deadline = time.monotonic() + within
    while (await client.get("/readyz")).status != 200:
        assert time.monotonic() < deadline, f"the gateway was not ready again within {within}s"
        await asyncio.sleep(0.2)


@pytest.mark.processes
async def test_a_frozen_store_is_answered_503_within_the_timeout_and_a_retried_post_gets_the_same_jobs(
    aiohttp_client, settings: Settings, tmp_path: Path
):
    mongo = MongoProcess(free_port(), tmp_path / "store.sqlite")
    await asyncio.to_thread(mongo.start)
    settings = settings.with_overrides(mongo_url=mongo.url, mongo_timeout_ms=FROZEN_TIMEOUT_MS, reconcile_grace=0.0)
    gateway = await aiohttp_client(create_app(settings))
    jobs = JobsView(settings)
    # Few enough for the embedded store to write well within the timeout once it runs again.
    products = [{"product_code": f"FROZEN-{index}", "keyword": "k"} for index in range(40)]
    codes = [product["product_code"] for product in products]
    try:
        status, _ = await search(gateway, [PRODUCT])
        assert status == 200  # connected: the pool holds a connection to the store that is about to freeze

        for _ in range(FREEZES):
            await asyncio.sleep(QUIET_BEFORE_FREEZE)
            mongo.freeze()
            try:
                # Bounded here, so a hanging gateway fails the test instead of stalling it.
                status, body = await asyncio.wait_for(search(gateway, products), FROZEN_TIMEOUT_MS / 1000 + MARGIN)
            finally:
                mongo.resume()
            assert (status, body["result"]) == (503, 10)
            await ready(gateway)

        # The store runs the refused batches' inserts once it runs again: wait until it has settled.
        landed = await settled_count(jobs, {"product_code": {"$in": codes}})

        for _ in range(REPOSTS):
            reposted_at = datetime.now(UTC)
            status, body = await search(gateway, products)
            if status != 503:
                break
            # A loaded machine's store may not write the batch within the 1 s timeout: the client is told so (503,
            # nothing lost) and posts again, as a client does; what that try wrote comes back as duplicates.
            await ready(gateway)
            await settled_count(jobs, {"product_code": {"$in": codes}})
        assert (status, body["result"]) == (200, 0)
        answered = {job["product_code"]: job for job in body["jobs"]}
        assert list(answered) == codes
        # One job per product, and it is the one the client was told about.
        stored = {job["product_code"]: job async for job in jobs.jobs.find({"product_code": {"$in": codes}})}
        assert {code: str(job["_id"]) for code, job in stored.items()} == {
            code: job["job_id"] for code, job in answered.items()
        }
        # A job the refused request did write comes back marked duplicate; the others are new.
        from_refused = {code for code, job in stored.items() if job["created_at"] < reposted_at}
        assert {code for code, job in answered.items() if job["duplicate"]} == from_refused
        assert len(from_refused) >= landed

        # A landed job was never published (the request failed before that): the reconciler publishes it.
        async with open_reconciler(settings) as reconciler:
            done = await reconciler.run_once()
        assert done["republished_unconfirmed"] == len(from_refused)
        unpublished = await jobs.jobs.count_documents({"product_code": {"$in": codes}, "enqueued_at": None})
        assert unpublished == 0
    finally:
        await jobs.close()
        await asyncio.to_thread(mongo.stop)
