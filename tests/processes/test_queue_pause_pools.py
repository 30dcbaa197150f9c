"""Pausing a job type's work with real `lps worker` pools: they stop taking messages within a few seconds,
spend no attempt while paused, stay paused across their own restart, and work everything after resume."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pika
import pika.exceptions
import pytest
from aiohttp.test_utils import TestClient

from infra.settings import Settings
from schemas.codes import JobType
from tests.harness import JobsView, _start_pool, stop_pool, submit, worker_pool
from tests.queue_admin import _post
from tools.testbed import admin_connection, eventually


def _queue_counts(amqp_url: str, queue: str) -> tuple[int, int]:
    """(ready messages, consumers) of a queue."""
    connection = admin_connection(amqp_url)
    try:
        method = connection.channel().queue_declare(queue, passive=True).method
        return int(method.message_count), int(method.consumer_count)
    except pika.exceptions.ChannelClosedByBroker:
        return 0, 0
    finally:
        connection.close()


@pytest.mark.processes
async def test_jobs_posted_while_paused_spend_no_attempt_survive_a_pool_restart_and_all_end_done_after_resume(
    gateway: TestClient, jobs: JobsView, stack_settings: Settings, tmp_path: Path
):
    settings = stack_settings.with_overrides(pause_poll_interval=0.2)
    queue = settings.job(JobType.SEARCH).queues[0]
    async with worker_pool(settings, "search", tmp_path, threads=2) as pool:
        [in_flight] = await submit(gateway, {"product_code": "PAUSE-0", "keyword": "#slow=1.5"})

        async def running() -> bool:
            job = await jobs.get(in_flight)
            return bool(job and job["status"] == "RUNNING")

        await eventually(running, within=30, what="the first job to run")
        status, body = await _post(gateway, "/v1/lps/queues/search/pause")
        assert (status, body["paused"]) == (200, True), body

        async def stopped_consuming() -> bool:
            return (await asyncio.to_thread(_queue_counts, settings.amqp_url, queue))[1] == 0

        await eventually(stopped_consuming, within=5, what="the pool to stop consuming", interval=0.05)
        # The attempt in flight finishes normally.
        assert (await jobs.finished(in_flight))["status"] == "DONE"

        posted = await submit(gateway, *({"product_code": f"PAUSE-{i}", "keyword": "이어폰"} for i in range(1, 21)))

        async def all_queued() -> bool:
            return (await asyncio.to_thread(_queue_counts, settings.amqp_url, queue)) == (20, 0)

        # Every message ready in the queue (none held unacknowledged by a worker), no consumer.
        await eventually(all_queued, within=10, what="the 20 messages to wait in the queue")

        # A restarted pool reads the pause before it subscribes.
        await stop_pool(pool)
        restarted = await _start_pool(settings, "search", tmp_path, 2, 10, False)
        try:
            await eventually(
                lambda: asyncio.sleep(0, "SEARCH work paused" in restarted.log()),
                within=60,
                what="the restarted pool to read the pause",
            )
            assert await asyncio.to_thread(_queue_counts, settings.amqp_url, queue) == (20, 0)
            for job_id in posted:
                job = await jobs.get(job_id)
                assert job is not None
                assert (job["status"], job["attempts"]) == ("PENDING", 0), job

            status, body = await _post(gateway, "/v1/lps/queues/search/resume")
            assert (status, body["paused"]) == (200, False)
            finished = [await jobs.finished(job_id, within=60) for job_id in posted]
        finally:
            await stop_pool(restarted)
    assert [(job["status"], job["attempts"]) for job in finished] == [("DONE", 1)] * 20
