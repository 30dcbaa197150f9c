"""What hostile messages and source names get from a running stack. Each test reproduced, before its fix, a defect an
attack on the stack found (issue 11)."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest
from aiohttp.test_utils import TestClient
from bson import ObjectId

from infra.broker import job_message
from infra.clock import utcnow
from infra.job_documents import new_job
from infra.jobs import JobRepository
from infra.mongo import MainDatabase, create_client, ensure_indexes
from infra.settings import Settings
from schemas.codes import JobType
from service.app import create_app
from tests.harness import JobsView, in_process_pool
from tools.testbed import eventually


async def post_search(client: TestClient, *products: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    response = await client.post("/v1/lps/search", json={"products": list(products)})
    return response.status, await response.json()


# 1. A test-only source or directive must be unreachable from a production configuration.


async def test_a_source_the_deployment_does_not_enable_is_refused_by_name(aiohttp_client, settings: Settings):
    production = settings.with_overrides(search_sources=("coupang", "naver"), test_directives=False)
    client = await aiohttp_client(create_app(production))

    status, body = await post_search(
        client,
        {"product_code": "P1", "keyword": "k"},
        {"product_code": "P2", "keyword": "x #crash", "sources": ["static"]},
    )

    assert (status, body["result"]) == (400, 101)
    assert "not enabled in this deployment: static" in json.dumps(body["errors"]["products"]["1"]["sources"])
    assert "0" not in body["errors"]["products"]
    stats = await (await client.get("/v1/lps/queue/stats")).json()
    assert stats["stats"]["PENDING"] == 0  # nothing of the refused request was recorded


# 3. Skipping or deferring a message must stop it: a duplicate never runs beside the attempt in flight.
async def test_a_duplicate_message_for_a_running_job_is_deferred_and_never_runs_the_actor(
    settings: Settings, caplog: pytest.LogCaptureFixture
):
    caplog.set_level(logging.INFO)
    settings = settings.with_overrides(search_time_limit=6.0, lease_margin=2.0)
    jobs = JobsView(settings)
    try:
        async with in_process_pool(settings, threads=2) as pool:
            [job_id] = await pool.submit({"product_code": "DUP", "keyword": "dup #slow=3"})

            async def running() -> bool:
                job = await jobs.get(job_id)
                return job is not None and job["status"] == "RUNNING"

            await eventually(running, within=30, what="the job to be RUNNING")
            pool.broker.enqueue(job_message(settings, JobType.SEARCH, job_id, broker_priority=5))

            job = await jobs.finished(job_id, within=30)

            def log() -> str:
                return "\n".join(record.getMessage() for record in caplog.records)

            # The duplicate came back when the lease ended, found the job DONE, and was skipped.
            await eventually(
                lambda: asyncio.sleep(0, f"job {job_id} skipped: its job already ended DONE" in log()),
                within=30,
                what="the deferred duplicate to be skipped",
            )
    finally:
        await jobs.close()

    assert "deferred" in log()
    assert log().count("searched DUP") == 1
    assert (job["status"], job["attempts"]) == ("DONE", 1)
    assert [entry["outcome"] for entry in job["history"]] == ["DONE"]


# 4. A message may spell its job id in upper-case hex: it names the same job, which is claimed and worked once.


async def test_a_message_whose_job_id_is_upper_case_hex_is_worked_not_left_running(settings: Settings):
    client = create_client(settings)
    repository = JobRepository(MainDatabase.open(client, settings.mongo_db))
    jobs = JobsView(settings)
    job_id = ObjectId()
    document = new_job(
        JobType.SEARCH,
        job_id=job_id,
        product_code="UPPER",
        product={"keyword": "upper case id", "sources": ["static"]},
        priority="NORMAL",
        max_attempts=3,
        now=utcnow(),
        message_id="hand-published",
    )
    try:
        await ensure_indexes(MainDatabase.open(client, settings.mongo_db), settings)
        await repository.insert_search_jobs([document])
        async with in_process_pool(settings) as pool:
            pool.broker.enqueue(job_message(settings, JobType.SEARCH, str(job_id).upper(), broker_priority=5))
            job = await jobs.finished(str(job_id), within=30)
    finally:
        await jobs.close()
        await client.close()

    assert (job["status"], job["attempts"], job["result"]["outcome"]) == ("DONE", 1, "FOUND")
