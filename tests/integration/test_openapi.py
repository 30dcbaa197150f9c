"""The OpenAPI document as a client reads it: examples for every request and answer, the sources and cron
patterns it offers."""

from __future__ import annotations

import json
from typing import Any

from aiohttp.test_utils import TestClient

from infra.settings import Settings
from schemas.codes import HTTP_STATUS, ErrorType
from service.app import create_app
from tests.openapi_document import openapi, validator

#: Readiness answers 503 whichever dependency is down: FAIL (1) when only RabbitMQ is (service/health.py readyz).
OTHER_STATUS = {("/readyz", "503"): {ErrorType.FAIL}}
#: Answers that are files, not envelopes: their media types (service/snapshots.py).
FILE_ANSWERS = {("/v1/lps/snapshots/{snapshot_id}/{kind}", "200"): {"text/plain", "image/png"}}


def operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, operation)
        for path, methods in document["paths"].items()
        for method, operation in methods.items()
        if method != "head"  # HEAD shares its GET's documentation
    ]


async def test_every_operation_shows_a_request_example_and_an_example_for_each_status_with_its_code(
    client: TestClient,
):
    document = await openapi(client)
    for path, method, operation in operations(document):
        if "requestBody" in operation:
            media = operation["requestBody"]["content"]["application/json"]
            request = media["example"]
            assert "string" not in json.dumps(request), f"{method} {path}: a placeholder example"
            validator(document, media["schema"]).validate(request)
        for status, response in operation["responses"].items():
            if (path, status) in FILE_ANSWERS:
                assert response["content"].keys() == FILE_ANSWERS[path, status], (path, status)
                continue
            media = response["content"]["application/json"]
            examples = media["examples"]
            assert examples, f"{method} {path} {status}: no example"
            for name, entry in examples.items():
                value = entry["value"]
                result = ErrorType(value["result"])
                expected = {code for code, http in HTTP_STATUS.items() if str(http) == status}
                assert result in expected | OTHER_STATUS.get((path, status), set()), (path, status, name)
                assert name in {result.name, *(k for k in examples if status == "200")}
                validator(document, media["schema"], strict=True).validate(value)
    assert len(operations(document)) == 20  # every route's operations were walked


async def test_the_search_request_example_is_accepted_as_posted(client: TestClient):
    document = await openapi(client)
    example = document["paths"]["/v1/lps/search"]["post"]["requestBody"]["content"]["application/json"]["example"]
    response = await client.post("/v1/lps/search", json=example)
    body = await response.json()
    assert (response.status, body["result"]) == (200, 0)
    assert [job["product_code"] for job in body["jobs"]] == ["SKU-1001", "SKU-1002"]


async def test_the_job_list_shows_its_delayed_filter_as_a_described_boolean_query_parameter(client: TestClient):
    document = await openapi(client)
    parameters = {each["name"]: each for each in document["paths"]["/v1/lps/jobs"]["get"]["parameters"]}

    delayed = parameters["delayed"]
    assert (delayed["in"], delayed["schema"]["type"]) == ("query", "boolean")
    assert "run_after" in delayed["description"]


def test_every_sources_list_in_the_document_offers_only_the_enabled_sources(settings: Settings):
    app = create_app(settings.with_overrides(search_sources=("coupang", "naver")))
    schemas = app["swagger_dict"]["components"]["schemas"]
    enums = {
        name: schema["properties"]["sources"]["items"]["enum"]
        for name, schema in schemas.items()
        if "enum" in schema.get("properties", {}).get("sources", {}).get("items", {})
    }

    assert {"Product", "WatchPatch"} <= set(enums), enums
    assert all(enum == ["coupang", "naver"] for enum in enums.values()), enums


def test_the_cron_pattern_admits_no_value_out_of_its_fields_range(settings: Settings):
    import re

    pattern = create_app(settings)["swagger_dict"]["components"]["schemas"]["WatchPatch"]["properties"]["cron"][
        "pattern"
    ]
    for refused in ("0 0 0 0 0", "60 * * * *", "0 24 * * *", "0 0 32 * *", "0 0 * 13 *", "0 0 * * 8"):
        assert re.fullmatch(pattern, refused) is None, refused
    for taken in ("0 9 * * *", "*/15 8-18 * * 1-5", "05 0,12 1,15 1-12/3 0-7"):
        assert re.fullmatch(pattern, taken), taken
