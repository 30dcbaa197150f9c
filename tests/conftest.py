"""Test harness: real servers, and a fresh database and fresh queues for every test.

MongoDB: `LPS_MONGO_URL` when set (a real MongoDB 7), otherwise one embedded wire server for the
session. RabbitMQ: `LPS_AMQP_URL` (default local). Every test gets its own database name and queue
prefix and drops both afterwards, so the suite can run twice in a row and beside a dev stack.
"""

from __future__ import annotations

import itertools
import os
import uuid
from collections.abc import AsyncIterator, Iterator

import pytest
from aiohttp.test_utils import TestClient
from playwright.async_api import Browser, async_playwright
from pymongo import MongoClient

from actors.browser import LAUNCH_FLAGS, resolve_executable
from infra.settings import Settings
from service.app import create_app
from tools.embedded_mongo import embedded_mongo
from tools.testbed import Receiver, delete_queues, job_queues

_test_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def run_id() -> str:
    return uuid.uuid4().hex[:8]


@pytest.fixture(scope="session")
def mongo_url() -> Iterator[str]:
    if url := os.environ.get("LPS_MONGO_URL"):
        yield url
        return
    with embedded_mongo() as url:
        yield url


@pytest.fixture
def settings(mongo_url: str, run_id: str) -> Iterator[Settings]:
    number = next(_test_numbers)
    prefix = f"lpstest_{run_id}_{number}_"
    settings = Settings.from_env().with_overrides(
        mongo_url=mongo_url,
        mongo_db=f"lps_test_{run_id}_{number}",
        queue_prefix=prefix,
        search_sources=("static",),
        # The static source's misbehaving keywords (#fail, #slow=N, #crash, …) are test-only: on for tests.
        test_directives=True,
        # Stats count a job DONE / DEAD as soon as it ended (production waits LPS_STATS_SETTLE seconds).
        stats_settle=0.0,
        # A stats answer is computed for the caller, not served stale while the next one is computed (production
        # serves one up to LPS_STATS_MAX_STALE seconds old): a test reads stats right after what it counts.
        stats_max_stale=0.0,
        # Worker pools of tests serve no metrics unless a test gives them free ports (a dev stack may hold 9191).
        search_metrics_port=0,
        outbox_metrics_port=0,
    )
    yield settings
    with MongoClient(mongo_url, serverSelectionTimeoutMS=5000) as client:
        client.drop_database(settings.mongo_db)
    delete_queues(settings.amqp_url, job_queues(settings))


@pytest.fixture
async def receiver(aiohttp_server) -> Receiver:
    """The back office's API on loopback: records deliveries, fails on request."""
    receiver = Receiver()
    server = await aiohttp_server(receiver.app())
    receiver.url = str(server.make_url("/results"))
    return receiver


@pytest.fixture
async def client(aiohttp_client, settings: Settings) -> AsyncIterator[TestClient]:
    return await aiohttp_client(create_app(settings))


@pytest.fixture
async def browser(settings: Settings) -> AsyncIterator[Browser]:
    """The system Chromium with LPS's own launch flags, for tests that look at pages as a person would."""
    async with async_playwright() as playwright:
        chromium = await playwright.chromium.launch(
            executable_path=resolve_executable(settings.browser_path), args=list(LAUNCH_FLAGS)
        )
        try:
            yield chromium
        finally:
            await chromium.close()
