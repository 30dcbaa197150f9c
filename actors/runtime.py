"""What one worker process shares between its threads.

Dramatiq's AsyncIO middleware runs one event loop thread per worker process. MongoDB, HTTP and the
browser clients live on that loop (created on first use there, closed at shutdown); worker threads
hand coroutines to it with `run`. Attempts in flight are kept here so the status middleware and the
actors agree on which job document an attempt works, and so that a stopping worker can give them back at once
(`interrupt_attempts`) instead of waiting for a search that may take its whole time limit.
"""

from __future__ import annotations

import asyncio
import os
import socket
import threading
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

import aiohttp
from dramatiq.asyncio import get_event_loop_thread
from pymongo import AsyncMongoClient

from actors.browser import BrowserPool
from actors.pausing import PauseSwitch
from infra.jobs import JobRepository
from infra.mongo import MainDatabase, create_client
from infra.price_history import PriceHistory
from infra.proxy_ledger import ProxyLedger
from infra.settings import Settings
from infra.snapshots import SnapshotStore
from infra.source_limits import GateObserver, SourceGates
from infra.watches import WatchRepository

if TYPE_CHECKING:
    from actors.sources import Source


@dataclass(slots=True)
class Attempt:
    """One claimed attempt: the job document as claimed, and what the actor produced."""

    job: dict[str, Any]
    #: Fields stored with the DONE transition (`result` for SEARCH, `delivery` for OUTBOX).
    output: dict[str, Any] = field(default_factory=dict)


class Attempts:
    """Attempts in flight in this process, one per worker thread.

    Dramatiq runs a message's before-hooks, its actor and its after-hooks on one worker thread, one message at a
    time, so the thread names the attempt: the status middleware starts it when its claim succeeds, the actor and
    the after-hook find it there. Keyed by the thread rather than by the message's job-id text, nothing depends on
    how a message spells its id (an upper-case id was once claimed under one spelling and looked up under another,
    and never worked)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_thread: dict[int, Attempt] = {}

    def start(self, attempt: Attempt) -> None:
        with self._lock:
            self._by_thread[threading.get_ident()] = attempt

    def current(self) -> Attempt | None:
        """The attempt this worker thread claimed for the message in hand, if any."""
        with self._lock:
            return self._by_thread.get(threading.get_ident())

    def finish(self) -> Attempt | None:
        with self._lock:
            return self._by_thread.pop(threading.get_ident(), None)


class WorkerRuntime:
    """The clients below are created on first use, on the loop thread: the only thread touching them."""

    def __init__(
        self,
        settings: Settings,
        build_sources: Callable[[WorkerRuntime], Mapping[str, Source]],
        gate_observer: GateObserver | None = None,
    ) -> None:
        self.settings = settings
        self._gate_observer = gate_observer
        self.attempts = Attempts()
        #: Which job types are paused (kept read by actors.pausing.QueuePausing in a real pool; never paused elsewhere).
        self.pauses = PauseSwitch(settings)
        self.identity = f"{socket.gethostname()}:{os.getpid()}"
        self._build_sources = build_sources
        #: Set once a stopping worker's grace is over: an attempt cancelled from then on was given back, not failed.
        self.stopping = threading.Event()
        self._interruptible: set[asyncio.Task[Any]] = set()  # touched on the loop thread only

    def worker_name(self) -> str:
        return f"{self.identity}:{threading.current_thread().name}"

    def run[T](self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Run a coroutine on the process's event loop thread and wait for it (worker threads only)."""
        loop_thread = get_event_loop_thread()
        if loop_thread is None:
            coroutine.close()
            raise RuntimeError("no event loop thread: the AsyncIO middleware is missing")
        return loop_thread.run_coroutine(coroutine)

    async def interruptible[T](self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Await an attempt's work so that `interrupt_attempts` can cancel it (on the loop thread)."""
        task = asyncio.current_task()
        assert task is not None
        self._interruptible.add(task)
        try:
            return await coroutine
        finally:
            self._interruptible.discard(task)

    def interrupt_attempts(self, *, after: float) -> None:
        """The worker is stopping (any thread): in `after` seconds, cancel the work of every attempt still in
        flight. Each such actor raises `WorkerStopped` and the status middleware gives its attempt back."""
        loop_thread = get_event_loop_thread()
        if loop_thread is not None and loop_thread.loop.is_running():
            loop = loop_thread.loop
            loop.call_soon_threadsafe(loop.call_later, after, self._cancel_interruptible)

    def _cancel_interruptible(self) -> None:
        self.stopping.set()
        for task in list(self._interruptible):
            task.cancel()

    @cached_property
    def mongo(self) -> AsyncMongoClient:
        return create_client(self.settings)

    @cached_property
    def database(self) -> MainDatabase:
        return MainDatabase.open(self.mongo, self.settings.mongo_db)

    @cached_property
    def jobs(self) -> JobRepository:
        return JobRepository(self.database)

    @cached_property
    def price_history(self) -> PriceHistory:
        return PriceHistory(self.database.write)

    @cached_property
    def watches(self) -> WatchRepository:
        return WatchRepository(self.database.write)

    @cached_property
    def proxy_ledger(self) -> ProxyLedger:
        return ProxyLedger(self.database.write)

    @cached_property
    def snapshots(self) -> SnapshotStore:
        return SnapshotStore(self.database.write)

    @cached_property
    def gates(self) -> SourceGates:
        """Each source's fleet-wide pacing and circuit breaker (LPS_SOURCE_RATES, _CONCURRENCY, LPS_BREAKER_*)."""
        return SourceGates(self.database, self.settings, self._gate_observer)

    @cached_property
    def http(self) -> aiohttp.ClientSession:
        return aiohttp.ClientSession()

    @cached_property
    def browser(self) -> BrowserPool:
        """Chromium starts on the first search that needs it, not at worker boot."""
        settings = self.settings
        return BrowserPool(
            settings.browser_path,
            pages_per_browser=settings.browser_max_searches,
            navigation_timeout=settings.browser_navigation_timeout,
            # The deployment (its queue prefix) and the worker process: two stacks on one machine tell theirs apart.
            owner=f"{settings.queue_prefix}{self.identity}",
        )

    @cached_property
    def sources(self) -> Mapping[str, Source]:
        return self._build_sources(self)

    async def aclose(self) -> None:
        created = self.__dict__
        if "browser" in created:
            await self.browser.close()
        if "http" in created:
            await self.http.close()
        if "mongo" in created:
            await self.mongo.close()
