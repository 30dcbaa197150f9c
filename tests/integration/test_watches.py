"""Watches through the real gateway (HTTP on loopback, the MongoDB wire server, RabbitMQ) and the
scheduler's passes against the same store: validation, the API, enqueue-once with two schedulers, catch-up, pause,
delete, and the active-search guarantee."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from aiohttp.test_utils import TestClient
from bson import ObjectId
from pymongo import AsyncMongoClient

from actors.errors import DeferredJobError
from actors.outbox import judge_watch_result
from infra.broker import Publisher, create_broker
from infra.clock import utcnow
from infra.enqueue import JobEnqueuer, outbox_job_for
from infra.jobs import JobRepository
from infra.mongo import MONGO_UNAVAILABLE, MainDatabase, create_client, ensure_indexes
from infra.notify import seen_of
from infra.reconciler_log import ReconcilerLog
from infra.scheduler import WatchScheduler
from infra.settings import Settings
from infra.watches import WatchRepository, new_watch, run_at
from schemas.codes import JobType
from schemas.watches import Notify
from service.app import create_app
from tests.harness import FindFilters
from tests.watch_api import post
from tools.testbed import eventually

PRODUCT = {"product_code": "W-1", "keyword": "watched thing", "target_price": 20_000}


async def watch_searches(database: MainDatabase, watch_id: str | ObjectId) -> list[dict[str, Any]]:
    return await database.jobs().find({"watch_id": ObjectId(watch_id), "job_type": "SEARCH"}).to_list()


@dataclass
class Schedulers:
    database: MainDatabase
    schedulers: list[WatchScheduler]
    enqueuers: list[JobEnqueuer]
    watches: WatchRepository
    publishers: list[Publisher]


@pytest.fixture
async def schedulers(settings: Settings) -> AsyncIterator[Schedulers]:
    """Two schedulers, each with its own MongoDB client and publisher, as two reconciler processes have."""
    clients, publishers, made, enqueuers = [], [], [], []
    for _ in range(2):
        client = create_client(settings)
        database = MainDatabase.open(client, settings.mongo_db)
        publisher = Publisher(create_broker(settings, middleware=[]))
        await publisher.start(settings.job(job_type).queue for job_type in JobType)
        clients.append(client)
        publishers.append(publisher)
        enqueuer = JobEnqueuer(settings, JobRepository(database), publisher)
        enqueuers.append(enqueuer)
        made.append(WatchScheduler(settings, WatchRepository(database.write), enqueuer, ReconcilerLog(database.write)))
    database = MainDatabase.open(clients[0], settings.mongo_db)
    await ensure_indexes(database, settings)
    yield Schedulers(database, made, enqueuers, WatchRepository(database.write), publishers)
    for publisher in publishers:
        await publisher.close()
    for client in clients:
        await client.close()


async def insert_watches(watches: WatchRepository, count: int, *, due_ago: timedelta, **fields: Any) -> list[ObjectId]:
    since = utcnow() - due_ago
    documents = [
        new_watch(f"S-{index}", {"keyword": f"thing {index}"}, now=since, every="5m", notify=Notify.ALWAYS) | fields
        for index in range(count)
    ]
    created, _ = await watches.insert(documents)
    return [doc["_id"] for doc in created]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"products": [PRODUCT], "every": "10s"}, "every"),
        ({"products": [PRODUCT], "every": "0s"}, "every"),
        ({"products": [PRODUCT], "every": "6x"}, "every"),
        ({"products": [PRODUCT], "cron": "61 * * * *"}, "cron"),
        ({"products": [PRODUCT], "cron": "* * * *"}, "cron"),
        # Under LPS_WATCH_MIN_INTERVAL (300 s) between two runs, as "every": "10s" is.
        ({"products": [PRODUCT], "cron": "* * * * *"}, "cron"),
        ({"products": [PRODUCT], "cron": "0-59 * * * *"}, "cron"),
        ({"products": [PRODUCT], "cron": "0,2 9 * * *"}, "cron"),
        ({"products": [PRODUCT], "every": "6h", "cron": "0 9 * * *"}, "cron"),
        ({"products": [PRODUCT]}, "every"),
        ({"products": [PRODUCT], "every": "6h", "notify": "sometimes"}, "notify"),
        ({"products": [PRODUCT], "every": {"$gt": ""}}, "every"),
        ({"products": [{"product_code": {"$ne": 1}, "keyword": "k"}], "every": "6h"}, "products"),
        ({"products": [PRODUCT], "every": "6h", "$where": "1"}, "$where"),
        ({"products": [{"product_code": "X", "keyword": "k"}], "every": "6h", "notify": "below_target"}, "products"),
        ({"products": [{"product_code": f"P{i}", "keyword": "k"} for i in range(1001)], "every": "6h"}, "products"),
    ],
)
async def test_bad_watch_requests_are_refused_with_101_and_the_field_named(
    client: TestClient, body: dict[str, Any], field: str
):
    status, answer = await post(client, body)
    assert (status, answer["result"]) == (400, 101), answer
    assert field in answer["errors"], answer
    listed = await (await client.get("/v1/lps/watches")).json()
    assert listed["watches"] == []


async def test_a_new_watch_runs_at_once_and_a_second_post_answers_the_same_watch(client: TestClient):
    status, answer = await post(client, {"products": [PRODUCT, PRODUCT], "every": "6h", "notify": "on_change"})
    assert status == 200, answer
    first, again = answer["watches"]
    assert (first["duplicate"], again["duplicate"], again["watch_id"]) == (False, True, first["watch_id"])
    _, repeat = await post(client, {"products": [PRODUCT], "cron": "0 9 * * *"})
    assert repeat["watches"] == [{"product_code": "W-1", "watch_id": first["watch_id"], "duplicate": True}]

    watch = (await (await client.get(f"/v1/lps/watches/{first['watch_id']}")).json())["watch"]
    assert (watch["runs"], watch["every"], watch["notify"]) == (1, "6h", "on_change")
    job = (await (await client.get(f"/v1/lps/jobs/{watch['last_job_id']}")).json())["job"]
    assert (job["product_code"], job["product"]["keyword"]) == ("W-1", PRODUCT["keyword"])
    # Its next run is a period on, shifted by its own jitter (at most LPS_WATCH_MAX_JITTER, 600 s by default).
    created, next_run = (datetime.fromisoformat(watch[key]) for key in ("created_at", "next_run_at"))
    assert timedelta(hours=6) <= next_run - created <= timedelta(hours=6, minutes=10)


async def test_a_first_run_skipped_for_an_active_search_is_counted_on_the_watch_and_in_queue_stats(client: TestClient):
    searched = await client.post("/v1/lps/search", json={"products": [PRODUCT]})
    job_id = (await searched.json())["jobs"][0]["job_id"]
    _, answer = await post(client, {"products": [PRODUCT], "every": "6h"})
    watch = (await (await client.get(f"/v1/lps/watches/{answer['watches'][0]['watch_id']}")).json())["watch"]
    assert (watch["runs"], watch["skipped_active"], watch["last_job_id"]) == (0, 1, job_id)
    stats = await (await client.get("/v1/lps/queue/stats")).json()
    assert stats["reconciler"].get("watch_skipped_active") == 1, stats["reconciler"]
    assert "watch_searches" not in stats["reconciler"]


async def test_watches_are_listed_by_cursor_and_filtered_by_product_code(client: TestClient):
    products = [{"product_code": f"L-{i}", "keyword": f"listed {i}"} for i in range(5)]
    _, answer = await post(client, {"products": products, "every": "1d"})
    ids = [watch["watch_id"] for watch in answer["watches"]]
    seen, cursor = [], None
    while True:
        query = "limit=2" + (f"&cursor={cursor}" if cursor else "")
        page = await (await client.get(f"/v1/lps/watches?{query}")).json()
        seen += [watch["watch_id"] for watch in page["watches"]]
        if not (cursor := page.get("next_cursor")):
            break
    assert seen == ids
    one = await (await client.get("/v1/lps/watches?product_code=L-3")).json()
    assert [watch["watch_id"] for watch in one["watches"]] == [ids[3]]
    bad = await client.get("/v1/lps/watches?product_code[$ne]=x")
    assert (await bad.json())["result"] == 101


async def test_a_watch_is_changed_paused_resumed_and_deleted(client: TestClient):
    _, answer = await post(client, {"products": [PRODUCT], "every": "6h"})
    url = f"/v1/lps/watches/{answer['watches'][0]['watch_id']}"
    changed = await (await client.patch(url, json={"keyword": "other thing", "every": "1d", "notify": "always"})).json()
    assert changed["result"] == 0, changed
    assert (changed["watch"]["product"]["keyword"], changed["watch"]["every"]) == ("other thing", "1d")
    priced = await (await client.patch(url, json={"target_price": 1000})).json()
    assert priced["result"] == 0, priced  # a field alone changes only that field
    assert (priced["watch"]["product"]["keyword"], priced["watch"]["product"]["target_price"]) == ("other thing", 1000)
    refused = await (await client.patch(url, json={"every": "1s"})).json()
    assert refused["result"] == 101
    assert list(refused["errors"]) == ["every"]
    too_often = await (await client.patch(url, json={"cron": "* * * * *"})).json()
    assert (too_often["result"], list(too_often["errors"])) == (101, ["cron"])
    assert "LPS_WATCH_MIN_INTERVAL" in str(too_often["errors"]["cron"])
    assert (await (await client.post(f"{url}/pause")).json())["watch"]["paused"] is True
    assert (await (await client.post(f"{url}/resume")).json())["watch"]["paused"] is False
    assert (await (await client.delete(url)).json())["result"] == 0
    gone = await client.get(url)
    assert (gone.status, (await gone.json())["result"]) == (404, 1502)
    assert (await (await client.get("/v1/lps/watches/not-an-id")).json())["result"] == 1502


async def test_patch_clears_optional_fields_with_null_but_never_a_below_target_watchs_target(client: TestClient):
    product = PRODUCT | {"model_no": "M-1", "sources": ["static"]}
    _, answer = await post(client, {"products": [product], "every": "6h", "notify": "below_target", "priority": "HIGH"})
    url = f"/v1/lps/watches/{answer['watches'][0]['watch_id']}"

    async def patch(body: dict[str, Any]) -> dict[str, Any]:
        return await (await client.patch(url, json=body)).json()

    refused = await patch({"target_price": None, "model_no": None})
    assert (refused["result"], list(refused["errors"])) == (101, ["target_price"])
    for field in ("keyword", "every", "cron", "notify"):  # always have a value
        assert list((await patch({field: None}))["errors"]) == [field]
    assert (await (await client.get(url)).json())["watch"]["product"] == {
        key: product[key] for key in ("keyword", "model_no", "target_price", "sources")
    }
    # Each change is conditional on what it was checked against (the stored target, then the stored notify).
    assert "model_no" not in (await patch({"model_no": None}))["watch"]["product"]
    assert (await patch({"notify": "on_change"}))["result"] == 0
    cleared = await patch({"target_price": None, "sources": None})
    assert cleared["result"] == 0, cleared
    assert cleared["watch"]["product"] == {"keyword": PRODUCT["keyword"]}
    assert (await patch({"priority": None}))["watch"].get("priority") is None
    # Back to below_target: only with a target again.
    assert list((await patch({"notify": "below_target"}))["errors"]) == ["target_price"]
    again = await patch({"notify": "below_target", "target_price": 500})
    assert (again["watch"]["notify"], again["watch"]["product"]["target_price"]) == ("below_target", 500)


async def test_due_watches_are_enqueued_once_with_two_schedulers_running(schedulers: Schedulers):
    ids = await insert_watches(schedulers.watches, 40, due_ago=timedelta(seconds=1))
    first, second = await asyncio.gather(*(scheduler.run_once() for scheduler in schedulers.schedulers))
    assert first["watch_searches"] + second["watch_searches"] == 40
    for watch_id in ids:
        assert len(await watch_searches(schedulers.database, watch_id)) == 1
    # Nothing is due any more: a second round enqueues nothing.
    again = await asyncio.gather(*(scheduler.run_once() for scheduler in schedulers.schedulers))
    assert sum(counts["watch_searches"] for counts in again) == 0


async def test_a_missed_period_catches_up_with_one_search(schedulers: Schedulers):
    [watch_id] = await insert_watches(schedulers.watches, 1, due_ago=timedelta(minutes=5 * 12 + 1))
    counts = await schedulers.schedulers[0].run_once()
    assert counts["watch_searches"] == 1
    watch = await schedulers.watches.get(watch_id)
    assert utcnow() < watch["next_run_at"] <= utcnow() + timedelta(minutes=5)
    assert len(await watch_searches(schedulers.database, watch_id)) == 1


async def test_paused_watches_never_enqueue_and_a_resumed_one_runs_at_once(schedulers: Schedulers):
    [watch_id] = await insert_watches(schedulers.watches, 1, due_ago=timedelta(hours=1), paused=True)
    assert not await schedulers.schedulers[0].run_once()
    assert not await schedulers.schedulers[0].run_once()
    assert await watch_searches(schedulers.database, watch_id) == []
    # Its run was missed while paused: resumed, it is due now.
    resumed = await schedulers.watches.resume(watch_id, utcnow())
    assert resumed is not None
    assert resumed["next_run_at"] > utcnow() - timedelta(seconds=5)
    assert (await schedulers.schedulers[0].run_once())["watch_searches"] == 1
    assert len(await watch_searches(schedulers.database, watch_id)) == 1


@pytest.fixture
async def listened(settings: Settings, schedulers: Schedulers) -> AsyncIterator[tuple[WatchScheduler, FindFilters]]:
    """A scheduler whose client records the filter of every find on the watches."""
    listener = FindFilters("watches")
    client = AsyncMongoClient(settings.mongo_url, tz_aware=True, event_listeners=[listener])
    database = MainDatabase.open(client, settings.mongo_db)
    journal = ReconcilerLog(database.write)
    yield WatchScheduler(settings, WatchRepository(database.write), schedulers.enqueuers[0], journal), listener
    await client.close()


async def test_a_pass_reads_due_watches_by_one_range_of_paused_and_next_run_at(
    schedulers: Schedulers, listened: tuple[WatchScheduler, FindFilters]
):
    scheduler, listener = listened
    # 300 watches due over the next five hours, 3 due now (one of them paused).
    later = await insert_watches(schedulers.watches, 300, due_ago=timedelta(0))
    for index, watch_id in enumerate(later):
        moment = utcnow() + timedelta(minutes=1 + index)
        await schedulers.database.write.watches.update_one({"_id": watch_id}, {"$set": run_at(moment)})
    [first] = await insert_watches(schedulers.watches, 1, due_ago=timedelta(minutes=3), product_code="D-0")
    [idle] = await insert_watches(schedulers.watches, 1, due_ago=timedelta(days=3), product_code="D-1", paused=True)
    assert (await scheduler.run_once())["watch_searches"] == 1
    # One find: the equality on `paused`, then the range on `next_run_at` (the index's order, its sort).
    [query] = listener.filters
    assert query["paused"] is False
    assert set(query["next_run_at"]) == {"$lte"}

    # Two more watches fall due: the next pass is the same one range.
    listener.filters.clear()
    for watch_id in later[:2]:
        await schedulers.database.write.watches.update_one({"_id": watch_id}, {"$set": run_at(utcnow())})
    assert (await scheduler.run_once())["watch_searches"] == 2
    assert len(listener.filters) == 1
    assert len(await watch_searches(schedulers.database, first)) == 1
    assert await watch_searches(schedulers.database, idle) == []


async def test_a_scheduler_idle_for_days_catches_up_with_one_search(schedulers: Schedulers):
    scheduler = schedulers.schedulers[0]
    now = utcnow()
    assert not await scheduler.run_once(now)
    [watch_id] = await insert_watches(schedulers.watches, 1, due_ago=-timedelta(days=2))
    later = now + timedelta(days=3)
    assert (await scheduler.run_once(later))["watch_searches"] == 1
    assert (await schedulers.watches.get(watch_id))["next_run_at"] > later
    assert not await scheduler.run_once(later)


async def test_a_deleted_watch_no_longer_runs(schedulers: Schedulers):
    [watch_id] = await insert_watches(schedulers.watches, 1, due_ago=timedelta(seconds=1))
    assert await schedulers.watches.delete(watch_id)
    assert not await schedulers.schedulers[0].run_once()
    assert await watch_searches(schedulers.database, watch_id) == []


async def test_an_active_search_of_the_product_is_not_doubled_and_the_skip_is_counted(
    schedulers: Schedulers, settings: Settings
):
    [watch_id] = await insert_watches(schedulers.watches, 1, due_ago=timedelta(seconds=1))
    # The gateway's path: a plain search of the same product, still active when the watch is due.
    [manual] = await schedulers.enqueuers[0].submit_search([{"product_code": "S-0", "keyword": "thing 0"}], None)
    counts = await schedulers.schedulers[1].run_once()
    assert counts == {"watch_skipped_active": 1}
    watch = await schedulers.watches.get(watch_id)
    assert (watch.get("skipped_active"), str(watch["last_job_id"])) == (1, manual.job_id)
    active = await schedulers.database.jobs().find({"product_code": "S-0", "active": True}).to_list()
    assert len(active) == 1


async def test_only_a_delivered_result_is_what_the_next_is_judged_against(schedulers: Schedulers):
    [watch_id] = await insert_watches(schedulers.watches, 1, due_ago=timedelta(0), notify="on_change")
    # What the outbox actor reads of its runtime here: the watches and jobs repositories (on the real store).
    runtime = SimpleNamespace(watches=schedulers.watches, jobs=JobRepository(schedulers.database))
    lowest = {"source": "static", "price": 1000, "product_id": "p", "url": "u"}

    def search(seconds: int) -> dict[str, Any]:
        finished = utcnow().replace(microsecond=0) + timedelta(seconds=seconds)
        result = {"outcome": "FOUND", "lowest": lowest}
        return {"_id": ObjectId(), "watch_id": watch_id, "finished_at": finished, "result": result}

    first, second, third = search(0), search(1), search(2)
    judged = await judge_watch_result(first, runtime)
    assert (judged.skipped, judged.seen["reason"]) == (None, "first")
    # Its delivery failed: nothing was delivered, so the next result is still the first one to deliver.
    assert (await judge_watch_result(second, runtime)).seen["reason"] == "first"
    assert (await judge_watch_result(first, runtime)).skipped["reason"] == "superseded"  # older than the last judged
    retried = await judge_watch_result(second, runtime)  # its own delivery retried: judged again, still delivered
    assert retried.skipped is None
    assert await schedulers.watches.record_delivered(watch_id, retried.seen, utcnow())
    assert not await schedulers.watches.record_delivered(watch_id, retried.seen, utcnow())  # counted once
    assert (await judge_watch_result(third, runtime)).skipped["reason"] == "unchanged"
    # An older result delivered late never replaces the newer one.
    older = first | {"_id": ObjectId(), "finished_at": first["finished_at"] - timedelta(seconds=1)}
    assert not await schedulers.watches.record_delivered(watch_id, seen_of(older, None) | {"deliver": True}, utcnow())
    watch = await schedulers.watches.get(watch_id)
    assert (watch["deliveries"], watch["deliveries_skipped"]) == (1, 2)
    assert watch["last_delivered"]["job_id"] == second["_id"]
    assert watch["last_seen"]["job_id"] == third["_id"]

    assert await schedulers.watches.delete(watch_id)
    assert (await judge_watch_result(search(3), runtime)).skipped["reason"] == "watch_removed"


async def test_a_result_judged_while_the_previous_one_is_being_delivered_waits_for_that_delivery(
    schedulers: Schedulers, settings: Settings
):
    """Two results of an on_change watch, the second judged while the first's delivery is still out: compared with
    what the receiver took (nothing yet), both would be "first" and one price delivered twice. The second waits,
    deferred, and is then judged against what that delivery did."""
    [watch_id] = await insert_watches(schedulers.watches, 1, due_ago=timedelta(0), notify="on_change")
    jobs = JobRepository(schedulers.database)
    runtime = SimpleNamespace(watches=schedulers.watches, jobs=jobs)
    lowest = {"source": "static", "price": 1000, "product_id": "p", "url": "u"}

    def search(seconds: int) -> dict[str, Any]:
        finished = utcnow().replace(microsecond=0) + timedelta(seconds=seconds)
        result = {"outcome": "FOUND", "lowest": lowest}
        return {"_id": ObjectId(), "watch_id": watch_id, "finished_at": finished, "result": result}

    first, second = search(0), search(1)
    outbox, _ = outbox_job_for(first | {"product_code": "W-0"}, settings)
    await schedulers.database.jobs().insert_one(outbox)  # PENDING: the first result's delivery is still out
    judged = await judge_watch_result(first, runtime)
    assert (judged.skipped, judged.seen["reason"]) == (None, "first")

    with pytest.raises(DeferredJobError) as deferred:
        await judge_watch_result(second, runtime)
    assert deferred.value.failure().defer is not None  # the attempt is given back, not spent
    assert (await judge_watch_result(first, runtime)).skipped is None  # the first's own retry is not held up

    # The first's delivery went out: the second is the same price, so it is not delivered again.
    assert await schedulers.watches.record_delivered(watch_id, judged.seen, utcnow())
    await schedulers.database.jobs().update_one({"_id": outbox["_id"]}, {"$set": {"status": "DONE"}})
    assert (await judge_watch_result(second, runtime)).skipped["reason"] == "unchanged"


async def test_a_result_judged_after_the_previous_delivery_failed_for_good_is_delivered(
    schedulers: Schedulers, settings: Settings
):
    [watch_id] = await insert_watches(schedulers.watches, 1, due_ago=timedelta(0), notify="on_change")
    runtime = SimpleNamespace(watches=schedulers.watches, jobs=JobRepository(schedulers.database))
    lowest = {"source": "static", "price": 1000, "product_id": "p", "url": "u"}
    finished = utcnow().replace(microsecond=0)
    first = {"_id": ObjectId(), "watch_id": watch_id, "finished_at": finished, "result": {"lowest": lowest}}
    second = first | {"_id": ObjectId(), "finished_at": finished + timedelta(seconds=1)}
    outbox, _ = outbox_job_for(first | {"product_code": "W-0"}, settings)
    await schedulers.database.jobs().insert_one(outbox | {"status": "DEAD"})  # its delivery failed for good
    assert (await judge_watch_result(first, runtime)).seen["reason"] == "first"
    # Nothing reached the receiver: the second result is the first one it gets.
    assert (await judge_watch_result(second, runtime)).seen["reason"] == "first"


async def test_a_run_whose_search_was_not_submitted_is_given_back_and_taken_by_the_next_pass(
    schedulers: Schedulers, settings: Settings
):
    [watch_id] = await insert_watches(schedulers.watches, 1, due_ago=timedelta(seconds=1))
    # The scheduler's store is there, its enqueuer's is not (a real unreachable server, a short timeout).
    gone = settings.with_overrides(mongo_url="mongodb://127.0.0.1:9/?directConnection=true", mongo_timeout_ms=300)
    client = create_client(gone)
    try:
        repository = JobRepository(MainDatabase.open(client, gone.mongo_db))
        enqueuer = JobEnqueuer(gone, repository, schedulers.publishers[0])
        failing = WatchScheduler(settings, schedulers.watches, enqueuer, ReconcilerLog(schedulers.database.write))
        with pytest.raises(MONGO_UNAVAILABLE):
            await failing.run_once()
    finally:
        await client.close()

    assert (await schedulers.watches.get(watch_id))["next_run_at"] <= utcnow()  # due again
    assert (await schedulers.schedulers[0].run_once())["watch_searches"] == 1
    assert len(await watch_searches(schedulers.database, watch_id)) == 1


async def test_a_first_run_slower_than_the_store_deadline_is_still_recorded_on_the_watch(
    aiohttp_client, settings: Settings, monkeypatch: pytest.MonkeyPatch
):
    from infra.scheduler import WatchScheduler

    run = WatchScheduler.run

    async def slow_run(self: WatchScheduler, *args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.8)  # past the request's deadline: its store calls would time out inside it
        return await run(self, *args, **kwargs)

    monkeypatch.setattr(WatchScheduler, "run", slow_run)
    client = await aiohttp_client(create_app(settings.with_overrides(mongo_timeout_ms=300)))

    status, answer = await post(client, {"products": [PRODUCT], "every": "6h"})
    watch_url = f"/v1/lps/watches/{answer['watches'][0]['watch_id']}"

    async def recorded() -> dict[str, Any] | None:
        watch = (await (await client.get(watch_url)).json())["watch"]
        return watch if watch.get("runs") == 1 else None

    watch = await eventually(recorded, within=10, what="the first run recorded on the watch")
    assert status == 200, answer  # the watches are stored; the answer names them
    assert watch["last_job_id"]
