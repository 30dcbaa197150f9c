"""GET /v1/lps/jobs: pages by cursor, newest first, filtered; every parameter validated before it reaches a query."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from aiohttp.test_utils import TestClient
from bson import ObjectId
from pymongo import ASCENDING, DESCENDING, IndexModel

from infra.mongo import MainDatabase, create_client, ensure_indexes
from infra.settings import Settings
from tests.stored_jobs import store

T0 = datetime(2030, 1, 1, tzinfo=UTC)


def job(product_code: str, created_at: datetime, *, status: str = "DEAD", error: str | None = None) -> dict[str, Any]:
    document: dict[str, Any] = {
        "_id": ObjectId(),
        "job_type": "SEARCH",
        "status": status,
        "product_code": product_code,
        "attempts": 1,
        "max_attempts": 5,
        "created_at": created_at,
        "updated_at": created_at,
        "history": [],
    }
    if error:
        document["last_error"] = {"type": error, "message": "m", "at": created_at}
    return document


async def pages(client: TestClient, **params: str) -> list[list[str]]:
    """Every page of the listing, following next_cursor: the product codes of each page."""
    found, cursor = [], None
    while True:
        query = params | ({"cursor": cursor} if cursor else {})
        body = await (await client.get("/v1/lps/jobs", params=query)).json()
        assert body["result"] == 0, body
        found.append([job["product_code"] for job in body["jobs"]])
        if (cursor := body.get("next_cursor")) is None:
            return found


async def test_paging_by_cursor_returns_every_job_once_newest_first_even_within_one_batch(
    client: TestClient, settings: Settings
):
    # A batch shares one created_at: its jobs are ordered by _id, and a page may end inside it.
    batch = [job(f"B{i}", T0) for i in range(5)]
    await store(settings, [job("OLD", T0 - timedelta(hours=1)), *batch, job("NEW", T0 + timedelta(hours=1))])

    found = await pages(client, limit="3")

    newest_first = ["NEW", *(doc["product_code"] for doc in sorted(batch, key=lambda d: d["_id"], reverse=True)), "OLD"]
    assert found == [newest_first[0:3], newest_first[3:6], newest_first[6:7]]


async def test_a_page_that_ends_exactly_at_the_last_job_has_no_next_cursor(client: TestClient, settings: Settings):
    await store(settings, [job(f"E{i}", T0 + timedelta(seconds=i)) for i in range(4)])

    assert await pages(client, limit="2") == [["E3", "E2"], ["E1", "E0"]]


async def test_error_type_and_since_filter_the_listing_and_its_pages(client: TestClient, settings: Settings):
    await store(
        settings,
        [
            job("BLOCKED-OLD", T0 - timedelta(days=2), error="BLOCKED"),
            *(job(f"BLOCKED-{i}", T0 + timedelta(minutes=i), error="BLOCKED") for i in range(3)),
            job("TIMEOUT-1", T0 + timedelta(minutes=5), error="TIMEOUT"),
            job("DONE-1", T0 + timedelta(minutes=6), status="DONE"),
        ],
    )

    blocked = await pages(client, status="DEAD", error_type="BLOCKED", since="2030-01-01T00:00:00Z", limit="2")
    naive_since = await pages(client, since="2030-01-01T00:04:00")  # no offset: UTC

    assert blocked == [["BLOCKED-2", "BLOCKED-1"], ["BLOCKED-0"]]
    assert naive_since == [["DONE-1", "TIMEOUT-1"]]


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"cursor": "not-a-cursor"}, "cursor"),
        ({"cursor": "1-" + "0" * 23}, "cursor"),
        ({"cursor": "123456789012345-" + "0" * 24}, "cursor"),  # past what a date can be
        ({"cursor": "$ne"}, "cursor"),
        ({"error_type": '{"$ne": null}'}, "error_type"),
        ({"error_type": "blocked"}, "error_type"),
        ({"since": "yesterday"}, "since"),
        ({"since": '{"$gt": ""}'}, "since"),
        ({"status": "$ne"}, "status"),
        ({"product_code": '{"$gt": ""}'}, "product_code"),
        ({"status[$ne]": "DONE"}, "status[$ne]"),
        ({"limit": "0"}, "limit"),
        ({"limit": "501"}, "limit"),
    ],
)
async def test_every_bad_parameter_is_refused_by_name(client: TestClient, params: dict[str, str], field: str):
    response = await client.get("/v1/lps/jobs", params=params)
    body = await response.json()

    assert (response.status, body["result"]) == (400, 101)
    assert field in body["errors"], body


async def test_a_repeated_parameter_is_refused_not_narrowed_to_its_first_value(client: TestClient):
    response = await client.get("/v1/lps/jobs?status=DEAD&status=DONE")
    body = await response.json()

    assert (response.status, body["result"]) == (400, 101)
    assert body["errors"] == {"status": ["given more than once"]}


async def test_start_up_rebuilds_a_listing_index_left_by_an_older_version(settings: Settings):
    client = create_client(settings)
    try:
        database = MainDatabase.open(client, settings.mongo_db)
        old = [
            IndexModel([("created_at", DESCENDING)], name="created_at_desc"),
            IndexModel([("status", ASCENDING), ("created_at", DESCENDING)], name="status_created_at"),
        ]
        await database.jobs().create_indexes(old)
        await ensure_indexes(database, settings)
        await ensure_indexes(database, settings)
        indexes = await database.jobs().index_information()
    finally:
        await client.close()

    assert [key for key, _ in indexes["created_at_desc"]["key"]] == ["created_at", "_id"]
    assert [key for key, _ in indexes["status_created_at"]["key"]] == ["status", "created_at", "_id"]
    assert [key for key, _ in indexes["product_created_at"]["key"]] == ["product_code", "created_at", "_id"]


async def test_a_since_beyond_what_utc_can_hold_is_the_first_or_last_instant(client: TestClient, settings: Settings):
    await store(settings, [job("ANY", T0)])

    assert await pages(client, since="0001-01-01T00:00:00+01:00") == [["ANY"]]
    assert await pages(client, since="9999-12-31T23:59:59-05:00") == [[]]


def search_with(product_code: str, created_at: datetime, **sources: str) -> dict[str, Any]:
    """A DONE search whose sources ended with these outcomes."""
    document = job(product_code, created_at, status="DONE")
    outcomes = {name: {"outcome": outcome} for name, outcome in sources.items()}
    document["result"] = {"outcome": "FOUND", "sources": outcomes}
    return document


async def test_a_product_code_prefix_matches_its_text_literally_not_as_a_pattern(
    client: TestClient, settings: Settings
):
    await store(
        settings,
        [job("A.B-1", T0), job("A.B-2", T0 + timedelta(minutes=1)), job("AXB-3", T0), job("ZA.B", T0), job("a.b", T0)],
    )

    assert await pages(client, product_code_prefix="A.B") == [["A.B-2", "A.B-1"]]
    assert await pages(client, product_code_prefix="A.B-2", status="DEAD") == [["A.B-2"]]


async def test_a_source_outcome_and_a_time_range_filter_the_listing(client: TestClient, settings: Settings):
    await store(
        settings,
        [
            search_with("BLOCKED-EARLY", T0 - timedelta(hours=2), coupang="BLOCKED"),
            search_with("BLOCKED-IN", T0 + timedelta(minutes=1), coupang="BLOCKED", naver="FOUND"),
            search_with("NAVER-BLOCKED", T0 + timedelta(minutes=2), coupang="FOUND", naver="BLOCKED"),
            search_with("BLOCKED-LATE", T0 + timedelta(hours=2), coupang="BLOCKED"),
        ],
    )

    in_range = {"since": "2030-01-01T00:00:00Z", "until": "2030-01-01T01:00:00Z"}
    assert await pages(client, source="coupang", source_outcome="BLOCKED", **in_range) == [["BLOCKED-IN"]]
    assert await pages(client, source="coupang", source_outcome="BLOCKED") == [
        ["BLOCKED-LATE", "BLOCKED-IN", "BLOCKED-EARLY"]
    ]
    assert await pages(client, **in_range) == [["NAVER-BLOCKED", "BLOCKED-IN"]]
    assert await pages(client, source_outcome="BLOCKED", **in_range) == [["NAVER-BLOCKED", "BLOCKED-IN"]]
    assert await pages(client, source="naver") == [["NAVER-BLOCKED", "BLOCKED-IN"]]


async def test_filters_that_contradict_each_other_match_nothing(client: TestClient, settings: Settings):
    search = job("A1", T0, status="DONE")
    delivery = job("A1", T0, status="DONE") | {"job_type": "OUTBOX", "source_job_id": search["_id"]}
    await store(settings, [search, delivery])

    assert await pages(client, product_code="A1", product_code_prefix="A") == [["A1", "A1"]]
    assert await pages(client, product_code="A1", product_code_prefix="B") == [[]]
    assert await pages(client, source_job_id=str(search["_id"]), job_type="OUTBOX") == [["A1"]]
    assert await pages(client, source_job_id=str(search["_id"]), job_type="SEARCH") == [[]]


async def test_a_delivery_job_is_found_by_the_search_it_delivers(client: TestClient, settings: Settings):
    search = job("DELIVERED", T0, status="DONE")
    delivery = job("DELIVERED", T0 + timedelta(seconds=1), status="DONE") | {
        "job_type": "OUTBOX",
        "source_job_id": search["_id"],
    }
    await store(settings, [search, delivery, job("OTHER", T0)])

    body = await (await client.get("/v1/lps/jobs", params={"source_job_id": str(search["_id"])})).json()

    assert [(found["job_id"], found["source_job_id"]) for found in body["jobs"]] == [
        (str(delivery["_id"]), str(search["_id"]))
    ]


async def test_a_filter_read_on_the_way_walks_a_bounded_number_of_jobs_per_page(
    client: TestClient, settings: Settings, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr("infra.job_listing.LISTING_WALK", 3)
    # Newest first: two misses, a hit, three misses, a hit; a page walks three jobs.
    errors = ["TIMEOUT", "TIMEOUT", "BLOCKED", "TIMEOUT", "TIMEOUT", "TIMEOUT", "BLOCKED"]
    await store(settings, [job(f"W{n}", T0 - timedelta(minutes=n), error=e) for n, e in enumerate(errors)])

    assert await pages(client, error_type="BLOCKED", limit="5") == [["W2"], [], ["W6"]]
    assert await pages(client, status="DEAD", limit="2") == [["W0", "W1"], ["W2", "W3"], ["W4", "W5"], ["W6"]]


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"product_code_prefix": "^A"}, "product_code_prefix"),
        ({"product_code_prefix": ".*"}, "product_code_prefix"),
        ({"product_code_prefix": '{"$regex": "x"}'}, "product_code_prefix"),
        ({"source": "$where", "source_outcome": "BLOCKED"}, "source"),
        ({"source": "coupang.outcome"}, "source"),
        ({"source": "coupang", "source_outcome": "$ne"}, "source_outcome"),
        ({"source_job_id": "0123456789abcdef0123456"}, "source_job_id"),
        ({"source_job_id": '{"$ne": null}'}, "source_job_id"),
        ({"until": "tomorrow"}, "until"),
        ({"delayed": "yes"}, "delayed"),
        ({"delayed": "1"}, "delayed"),
        ({"delayed": "True"}, "delayed"),
        ({"delayed": ""}, "delayed"),
        ({"delayed": '{"$ne": null}'}, "delayed"),
        ({"republished": "once"}, "republished"),
        ({"republished": '{"$gte": 0}'}, "republished"),
    ],
)
async def test_every_bad_new_filter_is_refused_by_name(client: TestClient, params: dict[str, str], field: str):
    response = await client.get("/v1/lps/jobs", params=params)
    body = await response.json()

    assert (response.status, body["result"]) == (400, 101)
    assert field in body["errors"], body


def active(product_code: str, created_at: datetime, run_after: datetime, **fields: Any) -> dict[str, Any]:
    """A PENDING job as the store keeps one (in the active set), due at `run_after`."""
    return job(product_code, created_at, status="PENDING") | {"active": True, "run_after": run_after} | fields


async def test_delayed_lists_the_pending_jobs_whose_run_after_is_ahead_and_false_the_due_ones(
    client: TestClient, settings: Settings
):
    now = datetime.now(UTC)
    ahead, past = now + timedelta(minutes=10), now - timedelta(minutes=1)
    await store(
        settings,
        [
            *(active(f"RETRY-{n}", T0 + timedelta(minutes=n), ahead) for n in range(3)),
            active("DEFERRED-OUTBOX", T0 + timedelta(minutes=5), ahead, job_type="OUTBOX", source_job_id=ObjectId()),
            active("DUE", T0 + timedelta(minutes=6), past),
            # Only a PENDING job waits for its run_after: a running one whose retry time was ahead is not delayed.
            active("RUNNING", T0 + timedelta(minutes=7), ahead, status="RUNNING"),
            job("ENDED", T0 + timedelta(minutes=8), status="DONE") | {"run_after": ahead},
        ],
    )

    assert await pages(client, delayed="true") == [["DEFERRED-OUTBOX", "RETRY-2", "RETRY-1", "RETRY-0"]]
    assert await pages(client, delayed="true", status="PENDING", job_type="SEARCH", limit="2") == [
        ["RETRY-2", "RETRY-1"],
        ["RETRY-0"],
    ]
    assert await pages(client, delayed="true", job_type="OUTBOX") == [["DEFERRED-OUTBOX"]]
    assert await pages(client, delayed="true", product_code_prefix="RETRY-", since="2030-01-01T00:01:00Z") == [
        ["RETRY-2", "RETRY-1"]
    ]
    assert await pages(client, delayed="false") == [["DUE"]]
    assert await pages(client, delayed="true", status="RUNNING") == [[]]
    assert await pages(client, delayed="false", status="DONE") == [[]]


async def test_republished_lists_the_jobs_the_reconciler_published_again(client: TestClient, settings: Settings):
    await store(
        settings,
        [
            job("LOST-TWICE", T0 + timedelta(minutes=2), status="DONE") | {"republishes": 2},
            job("UNCONFIRMED", T0 + timedelta(minutes=1), status="PENDING") | {"republishes": 1},
            job("NEVER", T0, status="DONE"),
        ],
    )

    assert await pages(client, republished="true") == [["LOST-TWICE", "UNCONFIRMED"]]
    assert await pages(client, republished="true", status="PENDING") == [["UNCONFIRMED"]]
    assert await pages(client, republished="false") == [["NEVER"]]
