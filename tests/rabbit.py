"""Looking into RabbitMQ from tests (plain pika, run off the event loop by the callers)."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

import dramatiq
import pika
import pika.exceptions


@dataclass(frozen=True, slots=True)
class QueuedMessage:
    message: dramatiq.Message
    priority: int | None


def drain(amqp_url: str, queue: str) -> list[QueuedMessage]:
    """Take every ready message off a queue (acknowledged: the queue is empty afterwards)."""
    taken: list[QueuedMessage] = []
    with contextlib.closing(pika.BlockingConnection(pika.URLParameters(amqp_url))) as connection:
        channel = connection.channel()
        while True:
            method, properties, body = channel.basic_get(queue, auto_ack=True)
            if method is None:
                return taken
            taken.append(QueuedMessage(dramatiq.Message.decode(body), properties.priority))


def queue_declared(amqp_url: str, queue: str) -> bool:
    """Whether the broker has the queue (a passive declare, which creates nothing)."""
    with contextlib.closing(pika.BlockingConnection(pika.URLParameters(amqp_url))) as connection:
        try:
            connection.channel().queue_declare(queue, passive=True)
        except pika.exceptions.ChannelClosedByBroker:
            return False
        return True
