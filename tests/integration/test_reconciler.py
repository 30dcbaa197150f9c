"""The reconciler against the real MongoDB wire server and RabbitMQ, on job states crafted in the store."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pika
from aiohttp.test_utils import TestClient

from infra.clock import utcnow
from infra.enqueue import message_for_job, outbox_job_for
from schemas.codes import JobType
from service.app import create_app
from tests.rabbit import drain
from tests.reconciler_stack import Stack
from tests.reconciler_stack import stack as stack


async def test_jobs_the_broker_never_confirmed_are_published_once(stack: Stack):
    unconfirmed = await stack.insert()
    confirmed = await stack.insert(enqueued_at=utcnow())

    done = await stack.reconciler().run_once()
    again = await stack.reconciler().run_once()

    assert done == {"republished_unconfirmed": 1}
    assert again == {}
    assert await stack.queued() == [str(unconfirmed["_id"])]
    job = await stack.jobs.get_current(unconfirmed["_id"])
    assert job["enqueued_at"] is not None
    assert job["republishes"] == 1
    assert "republishes" not in await stack.jobs.get_current(confirmed["_id"])


async def test_concurrent_reconcilers_publish_each_lost_job_exactly_once(stack: Stack):
    lost = [await stack.insert() for _ in range(10)]

    results = await asyncio.gather(*(stack.reconciler().run_once() for _ in range(3)))

    assert sum(result["republished_unconfirmed"] for result in results) == 10
    assert sorted(await stack.queued()) == sorted(str(job["_id"]) for job in lost)


async def test_a_pending_job_long_past_run_after_gets_its_message_again(stack: Stack):
    long_ago = utcnow() - timedelta(hours=1)
    lost = await stack.insert(enqueued_at=long_ago, run_after=long_ago)
    recent = await stack.insert(enqueued_at=utcnow(), run_after=utcnow())

    assert await stack.reconciler().run_once() == {"republished_lost": 1}
    assert await stack.queued() == [str(lost["_id"])]
    assert (await stack.jobs.get_current(recent["_id"])).get("republishes") is None


async def test_a_job_that_waited_long_behind_a_backlog_is_not_published_again_until_its_queue_is_empty(stack: Stack):
    """A backlog: the queue still holds messages, so a job waiting longer than LPS_RECONCILE_LOST_AFTER is taken to be
    in it, not lost; a second message would only queue behind the same backlog (issue 24). Once the queue is empty,
    the job's message is lost indeed and the next pass publishes it again."""
    long_ago = utcnow() - timedelta(hours=1)
    waiting = await stack.insert(enqueued_at=long_ago, run_after=long_ago)
    ahead = await stack.insert(enqueued_at=long_ago, run_after=long_ago)
    confirmed = await stack.publisher.publish([message_for_job(stack.settings, ahead)])  # the backlog's message
    assert len(confirmed) == 1

    assert "republished_lost" not in await stack.reconciler().run_once()

    assert await stack.queued() == [str(ahead["_id"])]  # the backlog drained: only `ahead` had a message
    await stack.jobs.claim(ahead["_id"], worker="w", now=utcnow(), lease_until=utcnow() + timedelta(minutes=1))
    assert await stack.reconciler().run_once() == {"republished_lost": 1}
    assert await stack.queued() == [str(waiting["_id"])]


async def test_an_expired_lease_goes_back_to_pending_with_the_lost_attempt_in_history(stack: Stack):
    started = utcnow() - timedelta(minutes=10)
    abandoned = await stack.insert(
        status="RUNNING",
        attempts=1,
        worker="gone:1:Thread-1",
        started_at=started,
        lease_until=started + timedelta(minutes=2),
    )

    assert await stack.reconciler().run_once() == {"recovered": 1}

    job = await stack.jobs.get_current(abandoned["_id"])
    assert (job["status"], job["attempts"], job["active"]) == ("PENDING", 1, True)
    assert job["last_error"]["type"] == "WORKER_LOST"
    assert [(entry["attempt"], entry["outcome"], entry["worker"]) for entry in job["history"]] == [
        (1, "LOST", "gone:1:Thread-1")
    ]
    assert await stack.queued() == [str(abandoned["_id"])]


async def test_an_expired_lease_on_the_last_attempt_is_dead(stack: Stack):
    started = utcnow() - timedelta(minutes=10)
    abandoned = await stack.insert(
        status="RUNNING", attempts=3, max_attempts=3, started_at=started, lease_until=started
    )

    assert await stack.reconciler().run_once() == {"recovered_dead": 1}
    job = await stack.jobs.get_current(abandoned["_id"])
    assert job["status"] == "DEAD"
    assert "active" not in job
    assert await stack.queued() == []


async def test_dead_letters_become_dead_jobs_and_undecodable_ones_are_kept(stack: Stack):
    pending = await stack.insert(enqueued_at=utcnow())
    already_dead = await stack.insert(status="DEAD", enqueued_at=utcnow())
    queue = stack.settings.job(JobType.SEARCH).queue + ".XQ"
    bodies = [message_for_job(stack.settings, job).encode() for job in (pending, already_dead)] + [b"\xff not json"]
    await asyncio.to_thread(publish_raw, stack.settings.amqp_url, queue, bodies)

    # Every dead letter taken from .XQ is counted by what became of it (the stats' reconciler totals show them).
    assert await stack.reconciler().run_once() == {
        "dead_lettered": 1,
        "dead_letters_of_ended_jobs": 1,
        "dead_letters_kept": 1,
    }

    job = await stack.jobs.get_current(pending["_id"])
    assert job["status"] == "DEAD"
    assert job["last_error"]["type"] == "DEAD_LETTER"
    kept = await stack.database.write["dead_letters"].find().to_list()
    assert [(doc["reason"], bytes(doc["body"])) for doc in kept] == [("undecodable", b"\xff not json")]
    assert await asyncio.to_thread(drain, stack.settings.amqp_url, queue) == []


def publish_raw(amqp_url: str, queue: str, bodies: list[bytes]) -> None:
    connection = pika.BlockingConnection(pika.URLParameters(amqp_url))
    try:
        channel = connection.channel()
        for body in bodies:
            channel.basic_publish(exchange="", routing_key=queue, body=body)
    finally:
        connection.close()


async def test_a_done_search_without_its_delivery_job_gets_one(stack: Stack):
    stack.settings = stack.settings.with_overrides(outbox_url="http://127.0.0.1:9/results")
    finished = utcnow() - timedelta(minutes=1)
    orphan = await stack.insert(status="DONE", finished_at=finished, result={"outcome": "FOUND"})
    delivered = await stack.insert(status="DONE", finished_at=finished)
    await stack.insert(
        JobType.OUTBOX, source_job_id=delivered["_id"], product_code=delivered["product_code"], status="DONE"
    )

    assert await stack.reconciler().run_once() == {"outbox_created": 1}

    outbox = await stack.database.jobs().find_one({"job_type": "OUTBOX", "source_job_id": orphan["_id"]})
    assert outbox["status"] == "PENDING"
    assert await stack.queued(JobType.OUTBOX) == [str(outbox["_id"])]


async def test_a_delivery_job_stored_by_a_worker_killed_before_publishing_it_is_published_by_the_next_pass(
    stack: Stack,
):
    """The search worker stored the DONE search's OUTBOX job and died before its publish: the job is unconfirmed, so
    the next pass after LPS_RECONCILE_GRACE publishes it (not the lost-message pass, LPS_RECONCILE_LOST_AFTER later)."""
    stack.settings = stack.settings.with_overrides(outbox_url="http://127.0.0.1:9/results")
    search = await stack.insert(status="DONE", finished_at=utcnow(), result={"outcome": "FOUND"})
    document, _never_published = outbox_job_for(search, stack.settings)
    assert await stack.jobs.insert_follow_up(document)

    assert await stack.reconciler().run_once() == {"republished_unconfirmed": 1}

    assert await stack.queued(JobType.OUTBOX) == [str(document["_id"])]
    assert (await stack.jobs.get_current(document["_id"]))["enqueued_at"] is not None


async def test_queue_stats_count_what_reconcilers_did(stack: Stack, aiohttp_client):
    await stack.insert()
    await stack.reconciler().run_once()
    client: TestClient = await aiohttp_client(create_app(stack.settings))

    body = await (await client.get("/v1/lps/queue/stats")).json()

    assert body["reconciler"] == {"republished_unconfirmed": 1}


async def test_missing_deliveries_are_found_however_many_searches_finished_before_them(stack: Stack):
    stack.settings = stack.settings.with_overrides(outbox_url="http://127.0.0.1:9/results", reconcile_batch=5)
    start = utcnow() - timedelta(minutes=30)
    searches = [
        await stack.insert(status="DONE", finished_at=start + timedelta(seconds=index), result={"outcome": "FOUND"})
        for index in range(13)
    ]
    undelivered = {searches[index]["_id"] for index in (7, 11, 12)}  # beyond the first batch
    for search in searches:
        if search["_id"] not in undelivered:
            await stack.insert(
                JobType.OUTBOX, source_job_id=search["_id"], product_code=search["product_code"], status="DONE"
            )

    passes = [await stack.reconciler().run_once() for _ in range(4)]

    assert sum(done.get("outbox_created", 0) for done in passes) == 3
    assert passes[-1] == {}  # the cursor has walked past every search: nothing is looked at twice
    created = await stack.database.jobs().find({"job_type": "OUTBOX", "status": "PENDING"}).to_list()
    assert {job["source_job_id"] for job in created} == undelivered


async def test_a_reconciler_killed_after_taking_a_job_leaves_it_for_the_next_pass(stack: Stack):
    lost = await stack.insert()
    # What a reconciler that died between winning the job and publishing it leaves behind.
    assert await stack.jobs.take_for_republish(lost, now=utcnow(), message_id="never-published")

    assert await stack.reconciler().run_once() == {"republished_unconfirmed": 1}

    assert await stack.queued() == [str(lost["_id"])]
    assert (await stack.jobs.get_current(lost["_id"]))["enqueued_at"] is not None


async def test_a_dead_letter_for_an_unknown_actor_is_kept_and_touches_no_job(stack: Stack):
    pending = await stack.insert(enqueued_at=utcnow())
    stray = message_for_job(stack.settings, pending)._replace(actor_name="not_an_lps_actor")
    queue = stack.settings.job(JobType.SEARCH).queue + ".XQ"
    await asyncio.to_thread(publish_raw, stack.settings.amqp_url, queue, [stray.encode()])

    assert await stack.reconciler().run_once() == {"dead_letters_kept": 1}

    assert (await stack.jobs.get_current(pending["_id"]))["status"] == "PENDING"
    kept = await stack.database.write["dead_letters"].find().to_list()
    assert [doc["reason"] for doc in kept] == ["unknown actor"]
