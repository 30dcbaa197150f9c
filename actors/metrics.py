"""Worker pool metrics: Dramatiq's own series and LPS's, in prometheus_client's multiprocess mode.

Each worker process of a pool writes its samples to files in the pool run's directory
(`LPS_METRICS_DIR/<pid of the pool's Dramatiq main process>`, so each run starts from zero and two pools never mix);
one process of the pool serves them merged at `http://LPS_METRICS_HOST:<port>/metrics`, where the port is the one of
the queue the pool consumes: LPS_SEARCH_METRICS_PORT (9191) or LPS_OUTBOX_METRICS_PORT (9192). Both pools fit on one
machine with no flag; a second pool of the same kind on that machine needs its own port (or 0: not served).

prometheus_client picks single- or multiprocess mode once, when it is first imported, from PROMETHEUS_MULTIPROC_DIR,
and Dramatiq's Prometheus middleware reads its directory (`dramatiq_prom_db`) when it is imported. So neither is
imported at module level here: `enable()` sets both variables in the worker's `setup()`, which runs in each worker
process before anything else imports them, and only then builds the metrics. Until it has, the recording functions
below do nothing: code and tests that run outside a worker pool need no metrics set-up.
"""

from __future__ import annotations

import logging
import os
import shutil
import threading
from collections.abc import Iterable, Mapping
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any

import dramatiq
import psutil
from dramatiq.middleware import Middleware

from infra.settings import Settings
from infra.source_limits import BreakerState
from schemas.codes import JobType
from schemas.offers import SOURCE_OUTCOMES

if TYPE_CHECKING:
    from prometheus_client import CollectorRegistry

log = logging.getLogger(__name__)

#: From a delivery's milliseconds to a search's time limit (120 s by default).
ATTEMPT_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0, 300.0)
WAIT_BUCKETS = (0.005, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
DELIVERY_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
#: The file in a pool run's directory that says which of its processes serves the metrics.
EXPOSITION_CLAIM = "exposition.pid"


class WorkerMetrics:
    """LPS's series in one worker process (Dramatiq's own come from its Prometheus middleware)."""

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        from prometheus_client import Counter, Gauge, Histogram

        self.attempt_duration = Histogram(
            "lps_job_attempt_duration_seconds",
            "Attempts by job type and how they ended: DONE, RETRY, DEAD (LOST: finished after losing the lease).",
            ["job_type", "outcome"],
            buckets=ATTEMPT_BUCKETS,
            registry=registry,
        )
        self.source_outcomes = Counter(
            "lps_search_source_outcomes",
            f"Searches of each source by outcome: {', '.join(SOURCE_OUTCOMES)}.",
            ["source", "outcome"],
            registry=registry,
        )
        self.source_duration = Histogram(
            "lps_search_source_duration_seconds",
            "How long each source took to answer (or fail), per search.",
            ["source"],
            buckets=ATTEMPT_BUCKETS,
            registry=registry,
        )
        self.browser_restarts = Counter(
            "lps_browser_restarts",
            "Chromium launched to replace one that was retired (after LPS_BROWSER_MAX_SEARCHES) or crashed.",
            ["reason"],
            registry=registry,
        )
        self.proxy_searches = Counter(
            "lps_proxy_searches",
            "Coupang searches through each proxy (scheme://host:port) by outcome: answered, blocked, unreachable, "
            "failed.",
            ["proxy", "outcome"],
            registry=registry,
        )
        self.proxy_benched = Counter(
            "lps_proxy_benched",
            "Times each proxy was benched for LPS_COUPANG_PROXY_COOLDOWN (its search blocked, or it was unreachable).",
            ["proxy"],
            registry=registry,
        )
        self.source_tokens = Counter(
            "lps_source_tokens",
            "Turns asked of each source's fleet-wide limits (LPS_SOURCE_RATES / _CONCURRENCY, its circuit breaker), "
            "by result: granted, probe (the breaker's half-open probe), deferred (the search waits for a later turn).",
            ["source", "result"],
            registry=registry,
        )
        self.source_wait = Histogram(
            "lps_source_wait_seconds",
            "How long a search waited for its source's turn (granted or deferred).",
            ["source"],
            buckets=WAIT_BUCKETS,
            registry=registry,
        )
        self.source_waiting = Gauge(
            "lps_source_waiting",
            "Searches waiting for their source's turn now (summed over the pool's processes).",
            ["source"],
            multiprocess_mode="livesum",
            registry=registry,
        )
        self.source_pace = Gauge(
            "lps_source_pace",
            "The share of its LPS_SOURCE_RATES a source is searched at, as this pool last saw it (1: the whole rate; "
            "halved fleet-wide by a BLOCKED search, climbing back over LPS_PACE_RECOVERY).",
            ["source"],
            multiprocess_mode="mostrecent",
            registry=registry,
        )
        self.breaker_state = Gauge(
            "lps_source_breaker_state",
            "Each source's circuit breaker as this pool last saw it: 0 CLOSED, 1 HALF_OPEN, 2 OPEN.",
            ["source"],
            multiprocess_mode="mostrecent",
            registry=registry,
        )
        self.breaker_trips = Counter(
            "lps_source_breaker_trips",
            "Times a source's circuit breaker opened (counted by the worker whose update opened it).",
            ["source"],
            registry=registry,
        )
        self.delivery_duration = Histogram(
            "lps_outbox_delivery_duration_seconds",
            "Deliveries to LPS_OUTBOX_URL by result: the status class (2xx, 4xx, 5xx) or unreachable.",
            ["result"],
            buckets=DELIVERY_BUCKETS,
            registry=registry,
        )
        self.watch_results = Counter(
            "lps_watch_results",
            "Watch results the outbox judged, by verdict (delivered, skipped) and reason (first, changed, always, "
            "crossed_below; unchanged, not_below, still_below, superseded, watch_removed).",
            ["verdict", "reason"],
            registry=registry,
        )


#: This process's metrics once `enable()` ran (or `use()` in a test).
_metrics: WorkerMetrics | None = None


def use(metrics: WorkerMetrics | None) -> None:
    """Record into `metrics` from now on (None: stop recording)."""
    global _metrics
    _metrics = metrics


def attempt_finished(job_type: str, outcome: str, seconds: float) -> None:
    if _metrics is not None:
        _metrics.attempt_duration.labels(job_type, outcome).observe(seconds)


def sources_searched(per_source: Mapping[str, Mapping[str, Any]]) -> None:
    """One search of each source, from the entries of `result.sources` ({outcome, count, ms})."""
    if _metrics is None:
        return
    for source, entry in per_source.items():
        _metrics.source_outcomes.labels(source, entry["outcome"]).inc()
        _metrics.source_duration.labels(source).observe(entry["ms"] / 1000)


def source_turn(source: str, result: str, waited: float) -> None:
    """A search asked for its source's turn: `result` granted, probe or deferred, after `waited` seconds."""
    if _metrics is not None:
        _metrics.source_tokens.labels(source, result).inc()
        _metrics.source_wait.labels(source).observe(waited)


#: `lps_source_breaker_state`'s values.
BREAKER_STATE_VALUES = {BreakerState.CLOSED: 0, BreakerState.HALF_OPEN: 1, BreakerState.OPEN: 2}


class GateMetrics:
    """`infra.source_limits.GateObserver`: searches waiting, the pace, and the breaker's state and trips."""

    def waiting(self, source: str, change: int) -> None:
        if _metrics is not None:
            _metrics.source_waiting.labels(source).inc(change)

    def pace(self, source: str, share: float) -> None:
        if _metrics is not None:
            _metrics.source_pace.labels(source).set(share)

    def breaker(self, source: str, state: BreakerState, *, tripped: bool) -> None:
        if _metrics is not None:
            _metrics.breaker_state.labels(source).set(BREAKER_STATE_VALUES[state])
            if tripped:
                _metrics.breaker_trips.labels(source).inc()


def browser_replaced(reason: str) -> None:
    if _metrics is not None:
        _metrics.browser_restarts.labels(reason).inc()


def proxy_searched(proxy: str, outcome: str) -> None:
    """One Coupang search through `proxy` (its label, without credentials) ended with `outcome`."""
    if _metrics is not None:
        _metrics.proxy_searches.labels(proxy, outcome).inc()


def proxy_benched(proxy: str) -> None:
    if _metrics is not None:
        _metrics.proxy_benched.labels(proxy).inc()


def delivery_finished(status: int | None, seconds: float) -> None:
    """One delivery attempt: `status` is the receiver's answer, None when it could not be reached."""
    if _metrics is not None:
        result = f"{status // 100}xx" if status else "unreachable"
        _metrics.delivery_duration.labels(result).observe(seconds)


def watch_result_judged(delivered: bool, reason: str) -> None:
    if _metrics is not None:
        _metrics.watch_results.labels("delivered" if delivered else "skipped", reason).inc()


def run_directory(settings: Settings) -> Path:
    """This pool run's directory: the worker processes of one pool share their Dramatiq main process."""
    return Path(settings.metrics_dir) / str(os.getppid())


def enable(settings: Settings) -> Path:
    """Put this worker process in multiprocess mode, writing into its pool run's directory (returned).

    Must run before anything imports prometheus_client or Dramatiq's Prometheus middleware in this process.
    """
    directory = run_directory(settings)
    directory.mkdir(parents=True, exist_ok=True)
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(directory)
    os.environ["dramatiq_prom_db"] = str(directory)  # noqa: SIM112 (Dramatiq's own name for it)
    from prometheus_client import values

    if not values.ValueClass._multiprocess:
        raise RuntimeError("prometheus_client was imported before the worker's setup(): metrics would not be shared")
    use(WorkerMetrics())
    return directory


def pool_middleware(settings: Settings, directory: Path) -> list[Middleware]:
    """Dramatiq's Prometheus middleware, and the exposition of the pool's metrics (after `enable()`)."""
    from dramatiq.middleware import prometheus

    if Path(prometheus.DB_PATH) != directory:
        raise RuntimeError(f"Dramatiq's Prometheus middleware was imported before the worker's setup() ({directory})")

    class DramatiqSeries(prometheus.Prometheus):
        """dramatiq_messages_total and the rest, served by MetricsExposition.

        Dramatiq's own exposition process would bind `dramatiq_prom_port`, the same for every pool on a machine.
        """

        @property
        def forks(self) -> list[Any]:
            return []

    return [DramatiqSeries(), MetricsExposition(settings, directory)]


def pool_port(settings: Settings, queues: Iterable[str] | None) -> int:
    """The metrics port of the pool consuming `queues` (None or empty: every queue, so the search pool's)."""
    consumed = set(queues or ())
    for job_type in JobType:
        spec = settings.job(job_type)
        if not consumed or not consumed.isdisjoint(spec.queues):
            return spec.metrics_port
    return 0


class MetricsExposition(Middleware):
    """Serves the pool's merged metrics from one of its worker processes.

    ``after_worker_boot`` runs in each worker process once its threads started, when the queues it consumes are
    known: the first process of the pool to claim the run's directory serves on the port of the pool's queue, from
    a daemon thread, and removes the directories of pool runs whose main process is gone. ``after_worker_shutdown``
    runs once the process's jobs ended: the server stops with it.
    """

    def __init__(self, settings: Settings, directory: Path) -> None:
        self.settings = settings
        self.directory = directory
        self.server: ThreadingHTTPServer | None = None

    def after_worker_boot(self, broker: dramatiq.Broker, worker: dramatiq.Worker) -> None:
        port = pool_port(self.settings, worker.consumer_whitelist)
        if not _claim(self.directory):
            return  # another process of this pool serves
        remove_stale_runs(self.directory)
        if not port:
            return
        host = self.settings.metrics_host
        try:
            self.server = serve(self.directory, host, port)
        except OSError as error:
            log.error("worker metrics not served on %s:%d (%s): give this pool its own port", host, port, error)
            return
        log.info("worker metrics on http://%s:%d/metrics", host, port)

    def after_worker_shutdown(self, broker: dramatiq.Broker, worker: dramatiq.Worker) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()


def serve(directory: Path, host: str, port: int) -> ThreadingHTTPServer:
    """An HTTP server (in a daemon thread) answering every GET with the merged samples of `directory`."""
    from prometheus_client import CollectorRegistry
    from prometheus_client.exposition import MetricsHandler
    from prometheus_client.multiprocess import MultiProcessCollector

    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=str(directory))
    server = ThreadingHTTPServer((host, port), MetricsHandler.factory(registry))
    threading.Thread(target=server.serve_forever, name="metrics-exposition", daemon=True).start()
    return server


def _claim(directory: Path) -> bool:
    try:
        claim = os.open(directory / EXPOSITION_CLAIM, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return False
    with os.fdopen(claim, "w") as file:
        file.write(str(os.getpid()))
    return True


def remove_stale_runs(current: Path) -> None:
    """Remove the run directories beside `current` whose pool's main process has exited (their files are stale)."""
    for entry in current.parent.iterdir():
        if entry != current and entry.name.isdigit() and not psutil.pid_exists(int(entry.name)):
            shutil.rmtree(entry, ignore_errors=True)
