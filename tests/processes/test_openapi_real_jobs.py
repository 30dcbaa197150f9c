"""Every field of real jobs (run by real worker pools) is in the OpenAPI document's Job schema with a type and
a description."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from infra.settings import Settings
from schemas.jobs import HIDDEN_JOB_FIELDS
from service.app import create_app
from tests.harness import JobsView, worker_pools
from tests.openapi_document import openapi, validator
from tools.testbed import Receiver


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
