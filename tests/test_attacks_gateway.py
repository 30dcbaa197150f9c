"""Defects an attack on the gateway found (issue 11): each test reproduced its defect before the fix."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from infra.logs import TEXT_FORMAT, JsonFormatter, RedactingFormatter, secret_values
from infra.settings import Settings
from service.app import create_app

JSON = {"Content-Type": "application/json"}


async def answer(response) -> tuple[int, dict[str, Any]]:
    return response.status, await response.json()


async def pending_jobs(client: TestClient) -> int:
    return (await (await client.get("/v1/lps/queue/stats")).json())["stats"]["PENDING"]


# --- 11.5: bad input answered 500 ---


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        (rb'{"products":[{"product_code":"S1","keyword":"\ud800"}]}', "keyword"),
        (rb'{"products":[{"product_code":"S1","keyword":"k","model_no":"x\udfff"}]}', "model_no"),
    ],
    ids=["keyword", "model_no"],
)
async def test_a_lone_surrogate_escape_in_a_value_is_invalid_request_data_by_field(
    client: TestClient, raw: bytes, field: str
):
    status, body = await answer(await client.post("/v1/lps/search", data=raw, headers=JSON))

    assert (status, body["result"]) == (400, 101)
    assert field in body["errors"]["products"]["0"]
    assert await pending_jobs(client) == 0


async def test_a_lone_surrogate_as_a_field_name_is_invalid_request_data_named_by_its_escape(client: TestClient):
    raw = rb'{"products":[{"product_code":"S1","keyword":"k","\ud800":1}]}'
    response = await client.post("/v1/lps/search", data=raw, headers=JSON)

    assert response.content_type == "application/json"
    status, body = await answer(response)
    assert (status, body["result"]) == (400, 101)
    assert body["errors"] == {"products": {"0": {"\\ud800": ["Not valid Unicode text: contains a lone surrogate."]}}}


@pytest.mark.parametrize(
    "raw",
    [
        b'{"products":[{"product_code":"S1","keyword":"\xed\xa0\x80"}]}',  # CESU-8: a surrogate encoded as UTF-8
        b'{"products":[{"product_code":"S1","keyword":"k","\xed\xbf\xbf":1}]}',
    ],
    ids=["in-a-value", "in-a-name"],
)
async def test_surrogates_encoded_as_bytes_are_a_json_parse_error(client: TestClient, raw: bytes):
    status, body = await answer(await client.post("/v1/lps/search", data=raw, headers=JSON))

    assert (status, body["result"]) == (400, 100)
    assert await pending_jobs(client) == 0


@pytest.mark.parametrize(
    "raw",
    [b"[" * 100_000 + b"]" * 100_000, b'{"products": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"],
    ids=["bare", "in-a-field"],
)
async def test_a_body_nested_a_hundred_thousand_deep_is_a_json_parse_error(client: TestClient, raw: bytes):
    status, body = await answer(await client.post("/v1/lps/search", data=raw, headers=JSON))

    assert (status, body["result"]) == (400, 100)
    assert "deep" in body["message"]


# --- 11.6: a product_code with a trailing newline ---


async def test_a_product_code_with_a_trailing_newline_is_invalid_request_data(client: TestClient):
    payload = {"products": [{"product_code": "AB\n", "keyword": "k"}]}
    status, body = await answer(await client.post("/v1/lps/search", json=payload))

    assert (status, body["result"]) == (400, 101)
    assert "product_code" in body["errors"]["products"]["0"]
    assert await pending_jobs(client) == 0


async def test_listing_jobs_by_a_product_code_with_a_trailing_newline_is_invalid_request_data(client: TestClient):
    status, body = await answer(await client.get("/v1/lps/jobs", params={"product_code": "AB\n"}))
    assert (status, body["result"]) == (400, 101)


# --- 11.7: short secrets logged in clear ---


@pytest.mark.parametrize("log_format", ["text", "json"])
async def test_a_two_character_api_key_in_a_malformed_request_is_masked_in_the_gateway_log(
    aiohttp_server, settings: Settings, log_format: str
):
    settings = settings.with_overrides(api_keys={"backoffice": "k1"}, log_format=log_format)
    server = await aiohttp_server(create_app(settings))
    # The formatters configure_logging puts on every handler, on a handler of this test's own.
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    secrets = secret_values(settings)
    handler.setFormatter(
        JsonFormatter(secrets) if log_format == "json" else RedactingFormatter(logging.Formatter(TEXT_FORMAT), secrets)
    )
    aiohttp_log = logging.getLogger("aiohttp.server")
    aiohttp_log.addHandler(handler)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(b"GET /v1/lps/queue/stats HTTP/1.1\r\nHost: lps\r\nX-API-Key: k1\x00\r\n\r\n")
        await writer.drain()
        reply = await asyncio.wait_for(reader.read(), 10)
        writer.close()
    finally:
        aiohttp_log.removeHandler(handler)

    assert reply.startswith(b"HTTP/1.1 400") or reply.startswith(b"HTTP/1.0 400")
    logged = stream.getvalue()
    assert "X-API-Key: ***" in logged  # aiohttp logs the refused header line with the key in it
    assert "k1" not in logged
