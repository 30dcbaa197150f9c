"""Quorum mode (LPS_QUEUE_TYPE=quorum): every LPS queue is a replicated quorum queue, one per priority band, on the
machine's RabbitMQ (a single node runs quorum queues too; tests/processes/test_rabbitmq_cluster.py shows a
cluster's)."""

from __future__ import annotations

import asyncio
import functools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from infra.broker import Publisher, create_broker, job_message
from infra.queue_topology import QueueType
from infra.settings import Settings
from schemas.codes import JobType, Priority
from service.app import create_app
from tests.harness import JobsView, worker_pool
from tests.rabbit import queue_declared
from tools.testbed import consumer_count, delete_queues, job_queues

LPS = [sys.executable, "-m", "tools.lps"]


def queue_types() -> dict[str, str]:
    listed = subprocess.run(
        ["rabbitmqctl", "list_queues", "name", "type", "--formatter", "json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return {entry["name"]: entry["type"] for entry in json.loads(listed.stdout)}


@pytest.mark.processes
@pytest.mark.skipif(shutil.which("rabbitmqctl") is None, reason="reads queue types with the local rabbitmqctl")
async def test_every_queue_of_quorum_mode_is_a_quorum_queue_and_a_message_goes_to_its_band(settings: Settings):
    quorum = settings.with_overrides(queue_type=QueueType.QUORUM)
    publisher = Publisher(create_broker(quorum, middleware=[]))
    try:
        await publisher.start(quorum.queues())
        high = quorum.priority_levels[Priority.HIGH]
        assert await publisher.publish([job_message(quorum, JobType.SEARCH, "0" * 24, high)])
        info = await publisher.queue_info(quorum.queues())
    finally:
        await publisher.close()
    types = await asyncio.to_thread(queue_types)
    ours = {name: kind for name, kind in types.items() if name.startswith(quorum.queue_prefix)}
    await asyncio.to_thread(delete_queues, quorum.amqp_url, job_queues(quorum))

    assert set(ours) == set(job_queues(quorum))  # each band with its .DQ and .XQ, and no classic queue
    assert set(ours.values()) == {"quorum"}
    assert info[quorum.job(JobType.SEARCH).band(Priority.HIGH).queue].messages == 1
    assert info[quorum.job(JobType.SEARCH).band(Priority.LOW).queue].messages == 0


@pytest.mark.processes
async def test_switching_to_quorum_moves_every_waiting_message_and_the_jobs_finish_in_quorum_pools(
    aiohttp_client, settings: Settings, tmp_path: Path
):
    """The documented migration: classic-mode jobs wait in `search` (one delayed in `.DQ`); the pools are stopped,
    LPS_QUEUE_TYPE switched, `lps migrate-queues --from classic` run: every job finishes in quorum-mode pools, the
    classic queues are gone, and nothing waited for the reconciler."""
    classic = settings.with_overrides(search_sources=("static",))
    gateway = await aiohttp_client(create_app(classic))
    products = [{"product_code": f"MIG-{n}", "keyword": f"migrated {n}"} for n in range(6)]
    high = await (await gateway.post("/v1/lps/search", json={"products": products[:3], "priority": "HIGH"})).json()
    low = await (await gateway.post("/v1/lps/search", json={"products": products[3:], "priority": "LOW"})).json()
    job_ids = [job["job_id"] for job in high["jobs"] + low["jobs"]]
    publisher = Publisher(create_broker(classic, middleware=[]))
    try:
        delayed = job_message(classic, JobType.SEARCH, job_ids[0], classic.priority_levels[Priority.HIGH])
        # A retry waiting out its backoff, published as the status middleware publishes one.
        await asyncio.to_thread(functools.partial(publisher.broker.enqueue, delayed, delay=500))
    finally:
        await publisher.close()

    quorum = classic.with_overrides(queue_type=QueueType.QUORUM)
    env = os.environ | quorum.to_env()
    migrated = await asyncio.to_thread(
        subprocess.run, [*LPS, "migrate-queues", "--from", "classic"], capture_output=True, text=True, env=env
    )
    jobs = JobsView(quorum)
    try:
        async with worker_pool(quorum, "search", tmp_path):
            finished = [await jobs.finished(job_id, within=60) for job_id in job_ids]
    finally:
        await jobs.close()
        await asyncio.to_thread(delete_queues, quorum.amqp_url, job_queues(quorum))
    types = await asyncio.to_thread(queue_types)

    assert migrated.returncode == 0, migrated.stderr
    assert "6 message(s), 1 delayed" in migrated.stdout
    assert all(job["status"] == "DONE" for job in finished)
    assert classic.job(JobType.SEARCH).queue not in types  # the emptied classic queue was deleted


@pytest.mark.processes
async def test_migrating_refuses_while_a_pool_consumes_the_old_queues_and_changes_nothing(
    settings: Settings, tmp_path: Path
):
    """A classic deployment still running: `migrate-queues` would delete the queues its pool reads and leave quorum
    queues nobody reads. It refuses, naming the busy queue and how to stop its readers, and declares nothing."""
    quorum = settings.with_overrides(queue_type=QueueType.QUORUM)
    env = os.environ | quorum.to_env()
    try:
        async with worker_pool(settings, "search", tmp_path) as pool:
            migrated = await asyncio.to_thread(
                subprocess.run, [*LPS, "migrate-queues", "--from", "classic"], capture_output=True, text=True, env=env
            )
            still_consumed = await asyncio.to_thread(consumer_count, settings.amqp_url, pool.queue)
        quorum_queues = [queue for queue in job_queues(quorum) if queue_declared(quorum.amqp_url, queue)]
    finally:
        await asyncio.to_thread(delete_queues, quorum.amqp_url, job_queues(quorum))

    assert migrated.returncode == 1, migrated.stderr
    assert f"{settings.job(JobType.SEARCH).queue} (1 consumer(s))" in migrated.stderr
    assert "Stop every worker pool" in migrated.stderr
    assert still_consumed == 1
    assert quorum_queues == []


@pytest.mark.processes
def test_migrating_from_a_mode_that_never_ran_moves_nothing(settings: Settings):
    """`--from quorum` where no quorum queue was ever declared: "moved 0", not a pika error."""
    classic = settings  # the default mode: the target
    command = [*LPS, "migrate-queues", "--from", "quorum"]
    migrated = subprocess.run(command, capture_output=True, text=True, env=os.environ | classic.to_env(), timeout=60)

    assert migrated.returncode == 0, migrated.stderr
    assert "0 message(s), 0 delayed, 0 dead letter(s)" in migrated.stdout
    assert "WARNING" not in migrated.stderr  # a queue that is not there is an answer, not 18 warnings
