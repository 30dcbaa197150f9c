"""Quorum mode's settings (LPS_QUEUE_TYPE): a queue per priority band, each with its actor, and an unknown
queue type refused."""

from __future__ import annotations

import pytest

from infra.queue_topology import QueueType
from infra.settings import Settings, SettingsError
from schemas.codes import JobType, Priority


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
