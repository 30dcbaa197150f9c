"""The worker processes' entry point for the Dramatiq CLI.

    dramatiq actors.worker:setup --queues search     # the search pool
    dramatiq actors.worker:setup --queues outbox     # the outbox pool

(`lps worker search|outbox` runs exactly that, with pool-sized defaults.) Queue names carry
`LPS_QUEUE_PREFIX` when it is set.

Each pool serves its Prometheus metrics on the port of the queue it consumes (`actors.metrics`): the search pool on
LPS_SEARCH_METRICS_PORT (9191), the outbox pool on LPS_OUTBOX_METRICS_PORT (9192); nothing to pass on the command
line. Logs follow LPS_LOG_FORMAT (`json`: one object per line, with job_id and message_id on lines about a job).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

import dramatiq
from dramatiq.brokers.rabbitmq import RabbitmqBroker
from dramatiq.middleware import AsyncIO, Middleware, Retries, ShutdownNotifications, TimeLimit
from dramatiq.middleware.time_limit import TimeLimitExceeded

from actors import metrics
from actors.errors import PermanentJobError, RetryableJobError
from actors.middleware import JobKind, JobLogContext, JobStatusMiddleware, RuntimeCleanup
from actors.outbox import work_outbox
from actors.retry_policy import RetryPolicy
from actors.runtime import WorkerRuntime
from actors.search import after_search, build_sources, work_search
from infra.broker import actor_name, create_broker
from infra.logs import configure_logging
from infra.settings import Settings
from schemas.codes import JobType

log = logging.getLogger(__name__)

KINDS = (
    JobKind(JobType.SEARCH, work=work_search, on_done=after_search),
    JobKind(JobType.OUTBOX, work=work_outbox),
)

#: Retries of a message that was never claimed (MongoDB down, lease held) before it is given up on.
#: A claimed attempt's message gets its own limit from the job's `max_attempts`.
UNCLAIMED_MAX_RETRIES = 100


def build_broker(
    settings: Settings, runtime: WorkerRuntime, extra_middleware: Sequence[Middleware] = ()
) -> RabbitmqBroker:
    policy = RetryPolicy.from_settings(settings)
    broker = create_broker(
        settings,
        middleware=[
            # First: its before hook runs before all others and its after hooks after them (see its docstring).
            JobLogContext(),
            TimeLimit(),
            ShutdownNotifications(),
            Retries(
                max_retries=UNCLAIMED_MAX_RETRIES,
                min_backoff=int(settings.retry_min_backoff * 1000),
                max_backoff=int(settings.retry_max_backoff * 1000),
            ),
            AsyncIO(),
            *extra_middleware,
        ],
    )
    kinds = {actor_name(kind.job_type): kind for kind in KINDS}
    # Before Retries: its after_process_message then runs after Retries decided (hooks run in reverse).
    broker.add_middleware(JobStatusMiddleware(runtime, kinds, policy), before=Retries)
    broker.add_middleware(RuntimeCleanup(runtime), after=AsyncIO)
    for kind in KINDS:
        declare_job_actor(broker, kind, runtime, policy)
    return broker


def declare_job_actor(broker: RabbitmqBroker, kind: JobKind, runtime: WorkerRuntime, policy: RetryPolicy) -> None:
    """A Dramatiq actor that works the attempt the status middleware claimed for this message."""
    settings = runtime.settings
    time_limit = settings.time_limit(kind.job_type)

    def work(job_id: str) -> None:
        attempt = runtime.attempts.get(job_id)
        try:
            attempt.output = runtime.run(asyncio.wait_for(kind.work(attempt.job, runtime), timeout=time_limit))
        except RetryableJobError as error:
            raise policy.prepare(attempt.job["attempts"], error) from None
        except PermanentJobError:
            raise
        except (TimeoutError, TimeLimitExceeded) as error:
            timeout = RetryableJobError(f"attempt exceeded its {time_limit:.0f}s time limit", error_type="TIMEOUT")
            raise policy.prepare(attempt.job["attempts"], timeout) from error
        except Exception as error:
            log.exception("job %s attempt %d crashed", job_id, attempt.job["attempts"])
            crashed = RetryableJobError(f"{type(error).__name__}: {error}"[:500], error_type="INTERNAL")
            raise policy.prepare(attempt.job["attempts"], crashed) from error

    work.__name__ = actor_name(kind.job_type)
    dramatiq.actor(
        work,
        broker=broker,
        actor_name=actor_name(kind.job_type),
        queue_name=settings.queue_name(kind.job_type),
        throws=(PermanentJobError,),
        # Dramatiq's own limit is a backstop behind the attempt's asyncio timeout.
        time_limit=int((time_limit + settings.lease_margin / 2) * 1000),
    )


def setup() -> None:
    """Called by the Dramatiq CLI (`dramatiq actors.worker:setup`) in each worker process."""
    settings = Settings.from_env()
    if not settings.mongo_url:
        raise SystemExit("LPS_MONGO_URL is not set: workers need the MongoDB the gateway uses")
    # The Dramatiq CLI has set up logging to its pipe already: keep its handlers and level, apply LPS_LOG_FORMAT.
    configure_logging(settings)
    logging.getLogger("pika").setLevel(logging.WARNING)
    # Before anything imports prometheus_client: it picks multiprocess mode at its first import.
    metrics_directory = metrics.enable(settings)
    runtime = WorkerRuntime(settings, build_sources)
    dramatiq.set_broker(build_broker(settings, runtime, metrics.pool_middleware(settings, metrics_directory)))
