"""Test harness: real servers, and a fresh database and fresh queues for every test.

MongoDB: `LPS_MONGO_URL` when set (a real MongoDB 7), otherwise one embedded wire server for the
session. RabbitMQ: `LPS_AMQP_URL` (default local). Every test gets its own database name and queue
prefix and drops both afterwards, so the suite can run twice in a row and beside a dev stack.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import signal
import subprocess
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from playwright.async_api import Browser, async_playwright
from pymongo import MongoClient, monitoring

from actors.browser import LAUNCH_FLAGS, resolve_executable
from embedded_store.server import embedded_mongo
from infra.mongo import declared_indexes
from infra.settings import Settings
from service.app import create_app
from tests.harness import ARTIFACTS, JobsView
from tests.ports import free_port
from tests.query_catalogue import Catalogue, catalogue_markdown, indexes_of
from tests.tiers import TIERS, folder_of
from tools.testbed import Receiver, delete_queues, job_queues

_test_numbers = itertools.count(1)

#: Every worker pool a test starts (`lps worker`, `lps dev`: they pass the environment on) has its Dramatiq threads
#: wait 100 ms for a message before looking again, not 1 s: stopping a pool, which waits for them, takes ~2 s
#: instead of ~3 s. What a pool does with a message is the same.
os.environ.setdefault("dramatiq_worker_timeout", "100")
#: No worker pool the tests start warms the Korean analyzer up as it boots (LPS_ANALYZER_WARM_UP; the warm-up itself
#: is tests/unit/test_analyzer.py's): a pool loads it when a search first needs it, and most tests' keywords and
#: titles, in Latin letters, never do. Warming up cost ~80 loads of ~1-3 CPU-s a run, ~1/7 of the suite's CPU.
os.environ.setdefault("LPS_ANALYZER_WARM_UP", "false")

# --- tiers ------------------------------------------------------------------------------------------------------
#: Fixtures that reach the wire store or RabbitMQ: a test that asks for none of them is a unit test.
SERVER_FIXTURES = frozenset({"settings", "mongo_url", "client", "receiver", "aiohttp_client", "aiohttp_server"})
#: Fixtures that start a process of their own (Chromium): their tests are in the slowest tier.
PROCESS_FIXTURES = frozenset({"browser"})
#: Fixtures whose servers live in a test's own event loop: a browser test, run in the session's loop, uses the
#: page_server / page_receiver twins instead.
FUNCTION_LOOP_SERVERS = frozenset({"aiohttp_server", "aiohttp_client", "client", "receiver", "gateway"})
#: The folder the tiers' folders are in (tests/tiers.py).
TESTS = Path(__file__).resolve().parent


def pytest_configure(config: pytest.Config) -> None:
    for tier, what in TIERS.items():
        config.addinivalue_line("markers", f"{tier}: {what}")
    config.addinivalue_line("markers", "unindexed_queries: the test sends unindexed LPS queries on purpose")
    _stop_signals_as_a_terminal_gives_them()


def _stop_signals_as_a_terminal_gives_them() -> None:
    """The stop tests start `lps` as a terminal does and send it SIGINT, SIGTERM and SIGHUP. A run started under
    `nohup` ignores SIGHUP, one started in the background of a script ignores SIGINT, and an ignored signal stays
    ignored in every process started after: a signal sent before `lps` sets its handlers would be lost, and the test
    would wait out its bound for a stop that never began. So the test processes take the defaults back (Ctrl-C then
    ends the run as usual; a closed terminal ends it as it ends any command)."""
    defaults = {
        signal.SIGINT: signal.default_int_handler,
        signal.SIGTERM: signal.SIG_DFL,
        signal.SIGHUP: signal.SIG_DFL,
    }
    for signum, default in defaults.items():
        if signal.getsignal(signum) is signal.SIG_IGN:
            signal.signal(signum, default)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each test gets exactly one tier: `processes` where marked so (or asking for Chromium), else `integration`
    where marked so (a store engine run in process) or asking for a server fixture, else `unit`. A test whose file
    is not in its tier's folder (tests/tiers.py `folder_of`) stops the run, naming the folder it belongs in."""
    misplaced = []
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        uses_browser = "browser" in fixtures
        if uses_browser:
            _run_in_the_browsers_loop(item, fixtures)
        if item.get_closest_marker("processes") or fixtures & PROCESS_FIXTURES:
            tier = "processes"
        elif item.get_closest_marker("integration") or fixtures & SERVER_FIXTURES:
            tier = "integration"
        else:
            tier = "unit"
        item.add_marker(getattr(pytest.mark, tier))
        folder = TESTS / folder_of(tier, uses_browser)
        if folder not in item.path.resolve().parents:
            why = f"in the {tier} tier" + (" and asks for the browser fixture" if uses_browser else "")
            misplaced.append(f"{item.nodeid} is {why}: its file belongs in {folder.relative_to(TESTS.parent)}/")
    if misplaced:
        raise pytest.UsageError("tests outside their tier's folder (tests/tiers.py):\n  " + "\n  ".join(misplaced))


def _run_in_the_browsers_loop(item: pytest.Item, fixtures: set[str]) -> None:
    """The session's one Chromium is driven through a Playwright connection that lives in the session's event loop:
    a test using it runs there too, and takes its servers from fixtures of that loop."""
    if wrong := sorted(fixtures & FUNCTION_LOOP_SERVERS):
        raise pytest.UsageError(
            f"{item.nodeid}: a browser test runs in the session's event loop; use page_server / page_receiver, "
            f"not {', '.join(wrong)} (their servers would live in another loop)"
        )
    item.add_marker(pytest.mark.asyncio(loop_scope="session"), append=False)


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


#: Every query LPS's modules send in this test process, checked against the declared indexes (tests/query_catalogue.py).
#: Registered before any client exists: pymongo gives registered listeners to the clients made after.
CATALOGUE = Catalogue({name: indexes_of(models) for name, models in declared_indexes(Settings()).items()})
monitoring.register(CATALOGUE)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """The catalogue of what was recorded (call site -> the index that serves it): from an xdist worker to the
    controller, which writes it with its own to .lps/test-artifacts/query-catalogue.md."""
    served = {site: sorted(indexes) for site, indexes in CATALOGUE.served.items()}
    if hasattr(session.config, "workeroutput"):
        session.config.workeroutput["query_catalogue"] = json.dumps(served)
        return
    for site, indexes in served.items():
        _CATALOGUED.setdefault(site, set()).update(indexes)
    if _CATALOGUED:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / "query-catalogue.md").write_text(catalogue_markdown(_CATALOGUED))


#: The controller's merge of every worker's catalogue.
_CATALOGUED: dict[str, set[str]] = {}


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    recorded = getattr(node, "workeroutput", {}).get("query_catalogue")
    for site, indexes in json.loads(recorded or "{}").items():
        _CATALOGUED.setdefault(site, set()).update(indexes)


@pytest.fixture(autouse=True)
def every_query_uses_an_index(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test whose LPS code sent a query no declared index serves fails, naming the query's call site."""
    CATALOGUE.unindexed.clear()
    yield
    if CATALOGUE.unindexed and not request.node.get_closest_marker("unindexed_queries"):
        found = "\n  ".join(dict.fromkeys(CATALOGUE.unindexed))
        CATALOGUE.unindexed.clear()
        pytest.fail(f"queries no index serves (tests/query_catalogue.py):\n  {found}", pytrace=False)


@pytest.fixture(scope="session", autouse=True)
def dev_stacks_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The `lps dev` stacks this session's tests start record themselves in a directory of the session's own: a
    test of `lps report` never finds a developer's stack, and a developer's `lps report` never finds a test's."""
    previous = os.environ.get("LPS_DEV_STACKS_DIR")
    os.environ["LPS_DEV_STACKS_DIR"] = str(tmp_path_factory.mktemp("dev-stacks"))
    yield
    if previous is None:
        del os.environ["LPS_DEV_STACKS_DIR"]
    else:
        os.environ["LPS_DEV_STACKS_DIR"] = previous


@pytest.fixture(scope="session")
def run_id() -> str:
    return uuid.uuid4().hex[:8]


@pytest.fixture(scope="session")
def mongo_url() -> Iterator[str]:
    if url := os.environ.get("LPS_MONGO_URL"):
        yield url
        return
    with embedded_mongo(free_port()) as url:
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
        # A test process's store is one pure-Python server shared by its tests and the pools they start: on a busy
        # machine a heartbeat can wait over the production 3 s behind another test's bulk insert, and pymongo then
        # clears its pool and cancels what was in flight (_OperationCancelled). 10 s was passed in CI on a machine
        # running Python about five times slower than usual (2026-12-05). Tests of the timeout set their own.
        mongo_timeout_ms=30_000,
    )
    yield settings
    with MongoClient(mongo_url, serverSelectionTimeoutMS=30_000) as client:
        client.drop_database(settings.mongo_db)
    delete_queues(settings.amqp_url, job_queues(settings))


type StartServer = Callable[[web.Application], Awaitable[TestServer]]


async def _serve_receiver(start: StartServer) -> Receiver:
    receiver = Receiver()
    server = await start(receiver.app())
    receiver.url = str(server.make_url("/results"))
    return receiver


@pytest.fixture
async def receiver(aiohttp_server) -> Receiver:
    """The back office's API on loopback: records deliveries, fails on request."""
    return await _serve_receiver(aiohttp_server)


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


# --- one event loop per test process ------------------------------------------------------------------------------
@pytest_asyncio.fixture(scope="session", loop_scope="session", autouse=True)
async def roomy_default_executor() -> AsyncIterator[None]:
    """Room in the session loop's default executor. The tests of a process share one event loop, so a blocking call a
    test gave up on (`asyncio.to_thread` of a port wait, a RabbitMQ call, cancelled by a timeout or a stop) keeps one
    of its threads until the call returns: with the default six, the stop fuzzer's abandoned waits made the next
    tests' `to_thread` calls queue for ~30 s."""
    executor = ThreadPoolExecutor(max_workers=64, thread_name_prefix="tests-to-thread")
    asyncio.get_running_loop().set_default_executor(executor)
    yield
    executor.shutdown(wait=False, cancel_futures=True)


# --- one Chromium per session ------------------------------------------------------------------------------------
@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def chromium() -> AsyncIterator[Browser]:
    """The system Chromium with LPS's own launch flags, started once per session (a launch and its Playwright driver
    cost a second or two): tests reach it through `browser`."""
    async with async_playwright() as playwright:
        shared = await playwright.chromium.launch(
            executable_path=resolve_executable(Settings.from_env().browser_path), args=list(LAUNCH_FLAGS)
        )
        try:
            yield shared
        finally:
            await shared.close()


@pytest_asyncio.fixture(loop_scope="session")
async def browser(chromium: Browser) -> AsyncIterator[Browser]:
    """The session's Chromium, for tests that look at pages as a person would. Isolation is per browser context:
    each page a test opens (`new_page`, `new_context`) is in a context of its own, and every context the test opened
    is closed after it, so no page, cookie or storage outlives its test. Such a test runs in the session's event loop
    (`pytest_collection_modifyitems` marks it so) and starts its servers with `page_server` / `page_receiver`."""
    assert not chromium.contexts, "a context outlived the test before"
    yield chromium
    for context in chromium.contexts:
        await context.close()


@pytest_asyncio.fixture(loop_scope="session")
async def page_server() -> AsyncIterator[StartServer]:
    """pytest-aiohttp's `aiohttp_server` for browser tests: the servers live in the session's event loop, where
    those tests run; each is closed after its test."""
    servers: list[TestServer] = []

    async def start(app: web.Application) -> TestServer:
        server = TestServer(app)
        await server.start_server()
        servers.append(server)
        return server

    yield start
    while servers:
        await servers.pop().close()


@pytest_asyncio.fixture(loop_scope="session")
async def page_receiver(page_server: StartServer) -> Receiver:
    """`receiver` for browser tests (in the session's event loop)."""
    return await _serve_receiver(page_server)
