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
import concurrent.futures
import logging
import threading
from collections.abc import Sequence

import dramatiq
from dramatiq.brokers.rabbitmq import RabbitmqBroker
from dramatiq.middleware import AsyncIO, Middleware, TimeLimit
from dramatiq.middleware.time_limit import TimeLimitExceeded

from actors import metrics
from actors.errors import JobError, PermanentJobError, RetryableJobError, WorkerStopped
from actors.middleware import JobKind, JobLogContext, JobStatusMiddleware, RuntimeShutdown, StopOnce
from actors.outbox import work_outbox
from actors.pausing import QueuePausing, store_reader
from actors.runtime import WorkerRuntime
from actors.search import after_search, work_search
from actors.sources.enabled import build_sources
from infra.broker import create_broker
from infra.lifecycle import RetryPolicy
from infra.logs import configure_logging
from infra.settings import SHUTDOWN_RECORDING_TIME, UNSIGNED_OUTBOX_REFUSED, Settings
from infra.text import analyzer
from schemas.codes import JobErrorType, JobType

log = logging.getLogger(__name__)

KINDS = (
    JobKind(JobType.SEARCH, work=work_search, on_done=after_search),
    JobKind(JobType.OUTBOX, work=work_outbox),
)


def build_broker(
    settings: Settings, runtime: WorkerRuntime, extra_middleware: Sequence[Middleware] = ()
) -> RabbitmqBroker:
    """The workers' broker. No Retries middleware: JobStatusMiddleware decides and publishes retries."""
    policy = RetryPolicy(settings.retry_min_backoff, settings.retry_max_backoff)
    kinds = {band.actor_name: kind for kind in KINDS for band in settings.job(kind.job_type).bands}
    broker = create_broker(
        settings,
        middleware=[
            # First: its before hook runs before all others and its after hooks after them (see its docstring).
            JobLogContext(),
            StopOnce(deadline=settings.shutdown_grace + SHUTDOWN_RECORDING_TIME),
            AsyncIO(),
            # After AsyncIO: after_worker_shutdown hooks run in reverse, so it closes clients before the loop stops.
            RuntimeShutdown(runtime),
            *extra_middleware,
            # When it skips a message, every other before-hook but the time limit's has run, so their after_skip hooks
            # balance (the time limit's after_skip only clears a deadline).
            JobStatusMiddleware(runtime, kinds, policy),
            # After the status middleware: after hooks run in reverse, so the backstop's deadline is cleared before
            # the status middleware records an attempt's failure. Cleared after, it could fire during that record
            # (an attempt timed out by its own limit, the store slow under load), and its TimeLimitExceeded, no
            # Exception, killed the worker thread past Dramatiq's emit_after and left the job RUNNING (seen in CI).
            TimeLimit(),
        ],
    )
    for kind in KINDS:
        declare_job_actor(broker, kind, runtime)
    return broker


def declare_job_actor(broker: RabbitmqBroker, kind: JobKind, runtime: WorkerRuntime) -> None:
    """A Dramatiq actor that works the attempt the status middleware claimed for this message.

    Whatever goes wrong becomes a JobError (TIMEOUT, INTERNAL, or the one raised), for `decide_after_failure` to judge.
    """
    settings = runtime.settings
    spec = settings.job(kind.job_type)

    def work(job_id: str) -> None:
        attempt = runtime.attempts.current()
        if attempt is None:
            log.error("message for job %s reached the actor without a claim: not worked", job_id)
            return
        try:
            limited = asyncio.wait_for(kind.work(attempt.job, runtime), timeout=spec.time_limit)
            attempt.output = runtime.run(runtime.interruptible(limited))
        except JobError:
            raise
        except concurrent.futures.CancelledError as error:
            if runtime.stopping.is_set():
                raise WorkerStopped() from error
            raise RetryableJobError("the attempt was cancelled", error_type=JobErrorType.INTERNAL) from error
        except (TimeoutError, TimeLimitExceeded) as error:
            message = f"attempt exceeded its {spec.time_limit:.0f}s time limit"
            raise RetryableJobError(message, error_type=JobErrorType.TIMEOUT) from error
        except Exception as error:
            log.exception("job %s attempt %d crashed", job_id, attempt.job["attempts"])
            crashed = f"{type(error).__name__}: {error}"[:500]
            raise RetryableJobError(crashed, error_type=JobErrorType.INTERNAL) from error

    work.__name__ = spec.actor_name
    for band in spec.bands:  # one actor per band (quorum mode), doing the same work
        dramatiq.actor(
            broker=broker,
            actor_name=band.actor_name,
            queue_name=band.queue,
            priority=band.worker_priority,
            throws=(PermanentJobError,),
            # Dramatiq's own limit is a backstop behind the attempt's asyncio timeout.
            time_limit=int((spec.time_limit + settings.lease_margin / 2) * 1000),
        )(work)


#: The Dramatiq CLI's exit code for a failed set-up: `lps worker --supervise` does not restart a pool that exits so.
SETUP_FAILED = 2


class UnsignedOutboxRefused(Middleware):
    """Stops a pool that would deliver with an empty signing key (`Settings.refuses_unsigned_outbox`).

    Checked when the worker boots, where the queues it consumes are known: only a pool that consumes the outbox
    queue signs deliveries. `lps worker` refuses such a pool before it starts Dramatiq; this stops one started with
    the Dramatiq CLI itself. setup() adds it first, so it refuses before any other boot hook starts a thread (AsyncIO's
    event loop): the worker process exits normally, having told Dramatiq's main process it booted, and that process
    exits with the same code within a second (a worker that ended with `os._exit` left it waiting out its 30 s boot
    timeout).
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def before_worker_boot(self, broker: dramatiq.Broker, worker: dramatiq.Worker) -> None:
        if self.settings.refuses_unsigned_outbox(worker.consumer_whitelist):
            log.critical(UNSIGNED_OUTBOX_REFUSED)
            raise SystemExit(SETUP_FAILED)


class AnalyzerWarmUp(Middleware):
    """Loads the matcher's Korean analyzer (`infra.text.analyzer`, ~3 s) once a pool that searches has booted.

    In a thread of its own, so the worker consumes at once: a search that comes before the load is done waits for
    the same load instead of starting another. Pools that only deliver never load it, nor any pool with
    LPS_ANALYZER_WARM_UP off (then the first search that needs it loads it).
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def after_worker_boot(self, broker: dramatiq.Broker, worker: dramatiq.Worker) -> None:
        if not self.settings.analyzer_warm_up:
            return
        queues = worker.consumer_whitelist
        if not queues or not set(self.settings.job(JobType.SEARCH).queues).isdisjoint(queues):
            threading.Thread(target=self._load, name="lps-analyzer-load", daemon=True).start()

    @staticmethod
    def _load() -> None:
        try:
            analyzer.load()
        except Exception:
            # Every search of this pool will fail with the same error (INTERNAL, retried): say why once, here.
            log.critical("the Korean analyzer could not load: this pool's searches cannot judge offers", exc_info=True)


def setup() -> None:
    """Called by the Dramatiq CLI (`dramatiq actors.worker:setup`) in each worker process."""
    settings = Settings.from_env()
    if not settings.mongo_url:
        raise SystemExit("LPS_MONGO_URL is not set: workers need the MongoDB the gateway uses")
    # The Dramatiq CLI has set up logging to its pipe already: keep its handlers and level, apply LPS_LOG_FORMAT.
    configure_logging(settings)
    # Before anything imports prometheus_client: it picks multiprocess mode at its first import.
    metrics_directory = metrics.enable(settings)
    runtime = WorkerRuntime(settings, build_sources, metrics.GateMetrics())
    pausing = QueuePausing(settings, runtime.pauses, store_reader(settings, runtime.run, lambda: runtime.database))
    pool_middleware = [*metrics.pool_middleware(settings, metrics_directory), AnalyzerWarmUp(settings), pausing]
    broker = build_broker(settings, runtime, pool_middleware)
    # First: its boot hook refuses before any other starts a thread (see its docstring).
    broker.add_middleware(UnsignedOutboxRefused(settings), before=JobLogContext)
    dramatiq.set_broker(broker)
