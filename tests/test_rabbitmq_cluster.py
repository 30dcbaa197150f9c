"""A real three-node RabbitMQ cluster on this machine (`lps rabbitmq-cluster`), beside the default node: what LPS's
quorum mode will rest on, measured (issue 23). Skipped, saying why, where RabbitMQ is not installed or not root."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pika
import pika.exceptions
import pytest

from infra.settings import QueueType, Settings
from schemas.codes import JobType, Priority
from service.app import create_app
from tests.harness import JobsView, reconciler_process, worker_pool
from tools import rabbitmq_cluster as cluster
from tools.testbed import Receiver, eventually

pytestmark = pytest.mark.skipif(cluster.available() is not None, reason=str(cluster.available()))

#: Ports of their own, apart from `lps rabbitmq-cluster`'s default (a person's cluster may be running).
BASE_PORT = 5711


@pytest.fixture(scope="module")
def nodes() -> Iterator[list[cluster.Node]]:
    base = cluster.DEFAULT_BASE.with_name("lps-rabbitmq-cluster-test")
    members = cluster.up(base, BASE_PORT)
    try:
        yield members
    finally:
        cluster.down(base, BASE_PORT)


def leader_of(node: cluster.Node, queue: str) -> str:
    listed = subprocess.run(
        [cluster.RABBITMQCTL, "-n", node.name, "list_queues", "name", "leader", "--formatter", "json"],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return next(entry["leader"] for entry in json.loads(listed.stdout) if entry["name"] == queue)


def connect() -> pika.BlockingConnection:
    """A client given every node, `;`-separated as LPS_AMQP_URL takes them: pika tries them in turn."""
    return pika.BlockingConnection([pika.URLParameters(url) for url in cluster.cluster_url(BASE_PORT).split(";")])


def test_three_nodes_start_and_join_one_cluster_beside_the_default_node(nodes: list[cluster.Node]):
    for node in nodes:
        assert sorted(cluster.cluster_members(node)) == sorted(node.name for node in nodes)
    lines = cluster.status(nodes[0].base, BASE_PORT)
    assert all(" running (cluster: " in line for line in lines), lines
    with contextlib.closing(pika.BlockingConnection(pika.URLParameters("amqp://guest:guest@127.0.0.1:5672/"))):
        pass  # the default node still answers on 5672, untouched


def test_a_quorum_queue_keeps_every_confirmed_message_when_its_leader_is_killed(nodes: list[cluster.Node]):
    queue = f"lps_cluster_test_{int(time.time())}"
    with contextlib.closing(connect()) as connection:
        channel = connection.channel()
        channel.confirm_delivery()
        channel.queue_declare(queue, durable=True, arguments={"x-queue-type": "quorum"})
        for number in range(100):
            channel.basic_publish("", queue, str(number).encode(), pika.BasicProperties(delivery_mode=2))
    leader = next(node for node in nodes if node.name == leader_of(nodes[0], queue))

    cluster.kill_node(leader)  # kill -9 of the node that leads the queue
    started, bodies = time.monotonic(), []
    try:
        while len(bodies) < 100 and time.monotonic() - started < 30:
            try:
                with contextlib.closing(connect()) as connection:
                    channel = connection.channel()
                    while (got := channel.basic_get(queue, auto_ack=True))[0] is not None:
                        bodies.append(int(got[2]))
            except pika.exceptions.AMQPError:
                time.sleep(0.5)  # a new leader is being elected
        answered_in = time.monotonic() - started
    finally:
        cluster.start_node(leader)
        cluster.await_node(leader)

    assert sorted(bodies) == list(range(100))  # every confirmed message, each once
    assert answered_in < 15


# --- LPS in quorum mode on the cluster, under load, losing the nodes that lead its queues -------------------------


async def test_quorum_mode_keeps_every_accepted_job_through_the_loss_of_the_nodes_leading_its_queues(
    nodes: list[cluster.Node], aiohttp_client, settings: Settings, receiver: Receiver, tmp_path: Path
):
    """Under a steady POST load with real search and outbox pools, `kill -9` of the node leading the search band,
    later of the one leading the outbox band, then both started again: every accepted job ends DONE once, each
    delivery arrives once per Idempotency-Key, no stretch without a finished job lasts 30 s, and nothing waits for
    the reconciler's lost-message rule (LPS_RECONCILE_LOST_AFTER stays at its 900 s)."""
    quorum = settings.with_overrides(
        amqp_url=cluster.cluster_url(BASE_PORT),
        queue_type=QueueType.QUORUM,
        outbox_url=receiver.url,
        outbox_allow_unsigned=True,
        retry_min_backoff=0.5,
        retry_max_backoff=2.0,
    )
    gateway = await aiohttp_client(create_app(quorum))
    jobs = JobsView(quorum)
    accepted: list[str] = []
    killed: list[cluster.Node] = []

    async def post_steadily(batches: int) -> None:
        for batch in range(batches):
            products = [{"product_code": f"QQ-{batch}-{n}", "keyword": f"quorum {batch} {n}"} for n in range(3)]
            answer = await (await gateway.post("/v1/lps/search", json={"products": products})).json()
            if answer.get("result") == 0:
                accepted.extend(job["job_id"] for job in answer["jobs"])
            await asyncio.sleep(0.5)

    async def lose_the_leader_of(queue: str) -> None:
        """kill -9 of the node leading `queue`; 6 s later it is started again (one node down at a time: a quorum
        queue needs a majority of its three members)."""
        leader = await asyncio.to_thread(leader_of, nodes[0] if nodes[0] not in killed else nodes[1], queue)
        victim = next(node for node in nodes if node.name == leader)
        cluster.kill_node(victim)
        killed.append(victim)
        await asyncio.sleep(6)
        await asyncio.to_thread(cluster.start_node, victim)
        await asyncio.to_thread(cluster.await_node, victim)
        killed.remove(victim)

    try:
        async with (
            worker_pool(quorum, "search", tmp_path),
            worker_pool(quorum, "outbox", tmp_path),
            reconciler_process(quorum, tmp_path),
        ):
            load = asyncio.create_task(post_steadily(batches=40))  # 120 products over about 20 s and more
            await asyncio.sleep(4)
            await lose_the_leader_of(quorum.job(JobType.SEARCH).band(Priority.NORMAL).queue)
            await lose_the_leader_of(quorum.job(JobType.OUTBOX).band(Priority.HIGH).queue)
            await load
            try:
                finished = [await jobs.finished(job_id, within=60) for job_id in accepted]
            except TimeoutError:
                states = [await jobs.get(job_id) for job_id in accepted]
                stuck = [
                    (job["_id"], job["status"], job.get("enqueued_at"), job["attempts"])
                    for job in states
                    if job["status"] not in ("DONE", "DEAD")
                ]
                raise AssertionError(f"{len(stuck)} jobs not ended: {stuck[:5]}") from None
            await eventually(
                lambda: asyncio.sleep(
                    0, len({d["headers"]["Idempotency-Key"] for d in receiver.deliveries}) >= len(finished)
                ),
                within=120,
                what="every delivery",
            )
            stats = await (await gateway.get("/v1/lps/queue/stats")).json()
    finally:
        await jobs.close()
        for node in killed:
            if not cluster.running(node):
                await asyncio.to_thread(cluster.start_node, node)
                await asyncio.to_thread(cluster.await_node, node)

    assert len(accepted) == 120
    assert all(job["status"] == "DONE" for job in finished)
    keys = [delivery["headers"]["Idempotency-Key"] for delivery in receiver.deliveries]
    assert len(keys) == len(set(keys)) == len(finished)  # each delivered once
    ended = sorted(job["finished_at"] for job in finished)
    longest_quiet = max((later - earlier).total_seconds() for earlier, later in itertools.pairwise(ended))
    assert longest_quiet < 30, longest_quiet
    assert stats["queue_type"] == "quorum"
    assert stats["reconciler"].get("republished_lost", 0) == 0  # the lost-message rule was never needed
