"""What `lps dev` checks before it starts and while it runs, in this process: ports planned twice, --data
without a MongoDB of its own, and a store past its envelope, said once."""

from __future__ import annotations

import asyncio

import pytest

from infra.settings import Settings
from tools import dev
from tools.dev import DevPorts, DevStack, check_ports, planned_ports

# --- 2. busy ports -----------------------------------------------------------------------------------------------


def test_ports_planned_twice_are_refused_and_settings_move_them(settings: Settings):
    moved = Settings.from_env({"LPS_DEV_MONGO_PORT": "27117", "LPS_DEV_SHOP_PORT": "8190", "LPS_HTTP_PORT": "8180"})
    assert DevPorts.from_settings(moved) == DevPorts(mongo=27117, shop=8190, receiver=9000)
    clash = settings.with_overrides(mongo_url=None, http_port=27117, search_metrics_port=0, outbox_metrics_port=0)
    with pytest.raises(dev.DevStackRefused, match="port 27117 is planned for both"):
        check_ports(planned_ports(clash, DevPorts.from_settings(moved), demo=True))


# --- 4. --data: the jobs outlive a restart ----------------------------------------------------------------------


async def test_data_is_refused_when_lps_dev_starts_no_mongodb_of_its_own(settings: Settings, tmp_path):
    stack = DevStack(settings.with_overrides(mongo_url="mongodb://127.0.0.1:1/"), data_file=tmp_path / "lps.sqlite")
    with pytest.raises(dev.DevStackRefused, match="LPS_MONGO_URL is set"):
        await stack.run(asyncio.Event())
    assert stack.children == []


# --- 7. which sources work ---------------------------------------------------------------------------------------


async def test_lps_dev_says_once_when_the_embedded_store_passes_its_envelope(settings: Settings, monkeypatch):
    """Within the envelope nothing is said; past it, one line that points to MongoDB, and the watch ends."""
    from pymongo import AsyncMongoClient

    from embedded_store import envelope

    monkeypatch.setattr(envelope, "MEMORY_JOBS", 2)
    said: list[str] = []
    client: AsyncMongoClient = AsyncMongoClient(settings.mongo_url)
    try:
        jobs = client[settings.mongo_db].jobs
        await jobs.insert_many([{"n": n} for n in range(2)])
        watching = asyncio.create_task(dev.warn_past_envelope(settings, persistent=False, say=said.append, every=0.02))
        await asyncio.sleep(0.2)
        assert said == []  # at the envelope, not past it
        await jobs.insert_one({"n": 3})
        await asyncio.wait_for(watching, timeout=10)
    finally:
        await client.close()
    [line] = said
    assert "holds 3 jobs in memory, past its envelope of 2" in line
    assert "LPS_MONGO_URL" in line
    assert "docker compose" in line
    # A SQLite file's envelope is its own (and far smaller).
    assert "(--data)" in (envelope.past_envelope(envelope.DATA_FILE_JOBS + 1, persistent=True) or "")
    assert envelope.past_envelope(envelope.DATA_FILE_JOBS, persistent=True) is None
