"""Instrumentation for benchmark runs, switched on by environment variables and off by default.

Imported in the processes the benchmarks start: by the Dramatiq CLI as an extra module
(`dramatiq actors.worker:setup bench.probe …`, imported in every worker process before its first
MongoDB client exists) and by `bench.gateway`. With `LPS_BENCH_PROBE_DIR` set it counts, per process:

- every MongoDB command sent (pymongo's `CommandListener`): the round trips of the hot paths;
- every MongoDB connection opened (`ConnectionPoolListener`), and every outgoing TCP connect by
  destination port (`socket.socket.connect` wrapped): per-job connection set-up shows here;
- event-loop lag (a 10 ms ticker on the process's loop): blocking calls on the loop show here;
- what the loop was running when it stalled: a watchdog thread samples the loop thread's stack once per
  stall longer than 50 ms and counts the innermost LPS frame and the innermost frame overall.

Counters are cumulative and written to `<dir>/<role>-<pid>.json` a few times a second, so the runner
takes differences around each measured run. Without the variable, importing this module does nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

from pymongo import monitoring

PROBE_DIR = "LPS_BENCH_PROBE_DIR"
PROBE_ROLE = "LPS_BENCH_PROBE_ROLE"
#: How often counters are written out; the runner waits for two equal readings before using them.
DUMP_INTERVAL = 0.2
TICK = 0.010
#: Lag thresholds (milliseconds) counted separately: a tick late by more than these waited on something.
LAG_BUCKETS_MS = (10, 50, 100, 250, 1000)
#: A loop whose ticker has not run for this long is stalled: its stack is sampled once.
STALL_SECONDS = 0.050
#: Distinct stall signatures kept per process (the rest are counted as "other").
MAX_SIGNATURES = 40
REPO = str(Path(__file__).resolve().parents[1])


class _Counters:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.commands: Counter[str] = Counter()
        self.connections_created = 0
        self.connects: Counter[str] = Counter()
        self.ticks = 0
        self.lag_ms_total = 0.0
        self.lag_over: Counter[str] = Counter()
        self.stalls: Counter[str] = Counter()
        self.version = 0
        #: Set by the loop's ticker: the watchdog compares it with the clock.
        self.heartbeat = 0.0
        self.loop_thread: int | None = None

    def command(self, name: str) -> None:
        with self.lock:
            self.commands[name] += 1
            self.version += 1

    def connection(self) -> None:
        with self.lock:
            self.connections_created += 1
            self.version += 1

    def connect(self, address: Any) -> None:
        port = str(address[1]) if isinstance(address, tuple) and len(address) >= 2 else "local"
        with self.lock:
            self.connects[port] += 1
            self.version += 1

    def tick(self, lag_ms: float) -> None:
        with self.lock:
            self.ticks += 1
            self.lag_ms_total += lag_ms
            for bound in LAG_BUCKETS_MS:
                if lag_ms > bound:
                    self.lag_over[str(bound)] += 1
            self.version += 1

    def stall(self, signature: str) -> None:
        with self.lock:
            if signature not in self.stalls and len(self.stalls) >= MAX_SIGNATURES:
                signature = "other"
            self.stalls[signature] += 1
            self.version += 1

    def snapshot(self) -> dict[str, Any]:
        with self.lock:
            return {
                "commands": dict(self.commands),
                "connections_created": self.connections_created,
                "connects": dict(self.connects),
                "loop": {
                    "ticks": self.ticks,
                    "lag_ms_total": round(self.lag_ms_total, 1),
                    "over_ms": dict(self.lag_over),
                },
                "stalls": dict(self.stalls),
            }


class _CommandCounter(monitoring.CommandListener):
    def __init__(self, counters: _Counters) -> None:
        self._counters = counters

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        self._counters.command(event.command_name)

    def succeeded(self, event: monitoring.CommandSucceededEvent) -> None:
        pass

    def failed(self, event: monitoring.CommandFailedEvent) -> None:
        pass


class _ConnectionCounter(monitoring.ConnectionPoolListener):
    """Only `connection_created` matters; the other events are required by the interface."""

    def __init__(self, counters: _Counters) -> None:
        self._counters = counters

    def connection_created(self, event: monitoring.ConnectionCreatedEvent) -> None:
        self._counters.connection()

    def pool_created(self, event: Any) -> None: ...
    def pool_ready(self, event: Any) -> None: ...
    def pool_cleared(self, event: Any) -> None: ...
    def pool_closed(self, event: Any) -> None: ...
    def connection_ready(self, event: Any) -> None: ...
    def connection_closed(self, event: Any) -> None: ...
    def connection_check_out_started(self, event: Any) -> None: ...
    def connection_check_out_failed(self, event: Any) -> None: ...
    def connection_checked_out(self, event: Any) -> None: ...
    def connection_checked_in(self, event: Any) -> None: ...


_counters: _Counters | None = None


def installed() -> bool:
    return _counters is not None


def install() -> bool:
    """Register the listeners and start writing counters out, once, when the environment asks for it."""
    global _counters
    directory = os.environ.get(PROBE_DIR)
    if _counters is not None or not directory:
        return _counters is not None
    _counters = _Counters()
    monitoring.register(_CommandCounter(_counters))
    monitoring.register(_ConnectionCounter(_counters))
    _count_connects(_counters)
    path = Path(directory) / f"{os.environ.get(PROBE_ROLE, 'process')}-{os.getpid()}.json"
    threading.Thread(target=_dump_forever, args=(_counters, path), name="bench-probe", daemon=True).start()
    return True


def _count_connects(counters: _Counters) -> None:
    """Wrap `socket.socket.connect(_ex)`: asyncio, pika and aiohttp all connect through them."""
    connect, connect_ex = socket.socket.connect, socket.socket.connect_ex

    def counted_connect(self: socket.socket, address: Any) -> None:
        counters.connect(address)
        return connect(self, address)

    def counted_connect_ex(self: socket.socket, address: Any) -> int:
        counters.connect(address)
        return connect_ex(self, address)

    socket.socket.connect = counted_connect  # type: ignore[method-assign]
    socket.socket.connect_ex = counted_connect_ex  # type: ignore[method-assign]


def _dump_forever(counters: _Counters, path: Path) -> None:
    written = -1
    while True:
        if counters.version != written:
            written = counters.version
            temporary = path.with_suffix(".tmp")
            temporary.write_text(json.dumps(counters.snapshot()))
            temporary.replace(path)  # readers never see half a file
        time.sleep(DUMP_INTERVAL)


async def _watch_loop() -> None:
    counters = _counters
    if counters is None:
        return
    counters.loop_thread = threading.get_ident()
    counters.heartbeat = time.perf_counter()
    threading.Thread(target=_watchdog, args=(counters,), name="bench-probe-watchdog", daemon=True).start()
    while True:
        started = counters.heartbeat = time.perf_counter()
        await asyncio.sleep(TICK)
        counters.tick(max((time.perf_counter() - started - TICK) * 1000, 0.0))


def _watchdog(counters: _Counters) -> None:
    """Sample the loop thread's stack once per stall: what runs there while the loop cannot tick."""
    sampled = 0.0
    while True:
        time.sleep(TICK)
        beat = counters.heartbeat
        if beat != sampled and time.perf_counter() - beat > STALL_SECONDS + TICK:
            sampled = beat
            frame = sys._current_frames().get(counters.loop_thread or 0)
            if frame is not None:
                counters.stall(stall_signature(frame))


def stall_signature(frame: Any) -> str:
    """`innermost LPS frame <- innermost frame`, as `path:function` (the LPS one tells whose call it is)."""
    innermost = f"{_short(frame.f_code.co_filename)}:{frame.f_code.co_name}"
    if innermost.endswith("selectors.py:select"):
        # The loop was idle and its wake-up came late: the CPU or the GIL was busy elsewhere, nothing blocked it.
        return "(idle in select: woke late, CPU or GIL busy elsewhere)"
    project = ""
    while frame is not None:
        filename = frame.f_code.co_filename
        if filename.startswith(REPO) and "/.venv/" not in filename and "/bench/" not in filename:
            project = f"{_short(filename)}:{frame.f_code.co_name}:{frame.f_lineno}"
            break
        frame = frame.f_back
    return f"{project or '(no LPS frame)'} <- {innermost}"


def _short(filename: str) -> str:
    for marker in ("/site-packages/", f"{REPO}/", "/lib/python3"):
        if marker in filename:
            return filename.split(marker, 1)[1]
    return filename


async def watch_running_loop(_app: Any = None) -> None:
    """aiohttp `on_startup` hook: watch the gateway's own loop (a no-op when the probe is off)."""
    if installed():
        task = asyncio.get_running_loop().create_task(_watch_loop())
        _tasks.add(task)  # keep a reference: the loop only holds weak ones


_tasks: set[asyncio.Task[None]] = set()


def _watch_dramatiq_loop() -> None:
    """Dramatiq's AsyncIO middleware starts its loop thread after the modules are imported: wait for it."""
    from dramatiq.asyncio import get_event_loop_thread

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        loop_thread = get_event_loop_thread()
        if loop_thread is not None:
            with contextlib.suppress(RuntimeError):  # the worker stopped meanwhile
                asyncio.run_coroutine_threadsafe(_watch_loop(), loop_thread.loop)
            return
        time.sleep(0.05)


if install() and os.environ.get(PROBE_ROLE) != "gateway":
    threading.Thread(target=_watch_dramatiq_loop, name="bench-probe-loop", daemon=True).start()
