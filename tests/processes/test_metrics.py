"""Prometheus metrics of the worker pools: each pool's endpoint after real jobs ran through it, and the
recording functions."""

from __future__ import annotations

from pathlib import Path

import aiohttp
import pytest
from aiohttp.test_utils import TestClient
from prometheus_client import CollectorRegistry

from actors import metrics as worker_metrics
from infra.settings import Settings
from service.app import create_app
from tests.harness import JobsView, sample, worker_pool, worker_pools
from tests.ports import free_port
from tools.testbed import Receiver, eventually


@pytest.fixture
def stack_settings(settings: Settings, receiver: Receiver) -> Settings:
    # Free ports: parallel test runs and a dev stack on 9191/9192 never collide.
    return settings.with_overrides(
        outbox_url=receiver.url,
        outbox_secret="s3cret",
        retry_min_backoff=0.2,
        retry_max_backoff=0.5,
        search_max_attempts=2,
        search_metrics_port=free_port(),
        outbox_metrics_port=free_port(),
    )


async def scrape(url: str) -> str | None:
    try:
        async with aiohttp.ClientSession() as session, session.get(url) as response:
            return await response.text() if response.status == 200 else None
    except aiohttp.ClientError:
        return None


async def worker_series(port: int, name: str, **labels: str) -> str:
    """The pool's exposition once it shows `name` with `labels` above zero (samples land as attempts end)."""

    async def probe() -> str | None:
        text = await scrape(f"http://127.0.0.1:{port}/metrics")
        return text if text and (sample(text, name, **labels) or 0) > 0 else None

    return await eventually(probe, within=30, what=f"{name}{labels} on port {port}")


@pytest.mark.processes
async def test_after_jobs_ran_the_gateway_and_both_pools_expose_their_series_with_those_jobs_counted(
    aiohttp_client, stack_settings: Settings, jobs: JobsView, tmp_path: Path
):
    gateway: TestClient = await aiohttp_client(create_app(stack_settings))
    async with worker_pools(stack_settings, ["search", "outbox"], tmp_path):
        response = await gateway.post(
            "/v1/lps/search",
            json={
                "products": [
                    {"product_code": "MET-1", "keyword": "무선 이어폰"},
                    {"product_code": "MET-2", "keyword": "#fail"},
                ]
            },
        )
        found, failing = [job["job_id"] for job in (await response.json())["jobs"]]
        assert (await jobs.finished(found))["status"] == "DONE"
        assert (await jobs.finished(failing))["status"] == "DEAD"
        await jobs.outbox_of(found)

        search = await worker_series(
            stack_settings.search_metrics_port,
            "lps_job_attempt_duration_seconds_count",
            job_type="SEARCH",
            outcome="DEAD",
        )
        outbox = await worker_series(
            stack_settings.outbox_metrics_port,
            "lps_job_attempt_duration_seconds_count",
            job_type="OUTBOX",
            outcome="DONE",
        )

    attempts = "lps_job_attempt_duration_seconds_count"
    assert sample(search, attempts, job_type="SEARCH", outcome="DONE") == 1
    assert sample(search, attempts, job_type="SEARCH", outcome="RETRY") == 1
    assert sample(search, attempts, job_type="SEARCH", outcome="DEAD") == 1
    assert sample(search, "lps_search_source_outcomes_total", source="static", outcome="FOUND") == 1
    assert sample(search, "lps_search_source_outcomes_total", source="static", outcome="ERROR") == 2
    assert sample(search, "lps_search_source_duration_seconds_count", source="static") == 3
    assert (sample(search, "dramatiq_messages_total", actor_name="search") or 0) >= 3
    # Each pool shows its own jobs only: the two never share their files.
    assert sample(search, attempts, job_type="OUTBOX", outcome="DONE") is None

    assert sample(outbox, "lps_outbox_delivery_duration_seconds_count", result="2xx") == 1
    assert sample(outbox, attempts, job_type="SEARCH", outcome="DONE") is None

    text = await (await gateway.get("/metrics")).text()
    assert sample(text, "lps_jobs_ended_total", job_type="SEARCH", status="DONE") == 1
    assert sample(text, "lps_jobs_ended_total", job_type="SEARCH", status="DEAD") == 1
    assert sample(text, "lps_jobs_ended_total", job_type="OUTBOX", status="DONE") == 1
    assert sample(text, "lps_jobs_active", job_type="SEARCH", status="PENDING") == 0
    # A gauge for what is in hand, a counter for what ended: never one series mixing the two.
    assert "# TYPE lps_jobs_active gauge" in text
    assert "# TYPE lps_jobs_ended_total counter" in text or "# TYPE lps_jobs_ended counter" in text
    assert sample(text, "lps_jobs_active", job_type="SEARCH", status="DONE") is None
    assert sample(text, "lps_jobs", job_type="SEARCH", status="DONE") is None
    assert sample(text, "lps_http_requests_total", method="POST", route="/v1/lps/search", status="200") == 1
    assert sample(text, "lps_http_request_duration_seconds_count", method="POST", route="/v1/lps/search") == 1


@pytest.mark.processes
async def test_a_pool_counts_its_sources_turns_and_shows_the_breaker_it_opened(
    aiohttp_client, stack_settings: Settings, jobs: JobsView, tmp_path: Path
):
    tuned = stack_settings.with_overrides(
        breaker_window=2, breaker_cooldown=600.0, search_max_attempts=1, outbox_url=None
    )
    gateway: TestClient = await aiohttp_client(create_app(tuned))
    products = [
        {"product_code": "TRIPS", "keyword": "x #blocked"},  # one BLOCKED search of two opens the breaker
        {"product_code": "HELD", "keyword": "무선 이어폰"},  # then held back: deferred, not failed
    ]
    async with worker_pool(tuned, "search", tmp_path, threads=1):
        response = await gateway.post("/v1/lps/search", json={"products": products})
        blocked, held_back = [job["job_id"] for job in (await response.json())["jobs"]]
        assert (await jobs.finished(blocked))["status"] == "DEAD"
        exposition = await worker_series(
            tuned.search_metrics_port, "lps_job_attempt_duration_seconds_count", job_type="SEARCH", outcome="DEFERRED"
        )
        assert (await jobs.get(held_back))["status"] in ("PENDING", "RUNNING")

    assert sample(exposition, "lps_source_tokens_total", source="static", result="granted") == 1
    assert (sample(exposition, "lps_source_tokens_total", source="static", result="deferred") or 0) >= 1
    assert sample(exposition, "lps_source_breaker_state", source="static") == 2  # OPEN
    assert sample(exposition, "lps_source_breaker_trips_total", source="static") == 1
    assert (sample(exposition, "lps_source_wait_seconds_count", source="static") or 0) >= 2


@pytest.mark.processes
def test_recording_functions_do_nothing_until_metrics_are_enabled_then_record():
    worker_metrics.delivery_finished(200, 0.1)  # no metrics yet: nothing happens, nothing fails
    registry = CollectorRegistry()
    worker_metrics.use(worker_metrics.WorkerMetrics(registry))
    try:
        worker_metrics.delivery_finished(503, 0.2)
        worker_metrics.delivery_finished(None, 1.0)
        worker_metrics.browser_replaced("crashed")
    finally:
        worker_metrics.use(None)

    assert registry.get_sample_value("lps_outbox_delivery_duration_seconds_count", {"result": "5xx"}) == 1
    assert registry.get_sample_value("lps_outbox_delivery_duration_seconds_count", {"result": "unreachable"}) == 1
    assert registry.get_sample_value("lps_browser_restarts_total", {"reason": "crashed"}) == 1
