"""POST /v1/lps/jobs/{job_id}/retry: re-driving a DEAD job."""

from __future__ import annotations

import asyncio

from aiohttp.test_utils import TestClient

from infra.settings import Settings
from schemas.codes import JobType
from service.app import create_app
from tests.rabbit import drain
from tests.stored_jobs import DEAD, insert_job


async def test_a_dead_job_is_pending_again_with_fresh_attempts_and_its_history(client: TestClient, settings: Settings):
    dead = await insert_job(settings, **DEAD)

    response = await client.post(f"/v1/lps/jobs/{dead['_id']}/retry")
    body = await response.json()

    assert response.status == 200
    job = body["job"]
    assert (job["status"], job["attempts"], job["max_attempts"]) == ("PENDING", 0, settings.search_max_attempts)
    assert [entry["outcome"] for entry in job["history"]] == ["RETRY", "DEAD"]
    assert "finished_at" not in job
    queued = await asyncio.to_thread(drain, settings.amqp_url, settings.job(JobType.SEARCH).queue)
    assert [(q.message.args[0], q.priority) for q in queued] == [(str(dead["_id"]), settings.priority_levels["HIGH"])]


async def test_a_job_that_is_not_dead_cannot_be_redriven(client: TestClient, settings: Settings):
    pending = await insert_job(settings)

    response = await client.post(f"/v1/lps/jobs/{pending['_id']}/retry")
    body = await response.json()

    assert (response.status, body["result"]) == (409, 1501)
    assert "PENDING" in body["message"]


async def test_redriving_a_dead_job_whose_product_has_a_new_active_job_is_refused(
    client: TestClient, settings: Settings
):
    dead = await insert_job(settings, **DEAD)
    await client.post("/v1/lps/search", json={"products": [{"product_code": "REDRIVE-1", "keyword": "k"}]})

    response = await client.post(f"/v1/lps/jobs/{dead['_id']}/retry")
    body = await response.json()

    assert (response.status, body["result"]) == (409, 11)


async def test_redriving_an_unknown_or_malformed_job_is_job_not_found(client: TestClient):
    for job_id in ("6b0c94574ddefc2888135973", "nope"):
        response = await client.post(f"/v1/lps/jobs/{job_id}/retry")
        assert (response.status, (await response.json())["result"]) == (404, 1500)


async def test_a_read_only_key_cannot_redrive_but_an_admin_key_can(aiohttp_client, settings: Settings):
    keyed = Settings.from_strings({"api_keys": "ops=ops-5e6d:admin,viewer=view-c0ffee:read"})
    client = await aiohttp_client(
        create_app(settings.with_overrides(api_keys=keyed.api_keys, api_key_roles=keyed.api_key_roles))
    )
    dead = await insert_job(settings, **DEAD)
    path = f"/v1/lps/jobs/{dead['_id']}/retry"

    refused = await client.post(path, headers={"X-API-Key": "view-c0ffee"})
    body = await refused.json()
    assert (refused.status, body["result"]) == (433, 433)
    seen = await client.get(f"/v1/lps/jobs/{dead['_id']}", headers={"X-API-Key": "view-c0ffee"})
    assert (await seen.json())["job"]["status"] == "DEAD"  # it may read, and nothing changed

    redriven = await client.post(path, headers={"X-API-Key": "ops-5e6d"})
    assert (redriven.status, (await redriven.json())["job"]["status"]) == (200, "PENDING")
    await asyncio.to_thread(drain, settings.amqp_url, settings.job(JobType.SEARCH).queue)


# --- POST /v1/lps/jobs/redrive: the bulk re-drive, a page at a time ------------------------------------------------


async def test_the_bulk_redrive_redrives_a_page_of_the_matching_dead_jobs_and_reports_each_refusal(
    client: TestClient, settings: Settings
):
    blocked = {**DEAD, "last_error": {"type": "BLOCKED", "message": "403"}}
    first = await insert_job(settings, product_code="BULK-1", **blocked)
    held = await insert_job(settings, product_code="BULK-2", **blocked)
    other = await insert_job(settings, product_code="BULK-3", **DEAD)  # another error type: not matched
    await client.post("/v1/lps/search", json={"products": [{"product_code": "BULK-2", "keyword": "k"}]})

    response = await client.post("/v1/lps/jobs/redrive", params={"error_type": "BLOCKED", "limit": "1"})
    page = await response.json()
    rest = await client.post("/v1/lps/jobs/redrive", params={"error_type": "BLOCKED", "cursor": page["next_cursor"]})
    last = await rest.json()

    assert response.status == 200
    outcomes = {outcome["job_id"]: outcome for outcome in page["jobs"] + last["jobs"]}
    assert set(outcomes) == {str(first["_id"]), str(held["_id"])}
    assert outcomes[str(first["_id"])] == {
        "job_id": str(first["_id"]),
        "product_code": "BULK-1",
        "error_type": "BLOCKED",
        "redriven": True,
    }
    assert outcomes[str(held["_id"])]["redriven"] is False
    assert outcomes[str(held["_id"])]["refused"]["result"] == 11  # its product has an active search again
    assert "next_cursor" not in last
    statuses = {
        job_id: (await (await client.get(f"/v1/lps/jobs/{job_id}")).json())["job"]["status"]
        for job_id in (first["_id"], held["_id"], other["_id"])
    }
    assert statuses == {first["_id"]: "PENDING", held["_id"]: "DEAD", other["_id"]: "DEAD"}
    await asyncio.to_thread(drain, settings.amqp_url, settings.job(JobType.SEARCH).queue)


async def test_the_bulk_redrive_asks_for_no_status_and_no_read_only_key(aiohttp_client, settings: Settings):
    keyed = Settings.from_strings({"api_keys": "ops=ops-5e6d:admin,viewer=view-c0ffee:read"})
    client = await aiohttp_client(
        create_app(settings.with_overrides(api_keys=keyed.api_keys, api_key_roles=keyed.api_key_roles))
    )
    dead = await insert_job(settings, **DEAD)

    with_status = await client.post("/v1/lps/jobs/redrive?status=DONE", headers={"X-API-Key": "ops-5e6d"})
    read_only = await client.post("/v1/lps/jobs/redrive", headers={"X-API-Key": "view-c0ffee"})

    assert (with_status.status, (await with_status.json())["result"]) == (400, 101)
    assert (read_only.status, (await read_only.json())["result"]) == (433, 433)
    seen = await client.get(f"/v1/lps/jobs/{dead['_id']}", headers={"X-API-Key": "view-c0ffee"})
    assert (await seen.json())["job"]["status"] == "DEAD"
