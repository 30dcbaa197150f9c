"""What the test suite and the benchmark runner share: bounded polling, RabbitMQ queue admin, a receiver.

Both drive real processes against a real broker; these helpers are the one copy of how they wait, clean up
their queues, and stand in for the back office's API.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import pika
import pika.exceptions
from aiohttp import web

from infra.settings import Settings

#: Each LPS queue comes with Dramatiq's delay (.DQ) and dead-letter (.XQ) queues.
QUEUE_SUFFIXES = ("", ".DQ", ".XQ")


async def eventually[T](
    probe: Callable[[], Awaitable[T | None]], *, within: float, what: str, interval: float = 0.1
) -> T:
    """Poll `probe` until it returns something truthy; raise TimeoutError after `within` seconds."""
    deadline = time.monotonic() + within
    while True:
        value = await probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {within:.0f}s waiting for {what}")
        await asyncio.sleep(interval)


def job_queues(settings: Settings) -> list[str]:
    """Every queue LPS declares under the settings' prefix, with its .DQ and .XQ."""
    return [queue + suffix for queue in settings.queues() for suffix in QUEUE_SUFFIXES]


def admin_connection(amqp_url: str, attempts: int = 5) -> pika.BlockingConnection:
    """A short-lived connection for set-up and clean-up, retried: a loaded broker may refuse one now and then.
    `amqp_url` may name several nodes, `;`-separated: pika tries them in turn."""
    nodes = [pika.URLParameters(url) for url in amqp_url.split(";") if url.strip()]
    for attempt in range(1, attempts + 1):
        try:
            return pika.BlockingConnection(nodes)
        except pika.exceptions.AMQPConnectionError:
            if attempt == attempts:
                raise
            time.sleep(attempt)
    raise AssertionError("unreachable")


def _each_queue(amqp_url: str, names: Iterable[str], action: Callable[[Any, str], object]) -> None:
    with contextlib.closing(admin_connection(amqp_url)) as connection:
        for name in names:
            channel = connection.channel()
            with contextlib.suppress(pika.exceptions.ChannelClosedByBroker):  # never declared: nothing to do
                action(channel, name)
            if channel.is_open:
                channel.close()


def delete_queues(amqp_url: str, names: Iterable[str]) -> None:
    _each_queue(amqp_url, names, lambda channel, name: channel.queue_delete(name))


def purge_queues(amqp_url: str, names: Iterable[str]) -> None:
    _each_queue(amqp_url, names, lambda channel, name: channel.queue_purge(name))


def consumer_count(amqp_url: str, queue: str) -> int:
    with contextlib.closing(admin_connection(amqp_url)) as connection:
        try:
            return int(connection.channel().queue_declare(queue, passive=True).method.consumer_count)
        except pika.exceptions.ChannelClosedByBroker:
            return 0


@dataclass
class Receiver:
    """The back office's API on loopback: records every delivery, fails on request, counts distinct ones.

    `app()` serves it at POST /results. Tests read `deliveries`; the benchmark waits for a count of distinct
    Idempotency-Keys with `expect` and `wait`.
    """

    deliveries: list[dict[str, Any]] = field(default_factory=list)
    failures: list[tuple[int, dict[str, str]]] = field(default_factory=list)
    url: str = ""
    keys: set[str] = field(default_factory=set)
    target: int = 0
    reached_at: float = 0.0
    _reached: asyncio.Event = field(default_factory=asyncio.Event)

    def fail_next(self, times: int, status: int = 503, headers: dict[str, str] | None = None) -> None:
        self.failures += [(status, headers or {})] * times

    def expect(self, count: int) -> None:
        self.keys.clear()
        self.target = count
        self._reached.clear()

    async def wait(self, within: float) -> float:
        """perf_counter time at which the expected number of distinct deliveries had arrived."""
        try:
            await asyncio.wait_for(self._reached.wait(), within)
        except TimeoutError:
            raise TimeoutError(f"{len(self.keys)} of {self.target} deliveries after {within:.0f}s") from None
        return self.reached_at

    async def handle(self, request: web.Request) -> web.Response:
        body = await request.read()
        self.deliveries.append({"headers": dict(request.headers), "body": body})
        if self.failures:
            status, headers = self.failures.pop(0)
            return web.Response(status=status, headers=headers, text="not now")
        self.keys.add(request.headers.get("Idempotency-Key", ""))
        if self.target and len(self.keys) >= self.target and not self._reached.is_set():
            self.reached_at = time.perf_counter()
            self._reached.set()
        return web.json_response({"ok": True})

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/results", self.handle)
        return app
