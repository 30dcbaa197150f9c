"""The OpenAPI document as a client reads it: examples for every request and answer, every job field described."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient
from playwright.async_api import Browser

from infra.settings import Settings
from schemas.codes import HTTP_STATUS, ErrorType
from schemas.jobs import HIDDEN_JOB_FIELDS
from service.app import create_app
from tests.harness import ARTIFACTS, JobsView, worker_pools
from tests.openapi_document import openapi, validator
from tools.testbed import Receiver

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


def test_validator_refuses_a_field_the_job_schema_does_not_list():
    # The walk below relies on additionalProperties: false (apispec writes it for marshmallow's RAISE default).
    document = {"components": {"schemas": {"Job": {"type": "object", "properties": {}, "additionalProperties": False}}}}
    assert not validator(document, {"$ref": "#/components/schemas/Job"}).is_valid({"surprise": 1})


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


def undescribed(document: dict[str, Any], schema: dict[str, Any], where: str) -> list[str]:
    """Every property under `schema` (following $refs) that lacks a type or a description."""
    if "$ref" in schema:
        return undescribed(document, document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]], where)
    if "allOf" in schema:
        return [miss for part in schema["allOf"] for miss in undescribed(document, part, where)]
    missing = []
    for name, field in schema.get("properties", {}).items():
        if not ({"type", "$ref", "allOf"} & field.keys()) or not field.get("description"):
            missing.append(f"{where}.{name}")
        missing += undescribed(document, field, f"{where}.{name}")
    if isinstance(schema.get("items"), dict):
        missing += undescribed(document, schema["items"], f"{where}[]")
    if isinstance(schema.get("additionalProperties"), dict):
        missing += undescribed(document, schema["additionalProperties"], f"{where}{{}}")
    return missing


def keys(value: Any, where: str = "") -> set[str]:
    """Every key path in a JSON-like value (list items as `[]`, the values of name-keyed maps by their name)."""
    if isinstance(value, dict):
        return {f"{where}.{key}" for key in value} | {
            path for key, item in value.items() for path in keys(item, f"{where}.{key}")
        }
    if isinstance(value, list):
        return {path for item in value for path in keys(item, f"{where}[]")}
    return set()


@pytest.mark.processes
async def test_every_field_of_real_jobs_is_in_the_job_schema_with_a_type_and_a_description(
    aiohttp_client, settings: Settings, receiver: Receiver, tmp_path: Path
):
    settings = settings.with_overrides(
        outbox_url=receiver.url,
        outbox_secret="s3cret",
        search_max_attempts=2,
        retry_min_backoff=0.2,
        retry_max_backoff=0.5,
    )
    client = await aiohttp_client(create_app(settings))
    document = await openapi(client)
    job_schema = {"$ref": "#/components/schemas/Job"}
    assert undescribed(document, job_schema, "job") == []
    products = [
        {"product_code": "DOC-DONE", "keyword": "삼성 갤럭시 버즈3 프로"},
        {"product_code": "DOC-NO-MATCH", "keyword": "갤럭시 버즈3", "model_no": "SM-R630", "target_price": 259000},
        {"product_code": "DOC-RETRIED", "keyword": "버즈 #fail"},
        {"product_code": "DOC-FATAL", "keyword": "버즈 #fatal", "sources": ["static"]},
    ]
    view = JobsView(settings)
    try:
        async with worker_pools(settings, ["search", "outbox"], tmp_path):
            response = await client.post("/v1/lps/search", json={"products": products, "priority": "HIGH"})
            job_ids = [job["job_id"] for job in (await response.json())["jobs"]]
            stored = [await view.finished(job_id) for job_id in job_ids]
            stored.append(await view.outbox_of(job_ids[0]))
        assert [job["status"] for job in stored] == ["DONE", "DONE", "DEAD", "DEAD", "DONE"]
        redriven = await client.post(f"/v1/lps/jobs/{job_ids[2]}/retry")
        assert redriven.status == 200
        stored[2] = await view.get(job_ids[2])
    finally:
        await view.close()

    strict = validator(document, job_schema, strict=True)
    answers = []
    for job in stored:
        answer = await (await client.get(f"/v1/lps/jobs/{job['_id']}")).json()
        strict.validate(answer["job"])  # additionalProperties: false all the way down: nothing undocumented
        # Nothing stored is dropped on the way, but the internal fields.
        shown = {key for key in job if key not in HIDDEN_JOB_FIELDS} | {"job_id"}
        assert set(answer["job"]) == shown
        answers.append(answer["job"])
    listing = await (await client.get("/v1/lps/jobs", params={"limit": "10"})).json()
    validator(document, {"$ref": "#/components/schemas/JobListResponse"}, strict=True).validate(listing)

    seen = set().union(*(keys(job) for job in answers))
    # The fields a finished search, a retried and re-driven one, a failed one and a delivery show: all of them.
    for field in (
        ".result.outcome",
        ".result.complete",
        ".result.lowest.price",
        ".result.offers[].delivery",
        ".result.offers[].rejected",
        ".result.sources.static.outcome",
        ".result.searched_at",
        ".delivery.status_code",
        ".last_error.type",
        ".history[].outcome",
        ".history[].error.message",
        ".redrives",
        ".redriven_at",
        ".redrive_history[].at",
        ".source_job_id",
        ".product.target_price",
        ".max_attempts",
        ".attempts",
    ):
        assert field in seen, field


@pytest.mark.processes
async def test_swagger_ui_try_it_out_fills_in_the_search_example(page_server, settings: Settings, browser: Browser):
    server = await page_server(create_app(settings))
    await asyncio.to_thread(ARTIFACTS.mkdir, parents=True, exist_ok=True)
    page = await browser.new_page(viewport={"width": 1280, "height": 1400})
    await page.goto(str(server.make_url("/api/docs")))
    await page.locator("#operations-search-post_v1_lps_search").click()
    await page.get_by_role("button", name="Try it out").click()
    body = page.locator("#operations-search-post_v1_lps_search textarea.body-param__text")
    await body.wait_for()
    posted = json.loads(await body.input_value())
    await page.locator("#operations-search-post_v1_lps_search").screenshot(
        path=ARTIFACTS / "swagger-try-it-out-search.png"
    )
    assert "Authorize" in await page.locator(".auth-wrapper").inner_text()
    assert posted["products"][0] == {
        "product_code": "SKU-1001",
        "keyword": "삼성 갤럭시 버즈3 프로",
        "model_no": "SM-R630",
        "target_price": 259000,
    }


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


HTTP_API_PAGE = Path(__file__).resolve().parent.parent / "docs" / "http-api.md"


def test_the_http_api_page_shows_a_call_of_every_operation():
    """docs/http-api.md had no watch endpoint: a newcomer found them only in operations.md or Swagger."""
    calls = [line for line in HTTP_API_PAGE.read_text(encoding="utf-8").splitlines() if "curl " in line]
    missing = []
    for route in create_app(Settings()).router.routes():
        template = route.resource.get_info().get("formatter") or route.resource.get_info().get("path") or ""
        if not template.startswith("/v1/lps") or route.method == "HEAD":
            continue
        path = re.sub(r"\\\{[^}]+\\\}", r"[^/\\s'?]+", re.escape(template)) + r"(?=[\s'?]|$)"
        method = "" if route.method == "GET" else f"-X {route.method} "
        shown = [line for line in calls if re.search(path, line) and (method in line if method else "-X " not in line)]
        if not shown:
            missing.append(f"{route.method} {template}")
    assert missing == []
