"""`lps migrate-queues --to quorum|classic`: move what waits in one queue type's queues into the other's.

A queue's type cannot change in place, and the two modes use different names (`search` vs `search.high` /
`.normal` / `.low`: infra/settings.py). After the pools are stopped and `LPS_QUEUE_TYPE` is switched, this moves
every waiting message over, so nothing waits for the reconciler's lost-message rule:

- a job message (queue, or `.DQ` with its delay) goes to the queue its priority belongs to in the target mode,
  with the target's actor name, keeping its id, its job id, its priority and what is left of its delay;
- a dead letter (`.XQ`) goes to the target queue's `.XQ` as it is, for the reconciler to record.

Each message is published with the broker's confirm first and only then acknowledged where it was: a crash in
between leaves it in both places, and the job's own conditional claim makes the second copy a no-op. The emptied
source queues are deleted.
"""

from __future__ import annotations

import contextlib
import time
from collections import Counter
from dataclasses import replace

import dramatiq
import pika
import pika.exceptions
from dramatiq.brokers.rabbitmq import RabbitmqBroker
from dramatiq.common import dq_name, xq_name

from infra.broker import create_broker
from infra.settings import QueueType, Settings
from schemas.codes import JobType

#: Messages moved per queue at most in one run (a backlog larger than this: run it again).
LIMIT = 1_000_000


def migrate(settings: Settings, source: QueueType) -> Counter[str]:
    """Move every message of the `source` mode's queues into `settings`' mode (which must differ); what was moved."""
    target = settings
    origin = replace(settings, queue_type=source.value)
    if origin.queue_type == target.queue_type:
        raise ValueError(f"LPS_QUEUE_TYPE is {target.queue_type} already: nothing to migrate from {source}")
    broker = create_broker(target, middleware=[])
    for queue in target.queues():
        broker.declare_queue(queue, ensure=True)  # with .DQ and .XQ, of the target's type
    moved: Counter[str] = Counter()
    nodes = [pika.URLParameters(url) for url in settings.amqp_url.split(";") if url.strip()]
    with contextlib.closing(pika.BlockingConnection(nodes)) as connection:
        channel = connection.channel()
        for job_type in JobType:
            for queue in origin.job(job_type).queues:
                moved["messages"] += _move_messages(channel, broker, target, job_type, queue, delayed=False)
                moved["delayed"] += _move_messages(channel, broker, target, job_type, dq_name(queue), delayed=True)
                moved["dead_letters"] += _move_dead_letters(channel, broker, target, job_type, xq_name(queue))
                for name in (queue, dq_name(queue), xq_name(queue)):
                    with contextlib.suppress(pika.exceptions.ChannelClosedByBroker):
                        channel.queue_delete(name, if_empty=True)
                    if channel.is_closed:
                        channel = connection.channel()
    broker.close()
    return moved


def _get(channel: pika.adapters.blocking_connection.BlockingChannel, queue: str) -> tuple[int, bytes] | None:
    try:
        method, _properties, body = channel.basic_get(queue, auto_ack=False)
    except pika.exceptions.ChannelClosedByBroker as closed:
        if closed.reply_code == 404:
            return None  # never declared: nothing waits there
        raise
    return (method.delivery_tag, body) if method is not None else None


def _move_messages(
    channel: pika.adapters.blocking_connection.BlockingChannel,
    broker: RabbitmqBroker,
    target: Settings,
    job_type: JobType,
    queue: str,
    *,
    delayed: bool,
) -> int:
    moved = 0
    while moved < LIMIT and (got := _get(channel, queue)) is not None:
        tag, body = got
        message = dramatiq.Message.decode(body)
        band = target.message_band(job_type, int(message.options.get("broker_priority", 0)))
        options = dict(message.options)
        delay = None
        if delayed and "eta" in options:
            delay = max(int(options.pop("eta") - time.time() * 1000), 0)
        broker.enqueue(
            message.copy(queue_name=band.queue, actor_name=band.actor_name, options=options), delay=delay
        )  # confirmed before the original is acknowledged
        channel.basic_ack(tag)
        moved += 1
    return moved


def _move_dead_letters(
    channel: pika.adapters.blocking_connection.BlockingChannel,
    broker: RabbitmqBroker,
    target: Settings,
    job_type: JobType,
    queue: str,
) -> int:
    destination = xq_name(target.job(job_type).queues[-1])
    moved = 0
    while moved < LIMIT and (got := _get(channel, queue)) is not None:
        tag, body = got
        confirm = broker.channel  # the broker's channel has publisher confirms on
        confirm.basic_publish("", destination, body, pika.BasicProperties(delivery_mode=2))
        channel.basic_ack(tag)
        moved += 1
    return moved
