"""The pipeline figure's raw baseline: a Dramatiq no-op actor on LPS's broker settings, run by the Dramatiq CLI.

    LPS_QUEUE_PREFIX=p_ LPS_BENCH_NOOP_COUNTER=/tmp/count dramatiq_queue_prefetch=2 \\
        dramatiq bench.noop --queues p_noop --processes 1 --threads 2

The broker is built by `infra.broker.create_broker` (same URL, publisher confirms and x-max-priority as
LPS) with Dramatiq's default middleware. Each message appends one byte to the counter file: the runner
watches the file's size instead of asking RabbitMQ, which would add load to what is measured.
"""

from __future__ import annotations

import os

import dramatiq

from infra.broker import create_broker
from infra.settings import Settings

COUNTER = "LPS_BENCH_NOOP_COUNTER"
ACTOR = "noop"


def noop_queue(settings: Settings) -> str:
    return f"{settings.queue_prefix}{ACTOR}"


_settings = Settings.from_env()
broker = create_broker(_settings, middleware=None)  # None: Dramatiq's default middleware
dramatiq.set_broker(broker)
_counter_fd = os.open(os.environ[COUNTER], os.O_WRONLY | os.O_APPEND | os.O_CREAT) if COUNTER in os.environ else -1


@dramatiq.actor(actor_name=ACTOR, queue_name=noop_queue(_settings), broker=broker)
def noop(job_id: str) -> None:
    if _counter_fd >= 0:
        os.write(_counter_fd, b".")  # O_APPEND: one atomic byte per message, whichever thread
