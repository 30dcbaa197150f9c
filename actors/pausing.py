"""A pool stops taking messages while its job type is paused (infra/queue_pauses.py), and starts again on resume.

Dramatiq's own `Worker.pause()` pauses every consumer and worker thread of a process, and its consumer threads
leave a paused consumer only when it has been idle for a whole `worker_timeout`, then close the connection: every
unacked message, the attempts in flight too, goes back to the queue and their acks are lost. Here the pause is a
consumer's, per queue, and keeps the connection:

- `PauseSwitch` is this process's view of which job types are paused: read from the store when the pool boots
  (before any consumer subscribes, so a pool restarted while paused takes nothing) and every
  LPS_PAUSE_POLL_INTERVAL seconds after, by a thread (`QueuePausing`).
- `PausableConsumer` (the worker broker's consumer, `_KeptAliveBroker.consumer_factory`) cancels its subscription
  while its queue's job type is paused: pika hands every message it had buffered back to RabbitMQ
  (`BlockingChannel.cancel`: basic.nack with requeue), which puts each back in its place, its priority kept (a
  quorum-mode band's messages stay in their band's queue). It keeps servicing the connection (acks of attempts in
  flight, heartbeats) and subscribes again on resume. Its `.DQ` consumer stops too: retries waiting out their
  backoff stay ready in `.DQ`, none held unacked.
- A message Dramatiq had already taken from the consumer but no worker thread had started is handed back by
  `JobStatusMiddleware` before any claim (`hand_back`): its ack becomes a basic.nack with requeue. So no attempt is
  spent while paused; attempts already claimed run to their end as usual.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from functools import partial
from typing import Any

import dramatiq
import pika
import pika.exceptions
from dramatiq.brokers.rabbitmq import _RabbitmqConsumer
from dramatiq.common import q_name
from dramatiq.errors import ConnectionClosed
from dramatiq.middleware import Middleware

from infra.mongo import deadline
from infra.queue_pauses import QueuePauses
from infra.settings import Settings
from schemas.codes import JobType

log = logging.getLogger(__name__)

#: The option a handed-back message carries from the middleware to its consumer's ack (never published).
HAND_BACK = "lps_hand_back"
#: How long a consumer waits for the first read of the pauses before it subscribes regardless (store unreachable).
FIRST_READ_WAIT = 10.0
_AMQP_ERRORS = (AssertionError, pika.exceptions.AMQPConnectionError, pika.exceptions.AMQPChannelError)


class PauseSwitch:
    """Which job types are paused, as this process last read it. Thread-safe: a frozenset swapped whole."""

    def __init__(self, settings: Settings) -> None:
        self._job_types = {queue: job_type for job_type in JobType for queue in settings.job(job_type).queues}
        self._paused: frozenset[JobType] = frozenset()
        #: Set after the first read (or never, in a process that does not read: nothing is paused there).
        self.loaded = threading.Event()
        self._stop = threading.Event()

    def paused(self, queue_name: str) -> bool:
        """Whether the job type whose queue (or `.DQ`, or band) this is is paused."""
        return self._job_types.get(q_name(queue_name)) in self._paused

    def update(self, paused: frozenset[JobType]) -> None:
        if paused != self._paused:
            for job_type in paused - self._paused:
                log.warning("%s work paused: this pool takes no new message until it is resumed", job_type.name)
            for job_type in self._paused - paused:
                log.warning("%s work resumed", job_type.name)
        self._paused = paused
        self.loaded.set()

    def run(self, read: Callable[[], frozenset[JobType]], interval: float) -> None:
        """Read the pauses every `interval` seconds until `stop`; a failed read keeps the last state."""
        while True:
            try:
                self.update(read())
            except Exception as error:
                log.warning("could not read the queue pauses (%s): keeping the last state", type(error).__name__)
            if self._stop.wait(interval):
                return

    def stop(self) -> None:
        self._stop.set()


def hand_back(message: dramatiq.MessageProxy) -> None:
    """Mark a message its consumer gives back to RabbitMQ (requeued in place) instead of acknowledging it."""
    message.options[HAND_BACK] = True


class PausableConsumer(_RabbitmqConsumer):
    """Dramatiq's RabbitMQ consumer that cancels its subscription while its job type is paused (see the module)."""

    def __init__(self, switch: PauseSwitch, broker: Any, queue_name: str, prefetch: int, timeout: int) -> None:
        if not switch.loaded.wait(FIRST_READ_WAIT):
            log.warning("queue pauses not read within %.0f s: %s consumes meanwhile", FIRST_READ_WAIT, queue_name)
        self.broker = broker
        self.queue_name = queue_name
        self.logger = logging.getLogger(f"{__name__}.PausableConsumer")
        self.known_tags: set[int] = set()
        self._switch = switch
        self._inactivity = timeout / 1000
        self.iterator: Any = None
        try:
            self.connection = pika.BlockingConnection(parameters=broker.parameters)
            self.channel = self.connection.channel()
            self.channel.basic_qos(prefetch_count=prefetch)
            if not switch.paused(queue_name):
                self._subscribe()
        except _AMQP_ERRORS as error:
            raise ConnectionClosed(error) from None

    def _subscribe(self) -> None:
        self.iterator = self.channel.consume(self.queue_name, inactivity_timeout=self._inactivity)

    def __next__(self) -> Any:
        try:
            if self._switch.paused(self.queue_name):
                if self.iterator is not None:
                    handed = self.channel.cancel()
                    self.iterator = None
                    log.info("%s: paused, %d buffered message(s) handed back", self.queue_name, handed)
                # Acks of the attempts in flight and heartbeats go on while nothing is consumed.
                self.connection.sleep(self._inactivity)
                return None
            if self.iterator is None:
                self._subscribe()
                log.info("%s: consuming again", self.queue_name)
        except _AMQP_ERRORS as error:
            raise ConnectionClosed(error) from None
        return super().__next__()

    def ack(self, message: Any) -> None:
        if not message.options.pop(HAND_BACK, False):
            super().ack(message)
            return
        try:
            self.known_tags.remove(message._tag)
            self.connection.add_callback_threadsafe(partial(self.channel.basic_nack, message._tag, requeue=True))
        except _AMQP_ERRORS as error:
            raise ConnectionClosed(error) from None
        except KeyError:
            log.warning("could not hand back message %s: not in known tags", message.message_id)


class QueuePausing(Middleware):
    """Gives a real pool's broker the pausable consumer and keeps its `PauseSwitch` read (after AsyncIO: it reads
    through the process's event loop)."""

    def __init__(self, settings: Settings, switch: PauseSwitch, read: Callable[[], frozenset[JobType]]) -> None:
        self.settings = settings
        self.switch = switch
        self.read = read
        self._thread: threading.Thread | None = None

    def before_worker_boot(self, broker: dramatiq.Broker, worker: dramatiq.Worker) -> None:
        if hasattr(broker, "consumer_factory"):
            broker.consumer_factory = partial(PausableConsumer, self.switch)
        self._thread = threading.Thread(
            target=self.switch.run,
            args=(self.read, self.settings.pause_poll_interval),
            name="lps-queue-pauses",
            daemon=True,
        )
        self._thread.start()

    def before_worker_shutdown(self, broker: dramatiq.Broker, worker: dramatiq.Worker) -> None:
        self.switch.stop()


def store_reader(
    settings: Settings, run: Callable[[Any], Any], database: Callable[[], Any]
) -> Callable[[], frozenset[JobType]]:
    """A read of the paused job types through the worker's event loop (`run`) and its database (made there)."""

    async def paused() -> frozenset[JobType]:
        with deadline(settings):
            states = await QueuePauses(database().write).states()
        return frozenset(job_type for job_type, state in states.items() if state.paused)

    return lambda: run(paused())
