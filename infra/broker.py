"""RabbitMQ through Dramatiq: broker construction, job messages, and the gateway's publisher thread."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import dramatiq
import pika
import pika.exceptions
from dramatiq.brokers.rabbitmq import DEAD_MESSAGE_TTL, RabbitmqBroker
from dramatiq.common import xq_name
from dramatiq.errors import BrokerConnectionError
from dramatiq.middleware import Middleware

from infra.queue_topology import QueueType
from infra.settings import Settings
from schemas.codes import JobType

log = logging.getLogger(__name__)

#: x-max-priority of every LPS queue. RabbitMQ cannot change it on an existing queue: picked once.
MAX_PRIORITY = 10
#: Seconds a socket operation may block before pika gives up (a dead broker must not hang a publish).
SOCKET_TIMEOUT = 5.0
#: How often an idle publishing connection services heartbeats (the broker closes silent connections), at most.
KEEPALIVE_INTERVAL = 20.0
#: RabbitMQ's heartbeat timeout when the URL proposes none (`?heartbeat=N`).
DEFAULT_HEARTBEAT = 60

AMQP_ERRORS = (BrokerConnectionError, pika.exceptions.AMQPError, OSError)


def create_broker(
    settings: Settings, *, middleware: list[Middleware] | None = None, confirm_delivery: bool = True
) -> RabbitmqBroker:
    """A broker with publisher confirms, and priorities (classic) or quorum queues (LPS_QUEUE_TYPE); `middleware=[]`
    for a publish-only broker.

    A publish-only broker is driven by a `Publisher` (one thread, its own keepalive); any other is a worker's, whose
    publishes and declares go through one connection-owning thread (`_KeptAliveBroker`).
    """
    publish_only = middleware == []
    if settings.queue_type == QueueType.QUORUM:
        kind: type[RabbitmqBroker] = _QuorumBroker if publish_only else _KeptAliveQuorumBroker
    else:
        kind = RabbitmqBroker if publish_only else _KeptAliveBroker
    broker = kind(
        url=settings.amqp_url,
        confirm_delivery=confirm_delivery,
        # Quorum queues refuse x-max-priority (RabbitMQ 3.10): their priorities are the bands' queues.
        max_priority=MAX_PRIORITY if settings.queue_type == QueueType.CLASSIC else None,
        middleware=middleware,
    )
    for params in _parameters(broker):
        params.socket_timeout = SOCKET_TIMEOUT
        params.blocked_connection_timeout = SOCKET_TIMEOUT * 6
        params.connection_attempts = 1
    return broker


def _parameters(broker: RabbitmqBroker) -> list[Any]:
    return broker.parameters if isinstance(broker.parameters, list) else [broker.parameters]


def keepalive_interval(broker: RabbitmqBroker) -> float:
    """Seconds between heartbeat services of an idle connection: well inside the heartbeat timeout."""
    proposed = [params.heartbeat for params in _parameters(broker) if isinstance(params.heartbeat, int)]
    heartbeat = min(proposed, default=DEFAULT_HEARTBEAT) or DEFAULT_HEARTBEAT  # 0: heartbeats off
    return min(KEEPALIVE_INTERVAL, heartbeat / 3)


class _KeptAliveBroker(RabbitmqBroker):
    """Dramatiq's broker whose publishing connection keeps its heartbeats while the pool sits idle.

    Dramatiq opens one blocking connection per thread that publishes or declares a queue (each consumer thread at
    start-up, each worker thread that publishes a retry or a follow-up) and leaves it idle. pika sends heartbeats only
    while the owning thread calls into its connection (it may not be touched from another), so RabbitMQ closed them
    after two missed heartbeats and closing them at shutdown logged pika's ConnectionResetError tracebacks. Here one
    thread owns the publishing connection, as the gateway's Publisher does, and services it between publishes; the
    consumers' own connections are serviced by their consumer threads.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        #: What `consume` builds for each consumer thread; None: Dramatiq's own (actors/pausing.py sets a pausable one).
        self.consumer_factory: Callable[..., Any] | None = None
        self._owner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lps-broker")
        self._owner_ident: int | None = None
        self._stopped = threading.Event()
        self._keeper: threading.Thread | None = None
        self._started = threading.Lock()

    def _on_owner[T](self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        if threading.get_ident() == self._owner_ident:  # a publish declares its queue first: already there
            return function(*args, **kwargs)
        with self._started:
            if self._keeper is None:
                self._owner_ident = self._owner.submit(threading.get_ident).result()
                self._keeper = threading.Thread(target=self._keep_alive, name="lps-broker-keepalive", daemon=True)
                self._keeper.start()
        # The caller's context (the job a log line is about) goes along.
        return self._owner.submit(contextvars.copy_context().run, function, *args, **kwargs).result()

    @property
    def consumer_class(self) -> Callable[..., Any]:
        return self.consumer_factory or super().consumer_class

    def enqueue(self, message: dramatiq.Message, *, delay: int | None = None) -> dramatiq.Message:
        return self._on_owner(super().enqueue, message, delay=delay)

    def _ensure_queue(self, canonical_queue_name: str) -> None:
        self._on_owner(super()._ensure_queue, canonical_queue_name)

    def _keep_alive(self) -> None:
        while not self._stopped.wait(keepalive_interval(self)):
            with contextlib.suppress(RuntimeError):  # the owner was shut down meanwhile
                self._owner.submit(self._service_heartbeats)

    def _service_heartbeats(self) -> None:
        connection = getattr(self.state, "connection", None)
        if connection is None or not connection.is_open:
            return
        try:
            connection.process_data_events(time_limit=0)
        except AMQP_ERRORS:
            del self.connection  # the next publish opens a new one

    def close(self) -> None:
        self._stopped.set()
        with self._started:
            owned, self._keeper = self._keeper is not None, None
        if not owned:
            super().close()
            return
        try:
            self._owner.submit(super().close).result()
        finally:
            self._owner.shutdown(wait=True)
            self._owner_ident = None


class _QuorumBroker(RabbitmqBroker):
    """Dramatiq's queues as quorum queues: the queue, its `.DQ` and its `.XQ` replicated over the cluster (the
    publish-only broker of quorum mode; `_KeptAliveQuorumBroker` is a worker's).

    `x-delivery-limit` is a backstop only: a message redelivered that often (a worker dying with it every time) is
    dead-lettered, and the reconciler makes its job DEAD (DEAD_LETTER). LPS's own attempt accounting in the job
    document stays what decides retries (a retry is a new message, not a redelivery), and ends a poison job DEAD at
    its `max_attempts` long before the broker's limit.
    """

    #: Far above any job's max_attempts: the job document decides first.
    DELIVERY_LIMIT = 50

    def _build_queue_arguments(self, queue_name: str) -> dict[str, Any]:
        return {
            "x-queue-type": "quorum",
            "x-dead-letter-exchange": "",
            "x-dead-letter-routing-key": xq_name(queue_name),
            "x-delivery-limit": self.DELIVERY_LIMIT,
        }

    def _declare_xq_queue(self, queue_name: str) -> Any:
        # Dramatiq's dead-letter TTL, on a quorum queue (RabbitMQ 3.10 keeps message TTLs on quorum queues).
        return self.channel.queue_declare(
            queue=xq_name(queue_name),
            durable=True,
            arguments={"x-queue-type": "quorum", "x-message-ttl": DEAD_MESSAGE_TTL},
        )


class _KeptAliveQuorumBroker(_QuorumBroker, _KeptAliveBroker):
    """A worker's broker in quorum mode."""


def job_message(settings: Settings, job_type: JobType, job_id: str, broker_priority: int) -> dramatiq.Message:
    """The message that tells a worker pool to work one job: the job id is all it carries. Its queue is the job
    type's, or in quorum mode its priority's band (`Settings.message_band`)."""
    band = settings.message_band(job_type, broker_priority)
    return dramatiq.Message(
        queue_name=band.queue,
        actor_name=band.actor_name,
        args=(job_id,),
        kwargs={},
        options={"broker_priority": broker_priority},
    )


@dataclass(frozen=True, slots=True)
class QueueInfo:
    """What RabbitMQ itself knows of a queue. Not how many retries wait in its `.DQ`: a worker takes a delayed
    message at once and holds it unacknowledged until it is due, so the `.DQ`'s message count misses it (the
    job store's PENDING jobs with `run_after` ahead are the true figure: infra/job_counts.py)."""

    #: Messages ready for a consumer (not those a worker already holds).
    messages: int
    consumers: int
    #: Messages in the `.XQ` dead-letter queue (nobody consumes it but the reconciler).
    dead: int


class Publisher:
    """The gateway's one RabbitMQ connection, owned by a dedicated thread.

    pika's blocking connections belong to one thread and must never run on the event loop, so every
    broker call is handed to this thread. Publishes wait for the broker's confirm; a lost connection
    is reopened on the next call (Dramatiq retries the publish), and a keepalive services heartbeats
    while the gateway is idle.
    """

    def __init__(self, broker: RabbitmqBroker) -> None:
        self.broker = broker
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lps-publisher")
        self._keepalive: asyncio.Task[None] | None = None

    async def _call[T](self, function: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._thread, function, *args)

    async def publish(self, messages: Sequence[dramatiq.Message]) -> set[str]:
        """Publish in order; return the ids the broker confirmed. Stops at the first broker failure."""
        return await self._call(self._publish_all, list(messages))

    def _publish_all(self, messages: list[dramatiq.Message]) -> set[str]:
        confirmed: set[str] = set()
        for message in messages:
            try:
                self.broker.enqueue(message)
            except Exception:  # whatever pika raised, this message is not confirmed
                log.warning(
                    "publish failed; %d of %d messages left for the reconciler",
                    len(messages) - len(confirmed),
                    len(messages),
                    exc_info=True,
                )
                self._drop_connection()
                break
            confirmed.add(message.message_id)
        return confirmed

    async def queue_info(self, queue_names: Iterable[str]) -> dict[str, QueueInfo]:
        return await self._call(self._queue_info, list(queue_names))

    def _queue_info(self, queue_names: list[str]) -> dict[str, QueueInfo]:
        info: dict[str, QueueInfo] = {}
        for name in queue_names:
            main = self._passive_declare(name)
            dead = self._passive_declare(xq_name(name))
            info[name] = QueueInfo(
                messages=main.message_count if main else 0,
                consumers=main.consumer_count if main else 0,
                dead=dead.message_count if dead else 0,
            )
        return info

    def _passive_declare(self, queue: str) -> Any:
        """Declare-ok of an existing queue, or None when it does not exist yet (nothing published)."""
        try:
            return self.broker.channel.queue_declare(queue=queue, passive=True).method
        except pika.exceptions.ChannelClosedByBroker as closed:
            del self.broker.channel  # a failed passive declare closes the channel
            if closed.reply_code == 404:
                return None
            raise

    async def take(self, queue: str, limit: int) -> list[tuple[int, bytes]]:
        """Up to `limit` messages from a queue, unacknowledged: (delivery tag, body). Ack with `ack`."""
        return await self._call(self._take, queue, limit)

    def _take(self, queue: str, limit: int) -> list[tuple[int, bytes]]:
        taken: list[tuple[int, bytes]] = []
        try:
            for _ in range(limit):
                method, _properties, body = self.broker.channel.basic_get(queue, auto_ack=False)
                if method is None:
                    break
                taken.append((method.delivery_tag, body))
        except pika.exceptions.ChannelClosedByBroker as closed:
            del self.broker.channel
            if closed.reply_code != 404:  # a queue nobody declared yet holds nothing
                raise
        except Exception:
            # A connection lost mid-get leaves pika's channel unusable (DuplicateGetOkCallback): start afresh.
            self._drop_connection()
            raise
        return taken

    async def ack(self, delivery_tags: Iterable[int]) -> None:
        """Acknowledge taken messages (a lost channel requeues them instead: they are taken again later)."""
        await self._call(self._ack, list(delivery_tags))

    def _ack(self, delivery_tags: list[int]) -> None:
        for tag in delivery_tags:
            self.broker.channel.basic_ack(tag)

    async def ping(self) -> None:
        """Raise unless the broker answers."""
        await self._call(self._service_heartbeats)

    def _service_heartbeats(self) -> None:
        try:
            self.broker.connection.process_data_events(time_limit=0)
        except AMQP_ERRORS:
            self._drop_connection()
            raise

    def _drop_connection(self) -> None:
        with contextlib.suppress(Exception):
            del self.broker.connection

    async def _keep_alive(self) -> None:
        while True:
            await asyncio.sleep(keepalive_interval(self.broker))
            with contextlib.suppress(*AMQP_ERRORS):
                await self.ping()

    def declare_queues(self, queue_names: Iterable[str]) -> None:
        """Declare queues (with their .DQ/.XQ and x-max-priority) so consumers and stats find them."""
        for name in queue_names:
            self.broker.declare_queue(name, ensure=True)

    async def start(self, queue_names: Iterable[str]) -> None:
        try:
            await self._call(self.declare_queues, list(queue_names))
        except AMQP_ERRORS:
            log.warning("RabbitMQ unreachable at start-up; queues are declared on first publish")
        self._keepalive = asyncio.get_running_loop().create_task(self._keep_alive())

    async def close(self) -> None:
        if self._keepalive:
            self._keepalive.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._keepalive
        await self._call(self.broker.close)
        self._thread.shutdown(wait=True)
