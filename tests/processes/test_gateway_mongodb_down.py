"""A MongoDB that goes down under the gateway (an embedded store of the test's own, stopped): the gateway
answers 503 with DB_RUN_FAILED within seconds."""

from __future__ import annotations

import json
import time

import pytest

from embedded_store.server import embedded_mongo
from infra.settings import Settings
from service.app import create_app
from tests.gateway_calls import PRODUCT, answer
from tests.ports import free_port


@pytest.mark.processes
async def test_mongodb_down_answers_503_db_run_failed_within_seconds(aiohttp_client, settings: Settings):
    with embedded_mongo(free_port()) as url:
        client = await aiohttp_client(create_app(settings.with_overrides(mongo_url=url, mongo_timeout_ms=1500)))
        status, _ = await answer(await client.post("/v1/lps/search", json={"products": [PRODUCT]}))
        assert status == 200
    # The server process is gone now.

    for request in (
        lambda: client.post("/v1/lps/search", json={"products": [{"product_code": "OK-2", "keyword": "k"}]}),
        lambda: client.get("/v1/lps/jobs/6b0c94574ddefc2888135973"),
        lambda: client.get("/v1/lps/queue/stats"),
    ):
        started = time.monotonic()
        status, body = await answer(await request())
        assert (status, body["result"]) == (503, 10)
        assert "Traceback" not in json.dumps(body)
        assert time.monotonic() - started < 8
    status, body = await answer(await client.get("/readyz"))
    assert (status, body["result"], body["checks"]["mongo"]) == (503, 10, "unreachable")
