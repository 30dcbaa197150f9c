"""The order of a worker's middleware where it decides what a job's failure leaves behind."""

from __future__ import annotations

import pytest
from dramatiq.brokers.stub import StubBroker
from dramatiq.middleware import Middleware, TimeLimit

import actors.worker
from actors.middleware import JobStatusMiddleware
from actors.runtime import WorkerRuntime
from actors.sources.enabled import build_sources
from infra.settings import Settings


def test_the_time_limits_deadline_is_cleared_before_the_status_middleware_records_a_failure():
    """Dramatiq runs after hooks in reverse: TimeLimit's must come first, or its TimeLimitExceeded (no Exception) can
    fire while the status middleware writes a failed attempt, kill the worker thread and leave the job RUNNING."""

    def stub_broker(settings: Settings, *, middleware: list[Middleware]) -> StubBroker:
        return StubBroker(middleware=middleware)

    settings = Settings()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(actors.worker, "create_broker", stub_broker)
        broker = actors.worker.build_broker(settings, WorkerRuntime(settings, build_sources))
    after_hooks = [type(middleware) for middleware in reversed(broker.middleware)]
    assert after_hooks.index(TimeLimit) < after_hooks.index(JobStatusMiddleware)
