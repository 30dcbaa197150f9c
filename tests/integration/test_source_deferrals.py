"""Fleet-wide pacing and the circuit breaker with an in-process worker pool, the MongoDB wire server and
RabbitMQ: a job waiting for its source is deferred without burning an attempt, and the breaker opens, defers
and closes."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from infra.settings import Settings
from infra.source_rates import Rate
from service.app import create_app
from tests.demo_shop_pages import MOUSE
from tests.harness import JobsView, in_process_pool
from tools.testbed import eventually


async def source_stats(gateway: TestClient, source: str) -> dict[str, Any]:
    answer = await (await gateway.get("/v1/lps/queue/stats")).json()
    return answer["sources"][source]


async def test_a_job_waiting_for_its_source_is_deferred_again_and_again_without_burning_an_attempt(
    aiohttp_client, settings: Settings, jobs: JobsView
):
    paced = settings.with_overrides(
        source_rates={"static": Rate(1, "m")},  # one search a minute: the second job waits (within this test)
        source_wait=0.2,
        retry_min_backoff=0.2,
        retry_max_backoff=0.5,
        search_max_attempts=1,
    )
    gateway = await aiohttp_client(create_app(paced))
    async with in_process_pool(paced) as pool:
        [first] = await pool.submit({"product_code": "FIRST", "keyword": MOUSE})
        assert (await jobs.finished(first))["status"] == "DONE"
        [waiting] = await pool.submit({"product_code": "WAITING", "keyword": MOUSE})

        async def deferred_three_times() -> dict[str, Any] | None:
            job = await jobs.get(waiting)
            return job if job and job.get("deferrals", 0) >= 3 and job["status"] == "PENDING" else None

        job = await eventually(deferred_three_times, within=60, what="the second job to be deferred three times")
        stats = await eventually(lambda: _with_deferred_job(gateway), within=30, what="stats to show the deferred job")

    assert job["attempts"] == 0  # given back each time: max_attempts 1 would have made it DEAD
    assert job["history"] == []
    assert "last_error" not in job
    assert job["deferred"]["sources"] == ["static"]
    assert job["deferred"]["reason"].startswith("static: rate 1/m reached")
    assert (stats["rate"], stats["tokens_used"], stats["tokens_left"]) == ("1/m", 1, 0)


async def _with_deferred_job(gateway: TestClient) -> dict[str, Any] | None:
    stats = await source_stats(gateway, "static")
    return stats if stats["deferred_jobs"] == 1 else None


async def test_the_breaker_opens_on_blocked_searches_defers_the_next_job_then_its_probe_closes_it(
    aiohttp_client, settings: Settings, jobs: JobsView, caplog: pytest.LogCaptureFixture
):
    caplog.set_level(logging.INFO)
    tuned = settings.with_overrides(
        breaker_threshold=0.5,
        breaker_window=4,  # two BLOCKED searches of the last four open it
        breaker_cooldown=3.0,
        retry_min_backoff=0.2,
        retry_max_backoff=1.0,
        search_max_attempts=1,
    )
    gateway = await aiohttp_client(create_app(tuned))
    # One thread takes the three jobs in the order they were sent: two blocked searches, then one that answers.
    async with in_process_pool(tuned, threads=1) as pool:
        first, second, answering = await pool.submit(
            {"product_code": "BLOCKED-1", "keyword": "x #blocked"},
            {"product_code": "BLOCKED-2", "keyword": "y #blocked"},
            {"product_code": "ANSWERS", "keyword": MOUSE},
        )
        blocked = [await jobs.finished(job_id) for job_id in (first, second)]
        opened = (await source_stats(gateway, "static"))["breaker"]
        done = await jobs.finished(answering, within=60)
        closed = (await source_stats(gateway, "static"))["breaker"]
        log = "\n".join(record.getMessage() for record in caplog.records)

    assert [(job["status"], job["last_error"]["type"]) for job in blocked] == [("DEAD", "BLOCKED")] * 2
    assert (opened["state"], opened["trips"]) == ("OPEN", 1)
    # Held back while open (its one attempt never spent), then its search was the probe and answered.
    assert (done["status"], done["attempts"], done["result"]["outcome"]) == ("DONE", 1, "FOUND")
    assert done["deferrals"] >= 1
    assert [entry["outcome"] for entry in done["history"]] == ["DONE"]
    assert (closed["state"], closed["trips"], closed["consecutive_trips"]) == ("CLOSED", 1, 0)
    for change in ("circuit breaker OPEN for 3s", "circuit breaker HALF_OPEN", "circuit breaker CLOSED"):
        assert change in log
