"""Log lines carry their job's ids: lines logged in a job context, and a real worker pool's JSON lines about
a job."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient

from infra.logs import job_context, job_extra
from infra.settings import Settings
from service.app import create_app
from tests.harness import JobsView, worker_pool
from tests.log_capture import JOB_ID, MESSAGE_ID, lines
from tests.log_capture import captured as captured


@pytest.mark.processes
def test_lines_logged_in_a_job_context_carry_its_ids_and_extra_names_another_job(captured):
    logger, stream = captured

    with job_context(JOB_ID, MESSAGE_ID):
        logger.info("claimed")
        logger.info("spawned", extra=job_extra("6b0c94574ddefc2888135974"))
    logger.info("after")

    claimed, spawned, after = lines(stream)
    assert (claimed["job_id"], claimed["message_id"]) == (JOB_ID, MESSAGE_ID)
    assert spawned["job_id"] == "6b0c94574ddefc2888135974"
    assert {"job_id", "message_id"}.isdisjoint(after)


@pytest.mark.processes
async def test_with_json_logs_a_worker_pools_lines_about_a_job_are_json_with_its_job_id_and_message_id(
    aiohttp_client, settings: Settings, tmp_path: Path
):
    settings = settings.with_overrides(
        log_format="json",
        retry_min_backoff=0.2,
        retry_max_backoff=0.5,
        search_max_attempts=2,
        search_metrics_port=0,  # not served: this test reads logs only
    )
    gateway: TestClient = await aiohttp_client(create_app(settings))
    view = JobsView(settings)
    try:
        async with worker_pool(settings, "search", tmp_path) as pool:
            response = await gateway.post(
                "/v1/lps/search",
                json={
                    "products": [
                        {"product_code": "LOG-1", "keyword": "k"},
                        {"product_code": "LOG-2", "keyword": "#fail"},
                    ]
                },
            )
            job_ids = [job["job_id"] for job in (await response.json())["jobs"]]
            finished = [await view.finished(job_id) for job_id in job_ids]
    finally:
        await view.close()

    records = [json.loads(line) for line in pool.log().splitlines() if line.startswith("{")]
    assert records, pool.log()
    for job in finished:
        job_id = str(job["_id"])
        about_it = [record for record in records if record.get("job_id") == job_id]
        assert {record["message_id"] for record in about_it} == {job["message_id"]}
        # Every line that names the job carries its ids, whichever logger or thread wrote it.
        for line in pool.log().splitlines():
            if job_id in line:
                record = json.loads(line)
                assert (record["job_id"], record["message_id"]) == (job_id, job["message_id"]), line
        claimed = next(record for record in about_it if "claimed" in record["message"])
        searched = next(record for record in about_it if record["message"].startswith("searched"))
        # The search itself ran on the event loop thread, not in the worker thread that claimed the job.
        assert searched["thread"] != claimed["thread"]
    assert any(record.get("job_id") == job_ids[1] and record["level"] == "ERROR" for record in records)
