"""A worker pool's metrics as plain functions: the port a pool serves on, stale runs' files removed, and the
gate observer's series."""

from __future__ import annotations

import os
from pathlib import Path

from prometheus_client import CollectorRegistry

from actors import metrics as worker_metrics
from infra.settings import Settings
from infra.source_limits import BreakerState


def test_each_pool_serves_on_the_port_of_the_queue_it_consumes():
    settings = Settings(queue_prefix="p_", search_metrics_port=9191, outbox_metrics_port=9192)

    assert worker_metrics.pool_port(settings, {"p_search"}) == 9191
    assert worker_metrics.pool_port(settings, {"p_outbox"}) == 9192
    assert worker_metrics.pool_port(settings, None) == 9191  # every queue: one pool, one port
    assert worker_metrics.pool_port(settings, {"elsewhere"}) == 0


def test_only_runs_whose_pool_exited_are_removed(tmp_path: Path):
    current, live, gone = tmp_path / "100", tmp_path / str(os.getpid()), tmp_path / "999999999"
    for directory in (current, live, gone):
        directory.mkdir()

    worker_metrics.remove_stale_runs(current)

    assert sorted(path.name for path in tmp_path.iterdir()) == sorted([current.name, live.name])


def test_the_gate_observer_sets_the_breaker_state_the_pace_counts_trips_and_waiting_searches():
    registry = CollectorRegistry()
    observer = worker_metrics.GateMetrics()
    worker_metrics.use(worker_metrics.WorkerMetrics(registry))
    try:
        observer.breaker("coupang", BreakerState.OPEN, tripped=True)
        observer.breaker("coupang", BreakerState.HALF_OPEN, tripped=False)
        observer.waiting("naver", 1)
        observer.waiting("naver", 1)
        observer.waiting("naver", -1)
        observer.pace("coupang", 0.5)
        worker_metrics.source_turn("naver", "deferred", 0.5)
    finally:
        worker_metrics.use(None)

    assert registry.get_sample_value("lps_source_breaker_state", {"source": "coupang"}) == 1  # HALF_OPEN
    assert registry.get_sample_value("lps_source_breaker_trips_total", {"source": "coupang"}) == 1
    assert registry.get_sample_value("lps_source_waiting", {"source": "naver"}) == 1
    assert registry.get_sample_value("lps_source_pace", {"source": "coupang"}) == 0.5
    assert registry.get_sample_value("lps_source_tokens_total", {"source": "naver", "result": "deferred"}) == 1
