"""Real worker pools (or the workers' broker worked in process), a real receiver for deliveries, and waits bounded
in time."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import dramatiq
import pika
import pika.exceptions
import pytest
from aiohttp.test_utils import TestClient, TestServer
from bson import ObjectId
from dramatiq.brokers.stub import StubBroker
from dramatiq.middleware import Middleware
from playwright.async_api import Browser, Locator, Page
from playwright.async_api import Error as PlaywrightError
from prometheus_client.parser import text_string_to_metric_families
from pymongo import AsyncMongoClient, monitoring

import actors.worker
from actors.browser import BrowserPool
from actors.proxies import ProxyRotation
from actors.runtime import WorkerRuntime
from actors.sources.coupang import CoupangSource
from actors.sources.enabled import build_sources
from embedded_store.server import wait_for_port
from infra.broker import Publisher
from infra.enqueue import JobEnqueuer
from infra.jobs import JobRepository
from infra.mongo import MainDatabase, create_client, ensure_indexes
from infra.settings import Settings
from infra.snapshots import SnapshotStore
from schemas.codes import JobType
from service.app import create_app
from tools.testbed import Receiver, admin_connection, eventually

#: Where browser tests leave what a person should look at (LPS_TEST_ARTIFACTS; .lps/ is ignored by git).
ARTIFACTS = Path(
    os.environ.get("LPS_TEST_ARTIFACTS", Path(__file__).resolve().parent.parent / ".lps" / "test-artifacts")
)


async def screenshot(shown: Page | Locator, path: Path, *, full_page: bool = False) -> None:
    """Save what a person would see of a page (or of one part of it) for a person to look at. Headless Chromium now
    and then answers a capture with "Unable to capture screenshot" while the machine is busy (seen once in a full run
    beside other work): the picture is an artifact, not what a test proves, so one such refusal is asked again."""
    if full_page and not isinstance(shown, Page):
        raise TypeError("full_page is for a whole page, not a part of it")
    options: dict[str, Any] = {"path": path, "full_page": full_page} if full_page else {"path": path}
    try:
        await shown.screenshot(**options)
    except PlaywrightError as refused:
        if "Unable to capture screenshot" not in str(refused):
            raise
        await shown.screenshot(**options)


@contextlib.asynccontextmanager
async def coupang_sources(settings: Settings, shop_url: str) -> AsyncIterator[Callable[..., CoupangSource]]:
    """Builds Coupang sources as a worker does (one result page each unless told otherwise), against `shop_url`, on
    one real Chromium; keyword options override CoupangSource's (max_pages, render_timeout, settle)."""
    client = create_client(settings)
    pool = BrowserPool(os.environ.get("LPS_BROWSER_PATH", "chromium"), owner=f"test-{uuid.uuid4().hex[:8]}")

    def build(proxies: ProxyRotation | None = None, **options: Any) -> CoupangSource:
        return CoupangSource(
            pool,
            SnapshotStore(client[settings.mongo_db]),
            base_url=shop_url.rstrip("/"),
            blocked_backoff_factor=1.0,
            proxies=proxies,
            **({"max_pages": 1, "render_timeout": 5.0} | options),
        )

    try:
        yield build
    finally:
        await pool.close()
        await client.close()


@dataclass
class WorkerPool:
    process: asyncio.subprocess.Process
    log_path: Path
    #: The queue whose consumer shows the pool is working: its lowest band (quorum), or its one queue.
    queue: str

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


@contextlib.asynccontextmanager
async def worker_pool(
    settings: Settings,
    pool: str,
    log_dir: Path,
    *,
    threads: int | None = None,
    shutdown_timeout: float = 10,
    supervise: bool = False,
) -> AsyncIterator[WorkerPool]:
    """`lps worker POOL` as a real process group, consuming once this yields; stopped with SIGTERM (then SIGKILL)
    on exit."""
    options = {"threads": threads, "shutdown_timeout": shutdown_timeout, "supervise": supervise}
    async with worker_pools(settings, [pool], log_dir, **options) as [workers]:
        yield workers


@contextlib.asynccontextmanager
async def worker_pools(
    settings: Settings,
    pools: Sequence[str],
    log_dir: Path,
    *,
    threads: int | None = None,
    shutdown_timeout: float = 10,
    supervise: bool = False,
) -> AsyncIterator[list[WorkerPool]]:
    """Several `lps worker` pools (the same pool twice for two processes) started together, each consuming once this
    yields, and stopped together on exit: a start is mostly an interpreter importing and a stop mostly waiting, so
    two of either overlap on a 2-core machine."""
    admin = _AdminChannel(settings.amqp_url)
    started: list[WorkerPool] = []
    try:
        for pool in pools:
            started.append(await _start_pool(settings, pool, log_dir, threads, shutdown_timeout, supervise))

        async def consuming() -> bool:
            if exited := [workers for workers in started if workers.process.returncode is not None]:
                raise AssertionError(f"worker pool exited with {exited[0].process.returncode}: {exited[0].log()}")
            # Each running pool process of the test holds one consumer on its queue: a second pool of the same kind
            # counts only once its own consumer is there too.
            expected = Counter(workers.queue for workers in _RUNNING if workers.process.returncode is None)
            return all([await admin.consumers(queue) >= count for queue, count in expected.items()])

        # A poll is one passive declare on an open channel (a millisecond or two): poll often.
        await eventually(consuming, within=60, what=f"{' and '.join(pools)} pool(s) to consume", interval=0.05)
    except BaseException:
        await asyncio.gather(*(stop_pool(workers) for workers in started))
        raise
    finally:
        await admin.close()
    try:
        yield started
    except BaseException:
        _print_log_tails(started)
        raise
    finally:
        await asyncio.gather(*(stop_pool(workers) for workers in started))


#: Lines of each pool's log a failed test shows (pytest prints a failed test's captured output).
LOG_TAIL_LINES = 60


def _print_log_tails(pools: Sequence[WorkerPool]) -> None:
    """What the pools said last, for a test that failed while they ran: their logs live in its tmp_path, which a CI
    run does not keep."""
    for workers in pools:
        tail = workers.log().splitlines()[-LOG_TAIL_LINES:]
        print(f"--- the last {len(tail)} lines of {workers.log_path.name} ---", *tail, sep="\n")


class _AdminChannel:
    """One admin connection for a whole wait, on a thread of its own (pika's connections belong to one thread): a
    connection per poll would take CPU the starting pools need."""

    def __init__(self, amqp_url: str) -> None:
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="test-admin")
        self._amqp_url = amqp_url
        self._connection: pika.BlockingConnection | None = None

    async def consumers(self, queue: str) -> int:
        """The queue's consumer count; 0 while it is not declared yet."""
        return await asyncio.get_running_loop().run_in_executor(self._thread, self._consumers, queue)

    def _consumers(self, queue: str) -> int:
        if self._connection is None:
            self._connection = admin_connection(self._amqp_url)
        channel = self._connection.channel()
        try:
            return int(channel.queue_declare(queue, passive=True).method.consumer_count)
        except pika.exceptions.ChannelClosedByBroker:
            return 0
        finally:
            if channel.is_open:
                channel.close()

    async def close(self) -> None:
        if self._connection is not None:
            await asyncio.get_running_loop().run_in_executor(self._thread, self._connection.close)
        self._thread.shutdown(wait=False)


async def _start_pool(
    settings: Settings, pool: str, log_dir: Path, threads: int | None, shutdown_timeout: float, supervise: bool
) -> WorkerPool:
    log_path = log_dir / f"{pool}-{time.monotonic_ns()}.log"
    command = [sys.executable, "-m", "tools.lps", "worker", pool, "--shutdown-timeout", str(shutdown_timeout)]
    if threads:
        command += ["--threads", str(threads)]
    if supervise:
        command.append("--supervise")
    with log_path.open("wb") as log:
        process = await asyncio.create_subprocess_exec(
            *command, env=os.environ | settings.to_env(), stdout=log, stderr=log, start_new_session=True
        )
    workers = WorkerPool(process, log_path, settings.job(JobType[pool.upper()]).queues[-1])
    _RUNNING.append(workers)
    return workers


#: How late, beyond a documented stop bound, a loaded 2-core machine may run a supervisor's kill at that bound and
#: the exits and reaping it causes (seen: 0.8 s in CI, three test processes busy, on a machine that ran the suite in
#: ~6 min; on one that runs Python about three times slower, 13-14 min, `lps mongo`'s 0.3 s stop took more than 5 s
#: twice in CI, at a load of 9 on two cores). A process still alive after it is a failure; a stop that merely came
#: late is scheduling. A passing test never waits for it.
SCHEDULING_SLACK = 6.0


#: The pools this process started and has not stopped yet.
_RUNNING: list[WorkerPool] = []


async def stop_pool(workers: WorkerPool, within: float = 30) -> int:
    if workers in _RUNNING:
        _RUNNING.remove(workers)
    process = workers.process
    if process.returncode is None:
        # To `lps worker`: it passes one SIGTERM on to Dramatiq's session, and kills what is left past its bound.
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), within)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            await process.wait()
    return process.returncode


#: The signing secret of `delivering` settings.
SECRET = "s3cret"


def delivering(settings: Settings, receiver: Receiver) -> Settings:
    """Settings whose jobs deliver to `receiver`, signed with SECRET, and retry within a second: three search
    attempts, five delivery attempts."""
    return settings.with_overrides(
        outbox_url=receiver.url,
        outbox_secret=SECRET,
        retry_min_backoff=0.2,
        retry_max_backoff=1.0,
        search_max_attempts=3,
        outbox_max_attempts=5,
    )


async def keyed_gateway(
    aiohttp_client: Any, settings: Settings, keys: dict[str, str], **overrides: object
) -> TestClient:
    """The gateway with these API keys (`name: key` or `name: key:role`, as LPS_API_KEYS writes them), as a test
    client."""
    return await aiohttp_client(create_app(settings.with_overrides(api_keys=keys, **overrides)))


async def submit(gateway: TestClient, *products: dict[str, Any], priority: str | None = None) -> list[str]:
    """POST the products to the gateway's search endpoint; the ids of the jobs it accepted, in request order."""
    body: dict[str, Any] = {"products": list(products)}
    if priority:
        body["priority"] = priority
    answer = await (await gateway.post("/v1/lps/search", json=body)).json()
    assert answer["result"] == 0, answer
    return [job["job_id"] for job in answer["jobs"]]


@dataclass
class InProcessPool:
    """The workers' broker on Dramatiq's StubBroker, worked by an in-process Worker; `submit` records and
    publishes jobs as the gateway does (its JobEnqueuer), onto this broker."""

    broker: StubBroker
    worker: dramatiq.Worker
    enqueuer: JobEnqueuer

    async def submit(self, *products: dict[str, Any], priority: str | None = None) -> list[str]:
        return [submission.job_id for submission in await self.enqueuer.submit_search(products, priority)]


@contextlib.asynccontextmanager
async def in_process_pool(settings: Settings, *, threads: int = 2) -> AsyncIterator[InProcessPool]:
    """Every job actor with the workers' own middleware (`actors.worker.build_broker`: claim, decide, retry, log
    context, give-back on stop) on Dramatiq's StubBroker, worked by a Worker in this process, as Dramatiq's own tests
    do. For claims about what the middleware and the actors make of a job; claims about the `lps worker` process
    (signals, its log, RabbitMQ priorities, metrics it serves) keep `worker_pool`. No process starts: integration tier.
    """

    def stub_broker(settings: Settings, *, middleware: list[Middleware]) -> StubBroker:
        return StubBroker(middleware=middleware)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(actors.worker, "create_broker", stub_broker)
        broker = actors.worker.build_broker(settings, WorkerRuntime(settings, build_sources))
    assert isinstance(broker, StubBroker)
    client = create_client(settings)
    database = MainDatabase.open(client, settings.mongo_db)
    await ensure_indexes(database, settings)  # the one-active-search index, as the gateway makes sure of
    publisher = Publisher(broker)  # type: ignore[arg-type]  # it only calls enqueue: the stub has it
    worker = dramatiq.Worker(broker, worker_threads=threads, worker_timeout=50)
    await asyncio.to_thread(worker.start)
    try:
        yield InProcessPool(broker, worker, JobEnqueuer(settings, JobRepository(database), publisher))
    finally:
        await asyncio.to_thread(worker.stop)
        await publisher.close()
        await client.close()


class FindFilters(monitoring.CommandListener):
    """Records the filter of every `find` on one collection (give it to a client's `event_listeners`)."""

    def __init__(self, collection: str) -> None:
        self.collection = collection
        self.filters: list[dict[str, Any]] = []

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        if event.command_name == "find" and event.command["find"] == self.collection:
            self.filters.append(dict(event.command.get("filter", {})))

    def succeeded(self, event: monitoring.CommandSucceededEvent) -> None:
        pass

    def failed(self, event: monitoring.CommandFailedEvent) -> None:
        pass


class JobsView:
    """Reads job documents straight from MongoDB (what an operator's query would see)."""

    def __init__(self, settings: Settings) -> None:
        self._client = AsyncMongoClient(settings.mongo_url, tz_aware=True)
        self.jobs = self._client[settings.mongo_db].jobs

    async def get(self, job_id: str | ObjectId) -> dict[str, Any] | None:
        return await self.jobs.find_one({"_id": ObjectId(job_id)})

    async def finished(self, job_id: str | ObjectId, within: float = 60) -> dict[str, Any]:
        async def probe() -> dict[str, Any] | None:
            job = await self.get(job_id)
            return job if job and job["status"] in ("DONE", "DEAD") else None

        return await eventually(probe, within=within, what=f"job {job_id} to finish")

    async def outbox_of(self, search_job_id: str, within: float = 60) -> dict[str, Any]:
        async def probe() -> dict[str, Any] | None:
            job = await self.jobs.find_one({"job_type": "OUTBOX", "source_job_id": ObjectId(search_job_id)})
            return job if job and job["status"] in ("DONE", "DEAD") else None

        return await eventually(probe, within=within, what=f"outbox of {search_job_id} to finish")

    async def close(self) -> None:
        await self._client.close()


@contextlib.asynccontextmanager
async def reconciler_process(settings: Settings, log_dir: Path) -> AsyncIterator[asyncio.subprocess.Process]:
    """`lps reconciler` as a real process, stopped with SIGTERM on exit."""
    log_path = log_dir / f"reconciler-{time.monotonic_ns()}.log"
    with log_path.open("wb") as log:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tools.lps", "reconciler", env=os.environ | settings.to_env(), stdout=log, stderr=log
        )
    try:
        yield process
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(process.wait(), 20)
            except TimeoutError:
                process.kill()
                await process.wait()


class MongoProcess:
    """`lps mongo` on a fixed port with a SQLite data file: it can be stopped and started again with its data."""

    def __init__(self, port: int, data_file: Path) -> None:
        self.port = port
        self.data_file = data_file
        self.url = f"mongodb://127.0.0.1:{port}/?directConnection=true"
        self._process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [sys.executable, "-m", "tools.lps", "mongo", "--port", str(self.port), "--data", str(self.data_file)]
        self._process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if not wait_for_port("127.0.0.1", self.port, timeout=30):
            raise AssertionError("the embedded MongoDB server did not start")

    def stop(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self.resume()  # a frozen process would hold the SIGTERM until it runs again
            self._process.terminate()
            self._process.wait(timeout=20)

    def freeze(self) -> None:
        """SIGSTOP: the server keeps its connections open and answers nothing (a hung store)."""
        self._signal(signal.SIGSTOP)

    def resume(self) -> None:
        self._signal(signal.SIGCONT)

    def _signal(self, signum: int) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.send_signal(signum)


def sample(exposition: str, name: str, **labels: str) -> float | None:
    """The value of the sample `name` whose labels include `labels`, or None when there is none."""
    for family in text_string_to_metric_families(exposition):
        for found in family.samples:
            if found.name == name and labels.items() <= found.labels.items():
                return found.value
    return None


async def signed_in_page(
    browser: Browser, server: TestServer, key: str, *, to: str = "/ui", width: int = 1280, height: int = 900
) -> Page:
    """A new browser page signed in to the dashboard with `key`, on the page `to` (the sign-in form leads there)."""
    page = await browser.new_page(viewport={"width": width, "height": height})
    await page.goto(str(server.make_url(f"/ui/login?next={to}")))
    await page.fill("input[name=key]", key)
    await page.click("button[type=submit]")
    await page.wait_for_url(f"**{to}")
    return page
