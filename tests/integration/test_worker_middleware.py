"""What the workers' middleware and actors make of a job, worked in process: the workers' own broker set-up
(claim, decide, retry, give-back) on Dramatiq's StubBroker with an in-process Worker, the Mongo wire server, and a
local receiver for deliveries. The `lps worker` process itself (signals, its log, priorities) is
tests/processes/test_workers.py.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from infra.broker import job_message
from infra.logs import DropDramatiqSkipWarnings
from infra.settings import Settings
from schemas.codes import JobType
from service.app import create_app
from tests.harness import InProcessPool, JobsView, delivering, in_process_pool
from tools.testbed import Receiver, eventually


@pytest.fixture
def stack_settings(settings: Settings, receiver: Receiver) -> Settings:
    return delivering(settings, receiver)


@pytest.fixture
async def pool(stack_settings: Settings) -> AsyncIterator[InProcessPool]:
    async with in_process_pool(stack_settings) as pool:
        yield pool


async def test_receiver_failing_twice_then_accepting_gives_outbox_done_after_three_attempts(
    pool: InProcessPool, jobs: JobsView, receiver: Receiver
):
    receiver.fail_next(1, status=503)
    receiver.fail_next(1, status=429, headers={"Retry-After": "0"})
    [job_id] = await pool.submit({"product_code": "RETRY-OUT", "keyword": "k"})
    outbox = await jobs.outbox_of(job_id)

    assert outbox["status"] == "DONE"
    assert outbox["attempts"] == 3
    assert [entry["outcome"] for entry in outbox["history"]] == ["RETRY", "RETRY", "DONE"]
    assert [entry["attempt"] for entry in outbox["history"]] == [1, 2, 3]
    assert outbox["history"][0]["error"]["type"] == "DELIVERY_FAILED"
    assert {d["headers"]["Idempotency-Key"] for d in receiver.deliveries} == {str(outbox["_id"])}
    assert len(receiver.deliveries) == 3


async def test_a_delivery_job_is_recorded_as_published_once_the_broker_confirmed_it(
    pool: InProcessPool, jobs: JobsView
):
    """Stored unconfirmed (a worker killed before its publish leaves it to the reconciler's next pass): once published,
    its `enqueued_at` says so, or every delivery would be published a second time by that pass."""
    [job_id] = await pool.submit({"product_code": "CONFIRMED-OUT", "keyword": "k"})
    outbox = await jobs.outbox_of(job_id)

    async def confirmed() -> bool:
        job = await jobs.get(outbox["_id"])
        return job is not None and job.get("enqueued_at") is not None

    await eventually(confirmed, within=10, what="the delivery job's publish to be recorded")


async def test_receiver_refusing_with_4xx_kills_the_delivery_at_once(
    pool: InProcessPool, jobs: JobsView, receiver: Receiver
):
    receiver.fail_next(1, status=422)
    [job_id] = await pool.submit({"product_code": "REFUSED", "keyword": "k"})
    outbox = await jobs.outbox_of(job_id)

    assert (outbox["status"], outbox["attempts"]) == ("DEAD", 1)
    assert outbox["last_error"]["type"] == "DELIVERY_REJECTED"
    assert len(receiver.deliveries) == 1


async def test_always_failing_provider_is_dead_after_max_attempts_and_the_product_is_free_again(
    pool: InProcessPool, jobs: JobsView, stack_settings: Settings
):
    [job_id] = await pool.submit({"product_code": "ALWAYS-FAILS", "keyword": "#fail"})
    job = await jobs.finished(job_id)

    assert job["status"] == "DEAD"
    assert job["attempts"] == stack_settings.search_max_attempts == 3
    assert job["last_error"]["type"] == "ERROR"
    assert "asked to fail" in job["last_error"]["message"]
    assert [entry["outcome"] for entry in job["history"]] == ["RETRY", "RETRY", "DEAD"]
    assert "active" not in job
    [again] = await pool.submit({"product_code": "ALWAYS-FAILS", "keyword": "fixed"})
    assert again != job_id


async def test_non_retryable_error_is_dead_after_one_attempt(pool: InProcessPool, jobs: JobsView):
    [job_id] = await pool.submit({"product_code": "FATAL", "keyword": "#fatal"})
    job = await jobs.finished(job_id)

    assert (job["status"], job["attempts"]) == ("DEAD", 1)
    assert job["last_error"]["type"] == "INVALID_PRODUCT"


async def test_a_second_message_for_a_done_job_does_no_work(
    pool: InProcessPool,
    jobs: JobsView,
    receiver: Receiver,
    stack_settings: Settings,
    caplog: pytest.LogCaptureFixture,
):
    caplog.set_level(logging.INFO)
    [job_id] = await pool.submit({"product_code": "TWICE", "keyword": "k"})
    done = await jobs.finished(job_id)
    await jobs.outbox_of(job_id)
    pool.broker.enqueue(job_message(stack_settings, JobType.SEARCH, job_id, 5))
    skipped = f"job {job_id} skipped: its job already ended DONE"

    async def said() -> bool:
        return any(skipped in record.getMessage() for record in caplog.records)

    await eventually(said, within=30, what="the duplicate's skip")
    # Said once, with its reason, at INFO; Dramatiq's bare warning beside it is one the workers' log filter drops.
    [said_once] = [record for record in caplog.records if skipped in record.getMessage()]
    assert said_once.levelno == logging.INFO
    bare = [record for record in caplog.records if "was skipped" in record.getMessage()]
    assert bare
    assert not [record for record in bare if DropDramatiqSkipWarnings().filter(record)]
    again = await jobs.get(job_id)
    assert again is not None
    assert again["attempts"] == done["attempts"] == 1
    assert again["history"] == done["history"]
    assert again["finished_at"] == done["finished_at"]
    assert len(receiver.deliveries) == 1


async def test_job_lookup_shows_attempts_and_history_while_the_job_is_retrying(
    aiohttp_client, stack_settings: Settings
):
    settings = stack_settings.with_overrides(retry_min_backoff=3.0, retry_max_backoff=5.0)
    gateway: TestClient = await aiohttp_client(create_app(settings))
    async with in_process_pool(settings) as pool:
        [job_id] = await pool.submit({"product_code": "SHOW-RETRY", "keyword": "#fail"})

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
