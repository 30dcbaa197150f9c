"""POST /v1/lps/search against real MongoDB (wire server) and real RabbitMQ."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from aiohttp.test_utils import TestClient
from bson import ObjectId
from pymongo import AsyncMongoClient

from infra.settings import Settings
from schemas.codes import JobType
from tests.rabbit import drain


async def post_search(client: TestClient, products: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    response = await client.post("/v1/lps/search", json={"products": products, **extra})
    body = await response.json()
    assert response.status == 200, body
    assert body["result"] == 0
    return body


async def stored_jobs(settings: Settings, query: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    client = AsyncMongoClient(settings.mongo_url, tz_aware=True)
    try:
        return await client[settings.mongo_db].jobs.find(query or {}).to_list()
    finally:
        await client.close()


async def test_enqueue_records_a_pending_job_and_publishes_its_message(client: TestClient, settings: Settings):
    body = await post_search(
        client,
        [{"product_code": "SKU-1", "keyword": "아이폰 15 128GB", "model_no": "MTP03KH/A", "target_price": 1_090_000}],
    )

    [answer] = body["jobs"]
    assert answer == {
        "product_code": "SKU-1",
        "job_id": answer["job_id"],
        "status": "PENDING",
        "duplicate": False,
        "enqueued": True,
    }
    [job] = await stored_jobs(settings)
    assert job["_id"] == ObjectId(answer["job_id"])
    assert job["job_type"] == "SEARCH"
    assert job["status"] == "PENDING"
    assert job["active"] is True
    assert job["product"] == {"keyword": "아이폰 15 128GB", "model_no": "MTP03KH/A", "target_price": 1_090_000}
    assert job["attempts"] == 0
    assert job["max_attempts"] == settings.search_max_attempts
    assert job["enqueued_at"] >= job["created_at"]

    [queued] = await asyncio.to_thread(drain, settings.amqp_url, settings.job(JobType.SEARCH).queue)
    assert queued.message.args == (answer["job_id"],)
    assert queued.message.actor_name == "search"
    assert queued.message.message_id == job["message_id"]
    assert queued.priority == settings.priority_levels["NORMAL"]


async def test_priority_maps_to_the_broker_priority_of_the_message(client: TestClient, settings: Settings):
    await post_search(client, [{"product_code": "HI", "keyword": "a"}], priority="HIGH")
    await post_search(client, [{"product_code": "LO", "keyword": "b"}], priority="LOW")

    queued = await asyncio.to_thread(drain, settings.amqp_url, settings.job(JobType.SEARCH).queue)
    # RabbitMQ hands out the highest priority first, whatever the publish order.
    assert [q.priority for q in queued] == [9, 1]
    jobs = {job["product_code"]: job for job in await stored_jobs(settings)}
    assert [q.message.args[0] for q in queued] == [str(jobs["HI"]["_id"]), str(jobs["LO"]["_id"])]
    assert jobs["HI"]["priority"] == "HIGH"
    assert jobs["LO"]["priority"] == "LOW"


async def test_product_with_an_active_job_gets_that_job_back_as_duplicate(client: TestClient, settings: Settings):
    first = await post_search(client, [{"product_code": "DUP", "keyword": "x"}])
    second = await post_search(
        client, [{"product_code": "DUP", "keyword": "x"}, {"product_code": "NEW", "keyword": "y"}]
    )

    dup, new = second["jobs"]
    assert dup["job_id"] == first["jobs"][0]["job_id"]
    assert dup["duplicate"] is True
    assert "keyword_ignored" not in dup  # the same keyword: nothing was ignored
    assert "enqueued" not in dup  # not ours to publish
    assert new["duplicate"] is False
    assert new["enqueued"] is True
    assert len(await stored_jobs(settings)) == 2
    queued = await asyncio.to_thread(drain, settings.amqp_url, settings.job(JobType.SEARCH).queue)
    assert len(queued) == 2


async def test_product_code_repeated_in_one_request_is_enqueued_once(client: TestClient, settings: Settings):
    body = await post_search(
        client,
        [
            {"product_code": "R", "keyword": "first"},
            {"product_code": "S", "keyword": "other"},
            {"product_code": "R", "keyword": "second"},
        ],
    )

    r1, s, r2 = body["jobs"]
    assert [r1["product_code"], s["product_code"], r2["product_code"]] == ["R", "S", "R"]  # request order
    assert r1["job_id"] == r2["job_id"]
    assert (r1["duplicate"], r2["duplicate"]) == (False, True)
    assert "keyword_ignored" not in r1
    assert r2["keyword_ignored"] is True  # the second keyword was not used, and the answer says so
    jobs = await stored_jobs(settings, {"product_code": "R"})
    assert len(jobs) == 1
    assert jobs[0]["product"]["keyword"] == "first"
    queued = await asyncio.to_thread(drain, settings.amqp_url, settings.job(JobType.SEARCH).queue)
    assert sorted(q.message.args[0] for q in queued) == sorted([r1["job_id"], s["job_id"]])


async def test_fifty_concurrent_posts_of_one_code_leave_exactly_one_active_job(client: TestClient, settings: Settings):
    bodies = await asyncio.gather(*(post_search(client, [{"product_code": "RACE", "keyword": "k"}]) for _ in range(50)))

    job_ids = {body["jobs"][0]["job_id"] for body in bodies}
    assert len(job_ids) == 1
    assert sum(not body["jobs"][0]["duplicate"] for body in bodies) == 1
    assert len(await stored_jobs(settings, {"product_code": "RACE", "active": True})) == 1
    queued = await asyncio.to_thread(drain, settings.amqp_url, settings.job(JobType.SEARCH).queue)
    assert [q.message.args[0] for q in queued] == list(job_ids)


async def test_job_status_shows_the_job_without_none_fields(client: TestClient):
    posted = await post_search(client, [{"product_code": "ST-1", "keyword": "갤럭시 버즈"}])
    job_id = posted["jobs"][0]["job_id"]

    response = await client.get(f"/v1/lps/jobs/{job_id}")
    body = await response.json()

    assert response.status == 200
    assert body["result"] == 0
    job = body["job"]
    assert job["job_id"] == job_id
    assert job["product_code"] == "ST-1"
    assert (job["job_type"], job["status"], job["attempts"]) == ("SEARCH", "PENDING", 0)
    assert job["product"] == {"keyword": "갤럭시 버즈"}  # model_no / target_price were None: absent
    for absent in ("last_error", "result", "finished_at", "started_at", "worker", "_id", "active"):
        assert absent not in job
    assert job["created_at"].endswith("+00:00")


async def test_stats_count_every_status_per_type_and_the_queue_depths(client: TestClient, settings: Settings):
    await post_search(client, [{"product_code": f"C{i}", "keyword": "k"} for i in range(3)])

    response = await client.get("/v1/lps/queue/stats")
    body = await response.json()

    assert response.status == 200
    assert body["result"] == 0
    assert body["stats"] == {"PENDING": 3, "RUNNING": 0, "DONE": 0, "DEAD": 0}
    assert body["by_type"] == {
        "SEARCH": {"PENDING": 3, "RUNNING": 0, "DONE": 0, "DEAD": 0},
        "OUTBOX": {"PENDING": 0, "RUNNING": 0, "DONE": 0, "DEAD": 0},
    }
    assert body["queues"]["search"] == {"messages": 3, "consumers": 0, "delayed": 0, "dead": 0}
    assert body["queues"]["outbox"]["messages"] == 0


async def test_jobs_are_recorded_but_reported_not_enqueued_when_rabbitmq_is_down(aiohttp_client, settings: Settings):
    from service.app import create_app

    unreachable = settings.with_overrides(amqp_url="amqp://guest:guest@127.0.0.1:1/")
    client = await aiohttp_client(create_app(unreachable))

    body = await post_search(
        client, [{"product_code": "NB-1", "keyword": "k"}, {"product_code": "NB-2", "keyword": "k"}]
    )

    assert [job["enqueued"] for job in body["jobs"]] == [False, False]
    jobs = await stored_jobs(settings)
    assert len(jobs) == 2
    assert all("enqueued_at" not in job and job["status"] == "PENDING" for job in jobs)


async def test_jobs_are_listed_newest_first_and_filtered(client: TestClient):
    await post_search(client, [{"product_code": "LIST-A", "keyword": "k"}])
    await post_search(client, [{"product_code": "LIST-B", "keyword": "k"}])

    everything = await (await client.get("/v1/lps/jobs")).json()
    one = await (await client.get("/v1/lps/jobs", params={"product_code": "LIST-A", "status": "PENDING"})).json()
    none = await (await client.get("/v1/lps/jobs", params={"status": "DEAD"})).json()
    bad = await client.get("/v1/lps/jobs", params={"status": {"$ne": 1}.__repr__(), "limit": "9999"})

    assert [job["product_code"] for job in everything["jobs"]] == ["LIST-B", "LIST-A"]
    assert [job["product_code"] for job in one["jobs"]] == ["LIST-A"]
    assert none == {"result": 0, "jobs": []}
    assert (bad.status, (await bad.json())["result"]) == (400, 101)


async def test_a_new_keyword_for_a_product_with_an_active_job_is_reported_as_ignored(client: TestClient):
    first = await post_search(client, [{"product_code": "KW", "keyword": "old keyword"}])
    second = await post_search(client, [{"product_code": "KW", "keyword": "new keyword"}])

    [answer] = second["jobs"]
    assert answer["job_id"] == first["jobs"][0]["job_id"]
    assert (answer["duplicate"], answer["keyword_ignored"]) == (True, True)


async def test_a_blank_keyword_is_refused_and_a_pattern_error_shows_the_pattern(client: TestClient):
    response = await client.post(
        "/v1/lps/search",
        json={"products": [{"product_code": "B1", "keyword": "   "}, {"product_code": "bad code", "keyword": "k"}]},
    )
    body = await response.json()

    assert (response.status, body["result"]) == (400, 101)
    assert body["errors"]["products"]["0"]["keyword"] == ["must not be blank"]
    assert body["errors"]["products"]["1"]["product_code"] == ["must match ^[A-Za-z0-9._:-]{1,64}$"]


CONTROL = "must not contain control characters or text direction overrides"


@pytest.mark.parametrize(
    ("keyword", "refused"),
    [
        ("\u3000\u00a0\ufeff", "must not be blank"),
        ("\t\r\n\u2028", CONTROL),
        ("\u200b", "must not be blank"),  # a zero-width space alone passed "must not be blank"
        ("\u200b\u200c\u200d\u2060\u00ad", "must not be blank"),
        ("a\x00b", CONTROL),
        ("a\x1cb", CONTROL),
        ("a\x7fb", CONTROL),
        ("a\u0085b", CONTROL),
        ("a\u009bb", CONTROL),
        ("price \u202e15", CONTROL),  # a right-to-left override: shows reversed in every listing
        ("\u2066iPhone\u2069", CONTROL),
        ("갤럭시\u200d버즈", None),  # an invisible joiner inside visible text is text
        ("아이폰 15 128GB", None),
    ],
    ids=[
        "unicode-spaces",
        "line-ends",
        "zero-width-space",
        "invisibles-only",
        "nul",
        "file-separator",
        "delete",
        "next-line-c1",
        "csi-c1",
        "rtl-override",
        "isolate",
        "joiner-inside-text",
        "plain",
    ],
)
async def test_keywords_are_visible_text_without_controls_as_the_document_says(
    client: TestClient, keyword: str, refused: str | None
):
    # The document's patterns are read by ECMA-262 rules (a client's validator, schemathesis); the gateway's by
    # Python's: both must refuse the same keywords.
    product = {"product_code": "B1", "keyword": keyword}
    response = await client.post("/v1/lps/search", json={"products": [product]})
    body = await response.json()

    if refused is None:
        assert (response.status, body["result"]) == (200, 0)
    else:
        assert (response.status, body["result"]) == (400, 101)
        assert body["errors"]["products"]["0"]["keyword"] == [refused]


async def test_health_probes_answer_head_as_well_as_get(client: TestClient):
    for path in ("/healthz", "/readyz"):
        response = await client.head(path)
        assert response.status == 200, path
