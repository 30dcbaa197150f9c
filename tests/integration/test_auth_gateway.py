"""API keys (433) and per-client rate limits (429 with Retry-After), against the real app."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from infra.settings import Settings
from service.app import create_app
from tests.harness import keyed_gateway

KEYS = {"backoffice": "bo-7f3c9d1e2a4b", "ops": "ops-c0ffee-5e6d"}
SEARCH = {"products": [{"product_code": "AUTH-1", "keyword": "k"}]}


async def answer(response) -> tuple[int, dict[str, Any]]:
    return response.status, await response.json()


@pytest.fixture
async def keyed_client(aiohttp_client, settings: Settings) -> TestClient:
    return await keyed_gateway(aiohttp_client, settings, KEYS)


@pytest.mark.parametrize(
    "headers",
    [{}, {"X-API-Key": ""}, {"X-API-Key": "wrong"}, {"X-API-Key": KEYS["ops"] + "x"}, {"X-API-Key": "bo-7"}],
    ids=["missing", "empty", "unknown", "longer", "prefix"],
)
async def test_a_missing_or_unknown_api_key_is_invalid_client_access(keyed_client: TestClient, headers: dict):
    status, body = await answer(await keyed_client.post("/v1/lps/search", json=SEARCH, headers=headers))
    assert (status, body["result"]) == (433, 433)
    assert body["message"]

    status, body = await answer(await keyed_client.get("/v1/lps/queue/stats", headers=headers))
    assert (status, body["result"]) == (433, 433)


async def test_an_unknown_route_under_the_api_prefix_needs_a_key_too(keyed_client: TestClient):
    status, body = await answer(await keyed_client.get("/v1/lps/nowhere"))
    assert (status, body["result"]) == (433, 433)


@pytest.mark.parametrize("name", sorted(KEYS))
async def test_every_configured_api_key_is_accepted(keyed_client: TestClient, name: str):
    headers = {"X-API-Key": KEYS[name]}
    status, body = await answer(await keyed_client.post("/v1/lps/search", json=SEARCH, headers=headers))
    assert (status, body["result"]) == (200, 0)
    assert body["jobs"][0]["product_code"] == "AUTH-1"

    status, body = await answer(await keyed_client.get("/v1/lps/queue/stats", headers=headers))
    assert (status, body["result"]) == (200, 0)


async def test_probes_and_api_docs_stay_open_without_a_key(keyed_client: TestClient):
    for path in ("/healthz", "/readyz", "/api/docs/swagger.json"):
        status, body = await answer(await keyed_client.get(path))
        assert (status, body.get("result", 0)) == (200, 0), path
    assert (await keyed_client.get("/api/docs")).status == 200


async def test_without_configured_keys_no_key_is_needed(client: TestClient):
    status, body = await answer(await client.get("/v1/lps/queue/stats"))
    assert (status, body["result"]) == (200, 0)


def test_an_empty_configured_key_is_refused_at_start(settings: Settings):
    with pytest.raises(ValueError, match="LPS_API_KEYS"):
        create_app(settings.with_overrides(api_keys={"backoffice": ""}))


async def test_api_keys_never_appear_in_the_log(keyed_client: TestClient, caplog: pytest.LogCaptureFixture):
    caplog.set_level(logging.DEBUG)
    near_miss = KEYS["backoffice"][:-1] + "0"
    for key in (KEYS["backoffice"], near_miss, None):
        headers = {"X-API-Key": key} if key else {}
        await keyed_client.get("/v1/lps/queue/stats", headers=headers)
        await keyed_client.post("/v1/lps/search", json=SEARCH, headers=headers)

    assert "client backoffice" in caplog.text  # the name is what identifies a client in the log
    assert "unknown API key" in caplog.text
    for secret in (*KEYS.values(), near_miss):
        assert secret not in caplog.text
        assert all(secret not in repr(record.args) for record in caplog.records)


# --- rate limit through the app ---
async def limited_client(aiohttp_client, settings: Settings, **overrides: Any) -> TestClient:
    # One token a second: the three requests of a test fit well inside the second before the first comes back.
    limited = settings.with_overrides(rate_limit_per_second=1.0, rate_limit_burst=2, **overrides)
    return await aiohttp_client(create_app(limited))


async def test_a_client_past_its_burst_gets_429_with_retry_after_then_is_served_after_waiting(
    aiohttp_client, settings: Settings
):
    client = await limited_client(aiohttp_client, settings, api_keys=KEYS)
    headers = {"X-API-Key": KEYS["backoffice"]}
    for _ in range(2):
        status, _ = await answer(await client.get("/v1/lps/queue/stats", headers=headers))
        assert status == 200

    response = await client.post("/v1/lps/search", json=SEARCH, headers=headers)
    status, body = await answer(response)
    assert (status, body["result"]) == (429, 429)
    retry_after = int(response.headers["Retry-After"])
    assert retry_after == 1  # the next token is under a second away, rounded up to whole seconds

    await asyncio.sleep(retry_after)
    status, body = await answer(await client.post("/v1/lps/search", json=SEARCH, headers=headers))
    assert (status, body["result"]) == (200, 0)


async def test_each_api_key_has_its_own_bucket(aiohttp_client, settings: Settings):
    client = await limited_client(aiohttp_client, settings, api_keys=KEYS)
    statuses = [(await client.get("/v1/lps/queue/stats", headers={"X-API-Key": KEYS["ops"]})).status for _ in range(3)]
    assert statuses == [200, 200, 429]

    response = await client.get("/v1/lps/queue/stats", headers={"X-API-Key": KEYS["backoffice"]})
    assert response.status == 200


async def test_refused_keys_are_answered_433_not_429(aiohttp_client, settings: Settings):
    # Authentication runs first: a request without a valid key never reaches (or drains) a client's bucket.
    # (Refusals have buckets of their own, per address: 10 at once by default, see test_gateway_hostile_requests.py.)
    client = await limited_client(aiohttp_client, settings, api_keys=KEYS)
    statuses = [(await client.get("/v1/lps/queue/stats", headers={"X-API-Key": "wrong"})).status for _ in range(4)]
    assert statuses == [433] * 4
    assert (await client.get("/v1/lps/queue/stats", headers={"X-API-Key": KEYS["ops"]})).status == 200


async def test_without_keys_the_peer_address_is_rate_limited(aiohttp_client, settings: Settings):
    client = await limited_client(aiohttp_client, settings)
    statuses = [(await client.get("/v1/lps/jobs/6b0c94574ddefc2888135973")).status for _ in range(3)]
    assert statuses == [404, 404, 429]


async def test_probes_and_docs_are_never_rate_limited(aiohttp_client, settings: Settings):
    client = await limited_client(aiohttp_client, settings)
    for _ in range(5):
        for path in ("/healthz", "/readyz", "/api/docs/swagger.json"):
            assert (await client.get(path)).status == 200, path


async def test_a_read_only_key_may_look_but_changes_nothing_anywhere(aiohttp_client, settings: Settings):
    keyed = Settings.from_strings({"api_keys": "ops=ops-5e6d,viewer=view-c0ffee:read"})
    client = await aiohttp_client(
        create_app(settings.with_overrides(api_keys=keyed.api_keys, api_key_roles=keyed.api_key_roles))
    )
    viewer = {"X-API-Key": "view-c0ffee"}
    product = {"product_code": "RO-1", "keyword": "wireless mouse"}
    for method, path, body in [
        ("POST", "/v1/lps/search", {"products": [product]}),
        ("POST", "/v1/lps/watches", {"products": [product], "every": "6h"}),
        ("DELETE", f"/v1/lps/watches/{'0' * 24}", None),
    ]:
        refused = await client.request(method, path, json=body, headers=viewer)
        assert (refused.status, (await refused.json())["result"]) == (433, 433), path
    listed = await client.get("/v1/lps/jobs", headers=viewer)
    assert ((await listed.json())["result"], (await listed.json())["jobs"]) == (0, [])  # nothing was recorded
    assert (await client.get("/v1/lps/watches", headers=viewer)).status == 200
    accepted = await client.post("/v1/lps/search", json={"products": [product]}, headers={"X-API-Key": "ops-5e6d"})
    assert (await accepted.json())["result"] == 0  # a key without a role is admin
