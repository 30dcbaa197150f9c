"""An idle worker pool keeps its RabbitMQ connections: it works on after idling past its heartbeat, and
stops without pika errors (tests/short_heartbeat.py: a 2-second heartbeat)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from infra.settings import Settings
from service.app import create_app
from tests.harness import JobsView, submit, worker_pool
from tests.short_heartbeat import IDLE
from tests.short_heartbeat import short_heartbeat as short_heartbeat

#: What a dropped connection leaves in a pool's log: pika's errors, and Dramatiq's consumer reconnecting.
PIKA_ERRORS = (
    "ConnectionResetError",
    "StreamLostError",
    "Traceback",
    "called on closed connection",
    "Consumer encountered a connection error",
)


@pytest.mark.processes
async def test_an_idle_worker_pool_keeps_its_connections_works_on_and_stops_without_pika_errors(
    aiohttp_client, short_heartbeat: Settings, tmp_path: Path
):
    gateway = await aiohttp_client(create_app(short_heartbeat))
    jobs = JobsView(short_heartbeat)
    try:
        async with worker_pool(short_heartbeat, "search", tmp_path) as pool:
            # Its first attempt fails: a worker thread publishes the retry, the delay queue's consumer re-publishes it.
            [job_id] = await submit(gateway, {"product_code": "HB-1", "keyword": "#fail"})
            job = await jobs.finished(job_id)
            assert job["attempts"] == 2
            await asyncio.sleep(IDLE)  # the pool's connections sit silent but for their heartbeats
            # After the idling, the same connections take the next job, retry included.
            [after_idle] = await submit(gateway, {"product_code": "HB-2", "keyword": "#fail"})
            assert (await jobs.finished(after_idle, within=30))["attempts"] == 2
    finally:
        await jobs.close()
    log = pool.log()
    assert not [line for line in log.splitlines() if any(error in line for error in PIKA_ERRORS)], log[-4000:]
