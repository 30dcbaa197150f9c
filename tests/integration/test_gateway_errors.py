"""Bad input and faults: every error is an envelope with the contract's result code (README) and HTTP status."""

from __future__ import annotations

import json

import pytest
from aiohttp.test_utils import TestClient

from infra.settings import Settings
from schemas.search_request import MAX_PRODUCTS_PER_REQUEST
from service.app import create_app
from tests.gateway_calls import JSON, PRODUCT, answer


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({}, "products"),
        ({"products": []}, "products"),
        ({"products": "P1"}, "products"),
        ({"products": [{"keyword": "k"}]}, "product_code"),
        ({"products": [{"product_code": "has space", "keyword": "k"}]}, "product_code"),
        ({"products": [{"product_code": "x" * 65, "keyword": "k"}]}, "product_code"),
        ({"products": [{"product_code": {"$gt": ""}, "keyword": "k"}]}, "product_code"),
        ({"products": [{"product_code": "$where", "keyword": "k"}]}, "product_code"),
        ({"products": [{"product_code": "P1", "keyword": ""}]}, "keyword"),
        ({"products": [{"product_code": "P1", "keyword": "k" * 201}]}, "keyword"),
        ({"products": [{"product_code": "P1", "keyword": {"$ne": None}}]}, "keyword"),
        ({"products": [{"product_code": "P1", "keyword": "k", "target_price": "100"}]}, "target_price"),
        ({"products": [{"product_code": "P1", "keyword": "k", "target_price": -5}]}, "target_price"),
        ({"products": [{"product_code": "P1", "keyword": "k", "sources": ["ebay"]}]}, "sources"),
        ({"products": [{"product_code": "P1", "keyword": "k", "colour": "red"}]}, "colour"),
        ({"products": [PRODUCT], "priority": "URGENT"}, "priority"),
        ({"products": [PRODUCT], "callback_url": "http://evil"}, "callback_url"),
    ],
)
async def test_schema_violations_are_invalid_request_data_by_field(client: TestClient, payload: dict, field: str):
    status, body = await answer(await client.post("/v1/lps/search", json=payload))

    assert (status, body["result"]) == (400, 101)
    assert field in json.dumps(body["errors"])


async def test_nothing_is_recorded_when_any_product_is_invalid(client: TestClient):
    payload = {"products": [PRODUCT, {"product_code": "bad code", "keyword": "k"}]}
    status, body = await answer(await client.post("/v1/lps/search", json=payload))
    assert (status, body["result"]) == (400, 101)
    assert body["errors"] == {"products": {"1": {"product_code": ["must match ^[A-Za-z0-9._:-]{1,64}$"]}}}

    stats = await (await client.get("/v1/lps/queue/stats")).json()
    assert stats["stats"]["PENDING"] == 0


@pytest.mark.parametrize(
    "raw", [b"{not json", b"", b"\xff\xfe\x00", b'{"products": [}'], ids=["broken", "empty", "binary", "truncated"]
)
async def test_a_body_that_is_not_json_is_a_json_parse_error(client: TestClient, raw: bytes):
    status, body = await answer(await client.post("/v1/lps/search", data=raw, headers=JSON))
    assert (status, body["result"]) == (400, 100)


@pytest.mark.parametrize(
    "content_type", ["application/json", "application/json; charset=utf-8", "Application/JSON; charset=UTF8"]
)
async def test_json_is_taken_with_or_without_a_utf8_charset(client: TestClient, content_type: str):
    raw = json.dumps({"products": [PRODUCT]})
    status, body = await answer(await client.post("/v1/lps/search", data=raw, headers={"Content-Type": content_type}))
    assert (status, body["result"]) == (200, 0)


async def test_a_byte_order_mark_before_the_json_is_tolerated(client: TestClient):
    raw = b"\xef\xbb\xbf" + json.dumps({"products": [{"product_code": "BOM-1", "keyword": "k"}]}).encode()
    status, body = await answer(await client.post("/v1/lps/search", data=raw, headers=JSON))
    assert (status, body["result"]) == (200, 0)


async def test_characters_beyond_the_basic_plane_are_text_whether_escaped_or_not(client: TestClient):
    # A surrogate *pair* escape is one character, not a lone surrogate.
    raw = '{"products":[{"product_code":"EMOJI-1","keyword":"\\ud83d\\ude00 \U0001f600"}]}'.encode()
    status, body = await answer(await client.post("/v1/lps/search", data=raw, headers=JSON))
    assert (status, body["result"]) == (200, 0)


@pytest.mark.parametrize("raw", [b"[1, 2]", b'"text"', b"null", b"42"])
async def test_json_that_is_not_an_object_is_invalid_request_data(client: TestClient, raw: bytes):
    status, body = await answer(await client.post("/v1/lps/search", data=raw, headers=JSON))
    assert (status, body["result"]) == (400, 101)


async def test_more_products_than_allowed_is_an_invalid_client_request(client: TestClient):
    products = [{"product_code": f"P{i}", "keyword": "k"} for i in range(MAX_PRODUCTS_PER_REQUEST + 1)]
    status, body = await answer(await client.post("/v1/lps/search", json={"products": products}))
    assert (status, body["result"]) == (419, 419)


async def test_a_body_over_one_mebibyte_is_an_invalid_client_request(client: TestClient):
    padding = "x" * (1024 * 1024)
    raw = f'{{"pad": "{padding}"}}'
    status, body = await answer(await client.post("/v1/lps/search", data=raw, headers=JSON))
    assert (status, body["result"]) == (419, 419)


@pytest.mark.parametrize(
    "job_id",
    ["6b0c94574ddefc2888135973", "zzz", "6b0c94574ddefc288813597", "6b0c94574ddefc2888135973a", '{"$gt":""}'],
    ids=["unknown", "not-hex", "23-hex", "25-hex", "operator"],
)
async def test_unknown_or_malformed_job_id_is_job_not_found(client: TestClient, job_id: str):
    status, body = await answer(await client.get(f"/v1/lps/jobs/{job_id}"))
    assert (status, body["result"]) == (404, 1500)


async def test_unknown_route_and_wrong_method_answer_with_an_envelope(client: TestClient):
    status, body = await answer(await client.get("/v1/lps/nowhere"))
    assert (status, body["result"]) == (404, 101)
    response = await client.get("/v1/lps/search")
    status, body = await answer(response)
    assert (status, body["result"]) == (405, 101)
    assert response.headers["Allow"] == "POST"


async def test_openapi_document_lists_every_endpoint(client: TestClient):
    response = await client.get("/api/docs/swagger.json")
    spec = await response.json()

    assert spec["openapi"].startswith("3.")
    assert {path: sorted(operations) for path, operations in spec["paths"].items()} == {
        "/v1/lps/search": ["post"],
        "/v1/lps/jobs": ["get"],
        "/v1/lps/jobs/{job_id}": ["delete", "get"],
        "/v1/lps/jobs/{job_id}/retry": ["post"],
        "/v1/lps/jobs/redrive": ["post"],
        "/v1/lps/queue/stats": ["get"],
        "/v1/lps/queues/{queue}/pause": ["post"],
        "/v1/lps/queues/{queue}/resume": ["post"],
        "/v1/lps/queue/timeline": ["get"],
        "/v1/lps/snapshots/{snapshot_id}/{kind}": ["get"],
        "/v1/lps/watches": ["get", "post"],
        "/v1/lps/watches/{watch_id}": ["delete", "get", "patch"],
        "/v1/lps/watches/{watch_id}/pause": ["post"],
        "/v1/lps/watches/{watch_id}/resume": ["post"],
        "/healthz": ["get", "head"],
        "/readyz": ["get", "head"],
    }
    assert {"SearchRequest", "WatchRequest", "Watch"} <= set(spec["components"]["schemas"])
    assert "produces" not in json.dumps(spec["paths"])  # a Swagger 2 key, not OpenAPI 3
    ui = await client.get("/api/docs")
    assert ui.status == 200
    assert "swagger" in (await ui.text()).lower()


@pytest.mark.parametrize("enabled", [("static",), ("coupang", "naver")])
async def test_the_openapi_document_offers_only_the_sources_the_deployment_enables(
    aiohttp_client, settings: Settings, enabled: tuple[str, ...]
):
    client = await aiohttp_client(create_app(settings.with_overrides(search_sources=enabled)))
    spec = await (await client.get("/api/docs/swagger.json")).json()
    assert spec["components"]["schemas"]["Product"]["properties"]["sources"]["items"]["enum"] == list(enabled)


async def test_health_and_readiness_report_both_dependencies(client: TestClient):
    status, body = await answer(await client.get("/healthz"))
    assert (status, body) == (200, {"result": 0, "status": "up"})
    status, body = await answer(await client.get("/readyz"))
    assert (status, body) == (200, {"result": 0, "checks": {"mongo": "ok", "rabbitmq": "ok"}, "queue_type": "classic"})
