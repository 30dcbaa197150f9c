"""Quorum mode (LPS_QUEUE_TYPE=quorum): every LPS queue is a replicated quorum queue, one per priority band, on the
machine's RabbitMQ (a single node runs quorum queues too; tests/test_rabbitmq_cluster.py shows a cluster's)."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess

import pytest

from infra.broker import Publisher, create_broker, job_message
from infra.settings import QueueType, Settings, SettingsError
from schemas.codes import JobType, Priority
from tools.testbed import delete_queues, job_queues


def test_quorum_mode_has_a_band_per_priority_each_with_its_actor_and_the_classic_mode_one_queue():
    quorum = Settings(queue_type=QueueType.QUORUM, queue_prefix="q_")
    search = quorum.job(JobType.SEARCH)

    assert search.queues == ("q_search.high", "q_search.normal", "q_search.low")
    assert [band.actor_name for band in search.bands] == ["search_high", "search", "search_low"]
    assert [band.worker_priority for band in search.bands] == sorted(band.worker_priority for band in search.bands)
    levels = quorum.priority_levels
    assert {priority: quorum.message_band(JobType.SEARCH, levels[priority]).queue for priority in Priority} == {
        Priority.HIGH: "q_search.high",
        Priority.NORMAL: "q_search.normal",
        Priority.LOW: "q_search.low",
    }
    assert Settings(queue_prefix="q_").job(JobType.SEARCH).queues == ("q_search",)


def test_an_unknown_queue_type_is_refused_naming_the_choices():
    with pytest.raises(SettingsError, match="LPS_QUEUE_TYPE='mirrored': use one of classic, quorum"):
        Settings.from_env({"LPS_QUEUE_TYPE": "mirrored"})


def queue_types() -> dict[str, str]:
    listed = subprocess.run(
        ["rabbitmqctl", "list_queues", "name", "type", "--formatter", "json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return {entry["name"]: entry["type"] for entry in json.loads(listed.stdout)}


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
