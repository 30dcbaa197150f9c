"""Test harness: real servers, and a fresh database and fresh queues for every test.

MongoDB: `LPS_MONGO_URL` when set (a real MongoDB 7), otherwise one embedded wire server for the
session. RabbitMQ: `LPS_AMQP_URL` (default local). Every test gets its own database name and queue
prefix and drops both afterwards, so the suite can run twice in a row and beside a dev stack.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from aiohttp.test_utils import TestClient
from playwright.async_api import Browser, async_playwright
from pymongo import MongoClient

from actors.browser import LAUNCH_FLAGS, resolve_executable
from infra.settings import Settings
from service.app import create_app
from tests.harness import JobsView
from tools.embedded_mongo import embedded_mongo
from tools.testbed import Receiver, delete_queues, job_queues

_test_numbers = itertools.count(1)

# --- tiers ------------------------------------------------------------------------------------------------------
#: Fixtures that reach the wire store or RabbitMQ: a test that asks for none of them is a unit test.
SERVER_FIXTURES = frozenset({"settings", "mongo_url", "client", "receiver", "aiohttp_client", "aiohttp_server"})
#: Fixtures that start a process of their own (Chromium): their tests are in the slowest tier.
PROCESS_FIXTURES = frozenset({"browser"})
TIERS = {
    "unit": "pure units: no store, no broker, no process (make test-unit)",
    "integration": "in-process against the wire store and RabbitMQ (make test-fast runs these and the units)",
    "processes": "starts real processes or a browser: worker pools, the CLI, lps dev, Chromium (make test only)",
}


def pytest_configure(config: pytest.Config) -> None:
    for tier, what in TIERS.items():
        config.addinivalue_line("markers", f"{tier}: {what}")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each test gets exactly one tier: `processes` where marked so (or asking for Chromium), else `integration`
    where marked so (a store engine run in process) or asking for a server fixture, else `unit`."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if item.get_closest_marker("processes") or fixtures & PROCESS_FIXTURES:
            item.add_marker(pytest.mark.processes)
        elif item.get_closest_marker("integration") or fixtures & SERVER_FIXTURES:
            item.add_marker(pytest.mark.integration)
        else:
            item.add_marker(pytest.mark.unit)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """A test outside the `processes` tier that starts a process fails, naming the mark it needs: the fast tiers
    stay fast because this check keeps the marks honest, not because someone remembered them."""
    if item.get_closest_marker("processes"):
        return (yield)
    original = subprocess.Popen._execute_child  # type: ignore[attr-defined]

    def refuse(popen: subprocess.Popen[Any], args: Any, *rest: Any, **kwargs: Any) -> None:
        raise AssertionError(f"{item.nodeid} starts a process ({args!r:.120}): mark it @pytest.mark.processes")

    subprocess.Popen._execute_child = refuse  # type: ignore[attr-defined]
    try:
        return (yield)
    finally:
        subprocess.Popen._execute_child = original  # type: ignore[attr-defined]


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
def stack_settings(settings: Settings) -> Settings:
    """The settings of the `gateway` and `jobs` fixtures (and of the pools a test starts): `settings`, unless a
    module overrides this fixture with its own (fast retries, a receiver, a demo shop)."""
    return settings


@pytest.fixture
async def gateway(aiohttp_client, stack_settings: Settings) -> TestClient:
    """The gateway on `stack_settings`, as a test client."""
    return await aiohttp_client(create_app(stack_settings))


@pytest.fixture
async def jobs(stack_settings: Settings) -> AsyncIterator[JobsView]:
    """Job documents as an operator's query sees them, in the database of `stack_settings`."""
    view = JobsView(stack_settings)
    yield view
    await view.close()


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
