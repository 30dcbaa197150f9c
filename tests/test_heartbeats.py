"""Idle RabbitMQ connections keep their heartbeats, so nothing dies while the stack sits idle and stopping is quiet.

The broker URL proposes a 2-second heartbeat: RabbitMQ closes a connection that misses two (4 s of silence), so
idling past that shows what a minute-long heartbeat shows after a few minutes.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from infra.broker import Publisher, create_broker, job_message, keepalive_interval
from infra.settings import Settings
from schemas.codes import JobType
from service.app import create_app
from tests.harness import JobsView, submit, worker_pool
from tests.short_heartbeat import IDLE, with_heartbeat
from tests.short_heartbeat import short_heartbeat as short_heartbeat

#: What a dropped connection leaves in a pool's log: pika's errors, and Dramatiq's consumer reconnecting.
PIKA_ERRORS = (
    "ConnectionResetError",
    "StreamLostError",
    "Traceback",
    "called on closed connection",
    "Consumer encountered a connection error",
)


def test_keepalive_follows_the_heartbeat_the_url_proposes(settings: Settings):
    assert keepalive_interval(create_broker(settings, middleware=[])) == 20.0  # RabbitMQ's 60 s default
    three = settings.with_overrides(amqp_url=with_heartbeat(settings.amqp_url, 3))
    assert keepalive_interval(create_broker(three, middleware=[])) == 1.0


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


async def test_an_idle_publisher_keeps_its_connection(short_heartbeat: Settings, caplog: pytest.LogCaptureFixture):
    publisher = Publisher(create_broker(short_heartbeat, middleware=[]))
    queue = short_heartbeat.job(JobType.SEARCH).queue
    with caplog.at_level(logging.WARNING):
        await publisher.start([queue])
        await asyncio.sleep(IDLE)
        message = job_message(short_heartbeat, JobType.SEARCH, "0" * 24, 5)
        assert await publisher.publish([message]) == {message.message_id}
        assert (await publisher.queue_info([queue]))[queue].messages == 1
        await publisher.close()
    assert not [record for record in caplog.records if record.name.startswith(("pika", "infra"))], caplog.text
