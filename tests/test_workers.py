"""Worker pools end to end: real RabbitMQ, real `lps worker` (Dramatiq CLI) processes, the Mongo wire
server, and a local aiohttp receiver standing in for the back office's API."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from infra.broker import Publisher, create_broker, job_message
from infra.settings import Settings
from schemas.codes import JobType
from schemas.signature import verify_signature
from service.app import create_app
from tests.harness import JobsView, stop_pool, worker_pool
from tools.testbed import Receiver, eventually

#: Every test here starts real processes (worker pools, the CLI, Chromium): the slowest tier.
pytestmark = pytest.mark.processes

SECRET = "s3cret"


@pytest.fixture
def fast_settings(settings: Settings, receiver: Receiver) -> Settings:
    return settings.with_overrides(
        outbox_url=receiver.url,
        outbox_secret=SECRET,
        retry_min_backoff=0.2,
        retry_max_backoff=1.0,
        search_max_attempts=3,
        outbox_max_attempts=5,
    )


@pytest.fixture
async def gateway(aiohttp_client, fast_settings: Settings) -> TestClient:
    return await aiohttp_client(create_app(fast_settings))


@pytest.fixture
async def jobs(fast_settings: Settings) -> AsyncIterator[JobsView]:
    view = JobsView(fast_settings)
    yield view
    await view.close()


async def submit(gateway: TestClient, *products: dict[str, Any], priority: str | None = None) -> list[str]:
    body: dict[str, Any] = {"products": list(products)}
    if priority:
        body["priority"] = priority
    response = await gateway.post("/v1/lps/search", json=body)
    answer = await response.json()
    assert answer["result"] == 0, answer
    return [job["job_id"] for job in answer["jobs"]]


async def test_job_goes_pending_running_done_and_its_result_is_delivered_once_signed(
    gateway: TestClient, jobs: JobsView, receiver: Receiver, fast_settings: Settings, tmp_path: Path
):
    async with worker_pool(fast_settings, "search", tmp_path), worker_pool(fast_settings, "outbox", tmp_path):
        [job_id] = await submit(gateway, {"product_code": "E2E-1", "keyword": "무선 이어폰"})
        search = await jobs.finished(job_id)
        outbox = await jobs.outbox_of(job_id)

    assert search["status"] == "DONE"
    assert "active" not in search
    assert search["attempts"] == 1
    assert [entry["outcome"] for entry in search["history"]] == ["DONE"]
    result = search["result"]
    assert result["outcome"] == "FOUND"
    assert result["sources"]["static"]["outcome"] == "FOUND"
    assert result["sources"]["static"]["count"] == 5
    cheapest_eligible = min(
        (o for o in result["offers"] if not o["is_ad"] and not o["sold_out"]), key=lambda o: o["price"]
    )
    assert result["lowest"] == cheapest_eligible
    assert result["lowest"]["price"] > min(o["price"] for o in result["offers"])  # the cheaper ad did not win

    assert outbox["status"] == "DONE"
    assert outbox["delivery"]["status_code"] == 200
    [delivery] = receiver.deliveries
    assert delivery["headers"]["Idempotency-Key"] == str(outbox["_id"])
    assert verify_signature(delivery["body"], SECRET, delivery["headers"]["X-LPS-Signature"])
    payload = json.loads(delivery["body"])
    assert payload["job_id"] == job_id
    assert payload["product_code"] == "E2E-1"
    assert payload["result"]["lowest"]["price"] == result["lowest"]["price"]


async def test_receiver_failing_twice_then_accepting_gives_outbox_done_after_three_attempts(
    gateway: TestClient, jobs: JobsView, receiver: Receiver, fast_settings: Settings, tmp_path: Path
):
    receiver.fail_next(1, status=503)
    receiver.fail_next(1, status=429, headers={"Retry-After": "0"})
    async with worker_pool(fast_settings, "search", tmp_path), worker_pool(fast_settings, "outbox", tmp_path):
        [job_id] = await submit(gateway, {"product_code": "RETRY-OUT", "keyword": "k"})
        outbox = await jobs.outbox_of(job_id)

    assert outbox["status"] == "DONE"
    assert outbox["attempts"] == 3
    assert [entry["outcome"] for entry in outbox["history"]] == ["RETRY", "RETRY", "DONE"]
    assert [entry["attempt"] for entry in outbox["history"]] == [1, 2, 3]
    assert outbox["history"][0]["error"]["type"] == "DELIVERY_FAILED"
    assert {d["headers"]["Idempotency-Key"] for d in receiver.deliveries} == {str(outbox["_id"])}
    assert len(receiver.deliveries) == 3


async def test_receiver_refusing_with_4xx_kills_the_delivery_at_once(
    gateway: TestClient, jobs: JobsView, receiver: Receiver, fast_settings: Settings, tmp_path: Path
):
    receiver.fail_next(1, status=422)
    async with worker_pool(fast_settings, "search", tmp_path), worker_pool(fast_settings, "outbox", tmp_path):
        [job_id] = await submit(gateway, {"product_code": "REFUSED", "keyword": "k"})
        outbox = await jobs.outbox_of(job_id)

    assert (outbox["status"], outbox["attempts"]) == ("DEAD", 1)
    assert outbox["last_error"]["type"] == "DELIVERY_REJECTED"


async def test_always_failing_provider_is_dead_after_max_attempts_and_the_product_is_free_again(
    gateway: TestClient, jobs: JobsView, fast_settings: Settings, tmp_path: Path
):
    async with worker_pool(fast_settings, "search", tmp_path):
        [job_id] = await submit(gateway, {"product_code": "ALWAYS-FAILS", "keyword": "#fail"})
        job = await jobs.finished(job_id)

    assert job["status"] == "DEAD"
    assert job["attempts"] == fast_settings.search_max_attempts == 3
    assert job["last_error"]["type"] == "ERROR"
    assert "asked to fail" in job["last_error"]["message"]
    assert [entry["outcome"] for entry in job["history"]] == ["RETRY", "RETRY", "DEAD"]
    assert "active" not in job
    [again] = await submit(gateway, {"product_code": "ALWAYS-FAILS", "keyword": "fixed"})
    assert again != job_id


async def test_non_retryable_error_is_dead_after_one_attempt(
    gateway: TestClient, jobs: JobsView, fast_settings: Settings, tmp_path: Path
):
    async with worker_pool(fast_settings, "search", tmp_path):
        [job_id] = await submit(gateway, {"product_code": "FATAL", "keyword": "#fatal"})
        job = await jobs.finished(job_id)

    assert (job["status"], job["attempts"]) == ("DEAD", 1)
    assert job["last_error"]["type"] == "INVALID_PRODUCT"


async def test_a_second_message_for_a_done_job_does_no_work(
    gateway: TestClient, jobs: JobsView, receiver: Receiver, fast_settings: Settings, tmp_path: Path
):
    async with worker_pool(fast_settings, "search", tmp_path) as search, worker_pool(fast_settings, "outbox", tmp_path):
        [job_id] = await submit(gateway, {"product_code": "TWICE", "keyword": "k"})
        done = await jobs.finished(job_id)
        await jobs.outbox_of(job_id)
        publisher = Publisher(create_broker(fast_settings, middleware=[]))
        await publisher.publish([job_message(fast_settings, JobType.SEARCH, job_id, 5)])
        await publisher.close()
        skipped = f"job {job_id} skipped: its job already ended DONE"
        await eventually(lambda: asyncio.sleep(0, skipped in search.log()), within=30, what="the duplicate's skip")
        assert "was skipped" not in search.log()  # said once, with its reason, at INFO; not Dramatiq's bare warning

    again = await jobs.get(job_id)
    assert again["attempts"] == done["attempts"] == 1
    assert again["history"] == done["history"]
    assert again["finished_at"] == done["finished_at"]
    assert len(receiver.deliveries) == 1


@pytest.mark.parametrize("queue_type", ["classic", "quorum"])
async def test_high_priority_jobs_sent_after_low_ones_start_first_when_the_pool_is_busy(
    aiohttp_client, jobs: JobsView, fast_settings: Settings, tmp_path: Path, queue_type: str
):
    """Classic: one queue, priorities per message; RabbitMQ hands over the highest next. Quorum: one queue per
    priority band; the worker takes the higher band first among the messages it holds, and holds one more per band
    than it runs, so a low job never slips in between two high ones."""
    settings = fast_settings.with_overrides(outbox_url=None, queue_type=queue_type)
    gateway = await aiohttp_client(create_app(settings))
    async with worker_pool(settings, "search", tmp_path, threads=1):
        [blocker] = await submit(gateway, {"product_code": "BLOCKER", "keyword": "#slow=2"})
        await eventually(lambda: _status_is(jobs, blocker, "RUNNING"), within=30, what="the blocker to occupy the pool")
        low = await submit(
            gateway, *({"product_code": f"LOW-{i}", "keyword": "#slow=0.1"} for i in range(6)), priority="LOW"
        )
        high = await submit(
            gateway, *({"product_code": f"HIGH-{i}", "keyword": "#slow=0.1"} for i in range(3)), priority="HIGH"
        )
        finished = {str(job["_id"]): job for job in [await jobs.finished(job_id) for job_id in low + high]}

    last_high = max(finished[job_id]["started_at"] for job_id in high)
    low_before = [job_id for job_id in low if finished[job_id]["started_at"] < last_high]
    assert low_before == [], queue_type


async def _status_is(jobs: JobsView, job_id: str, status: str) -> bool:
    job = await jobs.get(job_id)
    return bool(job and job["status"] == status)


async def test_job_lookup_shows_attempts_and_history_while_the_job_is_retrying(
    gateway: TestClient, fast_settings: Settings, jobs: JobsView, tmp_path: Path
):
    async with worker_pool(
        fast_settings.with_overrides(retry_min_backoff=3.0, retry_max_backoff=5.0), "search", tmp_path
    ):
        [job_id] = await submit(gateway, {"product_code": "SHOW-RETRY", "keyword": "#fail"})

        async def retrying() -> dict[str, Any] | None:
            body = await (await gateway.get(f"/v1/lps/jobs/{job_id}")).json()
            job = body["job"]
            return job if job["status"] == "PENDING" and job["attempts"] >= 1 and job.get("history") else None

        job = await eventually(retrying, within=30, what="the job to wait for its retry")

    assert job["attempts"] == 1
    assert job["last_error"]["type"] == "ERROR"
    assert job["history"][0]["outcome"] == "RETRY"
    assert job["history"][0]["worker"]
    assert job["run_after"] > job["history"][0]["finished_at"]


async def test_sigterm_lets_the_running_job_finish_before_the_pool_exits(
    gateway: TestClient, jobs: JobsView, fast_settings: Settings, tmp_path: Path
):
    settings = fast_settings.with_overrides(outbox_url=None)
    async with worker_pool(settings, "search", tmp_path, shutdown_timeout=20) as pool:
        [job_id] = await submit(gateway, {"product_code": "GRACEFUL", "keyword": "#slow=2"})
        await eventually(lambda: _status_is(jobs, job_id, "RUNNING"), within=30, what="the job to start")
        returncode = await stop_pool(pool)

    job = await jobs.get(job_id)
    assert returncode == 0
    assert (job["status"], job["attempts"]) == ("DONE", 1)


async def test_a_job_still_running_after_the_shutdown_grace_is_given_back_and_finished_by_another_worker(
    gateway: TestClient, jobs: JobsView, fast_settings: Settings, tmp_path: Path
):
    settings = fast_settings.with_overrides(outbox_url=None)
    async with worker_pool(settings, "search", tmp_path, shutdown_timeout=1) as first:
        [job_id] = await submit(gateway, {"product_code": "CUT-OFF", "keyword": "#slow=8"})
        await eventually(lambda: _status_is(jobs, job_id, "RUNNING"), within=30, what="the job to start")
        async with worker_pool(settings, "search", tmp_path):
            stopping = time.monotonic()
            returncode = await stop_pool(first)
            stopped_after = time.monotonic() - stopping
            job = await jobs.finished(job_id, within=60)

    assert returncode == 0
    assert stopped_after < 8, "the pool waited for the search instead of giving it back after its 1 s grace"
    # Given back, not spent: the one attempt on record is the other worker's, and the job counts the give-back.
    assert (job["status"], job["attempts"], job["deferrals"]) == ("DONE", 1, 1)
    assert [entry["outcome"] for entry in job["history"]] == ["DONE"]
    assert "its worker stopped during the attempt and gave it back" in first.log()
