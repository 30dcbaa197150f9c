"""A real three-node RabbitMQ cluster on this machine (`lps rabbitmq-cluster`), beside the default node: what LPS's
quorum mode will rest on, measured (issue 23). Skipped, saying why, where RabbitMQ is not installed or not root."""

from __future__ import annotations

import contextlib
import json
import subprocess
import time
from collections.abc import Iterator

import pika
import pika.exceptions
import pytest

from tools import rabbitmq_cluster as cluster

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
