"""The embedded MongoDB-compatible wire server (mongoeco) for dev and tests, as a real TCP server.

It runs in a process of its own (`lps mongo`): the store is pure Python, and the gateway's and
workers' event loops must not carry it.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from tools.supervisor import STOP_SIGNALS, die_with_parent, ignore_stop_signals

if TYPE_CHECKING:
    from mongoeco.engines.memory import MemoryEngine
    from mongoeco.engines.sqlite import SQLiteEngine


#: The third-party packages the store runs on: the `embedded` extra, which production images leave out.
PACKAGES = ("mongoeco", "rpds", "sortedcontainers")
INSTALL_HINT = "pip install 'lps[embedded]' (scripts/bootstrap does), or set LPS_MONGO_URL to a MongoDB"


def missing_packages() -> list[str]:
    """The store's packages this interpreter lacks (none after `pip install 'lps[embedded]'`)."""
    return [name for name in PACKAGES if importlib.util.find_spec(name) is None]


def create_engine(data_file: str | None = None) -> MemoryEngine | SQLiteEngine:
    """The engine `lps mongo` serves: in memory, or in a SQLite file; inserts flat in collection size, and in
    memory the job listing's reads served from the compound indexes (embedded_store.engines, when the installed
    mongoeco is one it was verified on)."""
    from embedded_store.engines import create_engine as create_patched_engine

    # The in-memory engine copies its change-stream log (10,000 entries by default) on every commit, so writes slow
    # down once that many happened. Change streams are not served over the wire and LPS never watches: keep it short.
    return create_patched_engine(data_file, change_log_max_entries=100)


async def serve(host: str, port: int, data_file: str | None) -> None:
    """Serve until a stop signal (Ctrl-C, SIGTERM, a closed terminal's SIGHUP), any number of them; closing aborts the
    clients' connections, so a stop takes well under a second. While the engine loads (seconds for a large SQLite
    file), they end it at once (Python's defaults); from before it listens, they close it in order, so a client that
    got an answer never meets a process that dies where it stands. `data_file`: a SQLite file that keeps the data
    across restarts."""
    from mongoeco.wire import AsyncMongoEcoProxyServer

    server = AsyncMongoEcoProxyServer(engine=create_engine(data_file), host=host, port=port)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in STOP_SIGNALS:
        loop.add_signal_handler(signum, stop.set)
    try:
        address = await server.start()
        print(f"lps mongo: serving {address.uri} ({data_file or 'in memory'})", flush=True)
        await stop.wait()
    finally:
        await server.close()
        ignore_stop_signals(loop)


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def local_mongo_url(port: int) -> str:
    """The URL of an embedded server on this machine's loopback (`lps dev`'s, on LPS_DEV_MONGO_PORT)."""
    return f"mongodb://127.0.0.1:{port}/?directConnection=true"


def wait_for_port(host: str, port: int, timeout: float, process: subprocess.Popen[bytes] | None = None) -> bool:
    """Whether something listens on `port` within `timeout`; False at once if `process`, the server expected to,
    exits first (its port taken)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.5):
            return True
        if process is not None and process.poll() is not None:
            return False
        time.sleep(0.1)
    return False


#: How many ports `embedded_mongo` tries when it picks them itself: a port the kernel hands out may be taken by an
#: outgoing connection between the probe closing it and the server binding it (CI once lost the benchmark's store so).
START_ATTEMPTS = 3


@contextlib.contextmanager
def embedded_mongo(port: int | None = None, data_file: str | None = None, start_timeout: float = 30) -> Iterator[str]:
    """Start `lps mongo` as a child process; yield its URL; stop it on exit. A SQLite file's start-up grows with it
    (mongoeco rebuilds its scalar index entries from every stored document: ~16 s at 30,000 jobs). Without a `port`
    it picks one, and another where the server dies before listening on it (`START_ATTEMPTS`)."""
    host = "127.0.0.1"
    attempts = 1 if port else START_ATTEMPTS
    for attempt in range(attempts):
        chosen = port or free_port(host)
        command = [sys.executable, "-m", "tools.lps", "mongo", "--host", host, "--port", str(chosen)]
        if data_file:
            command += ["--data", data_file]
        # It dies with this process however this one ends (a test run or `lps gateway` killed outright).
        process = subprocess.Popen(command, env=os.environ.copy(), preexec_fn=die_with_parent())
        if wait_for_port(host, chosen, start_timeout, process):
            break
        died = process.poll() is not None  # it could not bind; a server that never answered is not retried
        _stop(process)
        if not died or attempt == attempts - 1:
            raise RuntimeError(f"the embedded MongoDB server did not start on {host}:{chosen}")
    try:
        yield local_mongo_url(chosen)
    finally:
        _stop(process)


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
