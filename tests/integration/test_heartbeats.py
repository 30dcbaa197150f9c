"""Idle RabbitMQ connections keep their heartbeats, so nothing dies while the stack sits idle and stopping is quiet.

The broker URL proposes a 2-second heartbeat: RabbitMQ closes a connection that misses two (4 s of silence), so
idling past that shows what a minute-long heartbeat shows after a few minutes.
"""

from __future__ import annotations

import asyncio
import logging

import pytest

from infra.broker import Publisher, create_broker, job_message, keepalive_interval
from infra.settings import Settings
from schemas.codes import JobType
from tests.short_heartbeat import IDLE, with_heartbeat
from tests.short_heartbeat import short_heartbeat as short_heartbeat


def test_keepalive_follows_the_heartbeat_the_url_proposes(settings: Settings):
    assert keepalive_interval(create_broker(settings, middleware=[])) == 20.0  # RabbitMQ's 60 s default
    three = settings.with_overrides(amqp_url=with_heartbeat(settings.amqp_url, 3))
    assert keepalive_interval(create_broker(three, middleware=[])) == 1.0


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
