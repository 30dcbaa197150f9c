"""The gateway's Prometheus metrics (/metrics): open without a key, one route label for unmatched requests,
and an answer while MongoDB is down."""

from __future__ import annotations

import pytest
from aiohttp.test_utils import TestClient

from infra.settings import Settings
from service.app import create_app
from tests.harness import sample


async def test_metrics_stay_open_when_api_keys_are_configured(aiohttp_client, settings: Settings):
    gateway = await aiohttp_client(create_app(settings.with_overrides(api_keys={"backoffice": "bo-7f3c9d1e2a4b"})))
    assert (await gateway.get("/v1/lps/queue/stats")).status == 433

    response = await gateway.get("/metrics")

    assert response.status == 200
    assert response.headers["Content-Type"].startswith("text/plain")
    text = await response.text()
    assert sample(text, "lps_http_requests_total", method="GET", route="/v1/lps/queue/stats", status="433") == 1
    assert sample(text, "lps_jobs_ended_total", job_type="OUTBOX", status="DEAD") == 0
    assert sample(text, "process_resident_memory_bytes") is not None


async def test_requests_no_route_matched_share_one_route_label(client: TestClient):
    for path in ("/nowhere/1", "/nowhere/2"):
        assert (await client.get(path)).status == 404
    assert (await client.patch("/v1/lps/search")).status == 405

    text = await (await client.get("/metrics")).text()

    assert sample(text, "lps_http_requests_total", method="GET", route="unmatched", status="404") == 2
    assert sample(text, "lps_http_requests_total", method="PATCH", route="unmatched", status="405") == 1


async def test_gateway_metrics_answer_without_job_counts_while_mongodb_is_down(
    aiohttp_client, settings: Settings, caplog: pytest.LogCaptureFixture
):
    unreachable = settings.with_overrides(
        mongo_url="mongodb://127.0.0.1:9/?directConnection=true", mongo_timeout_ms=200
    )
    gateway = await aiohttp_client(create_app(unreachable))

    response = await gateway.get("/metrics")

    assert response.status == 200
    text = await response.text()
    assert sample(text, "lps_jobs_ended_total", job_type="SEARCH", status="DONE") is None
    assert "MongoDB unavailable" in caplog.text
