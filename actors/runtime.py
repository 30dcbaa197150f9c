"""What one worker process shares between its threads.

Dramatiq's AsyncIO middleware runs one event loop thread per worker process. MongoDB, HTTP and the
browser clients live on that loop (created lazily there, closed at shutdown); worker threads hand
coroutines to it with `run`. Attempts in flight are kept here so the status middleware and the actors
agree on which job document an attempt works.
"""

from __future__ import annotations

import asyncio
import os
import socket
import threading
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import aiohttp
from dramatiq.asyncio import get_event_loop_thread
from pymongo import AsyncMongoClient

from infra.jobs import JobRepository
from infra.mongo import MainDatabase, create_client
from infra.settings import Settings

if TYPE_CHECKING:
    from actors.sources import Source


@dataclass(slots=True)
class Attempt:
    """One claimed attempt: the job document as claimed, and what the actor produced."""

    job: dict[str, Any]
    #: Fields stored with the DONE transition (`result` for SEARCH, `delivery` for OUTBOX).
    output: dict[str, Any] = field(default_factory=dict)


class Attempts:
    """Attempts in flight in this process, by job id (a job has at most one live claim)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_job: dict[str, Attempt] = {}

    def start(self, job_id: str, attempt: Attempt) -> None:
        with self._lock:
            self._by_job[job_id] = attempt

    def get(self, job_id: str) -> Attempt:
        with self._lock:
            return self._by_job[job_id]

    def finish(self, job_id: str) -> Attempt | None:
        with self._lock:
            return self._by_job.pop(job_id, None)


class WorkerRuntime:
    def __init__(self, settings: Settings, build_sources: Callable[[Settings], Mapping[str, Source]]) -> None:
        self.settings = settings
        self._build_sources = build_sources
        self._sources: Mapping[str, Source] | None = None
        self.attempts = Attempts()
        self.identity = f"{socket.gethostname()}:{os.getpid()}"
        self._mongo: AsyncMongoClient | None = None
        self._jobs: JobRepository | None = None
        self._http: aiohttp.ClientSession | None = None

    def worker_name(self) -> str:
        return f"{self.identity}:{threading.current_thread().name}"

    def run[T](self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Run a coroutine on the process's event loop thread and wait for it (worker threads only)."""
        loop_thread = get_event_loop_thread()
        if loop_thread is None:
            coroutine.close()
            raise RuntimeError("no event loop thread: the AsyncIO middleware is missing")
        return loop_thread.run_coroutine(coroutine)

    # The clients below are created on first use, on the loop thread: the only thread that touches them.

    @property
    def jobs(self) -> JobRepository:
        if self._jobs is None:
            self._mongo = create_client(self.settings)
            self._jobs = JobRepository(MainDatabase.open(self._mongo, self.settings.mongo_db))
        return self._jobs

    @property
    def sources(self) -> Mapping[str, Source]:
        if self._sources is None:
            self._sources = self._build_sources(self.settings)
        return self._sources

    @property
    def http(self) -> aiohttp.ClientSession:
        if self._http is None:
            self._http = aiohttp.ClientSession(raise_for_status=False)
        return self._http

    async def aclose(self) -> None:
        if self._http is not None:
            await self._http.close()
        if self._mongo is not None:
            await self._mongo.close()
        await asyncio.sleep(0)
