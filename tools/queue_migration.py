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

It refuses, before it declares or moves anything, while any source queue has a consumer: a running pool would lose
the queues it reads (`NOT_FOUND - no queue 'search'`) and the new ones would have no reader. A source queue that was
never declared (`--from quorum` where quorum mode never ran) has nothing to move.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections import Counter
from dataclasses import replace

import dramatiq
import pika
import pika.exceptions
from dramatiq.brokers.rabbitmq import RabbitmqBroker
from dramatiq.common import dq_name, xq_name

from infra.broker import create_broker
from infra.queue_topology import QueueType
from infra.settings import Settings
from schemas.codes import JobType

#: Messages moved per queue at most in one run (a backlog larger than this: run it again).
LIMIT = 1_000_000

type Channel = pika.adapters.blocking_connection.BlockingChannel


class QueuesInUse(Exception):
    """Some source queue has consumers: the pools reading it still run."""

    def __init__(self, consumers: dict[str, int]) -> None:
        self.consumers = consumers
        busy = ", ".join(f"{queue} ({count} consumer(s))" for queue, count in consumers.items())
        super().__init__(
            f"refusing to migrate: {busy} still consumed. Stop every worker pool (`lps worker`, `lps dev`, the "
            "search-worker and outbox-worker containers) and the reconciler first, set LPS_QUEUE_TYPE everywhere, "
            "then run this again; nothing was moved"
        )


def migrate(settings: Settings, source: QueueType) -> Counter[str]:
    """Move every message of the `source` mode's queues into `settings`' mode (which must differ); what was moved.
    Raises QueuesInUse, having changed nothing, while any source queue has a consumer."""
    target = settings
    origin = replace(settings, queue_type=source.value)
    if origin.queue_type == target.queue_type:
        raise ValueError(f"LPS_QUEUE_TYPE is {target.queue_type} already: nothing to migrate from {source}")
    nodes = [pika.URLParameters(url) for url in settings.amqp_url.split(";") if url.strip()]
    moved: Counter[str] = Counter()
    with contextlib.closing(pika.BlockingConnection(nodes)) as connection:
        names = [name for queue in origin.queues() for name in (queue, dq_name(queue), xq_name(queue))]
        # The source queues that exist, with their consumer counts.
        declared = {name: count for name in names if (count := _consumers(connection, name)) is not None}
        if busy := {name: count for name, count in declared.items() if count}:
            raise QueuesInUse(busy)
        broker = create_broker(target, middleware=[])
        try:
            for queue in target.queues():
                broker.declare_queue(queue, ensure=True)  # with .DQ and .XQ, of the target's type
            channel = connection.channel()
            for job_type in JobType:
                for queue in origin.job(job_type).queues:
                    waiting, delayed, dead = queue, dq_name(queue), xq_name(queue)
                    if waiting in declared:
                        moved["messages"] += _move_messages(channel, broker, target, job_type, waiting, delayed=False)
                    if delayed in declared:
                        moved["delayed"] += _move_messages(channel, broker, target, job_type, delayed, delayed=True)
                    if dead in declared:
                        moved["dead_letters"] += _move_dead_letters(channel, broker, target, job_type, dead)
            for name in declared:
                # Neither a message nor a consumer that arrived meanwhile is deleted with its queue.
                channel = _deleted_if_empty_and_unused(connection, channel, name)
        finally:
            broker.close()
    return moved


def _consumers(connection: pika.BlockingConnection, queue: str) -> int | None:
    """The queue's consumer count, or None when it was never declared (on a channel of its own: a 404 closes it)."""
    channel = connection.channel()
    # pika logs a WARNING for every channel the broker closes: here a 404 is an answer, not a problem.
    channel_log = logging.getLogger("pika.channel")
    level = channel_log.level
    channel_log.setLevel(logging.ERROR)
    try:
        return int(channel.queue_declare(queue, passive=True).method.consumer_count)
    except pika.exceptions.ChannelClosedByBroker as closed:
        if closed.reply_code == 404:
            return None
        raise
    finally:
        channel_log.setLevel(level)
        if channel.is_open:
            channel.close()


def _deleted_if_empty_and_unused(connection: pika.BlockingConnection, channel: Channel, queue: str) -> Channel:
    """Deletes the queue unless a message or a consumer is there; the channel to go on with (a refusal closes it)."""
    with contextlib.suppress(pika.exceptions.ChannelClosedByBroker):
        channel.queue_delete(queue, if_empty=True, if_unused=True)
    return connection.channel() if channel.is_closed else channel


def _get(channel: Channel, queue: str) -> tuple[int, bytes] | None:
    method, _properties, body = channel.basic_get(queue, auto_ack=False)
    return (method.delivery_tag, body) if method is not None else None


def _move_messages(
    channel: Channel,
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
    channel: Channel,
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
