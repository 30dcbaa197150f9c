"""`lps dev`: the whole stack on one machine in one command, with one combined, prefixed log.

Before starting anything it checks every port it will need (and says which process holds a busy one) and
that RabbitMQ answers. Then it starts, in order: the embedded MongoDB-compatible server (unless
LPS_MONGO_URL is set), the gateway, both worker pools as real Dramatiq processes under a supervisor, and
the reconciler, and says which search sources are active and why the others are not; `--data FILE` keeps the
embedded server's data (the jobs) in a SQLite file across restarts. `--demo` adds the
demo shop and a local receiver for deliveries, submits the demo catalogue's products, prints the results
table and stops.

Ctrl-C, SIGTERM or a closed terminal (SIGHUP), at any moment, stops everything within STOP_BOUND seconds (a
second one kills what is left, every descendant, at once), and every child dies with `lps dev` even when it is
killed with SIGKILL (a parent-death signal). Nothing `lps dev` waits on while it starts outlives a stop: it
polls ports on its event loop and runs its blocking checks in daemon threads, so the interpreter waits for none. By
default the log shows warnings, errors and what people act on; `-v` shows every child's full log.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import os
import re
import secrets
import signal
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlsplit

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from embedded_store.envelope import past_envelope
from embedded_store.server import local_mongo_url
from infra.display import format_table
from infra.settings import UNSIGNED_OUTBOX_REFUSED, Settings
from schemas.codes import KeyRole, has_ended
from schemas.offers import SourceName
from tools.dev_stacks import DevStackRecord, recorded
from tools.gateway_client import GatewayClient
from tools.rabbitmq import LOCAL_HOSTS, ensure_rabbitmq
from tools.results import RESULT_COLUMNS, result_row
from tools.submission import deliveries_of
from tools.supervisor import (
    STOP_SIGNALS,
    ProcessTree,
    die_with_parent,
    ignore_stop_signals,
    kill_trees,
    pool_stop_bound,
)

DEMO_CATALOGUE = Path(__file__).parent / "demo_data" / "products.json"
#: Seconds a pool's searches and deliveries in flight get to finish on Ctrl-C before they are given back (no attempt
#: spent): a person at a terminal wants the stack stopped, not the slowest search finished.
DEV_SHUTDOWN_GRACE = 5.0
#: How often `lps dev` looks at how many jobs the embedded store holds (a count from the collection's metadata).
ENVELOPE_EVERY = 30.0
#: Seconds from the first stop signal (Ctrl-C, SIGTERM, SIGHUP), at any moment, until every process of the stack is
#: gone: the pools' own bound (their grace, the time to record what they gave back, `lps worker`'s margin: 17 s), then
#: a margin for what stops after them (demo shop, receiver, MongoDB). Whatever is left then is killed, whole trees.
#: A stop usually takes 1-7 s (up to the grace with searches in flight).
STOP_BOUND = pool_stop_bound(DEV_SHUTDOWN_GRACE) + 3.0
#: Seconds from a second stop signal until every process of the stack is gone (they are killed at once).
KILL_BOUND = 2.0
#: Seconds between looks for the processes a stopping child has (Dramatiq's, Chromium): each one seen is killed if it
#: outlives its child.
TREE_LOOK_INTERVAL = 0.5
#: Seconds the start-up waits for a child to listen on its port.
PORT_WAIT = 60.0
#: Seconds the combined log keeps reading a stopped child's output: a process outside its tree still holding the
#: pipe (none is expected) cannot hold `lps dev` up.
PUMP_DRAIN = 1.0
#: Seconds the demo waits for its searches (and their deliveries) to end.
DEMO_WITHIN = 300.0
#: Seconds the demo waits, after its searches ended, for their deliveries to end.
DEMO_DELIVERY_WITHIN = 30.0

#: Exit status after Ctrl-C / SIGTERM / SIGHUP stopped a demo before its results were in.
INTERRUPTED = 130
MANAGEMENT_PORT = 15672


class DevStackRefused(RuntimeError):
    """`lps dev` will not start: one line saying why (a busy port, a missing secret)."""


def demo_key(settings: Settings, given: str | None) -> str | None:
    """The key the demo's own client sends: none without LPS_API_KEYS; else LPS_API_KEY when it is one of them, else
    the first admin key configured (the demo submits searches, which a read key may not)."""
    if not settings.api_keys:
        return None
    if given and given in settings.api_keys.values():
        return given
    admin = next((key for name, key in settings.api_keys.items() if settings.key_role(name) == KeyRole.ADMIN), None)
    if admin is None:
        raise DevStackRefused(
            "LPS_API_KEYS has no admin key, and the demo submits searches: add one (name=key:admin) "
            "or set LPS_API_KEY to an admin key"
        )
    return admin


@dataclass(frozen=True, slots=True)
class DevPorts:
    mongo: int = 27017
    shop: int = 8090
    receiver: int = 9000

    @classmethod
    def from_settings(cls, settings: Settings) -> DevPorts:
        return cls(mongo=settings.dev_mongo_port, shop=settings.dev_shop_port, receiver=settings.dev_receiver_port)


def demo_settings(settings: Settings, ports: DevPorts) -> tuple[Settings, list[str]]:
    """What `--demo` runs with (both sources at its shop, deliveries to its receiver), and a line for each setting
    it puts aside, so nobody wonders why LPS_SEARCH_SOURCES or LPS_OUTBOX_URL seem ignored."""
    shop = f"http://127.0.0.1:{ports.shop}"
    demo = settings.with_overrides(
        coupang_base_url=shop,
        naver_base_url=shop,
        naver_client_id="demo",
        # The demo shop takes any secret. Not "demo": every configured secret is masked in the logs, and a short one
        # wherever it stands as a word, so "demo" would turn "demo-shop" lines into "***-shop".
        naver_client_secret="demo-naver-secret",
        search_sources=(SourceName.COUPANG, SourceName.NAVER),
        outbox_url=f"http://127.0.0.1:{ports.receiver}/results",
        outbox_secret=secrets.token_hex(16),  # the receiver checks each delivery's signature with it
    )
    sources = ",".join(settings.search_sources)
    given_outbox = settings.outbox_url or "unset"
    return demo, [
        f"demo: searches coupang and naver at the demo shop {shop} (instead of LPS_SEARCH_SOURCES={sources} and the "
        "LPS_COUPANG_BASE_URL / LPS_NAVER_* settings)",
        f"demo: delivers to its receiver {demo.outbox_url} with a random LPS_OUTBOX_SECRET (instead of "
        f"LPS_OUTBOX_URL={given_outbox})",
    ]


def demo_products() -> list[dict]:
    """One product per demo-catalogue keyword, as a back office would send it."""
    catalogue = json.loads(DEMO_CATALOGUE.read_text(encoding="utf-8"))["keywords"]
    return [{"product_code": f"DEMO-{index}", **entry["request"]} for index, entry in enumerate(catalogue.values(), 1)]


# --- ports -------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PortUse:
    port: int
    host: str
    what: str
    #: How to move it: the flag and the setting.
    move: str


def planned_ports(settings: Settings, ports: DevPorts, *, demo: bool) -> list[PortUse]:
    """Every port the stack will listen on, with what listens there and how to move it."""
    planned = []
    if not settings.mongo_url:
        mongo = PortUse(ports.mongo, "127.0.0.1", "the embedded MongoDB server", "--mongo-port / LPS_DEV_MONGO_PORT")
        planned.append(mongo)
    planned.append(PortUse(settings.http_port, settings.http_host, "the gateway", "--gateway-port / LPS_HTTP_PORT"))
    if demo:
        planned.append(PortUse(ports.shop, "127.0.0.1", "the demo shop", "--shop-port / LPS_DEV_SHOP_PORT"))
        planned.append(PortUse(ports.receiver, "127.0.0.1", "the receiver", "--receiver-port / LPS_DEV_RECEIVER_PORT"))
    for pool in ("search", "outbox"):
        port = getattr(settings, f"{pool}_metrics_port")
        if port:
            setting = f"LPS_{pool.upper()}_METRICS_PORT"
            planned.append(PortUse(port, settings.metrics_host, f"the {pool} pool's metrics", f"{setting} (0: off)"))
    return planned


def _port_busy(host: str, port: int) -> bool:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as servers bind: TIME_WAIT is no conflict
        try:
            probe.bind((host, port))
        except OSError:
            return True
    return False


def _listening_inodes(port: int) -> set[str]:
    """Inodes of the sockets listening on `port`, from /proc/net/tcp and tcp6 (Linux)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                local, state, inode = fields[1], fields[3], fields[9]
                if state == "0A" and int(local.rsplit(":", 1)[1], 16) == port:  # 0A: LISTEN
                    inodes.add(inode)
    return inodes


def port_holder(port: int) -> str | None:
    """`pid N (command line)` of the process listening on `port`, when /proc lets us see it."""
    inodes = {f"socket:[{inode}]" for inode in _listening_inodes(port)}
    if not inodes:
        return None
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            for fd in (entry / "fd").iterdir():
                with contextlib.suppress(OSError):
                    if os.readlink(fd) in inodes:
                        command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                        return f"pid {entry.name} ({command.strip()[:120]})"
    return None


def check_ports(planned: Iterable[PortUse]) -> None:
    """Raise DevStackRefused naming the first port that is taken twice in the plan or busy, and what holds it."""
    seen: dict[int, PortUse] = {}
    for use in planned:
        if use.port in seen:
            raise DevStackRefused(
                f"port {use.port} is planned for both {seen[use.port].what} and {use.what}: move one ({use.move})"
            )
        seen[use.port] = use
        if _port_busy(use.host, use.port):
            holder = port_holder(use.port) or "another process"
            raise DevStackRefused(
                f"port {use.port} ({use.what}) is in use by {holder}: stop it, or move {use.what} with {use.move}"
            )


# --- waits a stop ends at once -----------------------------------------------------------------------------------


async def _connect(host: str, port: int, within: float) -> None:
    """Open a TCP connection and close it; raise OSError or TimeoutError when none opens (a stop cancels it)."""
    async with asyncio.timeout(within):
        _, writer = await asyncio.open_connection(host, port)
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()


async def _answers(host: str, port: int) -> bool:
    try:
        await _connect(host, port, 0.5)
    except (OSError, TimeoutError):
        return False
    return True


async def in_daemon_thread[T](function: Callable[..., T], *arguments: Any) -> T:
    """`function(*arguments)` in a daemon thread, for a blocking call that has nothing to undo when abandoned (the
    RabbitMQ check). A stop cancels the wait at once, and the interpreter does not wait for the thread at exit:
    `asyncio.to_thread`'s threads are joined at exit, which kept a stopped `lps dev` alive up to a minute."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[T] = loop.create_future()

    def settle(outcome: Callable[[], None]) -> None:
        with contextlib.suppress(RuntimeError):  # the loop closed: nobody waits any more
            loop.call_soon_threadsafe(lambda: None if answer.done() else outcome())

    def run() -> None:
        try:
            result = function(*arguments)
        except BaseException as error:
            settle(functools.partial(answer.set_exception, error))
        else:
            settle(functools.partial(answer.set_result, result))

    threading.Thread(target=run, name=f"lps-dev-{function.__name__}", daemon=True).start()
    return await answer


# --- RabbitMQ's management UI ------------------------------------------------------------------------------------


#: Seconds a `rabbitmq-plugins` command gets.
PLUGINS_TIMEOUT = 60.0


async def warn_past_envelope(
    settings: Settings, *, persistent: bool, say: Callable[[str], None], every: float = ENVELOPE_EVERY
) -> None:
    """Say once, when the embedded store's jobs pass its measured envelope (embedded_store/envelope.py), that MongoDB is
    the way on; then return. A store that does not answer is asked again next time."""
    from infra.mongo import JOBS, MONGO_UNAVAILABLE, create_client

    client = create_client(settings)
    try:
        jobs = client[settings.mongo_db][JOBS]
        while True:
            with contextlib.suppress(*MONGO_UNAVAILABLE):
                if (said := past_envelope(await jobs.estimated_document_count(), persistent=persistent)) is not None:
                    say(said)
                    return
            await asyncio.sleep(every)
    finally:
        await client.close()


async def _output_of(*command: str) -> str | None:
    """What the command prints, or None when it cannot run or takes longer than PLUGINS_TIMEOUT. It runs in a
    process group of its own, killed whole when it ends or is stopped (cancelling this): `rabbitmq-plugins` is a
    script that starts an Erlang VM, which may outlive it.

    Its output goes to a file, not a pipe: a pipe's transport closes only once every process holding the pipe has
    ended, and one still open when a stopped `lps dev` closes its loop is closed by the garbage collector on a closed
    loop, a traceback in the log (a stop fuzzer's trial saw it: the script had exited, its Erlang VM had not)."""
    with tempfile.TemporaryFile() as output:
        try:
            process = await asyncio.create_subprocess_exec(
                *command,
                stdout=output,
                stderr=asyncio.subprocess.DEVNULL,
                start_new_session=True,
                preexec_fn=die_with_parent(),
            )
        except OSError:
            return None
        try:
            await asyncio.wait_for(process.wait(), PLUGINS_TIMEOUT)
        except TimeoutError:
            return None
        finally:
            if process.returncode is None:
                kill_trees(ProcessTree(process.pid).processes())
                await process.wait()
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)  # what it started and left behind
        output.seek(0)  # a few hundred bytes of a local file: read on the loop
        return output.read().decode(errors="replace")


async def ensure_management_ui(amqp_host: str | None) -> str | None:
    """Best effort: the management UI on 15672. Enabled only when it is not on already (the check is instant,
    `rabbitmq-plugins enable` takes seconds). Returns a line to say, or None."""
    if amqp_host not in LOCAL_HOSTS:
        return None
    if await _answers("127.0.0.1", MANAGEMENT_PORT):
        return None
    listed = await _output_of("rabbitmq-plugins", "list", "--enabled", "--minimal")
    if listed is None or "rabbitmq_management" in listed.split():
        return None
    if await _output_of("rabbitmq-plugins", "enable", "rabbitmq_management") is None:
        return None
    return f"RabbitMQ: enabled its management UI on http://127.0.0.1:{MANAGEMENT_PORT} (guest/guest)"


# --- sources -----------------------------------------------------------------------------------------------------


#: Seconds a source's base URL gets to accept a TCP connection at start-up.
REACH_TIMEOUT = 3.0


async def _reachable(url: str) -> str | None:
    """None when a TCP connection to the URL's host and port opens; otherwise why not."""
    timeout = REACH_TIMEOUT
    parts = urlsplit(url)
    if not parts.hostname:
        return f"{url} is not a URL"
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        await _connect(parts.hostname, port, timeout)
    except TimeoutError:
        return f"{url} did not answer within {timeout:.0f}s"
    except OSError as error:
        return f"{url} is unreachable ({error.strerror or error})"
    return None


async def source_report(settings: Settings) -> list[str]:
    """One line per enabled search source (`source NAME: active`, or inactive and why: searches on it will fail), and
    one more when none is active; each printed as it stands."""

    async def judge(source: str) -> str:
        if source == SourceName.NAVER:
            missing = [
                name
                for name, value in (
                    ("LPS_NAVER_CLIENT_ID", settings.naver_client_id),
                    ("LPS_NAVER_CLIENT_SECRET", settings.naver_client_secret),
                )
                if not value
            ]
            if missing:
                return f"naver: INACTIVE, {' and '.join(missing)} unset (its searches end DEAD with CONFIG)"
            problem = await _reachable(settings.naver_base_url)
            return f"naver: INACTIVE, {problem}" if problem else f"naver: active ({settings.naver_base_url})"
        if source == SourceName.COUPANG:
            problem = await _reachable(settings.coupang_base_url)
            return f"coupang: INACTIVE, {problem}" if problem else f"coupang: active ({settings.coupang_base_url})"
        if source == SourceName.STATIC:
            return "static: active (local, deterministic)"
        return f"{source}: INACTIVE, not a known source"

    lines = [f"source {line}" for line in await asyncio.gather(*(judge(source) for source in settings.search_sources))]
    if all("INACTIVE" in line for line in lines):
        lines.append("no source is active: every search will fail (LPS_SEARCH_SOURCES picks the sources)")
    return lines


# --- the combined log --------------------------------------------------------------------------------------------

_LEVEL = re.compile(
    r"^(?:\[[^\]]*\] \[PID \d+\] \[[^\]]*\] \[[^\]]*\] \[(?P<dramatiq>[A-Z]+)\]"  # Dramatiq's format
    r"|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ (?P<lps>[A-Z]+) )"  # LPS's text format
)
#: What aiohttp's run_app prints on start-up: `lps dev` says where the gateway is itself.
_BANNERS = ("======== Running on ", "(Press CTRL+C to quit)")
_CHATTY = {"DEBUG", "INFO"}


def log_level(line: str) -> str | None:
    """The level of a log record's first line (text or JSON format); None for anything else."""
    if match := _LEVEL.match(line):
        return match["dramatiq"] or match["lps"]
    if line.startswith("{"):
        with contextlib.suppress(ValueError, AttributeError):
            level = json.loads(line).get("level")
            return level if isinstance(level, str) else None
    return None


@dataclass
class QuietFilter:
    """Keeps warnings, errors and plain output; drops INFO and DEBUG records with the lines that continue them."""

    showing: bool = True

    def keep(self, line: str) -> bool:
        if line.startswith(_BANNERS):
            return False
        level = log_level(line)
        if level is None:  # a traceback's or a multi-line message's next line, or something a child printed
            return self.showing
        self.showing = level not in _CHATTY
        return self.showing


# --- the stack ---------------------------------------------------------------------------------------------------


@dataclass
class Child:
    name: str
    process: asyncio.subprocess.Process
    essential: bool
    #: Stopped before the children of lower tiers (the pools before the demo shop they search, all before MongoDB).
    tier: int
    pump: asyncio.Task[None] | None = None
    #: It and every process seen under it (a pool's Dramatiq processes run in a session of their own, Chromium in
    #: another): a stop kills what is left of them, even orphans.
    tree: ProcessTree = field(init=False)

    def __post_init__(self) -> None:
        self.tree = ProcessTree(self.process.pid)  # just started: its pid is its own

    def look(self) -> None:
        """Note the processes under it now; only while it is not reaped (asyncio reaps it before it sets returncode,
        one loop turn later: a pid reused within that turn is beyond any real machine's pace)."""
        if self.process.returncode is None:
            self.tree.look()


@dataclass
class DevStack:
    settings: Settings
    ports: DevPorts = field(default_factory=DevPorts)
    demo: bool = False
    #: After the demo's results, keep the stack running (the dashboard shows the demo's jobs) until Ctrl-C.
    stay: bool = False
    verbose: bool = False
    #: A SQLite file the embedded MongoDB server keeps its data in (`lps mongo --data`): jobs outlive a restart.
    data_file: Path | None = None
    out: TextIO = sys.stdout
    children: list[Child] = field(default_factory=list)
    console: Console = field(init=False)

    def __post_init__(self) -> None:
        # rich draws the progress line below the log and prints each log line above it, so neither overwrites the
        # other; without a terminal (a pipe, a file) it prints plain lines.
        self.console = Console(file=self.out, highlight=False, soft_wrap=True, emoji=False, markup=False)

    def write(self, name: str, line: str) -> None:
        self.console.print(f"{name:>10} | {line}")

    def say(self, line: str) -> None:
        self.write("lps dev", line)

    async def _pump(self, child: Child) -> None:
        assert child.process.stdout is not None
        quiet = None if self.verbose else QuietFilter()
        async for raw in child.process.stdout:
            line = raw.decode(errors="replace").rstrip()
            if quiet is None or quiet.keep(line):
                self.write(child.name, line)

    async def start(self, name: str, *arguments: str, env: dict[str, str], tier: int, essential: bool = True) -> Child:
        # Without -v the LPS processes log warnings only (access logs and start-up chatter stay out).
        level = ("--log-level", "INFO" if self.verbose else "WARNING")
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tools.lps", *level, *arguments,
            env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
            start_new_session=True,  # Ctrl-C and a closed terminal reach `lps dev` only; it stops the children in order
            preexec_fn=die_with_parent(),  # and if `lps dev` is killed outright, they get SIGTERM from the kernel
        )  # fmt: skip
        # Registered before the next await: a stop from here on finds it (a stop during the await above kills it).
        child = Child(name, process, essential, tier)
        self.children.append(child)
        child.pump = asyncio.create_task(self._pump(child))
        return child

    async def _stop_child(self, child: Child, deadline: float) -> None:
        """SIGTERM, then wait for it until `deadline` (loop time), noting the processes under it meanwhile; then kill
        whatever of them is still running: its whole tree if it did not stop in time, or what it left behind."""
        loop = asyncio.get_running_loop()
        child.look()
        if child.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                child.process.send_signal(signal.SIGTERM)
        while child.process.returncode is None and (left := deadline - loop.time()) > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(child.process.wait(), min(left, TREE_LOOK_INTERVAL))
            child.look()
        if child.process.returncode is None:
            self.say(f"{child.name} did not stop in time: killed")
        kill_trees(child.tree.processes())
        await child.process.wait()
        if child.pump is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(child.pump, PUMP_DRAIN)

    async def stop(self) -> None:
        """SIGTERM to every child, a tier at a time from the top, the children of one tier at once; whatever is
        still running STOP_BOUND seconds after the stop began is killed, with every process under it."""
        deadline = asyncio.get_running_loop().time() + STOP_BOUND
        for tier in sorted({child.tier for child in self.children}, reverse=True):
            await asyncio.gather(*(self._stop_child(child, deadline) for child in self.children if child.tier == tier))
        self.children.clear()

    def kill(self) -> None:
        """A second stop signal: every process of the stack killed now, whole trees (Dramatiq's and Chromium's
        sessions too), the top tier first. All are stopped before the first is killed, so the pools never work on
        against a store already gone (no AutoReconnect tracebacks)."""
        from_the_top = sorted(self.children, key=lambda child: child.tier, reverse=True)
        for child in from_the_top:
            child.look()
        kill_trees(process for child in from_the_top for process in child.tree.processes())

    async def _wait_port(self, child: Child, port: int, what: str) -> None:
        """Until the child listens on `port`: polled on the event loop, so a stop cancels the wait at once."""
        deadline = asyncio.get_running_loop().time() + PORT_WAIT
        while not await _answers("127.0.0.1", port):
            if child.process.returncode is not None:
                raise RuntimeError(f"{what} exited with {child.process.returncode} before listening on port {port}")
            if asyncio.get_running_loop().time() > deadline:
                raise RuntimeError(f"{what} did not start on port {port}")
            await asyncio.sleep(0.1)

    def _refuse_unsigned_outbox(self, settings: Settings) -> None:
        if settings.refuses_unsigned_outbox():
            raise DevStackRefused(UNSIGNED_OUTBOX_REFUSED)

    def _refuse_data_without_embedded_mongo(self, settings: Settings) -> None:
        if self.data_file is not None and settings.mongo_url:
            raise DevStackRefused(
                "--data keeps the embedded MongoDB server's data, and LPS_MONGO_URL is set, so none is started: "
                "unset LPS_MONGO_URL, or drop --data (that MongoDB keeps its own data)"
            )

    async def run(self, stop: asyncio.Event) -> int:
        settings = self.settings
        self._refuse_data_without_embedded_mongo(settings)
        if self.demo:
            demo_key(settings, os.environ.get("LPS_API_KEY"))  # refused before anything starts
        else:
            self._refuse_unsigned_outbox(settings)
        # Every port first: nothing is started when one is taken.
        check_ports(planned_ports(settings, self.ports, demo=self.demo))
        starting = asyncio.create_task(self._start_all(settings))
        stopping = asyncio.create_task(stop.wait())
        await asyncio.wait([starting, stopping], return_when=asyncio.FIRST_COMPLETED)
        if not starting.done():  # stopped while starting: what started so far is stopped by run_dev
            starting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await starting
            return INTERRUPTED
        stopping.cancel()
        settings = starting.result()
        # Listed while it runs: `lps report` without LPS_MONGO_URL reads this stack's store, not a guessed port.
        record = DevStackRecord(
            os.getpid(),
            settings.mongo_url or "",
            settings.mongo_db,
            f"http://{settings.http_host}:{settings.http_port}",
        )
        with recorded(Path(settings.dev_stacks_dir), record):
            return await self._serve(settings, stop)

    async def _serve(self, settings: Settings, stop: asyncio.Event) -> int:
        """The started stack, until it is stopped (or the demo ends); on the embedded store, a word once it holds more
        jobs than its envelope."""
        if self.settings.mongo_url:
            return await self._serve_stack(settings, stop)
        watching = asyncio.create_task(
            warn_past_envelope(settings, persistent=self.data_file is not None, say=self.say)
        )
        try:
            return await self._serve_stack(settings, stop)
        finally:
            watching.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watching

    async def _serve_stack(self, settings: Settings, stop: asyncio.Event) -> int:
        if self.demo:
            code = await self._until_stopped(stop, self._run_demo(settings))
            if not self.stay or stop.is_set() or code == INTERRUPTED:
                return code
            url = f"http://{settings.http_host}:{settings.http_port}"
            self.say(f"the demo's jobs are on the dashboard: {url}/ui (Ctrl-C stops all)")
            stayed = await self._until_stopped(stop)
            return code if stayed == 0 else stayed
        return await self._until_stopped(stop)

    async def _start_all(self, settings: Settings) -> Settings:
        """Start every child in order; return the settings they run with."""
        self.say(await in_daemon_thread(ensure_rabbitmq, settings.amqp_url))
        management = asyncio.create_task(ensure_management_ui(urlsplit(settings.amqp_url).hostname))
        try:
            return await self._start_children(settings, management)
        finally:
            management.cancel()  # a stop or a failure while starting: what it runs is killed
            with contextlib.suppress(asyncio.CancelledError):
                await management

    async def _start_children(self, settings: Settings, management: asyncio.Task[str | None]) -> Settings:
        env = dict(os.environ)
        if not settings.mongo_url:
            mongo = ["mongo", "--port", str(self.ports.mongo)]
            if self.data_file is not None:
                self.data_file.parent.mkdir(parents=True, exist_ok=True)
                mongo += ["--data", str(self.data_file)]
            mongo_child = await self.start("mongo", *mongo, env=env, tier=0)
            await self._wait_port(mongo_child, self.ports.mongo, "the embedded MongoDB server")
            if self.data_file is not None:
                self.say(f"MongoDB: jobs are kept in {self.data_file} across restarts")
            settings = settings.with_overrides(mongo_url=local_mongo_url(self.ports.mongo))
        if self.demo:
            settings, replaced = demo_settings(settings, self.ports)
            for line in replaced:
                self.say(line)
            shop_child = await self.start("shop", "demo-shop", "--port", str(self.ports.shop), env=env, tier=1)
            receiver = ("receiver", "--port", str(self.ports.receiver))
            await self.start("receiver", *receiver, env=env | settings.to_env(), tier=1)
            await self._wait_port(shop_child, self.ports.shop, "the demo shop")
        env |= settings.to_env()
        gateway = await self.start("gateway", "gateway", env=env, tier=2)
        await self._wait_port(gateway, settings.http_port, "the gateway")
        for pool in ("search", "outbox"):
            await self.start(
                pool, "worker", pool, "--supervise", "--shutdown-timeout", str(DEV_SHUTDOWN_GRACE), env=env, tier=2
            )
        await self.start("reconciler", "reconciler", env=env, tier=2)
        for line in await source_report(settings):
            self.say(line)
        if said := await management:
            self.say(said)
        self.say(
            f"gateway on http://{settings.http_host}:{settings.http_port} "
            "(dashboard: /ui, docs: /api/docs), Ctrl-C stops all"
        )
        return settings

    async def _run_demo(self, settings: Settings) -> int:
        products = demo_products()
        gateway = f"http://{settings.http_host}:{settings.http_port}"
        async with GatewayClient(gateway, demo_key(settings, os.environ.get("LPS_API_KEY"))) as client:
            answers = await client.submit(products, None)
            self.say(f"{len(answers)} demo products enqueued; searching the demo shop (Ctrl-C stops)")
            jobs = await self._wait_for_jobs(client, [answer["job_id"] for answer in answers])
            deliveries = await self._wait_for_deliveries(client, jobs)
        rows = [result_row(job, deliveries.get(job["job_id"])) for job in jobs]
        self.console.print(format_table(rows, RESULT_COLUMNS))
        return 0 if all(has_ended(row["status"]) for row in rows) else 1

    async def _wait_for_deliveries(
        self, client: GatewayClient, jobs: list[dict[str, Any]]
    ) -> dict[str, dict[str, Any] | None]:
        """Each DONE search's delivery, once it ended (or as it stands after DEMO_DELIVERY_WITHIN): the results
        table shows what the receiver got, not a delivery still on its way."""
        deadline = time.monotonic() + DEMO_DELIVERY_WITHIN
        while True:
            deliveries = await deliveries_of(client, jobs)
            waiting = [job for job in deliveries.values() if job is None or not has_ended(job["status"])]
            if not waiting or time.monotonic() > deadline:
                return deliveries
            await asyncio.sleep(0.5)

    async def _wait_for_jobs(self, client: GatewayClient, job_ids: list[str]) -> list[dict[str, Any]]:
        """The demo's searches, once every one ended (or as they stand after DEMO_WITHIN)."""
        latest: dict[str, dict[str, Any]] = {}
        deadline = time.monotonic() + DEMO_WITHIN
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
        with Progress(*columns, console=self.console) as progress:
            task = progress.add_task(f"{'lps dev':>10} | searches ended", total=len(job_ids))
            while True:
                jobs = await asyncio.gather(*(client.job(job_id) for job_id in job_ids))
                latest = {job_id: job for job_id, job in zip(job_ids, jobs, strict=True)}
                ended = sum(has_ended(job["status"]) for job in jobs)
                progress.update(task, completed=ended)
                if ended == len(job_ids) or time.monotonic() > deadline:
                    break
                await asyncio.sleep(1)
        return [latest[job_id] for job_id in job_ids]

    async def _until_stopped(self, stop: asyncio.Event, work: Any = None) -> int:
        """Until Ctrl-C (or SIGTERM, SIGHUP), the work's end, or an essential child exiting on its own."""
        waiters = {asyncio.create_task(child.process.wait()): child for child in self.children if child.essential}
        stopping = asyncio.create_task(stop.wait())
        working = asyncio.ensure_future(work) if work is not None else None
        pending = [stopping, *waiters, *([working] if working else [])]
        done, _ = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        if working is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await working  # an interrupted demo's requests end here, before the stack stops
            if working in done:
                return working.result()
        if stopping in done:
            return INTERRUPTED if working is not None else 0
        for task in done:
            if task in waiters:
                child = waiters[task]
                self.say(f"{child.name} exited with {child.process.returncode}: stopping everything")
        return 1


async def run_dev(
    settings: Settings,
    *,
    ports: DevPorts,
    demo: bool,
    stay: bool = False,
    verbose: bool = False,
    data_file: Path | None = None,
) -> int:
    stack = DevStack(settings, ports=ports, demo=demo, stay=stay, verbose=verbose, data_file=data_file)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()

    def interrupted() -> None:
        if stop.is_set():
            stack.say("stopping now: killing what is left")
            stack.kill()
        stop.set()

    # A closed terminal (SIGHUP) stops the stack as Ctrl-C does; the children, in their own sessions, never see it.
    for signum in STOP_SIGNALS:
        loop.add_signal_handler(signum, interrupted)
    try:
        return await stack.run(stop)
    finally:
        if stack.children:
            # Only a stop that was asked for can be hurried by a second Ctrl-C; a demo that ended just stops.
            stack.say("stopping (Ctrl-C again kills at once)" if stop.is_set() else "stopping")
            started = time.monotonic()
            await stack.stop()
            stack.say(f"stopped in {time.monotonic() - started:.1f}s")
        ignore_stop_signals(loop)
