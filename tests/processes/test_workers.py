"""Worker pools end to end: real RabbitMQ, real `lps worker` (Dramatiq CLI) processes, the Mongo wire
server, and a local aiohttp receiver standing in for the back office's API."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient

from infra.settings import Settings
from schemas.signature import verify_signature
from service.app import create_app
from tests.harness import SECRET, JobsView, delivering, stop_pool, submit, worker_pool, worker_pools
from tools.testbed import Receiver, eventually

#: Every test here starts real processes (worker pools, the CLI, Chromium): the slowest tier.
pytestmark = pytest.mark.processes


@pytest.fixture
def stack_settings(settings: Settings, receiver: Receiver) -> Settings:
    return delivering(settings, receiver)


async def test_job_goes_pending_running_done_and_its_result_is_delivered_once_signed(
    gateway: TestClient, jobs: JobsView, receiver: Receiver, stack_settings: Settings, tmp_path: Path
):
    async with worker_pools(stack_settings, ["search", "outbox"], tmp_path):
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


@pytest.mark.parametrize("queue_type", ["classic", "quorum"])
async def test_high_priority_jobs_sent_after_low_ones_start_first_when_the_pool_is_busy(
    aiohttp_client, jobs: JobsView, stack_settings: Settings, tmp_path: Path, queue_type: str
):
    """Classic: one queue, priorities per message; RabbitMQ hands over the highest next. Quorum: one queue per
    priority band; the worker takes the higher band first among the messages it holds, and holds one more per band
    than it runs, so a low job never slips in between two high ones."""
    settings = stack_settings.with_overrides(outbox_url=None, queue_type=queue_type)
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


async def test_sigterm_lets_the_running_job_finish_before_the_pool_exits(
    gateway: TestClient, jobs: JobsView, stack_settings: Settings, tmp_path: Path
):
    settings = stack_settings.with_overrides(outbox_url=None)
    async with worker_pool(settings, "search", tmp_path, shutdown_timeout=20) as pool:
        [job_id] = await submit(gateway, {"product_code": "GRACEFUL", "keyword": "#slow=2"})
        await eventually(lambda: _status_is(jobs, job_id, "RUNNING"), within=30, what="the job to start")
        returncode = await stop_pool(pool)

    job = await jobs.get(job_id)
    assert returncode == 0
    assert (job["status"], job["attempts"]) == ("DONE", 1)


async def test_a_job_still_running_after_the_shutdown_grace_is_given_back_and_finished_by_another_worker(
    gateway: TestClient, jobs: JobsView, stack_settings: Settings, tmp_path: Path
):
    settings = stack_settings.with_overrides(outbox_url=None)
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
