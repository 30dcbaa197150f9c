"""The servers and processes the figures run on, and their clean-up.

One store per benchmark run (`LPS_MONGO_URL`, or an embedded server started here), a fresh database and
a fresh queue prefix per figure, all deleted when the figure ends. Processes are real: the gateway app
served by aiohttp, the worker pools through the Dramatiq CLI, each in its own session so that stopping
one never touches anything the runner did not start.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp
from aiohttp import web
from pymongo import MongoClient

from bench.gateway import LISTEN_FD
from bench.noop import COUNTER, noop_queue
from bench.probe import PROBE_DIR, PROBE_ROLE
from embedded_store.server import embedded_mongo
from infra.broker import Publisher, create_broker
from infra.mongo import MainDatabase, create_client, ensure_indexes
from infra.settings import Settings
from schemas.codes import JobType
from tools.cli import worker_command, worker_environment
from tools.demo_shop import create_demo_shop_app
from tools.testbed import QUEUE_SUFFIXES, consumer_count, delete_queues, eventually, job_queues

REPO = Path(__file__).resolve().parents[1]
STOP_TIMEOUT = 20.0


# --- the store -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Store:
    url: str
    kind: str  # "embedded" or "mongodb"
    version: str

    @property
    def label(self) -> str:
        if self.kind == "embedded":
            return f"embedded mongoeco {self.version} (in memory, pure Python)"
        return f"MongoDB {self.version}"


def _store_version(url: str, kind: str) -> str:
    if kind == "embedded":
        from importlib.metadata import version

        return version("mongoeco")
    with MongoClient(url, serverSelectionTimeoutMS=5000) as client:
        return str(client.admin.command("buildInfo").get("version", "?"))


@contextlib.contextmanager
def open_store() -> Iterator[Store]:
    """`LPS_MONGO_URL` when set (a real MongoDB), else one embedded server for the whole run."""
    if url := os.environ.get("LPS_MONGO_URL"):
        yield Store(url, "mongodb", _store_version(url, "mongodb"))
        return
    with embedded_mongo() as url:
        yield Store(url, "embedded", _store_version(url, "embedded"))


# --- per-figure settings and clean-up ----------------------------------------------------------------


@dataclass(slots=True)
class Bench:
    """What every figure shares: the store, the base settings, where logs and probe counters go."""

    store: Store
    base: Settings
    work_dir: Path
    run_id: str = field(default_factory=lambda: uuid.uuid4().hex[:8])

    def settings_for(self, figure: str, **overrides: Any) -> Settings:
        """Fresh database and queue prefix for one figure; dropped by `cleanup`."""
        return self.base.with_overrides(
            mongo_url=self.store.url,
            mongo_db=f"lpsbench_{self.run_id}_{figure}",
            queue_prefix=f"lpsbench_{self.run_id}_{figure}_",
            **overrides,
        )

    def directory(self, name: str) -> Path:
        path = self.work_dir / name
        path.mkdir(parents=True, exist_ok=True)
        return path

    def probe_dir(self, settings: Settings) -> Path:
        """Where one figure's processes write their counters (a figure's database names it)."""
        return self.directory(f"probe/{settings.mongo_db}")


def figure_queues(settings: Settings) -> list[str]:
    """Queues a figure may create under its prefix: LPS's and the no-op baseline's (each with .DQ and .XQ)."""
    return job_queues(settings) + [noop_queue(settings) + suffix for suffix in QUEUE_SUFFIXES]


def drop_database(url: str, name: str) -> None:
    with MongoClient(url, serverSelectionTimeoutMS=5000, socketTimeoutMS=120_000) as client:
        client.drop_database(name)


@contextlib.asynccontextmanager
async def figure_resources(settings: Settings) -> AsyncIterator[None]:
    """Whatever happens inside, the figure's database and queues are gone afterwards."""
    try:
        yield
    finally:
        try:
            await asyncio.to_thread(drop_database, settings.mongo_url or "", settings.mongo_db)
        finally:
            await asyncio.to_thread(delete_queues, settings.amqp_url, figure_queues(settings))


class BenchDatabase:
    """The runner's own MongoDB client for a figure: resets collections between runs, reads outcomes.

    Its socket timeout is long: on the embedded store, dropping or filling a collection takes seconds.
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.client = create_client(settings.with_overrides(mongo_timeout_ms=30_000))
        self.main = MainDatabase.open(self.client, settings.mongo_db)
        self.jobs = self.main.jobs()

    async def reset(self) -> None:
        """Empty job and price collections with the real indexes: each run starts from nothing."""
        await self.main.write.drop_collection("jobs")
        await self.main.write.drop_collection("price_history")
        await ensure_indexes(self.main, self.settings)

    async def close(self) -> None:
        await self.client.close()


@dataclass(frozen=True, slots=True)
class FigureClients:
    """What the runner of a figure reaches the store and the broker with."""

    #: The runner's own client (long timeouts): resets, seeds, reads outcomes.
    database: BenchDatabase
    #: A client configured like the gateway's: what a figure times goes through it.
    main: MainDatabase
    publisher: Publisher


@contextlib.asynccontextmanager
async def figure_clients(settings: Settings, queues: Iterable[str]) -> AsyncIterator[FigureClients]:
    """The figure's clients on emptied job and price collections, publishing onto `queues`; all closed after."""
    database = BenchDatabase(settings)
    client = create_client(settings)
    publisher = Publisher(create_broker(settings, middleware=[]))
    try:
        await database.reset()
        await publisher.start(queues)
        yield FigureClients(database, MainDatabase.open(client, settings.mongo_db), publisher)
    finally:
        await publisher.close()
        await client.close()
        await database.close()


# --- processes ---------------------------------------------------------------------------------------


def child_environment(settings: Settings, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The caller's environment without any LPS_* variable, then exactly these settings."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("LPS_", "dramatiq_"))}
    return env | settings.to_env() | dict(extra or {})


def probe_environment(probe_dir: Path, role: str) -> dict[str, str]:
    return {PROBE_DIR: str(probe_dir), PROBE_ROLE: role}


def spawn(
    command: list[str], env: dict[str, str], log_path: Path, pass_fds: tuple[int, ...] = ()
) -> subprocess.Popen[bytes]:
    with log_path.open("ab") as log:
        return subprocess.Popen(
            command,
            env=env,
            cwd=REPO,
            stdout=log,
            stderr=log,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            pass_fds=pass_fds,
        )


async def stop(process: subprocess.Popen[Any], grace: float = STOP_TIMEOUT) -> None:
    """SIGTERM to the process we started (Dramatiq forwards it to its workers), then its group is killed."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            await asyncio.to_thread(process.wait, grace)
    # Its own session: the group holds only what it started (Dramatiq's workers, Chromium).
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        await asyncio.to_thread(process.wait, 5)


def log_tail(path: Path, lines: int = 30) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


@dataclass(frozen=True, slots=True)
class Service:
    """A process the runner started: where it serves (for a worker pool, the queue it consumes), its log."""

    url: str
    process: subprocess.Popen[bytes]
    log_path: Path


@contextlib.asynccontextmanager
async def gateway(settings: Settings, bench: Bench) -> AsyncIterator[Service]:
    """`python -m bench.gateway`: the real app in its own process, serving a loopback socket bound here and handed
    over, so no other process can take its port between choosing it and serving on it."""
    with socket.create_server(("127.0.0.1", 0)) as listening:
        port = listening.getsockname()[1]
        served = settings.with_overrides(http_host="127.0.0.1", http_port=port)
        log_path = bench.directory("logs") / f"gateway-{port}.log"
        env = child_environment(served, probe_environment(bench.probe_dir(settings), "gateway"))
        env[LISTEN_FD] = str(listening.fileno())
        process = spawn([sys.executable, "-m", "bench.gateway"], env, log_path, pass_fds=(listening.fileno(),))
    service = Service(f"http://127.0.0.1:{port}", process, log_path)
    try:
        async with aiohttp.ClientSession() as session:

            async def healthy() -> bool:
                if process.poll() is not None:
                    raise RuntimeError(f"gateway exited with {process.returncode}:\n{log_tail(log_path)}")
                with contextlib.suppress(aiohttp.ClientError):
                    async with session.get(f"{service.url}/healthz") as response:
                        return response.status == 200
                return False

            await eventually(healthy, within=60, what="the gateway to answer /healthz", interval=0.2)
        yield service
    finally:
        await stop(process)


@dataclass(frozen=True, slots=True)
class Pool:
    """A Dramatiq CLI command to run as a pool, and the queues it consumes once it is up."""

    command: list[str]
    env: dict[str, str]
    queues: tuple[str, ...]
    log_path: Path


def lps_pool(settings: Settings, pool: str, bench: Bench, *, threads: int) -> Pool:
    """The pool `lps worker POOL` runs (same Dramatiq command and environment), plus the probe module."""
    spec = settings.job(JobType[pool.upper()])
    command = worker_command(spec, processes=1, threads=threads, shutdown_grace=settings.shutdown_grace)
    # Extra modules follow the broker argument; the Dramatiq CLI imports them in every worker process.
    command.insert(command.index("actors.worker:setup") + 1, "bench.probe")
    pool_env = worker_environment(spec, threads, settings.shutdown_grace)
    pool_env = {key: value for key, value in pool_env.items() if key.startswith("dramatiq_")}
    env = child_environment(settings, pool_env | probe_environment(bench.probe_dir(settings), pool))
    return Pool(command, env, spec.queues, bench.directory("logs") / f"{pool}-{time.monotonic_ns()}.log")


def noop(settings: Settings, bench: Bench, *, threads: int, counter: Path) -> Pool:
    """`dramatiq bench.noop`: the raw actor, one process with the search pool's threads and prefetch."""
    queue = noop_queue(settings)
    command = [sys.executable, "-m", "dramatiq", "bench.noop", "--queues", queue, "--processes", "1"]
    command += ["--threads", str(threads), "--worker-shutdown-timeout", "10000"]
    env = child_environment(settings, {COUNTER: str(counter), "dramatiq_queue_prefetch": str(threads)})
    return Pool(command, env, (queue,), bench.directory("logs") / f"noop-{time.monotonic_ns()}.log")


@contextlib.asynccontextmanager
async def pools(settings: Settings, wanted: Sequence[Pool]) -> AsyncIterator[list[Service]]:
    """Every pool started at once, up once each consumes its queues (a queue consumed by several pools has as many
    consumers); all stopped at once afterwards. A Dramatiq CLI pool takes ~1.5 s to start and ~3 s to stop (its
    one-second loops): pools started and stopped one after the other cost the figure that many times over."""
    processes: list[subprocess.Popen[bytes]] = []
    consumers = Counter(queue for pool in wanted for queue in pool.queues)

    async def consuming() -> bool:
        for pool, process in zip(wanted, processes, strict=True):
            if process.poll() is not None:
                raise RuntimeError(f"pool {pool.queues} exited with {process.returncode}:\n{log_tail(pool.log_path)}")
        for queue, count in consumers.items():
            if await asyncio.to_thread(consumer_count, settings.amqp_url, queue) < count:
                return False
        return True

    try:
        processes += [spawn(pool.command, pool.env, pool.log_path) for pool in wanted]
        names = ", ".join(pool.queues[0] for pool in wanted)
        await eventually(consuming, within=90, what=f"the pools of {names}", interval=0.3)
        yield [Service(pool.queues[0], process, pool.log_path) for pool, process in zip(wanted, processes, strict=True)]
    finally:
        await asyncio.gather(*(stop(process) for process in processes))


@contextlib.asynccontextmanager
async def worker_pool(settings: Settings, pool: str, bench: Bench, *, threads: int) -> AsyncIterator[Service]:
    """One pool as `lps worker POOL` runs it (`lps_pool`)."""
    async with pools(settings, [lps_pool(settings, pool, bench, threads=threads)]) as [service]:
        yield service


# --- in-process servers --------------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def serve(app: web.Application) -> AsyncIterator[str]:
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()  # the port the system gives: no race for a chosen one
    host, port = runner.addresses[0][:2]
    try:
        yield f"http://{host}:{port}"
    finally:
        await runner.cleanup()


@contextlib.asynccontextmanager
async def demo_shop() -> AsyncIterator[str]:
    async with serve(create_demo_shop_app()) as url:
        yield url


# --- measuring processes ---------------------------------------------------------------------------------


def _parents() -> dict[int, int]:
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                # The command name may hold spaces and parentheses: split after its closing one.
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
    return parents


def _family(root: int) -> set[int]:
    """A process and all its descendants."""
    parents = _parents()
    family, frontier = {root}, {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - family
        family |= frontier
    return family


def tree_cpu_seconds(root: int) -> float:
    """CPU time (user + system) a process and its living descendants have used so far."""
    ticks = 0
    for pid in _family(root):
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return ticks / os.sysconf("SC_CLK_TCK")


def server_pid(url: str) -> int | None:
    """The `lps mongo` process serving `url` on this machine (the embedded store), found by its command line."""
    port = str(urlsplit(url).port)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                arguments = (entry / "cmdline").read_bytes().split(b"\0")
                if b"mongo" in arguments and port.encode() in arguments and b"--port" in arguments:
                    return int(entry.name)
    return None


def tree_rss_bytes(root: int) -> int:
    """Resident memory of a process and all its descendants (shared pages count once per process)."""
    family = _family(root)
    total = 0
    for pid in family:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
    return total


def port_names(settings: Settings, **others: str) -> dict[str, str]:
    """Destination port -> what listens there, to name the probe's connect counts."""
    names = {str(urlsplit(settings.amqp_url).port or 5672): "rabbitmq"}
    hosts = (settings.mongo_url or "").split("://", 1)[-1].split("/", 1)[0].split("@")[-1]
    for host in hosts.split(","):
        names[host.rsplit(":", 1)[1] if ":" in host else "27017"] = "mongodb"
    for name, url in others.items():
        names[str(urlsplit(url).port)] = name
    return names


def named_connects(connects: Mapping[str, int], names: Mapping[str, str], per: float) -> dict[str, float]:
    return {names.get(port, f"port {port}"): round(count / per, 2) for port, count in sorted(connects.items())}


def read_probes(probe_dir: Path) -> dict[str, dict[str, Any]]:
    """The counters of every role (`<role>-<pid>.json`), the processes of a role added up."""
    roles: dict[str, dict[str, Any]] = {}
    for path in probe_dir.glob("*.json"):
        role = path.stem.rsplit("-", 1)[0]
        totals = roles.setdefault(role, _empty_counters())
        with contextlib.suppress(OSError, ValueError, KeyError):
            data = json.loads(path.read_text())
            totals["commands"].update(data["commands"])
            totals["connections_created"] += data["connections_created"]
            totals["connects"].update(data.get("connects", {}))
            totals["ticks"] += data["loop"]["ticks"]
            totals["lag_over"].update(data["loop"]["over_ms"])
            totals["stalls"].update(data.get("stalls", {}))
    return roles


def _empty_counters() -> dict[str, Any]:
    return {
        "commands": Counter(),
        "connections_created": 0,
        "connects": Counter(),
        "ticks": 0,
        "lag_over": Counter(),
        "stalls": Counter(),
    }


async def settled_probes(probe_dir: Path, within: float = 5.0) -> dict[str, dict[str, Any]]:
    """Counters once they stopped moving (the last commands of a run reach the files within a dump interval)."""
    deadline = time.monotonic() + within
    previous = read_probes(probe_dir)
    while time.monotonic() < deadline:
        await asyncio.sleep(0.5)
        current = read_probes(probe_dir)
        if {role: c["commands"] for role, c in current.items()} == {r: c["commands"] for r, c in previous.items()}:
            return current
        previous = current
    return previous


def probe_deltas(before: dict[str, dict[str, Any]], after: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """What each role did between two readings."""
    deltas = {}
    for role, now in after.items():
        then = before.get(role, _empty_counters())
        deltas[role] = {
            "commands": dict(now["commands"] - then["commands"]),
            "connections_created": now["connections_created"] - then["connections_created"],
            "connects": dict(now["connects"] - then["connects"]),
            "ticks": now["ticks"] - then["ticks"],
            "lag_over": dict(now["lag_over"] - then["lag_over"]),
            "stalls": dict((now["stalls"] - then["stalls"]).most_common(8)),
        }
    return deltas
