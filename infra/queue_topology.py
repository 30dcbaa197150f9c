"""The queue topology: each job type's queue, its bands (one queue per priority in quorum mode) and the actor each
band's messages name (`JobSpec`, `Band`), and the queue type that chooses between the two layouts."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from schemas.codes import JobType, Priority


class QueueType(StrEnum):
    """How LPS's queues are kept in RabbitMQ (LPS_QUEUE_TYPE)."""

    CLASSIC = "classic"  # on one node, with per-message priorities (x-max-priority)
    QUORUM = "quorum"  # replicated over the cluster's nodes, one queue per priority band


def parse_queue_type(text: str) -> QueueType:
    try:
        return QueueType(text.strip().lower())
    except ValueError:
        raise ValueError(f"use one of {', '.join(QueueType)}") from None


@dataclass(frozen=True, slots=True)
class Band:
    """One queue of a job type and the Dramatiq actor its messages name."""

    queue: str
    actor_name: str
    #: Dramatiq's actor priority: among the messages a worker holds, it takes the lowest number first.
    worker_priority: int


@dataclass(frozen=True, slots=True)
class JobSpec:
    """One job type as the gateway, the workers and the tools see it: the one declaration they all read."""

    job_type: JobType
    #: The RabbitMQ queue of its messages (`search`, `outbox`, with LPS_QUEUE_PREFIX) and its worker pool: in
    #: quorum mode the stem of its band queues (`queues`).
    queue: str
    queue_type: QueueType
    #: The Dramatiq actor that works it.
    actor_name: str
    max_attempts: int
    #: Seconds one attempt may take; its lease is this plus LPS_LEASE_MARGIN.
    time_limit: float
    default_priority: str
    #: The pool's default size (`lps worker` flags override it).
    processes: int
    threads: int
    #: Where the pool serves its Prometheus metrics (0: not served).
    metrics_port: int

    @property
    def bands(self) -> tuple[Band, ...]:
        """Its queues with their actors, highest priority first: the one classic queue (priorities are per message
        there), or one quorum queue per priority."""
        if self.queue_type is QueueType.CLASSIC:
            return (Band(self.queue, self.actor_name, 0),)
        return tuple(self.band(priority) for priority in Priority)

    def band(self, priority: Priority) -> Band:
        """The band of a priority: in quorum mode `search.high` / `search_high`, `search.normal` / `search`,
        `search.low` / `search_low`, a worker preferring the higher among the messages it holds."""
        if self.queue_type is QueueType.CLASSIC:
            return self.bands[0]
        rank = list(Priority).index(priority)
        actor = self.actor_name if priority is Priority.NORMAL else f"{self.actor_name}_{priority.name.lower()}"
        return Band(f"{self.queue}.{priority.name.lower()}", actor, rank * 10)

    @property
    def queues(self) -> tuple[str, ...]:
        return tuple(band.queue for band in self.bands)

    @property
    def pool(self) -> str:
        """The pool's name on the command line (`lps worker search`)."""
        return self.job_type.name.lower()
