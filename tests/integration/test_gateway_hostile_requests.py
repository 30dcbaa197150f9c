"""What hostile or malformed requests get from the gateway. Each test reproduced, before its fix, a defect an attack
on the gateway found (issue 11)."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from typing import Any

import pytest
from aiohttp.test_utils import TestClient
from bson import ObjectId
from pymongo.errors import NetworkTimeout

from infra.logs import TEXT_FORMAT, JsonFormatter, RedactingFormatter, secret_values
from infra.settings import Settings
from service.app import create_app
from service.http_server import REFUSED_LINES_BURST
from service.keys import JOBS
from tests.gateway_calls import JSON, PRODUCT, answer, search, serving_gateway


async def pending_jobs(client: TestClient) -> int:
    return (await (await client.get("/v1/lps/queue/stats")).json())["stats"]["PENDING"]


# --- bad input gets its result code, never 500 ---


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


# --- a product_code with a trailing newline ---


async def test_a_product_code_with_a_trailing_newline_is_invalid_request_data(client: TestClient):
    payload = {"products": [{"product_code": "AB\n", "keyword": "k"}]}
    status, body = await answer(await client.post("/v1/lps/search", json=payload))

    assert (status, body["result"]) == (400, 101)
    assert "product_code" in body["errors"]["products"]["0"]
    assert await pending_jobs(client) == 0


async def test_listing_jobs_by_a_product_code_with_a_trailing_newline_is_invalid_request_data(client: TestClient):
    status, body = await answer(await client.get("/v1/lps/jobs", params={"product_code": "AB\n"}))
    assert (status, body["result"]) == (400, 101)


# --- no secret is logged in clear, however short ---


async def raw_request(port: int, request: bytes) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(request)
        await writer.drain()
        return await asyncio.wait_for(reader.read(), 10)
    finally:
        writer.close()


@pytest.mark.parametrize("log_format", ["text", "json"])
async def test_a_two_character_api_key_in_a_malformed_request_never_reaches_the_gateway_log(
    settings: Settings, log_format: str
):
    settings = settings.with_overrides(api_keys={"backoffice": "k1"}, log_format=log_format)
    # The formatters configure_logging puts on every handler, on a handler of this test's own.
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    secrets = secret_values(settings)
    handler.setFormatter(
        JsonFormatter(secrets) if log_format == "json" else RedactingFormatter(logging.Formatter(TEXT_FORMAT), secrets)
    )
    logging.getLogger().addHandler(handler)
    try:
        async with serving_gateway(settings) as port:
            reply = await raw_request(
                port, b"GET /v1/lps/queue/stats HTTP/1.1\r\nHost: lps\r\nX-API-Key: k1\x00\r\n\r\n"
            )
    finally:
        logging.getLogger().removeHandler(handler)

    assert reply.startswith(b"HTTP/1.1 400") or reply.startswith(b"HTTP/1.0 400")
    logged = stream.getvalue()
    assert "refused a malformed HTTP request" in logged  # the parser's reason, never the refused header line
    assert "k1" not in logged


# --- malformed header bytes: the envelope, and a few log lines a minute ---


@pytest.mark.parametrize("byte", [b"\x00", b"\x7f"], ids=["NUL", "DEL"])
async def test_malformed_header_bytes_are_answered_with_the_envelope_and_logged_a_few_lines_a_minute(
    settings: Settings, caplog: pytest.LogCaptureFixture, byte: bytes
):
    """Anyone could flood the log: each request with such a header cost an ERROR and an 11-line traceback, and was
    answered in aiohttp's plain text. Now: the envelope (400 / 101), and at most REFUSED_LINES_BURST one-line WARNINGs
    until the budget refills, the next saying how many requests it stands for."""
    caplog.set_level(logging.INFO)
    requests = REFUSED_LINES_BURST * 4
    async with serving_gateway(settings) as port:
        replies = [
            await raw_request(port, b"GET /healthz HTTP/1.1\r\nHost: lps\r\nX-Note: a" + byte + b"b\r\n\r\n")
            for _ in range(requests)
        ]

    for reply in replies:
        head, _, body = reply.partition(b"\r\n\r\n")
        assert head.split(b"\r\n")[0].endswith(b" 400 Bad Request"), reply
        assert b"\r\nServer: lps\r\n" in head
        assert b"Content-Type: application/json" in head
        answer = json.loads(body)
        assert answer["result"] == 101
        assert answer["message"] == "malformed HTTP request: Invalid header value char"
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR or record.exc_info]
    lines = [record for record in caplog.records if "refused a malformed HTTP request" in record.getMessage()]
    assert len(lines) == REFUSED_LINES_BURST
    assert all(record.levelno == logging.WARNING for record in lines)
    assert all("\n" not in record.getMessage() and "a\\x" not in record.getMessage() for record in lines)


async def test_a_request_line_longer_than_the_parser_reads_is_answered_with_the_envelope(settings: Settings):
    # aiohttp reads at most 8190 bytes of a request line; past it, the fuzzer once got aiohttp's plain text.
    async with serving_gateway(settings) as port:
        reply = await raw_request(
            port, b"POST /v1/lps/jobs/redrive?q=" + b"%C2" * 3000 + b" HTTP/1.1\r\nHost: lps\r\n\r\n"
        )

    head, _, body = reply.partition(b"\r\n\r\n")
    assert head.split(b"\r\n")[0].endswith(b" 400 Bad Request"), reply[:300]
    assert b"Content-Type: application/json" in head
    answer = json.loads(body)
    assert answer["result"] == 101
    assert answer["message"] == "malformed HTTP request: Got more than 8190 bytes when reading"


# --- a hung store: answered within its timeout, and a 503 never hides a completed write ---


async def test_a_store_failure_after_the_jobs_are_recorded_and_published_does_not_turn_the_answer_into_503(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
):
    async def store_gone(*_: Any, **__: Any) -> None:
        raise NetworkTimeout("timed out")

    # The one fault injected: noting the broker's confirms fails, after the insert and the publish succeeded.
    monkeypatch.setattr(client.app[JOBS], "mark_enqueued", store_gone)

    status, body = await search(client, [PRODUCT])

    assert (status, body["result"]) == (200, 0)  # was 503: the client would have been told its job was refused
    [job] = body["jobs"]
    assert (job["duplicate"], job["enqueued"]) == (False, True)
    stored = await client.app[JOBS].get(ObjectId(job["job_id"]))
    assert stored["status"] == "PENDING"
    assert "enqueued_at" not in stored  # so the reconciler publishes it again


# --- refused keys are rate limited per address ---


async def test_requests_with_missing_or_wrong_keys_are_limited_per_address_and_a_right_key_still_passes(
    aiohttp_client, settings: Settings
):
    keyed = settings.with_overrides(
        api_keys={"backoffice": "bo-7f3c9d1e2a4b"}, auth_failure_rate_per_second=0.2, auth_failure_burst=3
    )
    client = await aiohttp_client(create_app(keyed))
    statuses = []
    for headers in [{"X-API-Key": "guess-1"}, {}, {"X-API-Key": "guess-2"}, {"X-API-Key": "guess-3"}, {}]:
        response = await client.get("/v1/lps/queue/stats", headers=headers)
        statuses.append((response.status, (await response.json())["result"]))
    assert statuses == [(433, 433)] * 3 + [(429, 429)] * 2  # was 433 for every one of 600 in a row
    assert int(response.headers["Retry-After"]) >= 1

    # The refusals drained the address's bucket for refusals, not the client's: the right key is served.
    response = await client.get("/v1/lps/queue/stats", headers={"X-API-Key": "bo-7f3c9d1e2a4b"})
    assert response.status == 200


# --- a body that never comes: 419, and its connection closed ---


async def test_a_body_that_never_arrives_is_refused_419_and_its_connection_closed(aiohttp_server, settings: Settings):
    server = await aiohttp_server(create_app(settings.with_overrides(body_read_timeout=0.5)))
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    try:
        head = b"POST /v1/lps/search HTTP/1.1\r\nHost: lps\r\nContent-Type: application/json\r\nContent-Length: 100\r\n"
        writer.write(head + b'\r\n{"products": [')  # then nothing more: was still open after 200 s
        await writer.drain()
        # Reading to the end proves the gateway closed the connection; bounded, so a hang fails the test.
        reply = await asyncio.wait_for(reader.read(), 5)
    finally:
        writer.close()

    head, _, body = reply.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 419")
    assert json.loads(body)["result"] == 419


# --- only a body declared as UTF-8 JSON is read ---


@pytest.mark.parametrize(
    "content_type",
    [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/json; charset=latin-1",
    ],
)
async def test_a_body_not_declared_as_utf8_json_is_a_json_parse_error_and_records_nothing(
    client: TestClient, content_type: str
):
    # What a form or fetch() on any web page can send across origins without a CORS preflight (the first three).
    raw = json.dumps({"products": [PRODUCT]})
    response = await client.post("/v1/lps/search", data=raw, headers={"Content-Type": content_type})
    status, body = await answer(response)

    assert (status, body["result"]) == (400, 100)
    assert "application/json" in body["message"]
    assert await pending_jobs(client) == 0


# --- no answer names the server software or its version ---


async def test_no_answer_names_the_server_software_or_its_version(client: TestClient):
    answers = [
        await client.post("/v1/lps/search", json={"products": [PRODUCT]}),
        await client.post("/v1/lps/search", data=b"{", headers=JSON),
        await client.get("/v1/lps/jobs/nope"),
        await client.get("/v1/lps/nowhere"),
        await client.get("/healthz"),
        await client.get("/metrics"),
        await client.get("/api/docs/swagger.json"),
    ]
    assert [response.status for response in answers] == [200, 400, 404, 404, 200, 200, 200]
    assert [response.headers.get("Server") for response in answers] == ["lps"] * len(answers)


# --- the OpenAPI document declares the API key and every answer ---


@pytest.mark.parametrize("api_keys", [{"backoffice": "bo-7f3c9d1e2a4b"}, {}], ids=["keys", "no-keys"])
async def test_the_openapi_document_declares_the_api_key_and_the_429_433_and_readiness_503_answers(
    aiohttp_client, settings: Settings, api_keys: dict[str, str]
):
    client = await aiohttp_client(create_app(settings.with_overrides(api_keys=api_keys)))
    spec = await (await client.get("/api/docs/swagger.json")).json()

    [(scheme_name, scheme)] = spec["components"]["securitySchemes"].items()
    assert (scheme["type"], scheme["in"], scheme["name"]) == ("apiKey", "header", "X-API-Key")
    required = [{scheme_name: []}] if api_keys else [{scheme_name: []}, {}]  # `{}`: no key needed
    api_operations = [
        operation
        for path, operations in spec["paths"].items()
        if path.startswith("/v1/lps/")
        for operation in operations.values()
    ]
    # search, jobs (4: list, get, retry, discard), snapshots, stats, timeline, queues (2: pause, resume), watches (7)
    assert len(api_operations) == 18
    for operation in api_operations:
        assert operation["security"] == required
        assert {"429", "433"} <= set(operation["responses"])
        assert "Retry-After" in operation["responses"]["429"]["headers"]
    assert "503" in spec["paths"]["/readyz"]["get"]["responses"]
    assert "security" not in spec["paths"]["/healthz"]["get"]  # probes stay open
